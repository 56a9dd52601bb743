"""Failed logins pause guessing per username and address, and per address (django-axes)."""

import pytest
from axes.models import AccessAttempt
from django.db.models import Sum
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

HOME = "198.51.100.7"
ELSEWHERE = "203.0.113.9"
PROXY = "10.0.0.1"


@pytest.fixture(autouse=True)
def limits(settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 5
    settings.LOGIN_LOCKOUT_SECONDS = 900
    settings.TRUSTED_PROXIES = []


def log_in(client, username: str, password: str, address: str = HOME, **headers):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def failures() -> int:
    return AccessAttempt.objects.aggregate(total=Sum("failures_since_start"))["total"] or 0


def assert_paused(response, client) -> None:
    assert response.status_code == 429
    assert "Too many failed sign-ins; try again in 15 minutes." in response.text
    assert "_auth_user_id" not in client.session


def test_the_failure_that_reaches_the_limit_pauses_even_the_right_password(client, alice):
    for _ in range(2):
        assert log_in(client, "alice", "guess").status_code == 400
    assert_paused(log_in(client, "alice", "guess"), client)
    assert_paused(log_in(client, "alice", PASSWORD), client)


def test_a_paused_sign_in_changes_nothing(client, alice):
    for _ in range(3):
        log_in(client, "alice", "guess")
    before = list(AccessAttempt.objects.values_list("failures_since_start", "attempt_time"))
    assert_paused(log_in(client, "alice", "another guess"), client)
    after = list(AccessAttempt.objects.values_list("failures_since_start", "attempt_time"))
    assert after == before  # neither counted nor lengthening the pause


def test_a_username_paused_from_one_address_still_signs_in_from_another(client, alice):
    for _ in range(3):
        log_in(client, "alice", "guess", address=ELSEWHERE)
    assert_paused(log_in(client, "alice", PASSWORD, address=ELSEWHERE), client)
    response = log_in(client, "alice", PASSWORD, address=HOME)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_one_address_guessing_at_many_usernames_is_paused(client, alice, make_user):
    make_user("bob")
    for name in ["x1", "x2", "x3", "x4", "x5"]:
        log_in(client, name, "guess")
    assert_paused(log_in(client, "bob", PASSWORD), client)
    assert log_in(client, "bob", PASSWORD, address=ELSEWHERE).status_code == 302


def test_a_forwarded_for_header_from_an_untrusted_peer_is_ignored(client, alice):
    for fake in ["192.0.2.1", "192.0.2.2", "192.0.2.3"]:
        log_in(client, "alice", "guess", HTTP_X_FORWARDED_FOR=fake)
    response = log_in(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.4")
    assert_paused(response, client)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {HOME}


def test_behind_a_trusted_proxy_each_forwarded_client_is_counted_apart(client, alice, settings):
    settings.TRUSTED_PROXIES = [PROXY]
    for _ in range(3):
        log_in(client, "alice", "guess", address=PROXY, HTTP_X_FORWARDED_FOR=ELSEWHERE)
    assert_paused(
        log_in(client, "alice", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR=ELSEWHERE), client
    )
    # A client's own X-Forwarded-For comes first; the proxy appends the address it saw.
    response = log_in(
        client, "alice", PASSWORD, address=PROXY, HTTP_X_FORWARDED_FOR=f"{ELSEWHERE}, {HOME}"
    )
    assert response.status_code == 302


def test_a_successful_login_clears_its_username_counter_but_not_the_address(client, alice):
    log_in(client, "alice", "guess")
    log_in(client, "nobody", "guess")
    assert log_in(client, "alice", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    assert failures() == 1  # the other username's failure still counts for this address
    for _ in range(2):
        assert log_in(client, "alice", "guess").status_code == 400
    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_failures_older_than_the_pause_no_longer_count(client, alice):
    for _ in range(3):
        log_in(client, "alice", "guess")
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time.replace(year=2000)
    )
    assert log_in(client, "alice", PASSWORD).status_code == 302
