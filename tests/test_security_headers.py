"""Every page carries the Content-Security-Policy and the Permissions-Policy, and keeps to them;
every answer of a match route is kept by no cache."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from tests.factories import HTMX, make_match, next_move
from tests.tournament_helpers import make_tournament

pytestmark = pytest.mark.django_db

# Tags' attributes: an inline event handler (onclick=...), or a style attribute.
EVENT_HANDLER = re.compile(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", re.S)
STYLE_ATTRIBUTE = re.compile(r"<[a-zA-Z][^>]*\sstyle\s*=", re.S)
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.S)
STYLE_TAG = re.compile(r"<style\b([^>]*)>", re.S)


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def directives(response) -> dict[str, list[str]]:
    """Return the response's Content-Security-Policy as {directive: [sources]}."""
    policy = response.headers["Content-Security-Policy"]
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


@pytest.fixture
def pages(alice, make_user) -> dict[str, tuple[Client, str, dict]]:
    """Every kind of page: (client, path, extra request headers) by a name for messages."""
    staff = make_user("root", is_staff=True, is_superuser=True)
    match = make_match(alice)
    open_match = make_match(alice, start=False)
    tournament = make_tournament()
    anonymous, player, admin = client_for(), client_for(alice), client_for(staff)
    invited = client_for(make_user("bob"))
    return {
        "welcome": (anonymous, reverse("home"), {}),
        "your turn": (player, reverse("home"), {}),
        "lobby": (player, reverse("lobby"), {}),
        "open match": (player, reverse("match", args=[open_match.pk]), {}),
        "invite": (invited, reverse("invite", args=[open_match.invite_code]), {}),
        "match page": (player, reverse("match", args=[match.pk]), {}),
        "match regions": (player, reverse("match", args=[match.pk]), HTMX),
        "score sheet": (player, reverse("scores", args=[match.pk]), {}),
        "score region": (player, reverse("scores", args=[match.pk]), HTMX),
        "tournaments": (anonymous, reverse("tournament_list"), {}),
        "rules": (anonymous, reverse("rules"), {}),
        "tournament": (player, reverse("tournament", args=[tournament.slug]), {}),
        "login": (anonymous, reverse("login"), {}),
        "signup": (anonymous, reverse("signup"), {}),
        "password reset": (anonymous, reverse("password_reset"), {}),
        "profile": (player, reverse("profile"), {}),
        "password change": (player, reverse("password_change"), {}),
        "admin index": (admin, reverse("admin:index"), {}),
        "admin match list": (admin, reverse("admin:games_match_changelist"), {}),
        "admin match": (admin, reverse("admin:games_match_change", args=[match.pk]), {}),
        "admin tournament": (
            admin, reverse("admin:games_tournament_change", args=[tournament.pk]), {}
        ),
        "not found": (player, "/no/such/page/", {}),
        "no such match": (player, reverse("match", args=[987654]), {}),
    }  # fmt: skip


def fetch(pages, name: str):
    client, path, headers = pages[name]
    response = client.get(path, **headers)
    assert response.status_code in (200, 404), (name, response.status_code)
    return response


def test_every_kind_of_page_carries_the_content_security_policy(pages):
    for name in pages:
        policy = directives(fetch(pages, name))
        assert policy["default-src"] == ["'self'"], name
        assert policy["script-src"] == ["'self'"], name  # and a nonce once a page needs one
        assert policy["style-src"] == ["'self'"], name
        assert policy["img-src"] == ["'self'"], name
        assert policy["connect-src"] == ["'self'"], name
        assert policy["object-src"] == ["'none'"], name
        assert policy["base-uri"] == ["'none'"], name
        assert policy["form-action"] == ["'self'"], name
        assert policy["frame-ancestors"] == ["'none'"], name
        assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy)


def test_every_kind_of_page_denies_the_powerful_features_it_does_not_use(pages):
    for name in pages:
        policy = fetch(pages, name).headers["Permissions-Policy"]
        features = dict(part.strip().split("=") for part in policy.split(","))
        for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
            assert features[feature] == "()", (name, feature)


def test_no_page_has_an_inline_event_handler_a_style_attribute_or_an_unsigned_script(pages):
    for name in pages:
        response = fetch(pages, name)
        html = response.content.decode()
        assert not EVENT_HANDLER.search(html), (name, EVENT_HANDLER.search(html)[0])
        assert not STYLE_ATTRIBUTE.search(html), (name, STYLE_ATTRIBUTE.search(html)[0])
        nonce = re.search(r"'nonce-([^']+)'", response.headers["Content-Security-Policy"])
        for attributes in SCRIPT_TAG.findall(html) + STYLE_TAG.findall(html):
            if "src=" in attributes or 'type="application/json"' in attributes:
                continue  # a file of our own, or data that is never run
            assert nonce and f'nonce="{nonce[1]}"' in attributes, (name, attributes)


def test_pages_tell_htmx_to_inject_no_style_and_to_evaluate_nothing(pages):
    for name in ("welcome", "lobby", "match page", "profile"):
        html = fetch(pages, name).content.decode()
        config = re.findall(r'<meta name="htmx-config" content=\'([^\']*)\'>', html)
        assert len(config) == 1, name  # htmx reads the first one only
        assert '"includeIndicatorStyles":false' in config[0] and '"allowEval":false' in config[0]


def test_an_inline_script_gets_the_nonce_the_header_names(rf):
    from csp.middleware import CSPMiddleware
    from django.http import HttpResponse
    from django.template import engines

    template = engines["django"].from_string('<script nonce="{{ request.csp_nonce }}">1</script>')

    def view(request):
        return HttpResponse(template.render({}, request))

    response = CSPMiddleware(view)(rf.get("/"))
    nonce = re.search(r"script-src 'self' 'nonce-([^']+)'", response["Content-Security-Policy"])
    assert nonce and f'<script nonce="{nonce[1]}">' in response.content.decode()


def never_cached(response) -> bool:
    values = {value.strip() for value in response.headers.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= values


def test_every_answer_of_the_match_routes_is_kept_by_no_cache(pages, alice):
    for name in ("open match", "match page", "match regions", "score sheet", "score region"):
        assert never_cached(fetch(pages, name)), name
    client = client_for(alice)
    match = Match.objects.filter(status="active").get()
    move = next_move(match, 0)
    assert never_cached(client.post(move.url, move.data, **HTMX))  # the hand, after a pass
    assert never_cached(client.post(move.url, move.data))  # its redirect, and a refusal
    assert never_cached(client.get(reverse("match", args=[match.pk]), {"since": "0"}, **HTMX))
