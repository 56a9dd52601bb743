"""A staff user creates a timed tournament in the admin, adds entrants, seats and starts round
one, then has bots finish it so that round two starts."""

from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import MatchStatus, Table, Tournament
from tests.browser.helpers import off_the_loop
from tests.conftest import PASSWORD
from tests.notify_helpers import run_due_tasks


def admin_log_in(page: Page, username: str) -> None:
    page.goto("/admin/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()


def test_staff_create_a_tournament_seat_and_start_round_one(page, screenshot, make_user):
    make_user("boss", "Boss", is_staff=True, is_superuser=True)
    players = [make_user(name, name.title()) for name in ("ann", "ben", "cat", "dan", "eve")]
    admin_log_in(page, "boss")

    page.goto("/admin/games/tournament/add/")
    page.get_by_label("Name:").press_sequentially("Harvest Cup")
    expect(page.get_by_label("Slug:")).to_have_value("harvest-cup")  # filled from the name
    page.get_by_label("Hands:").fill("2")
    page.get_by_label("Time for each decision:").select_option(label="1 day")
    rows = page.locator("#entries-group tbody tr.form-row")
    for index, user in enumerate(players):
        if index:
            page.locator("#entries-group .add-row a").click()
        page.locator(f"#id_entries-{index}-user").select_option(str(user.pk))
    screenshot(page, "1-new-tournament")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    assert rows.count() >= len(players)

    page.get_by_role("button", name="Seat next round").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "Seated 5 entrants at 1 table (5) for round 1; 0 repeat meetings."
    )
    page.get_by_role("button", name="Start round").click()
    expect(page.locator(".messagelist")).to_contain_text("started round 1 with 1 match")

    tournament = Tournament.objects.get(slug="harvest-cup")
    match_id = Table.objects.get(round__tournament=tournament).match_id
    tables = page.locator(".field-rounds_and_tables")
    expect(tables).to_contain_text("Round 1")
    expect(tables).to_contain_text("Table 1")
    expect(tables.get_by_role("link", name=f"Match {match_id}")).to_be_visible()
    expect(tables).to_contain_text("In play, hand 1; to act:")
    expect(page.locator("#standings-table")).to_contain_text("Eve")
    screenshot(page, "2-round-one-started")

    # The public page shows the same tables to the players.
    page.goto(f"/tournaments/{tournament.slug}/")
    expect(page.get_by_role("link", name=f"Match {match_id}")).to_be_visible()
    screenshot(page, "3-public-page")

    # Staff finish the round by bots, after confirming; the round closes and the next starts.
    assert Table.objects.get(round__tournament=tournament).match.decision_seconds == 86400
    page.goto("/admin/games/round/")
    page.get_by_role("checkbox", name="Select this object for an action").first.check()
    page.locator("select[name=action]").select_option(label="Finish by bots now")
    page.get_by_role("button", name="Go").click()
    expect(page.get_by_role("heading", name="Finish these rounds by bots?")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("1 match still in play")
    screenshot(page, "4-finish-by-bots")
    page.get_by_role("button", name="Yes, finish them by bots").click()
    expect(page.locator(".messagelist")).to_contain_text(
        "bots are finishing 1 match still in play, in the background"
    )
    # The worker finishes the round (here, its task run by the test).
    off_the_loop(run_due_tasks, timezone.now())
    page.goto("/admin/games/round/")
    expect(page.locator("#result_list")).to_contain_text("Round 2 of")
    first = Table.objects.get(round__tournament=tournament, round__number=1)
    assert first.match.status == MatchStatus.FINISHED
