"""CSRF at the table: full pages carry the form field, regions swapped in by htmx do not.

A region htmx swaps in is posted by htmx, with the page's token in the `X-CSRFToken` header
(`hx-headers` on `<body>`), so it needs no field of its own; a page a browser posts without
JavaScript always has one.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from tests.factories import CSRF_FIELD, HTMX, playing_match, state_of

HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')


@pytest.fixture
def strict_client(alice) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def legal_card(match: Match) -> str:
    return str(state_of(match).view(0).legal[0])


def test_the_full_page_carries_the_field_in_its_forms(strict_client, alice):
    match = playing_match(alice, strict_client)
    page = strict_client.get(reverse("match", args=[match.pk])).text
    play_form = page[page.index('class="play-form"') :]
    assert CSRF_FIELD.search(play_form[: play_form.index("</form>")])


def test_an_htmx_answer_carries_no_field_and_sets_no_cookie(strict_client, alice):
    match = playing_match(alice, strict_client)
    page = strict_client.get(reverse("match", args=[match.pk])).text
    token = HEADER.search(page).group(1)
    response = strict_client.post(
        reverse("play_card", args=[match.pk]),
        {"version": match.version, "card": legal_card(match)},
        HTTP_X_CSRFTOKEN=token,
        **HTMX,
    )
    assert response.status_code == 200
    assert 'class="play-form"' in response.text  # the hand, with its form, came back
    assert "csrfmiddlewaretoken" not in response.text
    assert "csrftoken" not in response.cookies


def test_the_pages_header_token_posts_move_after_move(strict_client, alice):
    match = playing_match(alice, strict_client)
    token = HEADER.search(strict_client.get(reverse("match", args=[match.pk])).text).group(1)
    for _ in range(3):  # each answer is swapped in; the page's header stays as it was
        version = match.version
        response = strict_client.post(
            reverse("play_card", args=[match.pk]),
            {"version": version, "card": legal_card(match)},
            HTTP_X_CSRFTOKEN=token,
            **HTMX,
        )
        assert response.status_code == 200
        match.refresh_from_db()
        assert match.version > version


def test_a_move_without_any_token_is_refused(strict_client, alice):
    match = playing_match(alice, strict_client)
    version = match.version
    response = strict_client.post(
        reverse("play_card", args=[match.pk]),
        {"version": version, "card": legal_card(match)},
        **HTMX,
    )
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.version == version


def test_a_player_page_s_buttons_carry_the_field_and_htmx_posts_with_the_header(strict_client, bob):
    page = strict_client.get(reverse("player", args=["Bob"])).text
    follow_form = page[page.index(f'action="{reverse("follow", args=["Bob"])}"') :]
    assert CSRF_FIELD.search(follow_form[: follow_form.index("</form>")])
    token = HEADER.search(page).group(1)
    followed = strict_client.post(reverse("follow", args=["Bob"]), HTTP_X_CSRFTOKEN=token, **HTMX)
    assert followed.status_code == 200 and "Unfollow" in followed.text
    assert "csrfmiddlewaretoken" not in followed.text
    assert strict_client.post(reverse("block", args=["Bob"]), **HTMX).status_code == 403


@pytest.mark.usefixtures("fresh_limits")
def test_the_chat_forms_carry_the_field_and_its_htmx_answer_none(strict_client, alice):
    match = playing_match(alice, strict_client)
    page = strict_client.get(reverse("match", args=[match.pk])).text
    chat = page[page.index('id="chat"') :]
    for form in ('class="chat-write"', 'class="chat-phrases"'):
        part = chat[chat.index(form) :]
        assert CSRF_FIELD.search(part[: part.index("</form>")]), form
    token = HEADER.search(page).group(1)
    response = strict_client.post(
        reverse("chat_say", args=[match.pk]), {"preset": "thanks"}, HTTP_X_CSRFTOKEN=token, **HTMX
    )
    assert response.status_code == 200
    assert 'class="chat-phrases"' in response.text
    assert "csrfmiddlewaretoken" not in response.text
