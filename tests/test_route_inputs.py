"""Whatever a client puts in a URL, every route answers 4xx or a page, never a server error.

Match ids beyond the database's 64-bit integers used to reach the ORM (which raises
OverflowError on SQLite), and invite codes outside the alphabet codes are made of used to
reach the database (PostgreSQL refuses NUL in text). The routes now only match what such a
value can be, so anything else is a plain 404.
"""

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.contrib.auth import forms as auth_forms
from django.forms import BaseForm, MultiWidget
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
import games.forms
from games import services
from games.accounts import forms as account_forms
from games.challenge_form import NameQueryForm
from games.lib.converters import MAX_ID
from games.models import Match
from tests.factories import make_match
from tests.records_helpers import finished_match

MATCH_ROUTES = [
    "match", "scores", "join_match", "leave_match", "add_bot", "remove_bot", "start_match",
    "pass_cards", "play_card", "choose_moon", "resign", "play_again", "no_thanks",
    "rematch_with_bots", "chat", "chat_say", "chat_mute", "chat_unmute", "chat_report",
]  # fmt: skip
# A valid form for every action, so that a request reaches the service with its match id.
WELL_FORMED = {"version": "1", "card": "2C", "cards": ["2C", "3C", "4C"], "option": "add",
               "position": "1", "invite_code": "x"}  # fmt: skip
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _routes(resolver: URLResolver | None = None, prefix: str = "") -> list[str]:
    """Return every route of the site as a pattern string such as "matches/<id:pk>/play/"."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found.extend(_routes(entry, pattern))
        elif isinstance(entry, URLPattern):
            found.append(pattern)
    return found


def _client(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("name", MATCH_ROUTES)
@pytest.mark.parametrize("pk", [MAX_ID + 1, 10**30])
def test_a_match_id_beyond_64_bits_is_not_found(alice, name, pk):
    path = reverse(name, args=[1]).replace("/1/", f"/{pk}/")
    client = _client(alice)
    for headers in ({}, {"HX-Request": "true"}):
        assert client.get(path, {"since": "1"}, headers=headers).status_code in (404, 405)
        assert client.post(path, WELL_FORMED, headers=headers).status_code in (404, 405)


@pytest.mark.django_db
def test_the_largest_64_bit_match_id_is_an_ordinary_missing_match(alice):
    assert reverse("match", args=[MAX_ID]) == f"/matches/{MAX_ID}/"
    assert _client(alice).get(f"/matches/{MAX_ID}/").status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["é", "caf%C3%A9", "%00", "a%00b", "x" * 65, "%F0%9F%82%A1"])
def test_an_invite_code_outside_the_code_alphabet_is_not_found(alice, code):
    assert _client(alice).get(f"/invite/{code}/").status_code == 404


@pytest.mark.django_db
def test_a_real_invite_code_still_leads_to_its_match(alice, make_user):
    match = services.create_match(alice, services.MatchOptions(private=True))
    response = _client(make_user("bob")).get(reverse("invite", args=[match.invite_code]))
    assert response.status_code == 200
    assert match.invite_code in response.content.decode()


# What goes into a URL's parameters: any integer, and any text, raw or percent-encoded.
integers = st.integers().map(str) | st.integers(min_value=2**62, max_value=2**70).map(str)
junk = st.text(min_size=1, max_size=30) | st.sampled_from(
    ["%00", "%ff%fe", "%2F", "..", "%", "%%41", "é", "\x00", "a/b", "-1", "1e9", " 1"]
    + ["²", "٣", "１", "été", "9", "10"]  # digits int() reads or refuses; seats of big tables
)
values = integers | junk | junk.map(lambda text: quote(text, safe=""))


@pytest.fixture
def clients(alice, make_user) -> dict[str, Client]:
    staff = make_user("root", is_staff=True, is_superuser=True)
    return {"anonymous": _client(), "player": _client(alice), "staff": _client(staff)}


def _site_routes() -> list[str]:
    # The admin's one regex route (its app index) takes a fixed app name, not a parameter;
    # logging out takes none either, and would sign out the clients the next requests need.
    # Readiness takes none, and answers 503 by design while no worker runs (test_health.py).
    return [
        route
        for route in _routes()
        if not route.startswith("admin/^") and not route.endswith("logout/") and route != "readyz"
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("value", [str(2**63), "%C3%A9%00"])
def test_no_route_answers_a_server_error_for_inputs_that_broke_some(clients, value):
    # The value goes into the route's parameters: a route with none gets nothing of it (the
    # sweep and the property test below send such routes values in their query and form).
    for route in filter(PARAMETER.search, _site_routes()):
        path = "/" + PARAMETER.sub(lambda _: value, route)
        # The admin sends anyone but staff to its login page before reading a parameter.
        for who in ["staff"] if route.startswith("admin/") else clients:
            client = clients[who]
            assert client.get(path, {"since": "1"}).status_code < 500, (path, who)
            assert client.post(path, WELL_FORMED).status_code < 500, (path, who)


@pytest.mark.django_db
def test_no_route_without_parameters_answers_a_server_error_for_a_well_formed_form(clients):
    """The routes the sweep above leaves out, once: no value of theirs to vary."""
    for route in _site_routes():
        if PARAMETER.search(route):
            continue
        path = "/" + route
        for who in ["staff"] if route.startswith("admin/") else clients:
            client = clients[who]
            assert client.get(path, {"since": "1"}).status_code < 500, (path, who)
            assert client.post(path, WELL_FORMED).status_code < 500, (path, who)


# Every parameter a route reads: the query parameters views read themselves, and every field
# of every form (a seat's `position` is made per match, for its number of seats).
QUERY_PARAMETERS = ("since", "step", "part", "players", "page", "next", "language", "after")
FORM_CLASSES = (
    *(c for c in vars(games.forms).values() if isinstance(c, type) and issubclass(c, BaseForm)),
    *(c for c in vars(account_forms).values() if isinstance(c, type) and issubclass(c, BaseForm)),
    NameQueryForm,
    auth_forms.AuthenticationForm,
    auth_forms.PasswordChangeForm,
    auth_forms.SetPasswordForm,
)


def _field_names(form_class: type[BaseForm]) -> set[str]:
    names = set()
    for name, field in form_class.base_fields.items():
        widget = field.widget
        if isinstance(widget, MultiWidget):  # sent as name_0, name_1, ...
            names.update(f"{name}_{n}" for n in range(len(widget.widgets)))
        else:
            names.add(name)
    return names


PARAMETERS = sorted(
    {*QUERY_PARAMETERS, "position", *(n for c in FORM_CLASSES for n in _field_names(c))}
)
READ_IN_VIEWS = re.compile(r"request\.(?:GET|POST)\.(?:get|getlist)\(\"([^\"]+)\"")


def test_every_parameter_a_view_reads_is_sent_by_the_property_test():
    root = Path(games.__file__).parent
    read = {name for path in root.rglob("*.py") for name in READ_IN_VIEWS.findall(path.read_text())}
    assert read - set(PARAMETERS) == {"post"}  # the admin's own confirmation, Django's


@pytest.fixture
def matches(alice, bob) -> dict[str, Match]:
    """Matches the player is seated at, in each state, and a private one they are not."""
    return {
        "open": make_match(alice, start=False, players=10, variant="cancellation"),
        "in play": make_match(alice, people=[bob], players=5, variant="cancellation"),
        "finished": finished_match(alice, hands=1, seed=3),
        "private": make_match(bob, start=False, private=True),
    }


def _parameter(data, converter: str | None, matches: dict[str, Match]) -> str:
    """A value for one of the route's own parameters: often a real one, else anything."""
    real = {
        "id": [str(m.pk) for m in matches.values()],
        "int": ["1", "2"],
        "urlsafe": [m.invite_code for m in matches.values()],
    }.get(converter or "", [])
    if real and data.draw(st.booleans(), label="real"):
        return data.draw(st.sampled_from(real), label="parameter")
    return data.draw(values, label="parameter")


def _state(matches: dict[str, Match]) -> list[tuple]:
    return list(
        Match.objects.filter(pk__in=[m.pk for m in matches.values()])
        .order_by("pk")
        .values_list("pk", "version", "status")
    )


@pytest.mark.django_db
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_route_answers_a_server_error_whatever_its_parameters(clients, matches, data):
    """Any text or integer in any parameter a route reads: a page, or a refusal that changed
    nothing; never a server error. The player is seated at the matches the ids often name."""
    routes = _site_routes()
    admin = [route for route in routes if route.startswith("admin/")]
    ours = [route for route in routes if route not in admin]
    # Most examples on the site's own routes: the admin's hundred would drown them.
    route = data.draw(st.sampled_from(ours) | st.sampled_from(admin), label="route")
    path = "/" + PARAMETER.sub(lambda found: _parameter(data, found["converter"], matches), route)
    who = data.draw(st.sampled_from(sorted(clients)), label="who")
    sent = data.draw(
        st.dictionaries(st.sampled_from(PARAMETERS), values | st.lists(values, max_size=4)),
        label="parameters",
    )
    if data.draw(st.booleans(), label="well formed"):
        sent = {**WELL_FORMED, **sent}
    send = clients[who].post if data.draw(st.booleans(), label="post") else clients[who].get
    htmx = data.draw(st.booleans(), label="htmx")
    before = _state(matches)
    response = send(path, sent, headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code < 500, (path, sent, who)
    if response.status_code >= 400:
        assert _state(matches) == before, (path, sent, who, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "été", "10", str(2**63), "%C3%A9%00"])
def test_every_parameter_at_the_player_s_own_matches_never_answers_a_server_error(
    clients, matches, value
):
    """Every parameter set to a value that once broke a route ("²" as a replay step, "été" as
    an invite code), at each match the player sits at: never a server error, and a refusal
    changes nothing. Random search seldom reaches these; this sweep always does."""
    sent = dict.fromkeys(PARAMETERS, value)
    for route in _site_routes():
        if route.startswith("admin/"):
            continue
        ids = [str(m.pk) for m in matches.values()] if "<id:" in route else [value]
        for pk in ids:
            path = "/" + PARAMETER.sub(
                lambda p, pk=pk: {"id": pk, "int": "1"}.get(p["converter"] or "", value), route
            )
            for send in (clients["player"].get, clients["player"].post):
                before = _state(matches)
                status = send(path, sent).status_code
                assert status < 500, (path, send.__name__)
                assert status < 400 or _state(matches) == before, (path, send.__name__, status)
