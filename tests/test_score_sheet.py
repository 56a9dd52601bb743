"""The score sheet (R4.1): a column per player, a row per hand, moon marks and a chart."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import presenters
from games.models import ScoreLine
from tests.factories import HTMX, client_for, make_match, moon_match, play_to_the_end


@pytest.fixture
def alice_client(alice) -> Client:
    return client_for(alice)


def play_hands(client: Client, match, hands: int):
    for _ in play_to_the_end({0: client}, match):
        match.refresh_from_db()
        if match.hand_no > hands:
            return


# A row's header: its hand's number, a link to the hand's record for those who may see it.
ROW_HEADER = r'<th scope="row">(?:<a [^>]*>)?(\d+)(?:</a>)?</th>'


def test_it_has_a_column_per_player_and_a_row_per_hand_with_running_totals(alice_client, alice):
    match = make_match(alice, players=5)
    play_hands(alice_client, match, 3)
    response = alice_client.get(reverse("scores", args=[match.pk]))
    assert response.status_code == 200
    sheet = response.text.split('<table class="sheet">')[1].split("</table>")[0]
    headers = [
        re.sub(r"<[^>]+>", "", header).strip()
        for header in re.findall(r'<th scope="col">(.+?)</th>', sheet)
    ]
    assert headers == ["Hand", "Alice (you)", "Basil bot", "Cleo bot", "Dmitri bot", "Edith bot"]
    rows = re.findall(ROW_HEADER, sheet)
    assert rows == ["1", "2", "3"]
    # Each row leads its players to the hand's record and replay.
    assert all(reverse("hand_review", args=[match.pk, int(n)]) in sheet for n in rows)
    totals = [int(t) for t in re.findall(r'<span class="sheet-total">(-?\d+)</span>', sheet)]
    expected = list(
        ScoreLine.objects.filter(match=match, hand_number__lte=3).values_list("total", flat=True)
    )
    assert totals == expected


def test_a_moon_shot_is_marked_on_its_row(alice_client, alice):
    match = moon_match(alice)
    alice_client.post(
        reverse("choose_moon", args=[match.pk]), {"version": match.version, "option": "add"}
    )
    html = alice_client.get(reverse("scores", args=[match.pk])).text
    row = re.split(ROW_HEADER, html)[2].split("</tr>")[0]
    cells = row.split("<td")[1:]
    assert "Shot the moon, added 26 to everyone else" in cells[0]
    assert all("moon" not in cell for cell in cells[1:])
    assert [re.search(r"\(([^)]+)\)</span>", c).group(1) for c in cells] == [
        "0",
        "+26",
        "+26",
        "+26",
    ]


def test_the_chart_draws_a_line_per_seat_with_the_target(alice_client, alice):
    match = make_match(alice)
    play_hands(alice_client, match, 2)
    html = alice_client.get(reverse("scores", args=[match.pk])).text
    svg = html.split('<svg class="chart-svg"')[1].split("</svg>")[0]
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in svg
    assert '<title id="chart-title">Running totals after each hand</title>' in svg
    assert "Totals after hand 2: Alice" in svg
    polylines = re.findall(r'<polyline points="([^"]+)"', svg)
    assert len(polylines) == 4
    assert all(len(points.split()) == 3 for points in polylines)  # the start and two hands
    assert 'class="chart-target"' in svg and "target 100" in svg
    legend = html.split('<ul class="chart-legend">')[1].split("</ul>")[0]
    assert legend.count("badge-bot") == 3  # Alice plays three bots: each is marked


def test_the_match_page_carries_the_score_sheet_as_a_region(alice_client, alice):
    match = make_match(alice)
    play_hands(alice_client, match, 1)
    html = alice_client.get(match.get_absolute_url()).text
    scores = html.split('<section id="scores"')[1]
    assert re.findall(ROW_HEADER, scores) == ["1"]


def test_htmx_gets_only_the_score_sheet_partial(alice_client, alice):
    match = make_match(alice)
    response = alice_client.get(reverse("scores", args=[match.pk]), **HTMX)
    assert response.text.lstrip().startswith('<section id="scores"')
    assert "<html" not in response.text
    assert "No hand has been scored yet" in response.text


def test_spectators_see_the_score_sheet(alice_client, alice, make_user):
    match = make_match(alice)
    play_hands(alice_client, match, 1)
    response = client_for(make_user("carol", "Carol")).get(reverse("scores", args=[match.pk]))
    assert response.status_code == 200
    alice_column = '<th scope="col"><a class="player-link" href="/players/Alice/">Alice</a></th>'
    assert alice_column in response.text


def test_anonymous_visitors_are_sent_to_log_in(client, alice):
    match = make_match(alice)
    response = client.get(reverse("scores", args=[match.pk]))
    assert response.status_code == 302 and reverse("login") in response.url


def test_the_chart_scale_covers_negative_totals_and_totals_past_the_target():
    cell = presenters.SheetCell
    rows = [
        presenters.SheetRow(1, (cell(-26, -26, True, "subtract"), cell(0, 0, False, ""))),
        presenters.SheetRow(2, (cell(0, -26, False, ""), cell(130, 130, False, ""))),
    ]
    chart = presenters.build_chart(["Ada", "Basil"], rows, target=100)
    ys = [float(p.split(",")[1]) for line in chart.lines for p in line.points.split()]
    assert min(ys) == chart.top and max(ys) == chart.bottom
    assert chart.top < chart.target_y < chart.bottom
    assert {value for _, value in chart.y_ticks} >= {-26, 0, 100, 130}
    assert chart.lines[0].dash != chart.lines[1].dash  # told apart without colour


def test_a_match_of_a_fixed_number_of_hands_is_scaled_to_its_totals():
    cell = presenters.SheetCell
    rows = [
        presenters.SheetRow(1, (cell(7, 7, False, ""), cell(19, 19, False, ""))),
        presenters.SheetRow(2, (cell(0, 7, False, ""), cell(15, 34, False, ""))),
    ]
    chart = presenters.build_chart(["Ada", "Basil"], rows, target=None, ends="ends after 2 hands")
    assert chart.target_y is None  # no target to draw
    assert [value for _, value in chart.y_ticks] == [0, 20, 40]  # not up to a target of 100
    ys = [float(p.split(",")[1]) for line in chart.lines for p in line.points.split()]
    assert max(ys) == chart.bottom and min(ys) > chart.top  # 34 near the top of a scale to 40
    assert chart.desc.endswith("The match ends after 2 hands.")


def test_the_sheet_of_a_match_of_a_fixed_number_of_hands_draws_no_target(alice_client, alice):
    match = make_match(alice, hands=2)
    play_hands(alice_client, match, 2)
    page = alice_client.get(reverse("scores", args=[match.pk])).text
    assert "chart-target" not in page and "target 100" not in page
    assert 'class="chart-label chart-label-y">100<' not in page
