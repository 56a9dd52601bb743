"""The page shell: navigation, htmx wiring, and error pages without stack traces."""

import pytest
from django.test import Client
from django.urls import reverse


def test_visitors_see_the_welcome_page(client, db):
    response = client.get("/")
    assert response.status_code == 200
    assert "Hearts, at your own pace" in response.text
    assert reverse("signup") in response.text


def test_players_see_their_matches_and_the_navigation(client, alice):
    client.force_login(alice)
    response = client.get("/")
    assert response.status_code == 200
    assert "Matches waiting for you" in response.text
    assert 'aria-current="page">Your turn <span class="turn-count"' in response.text
    assert reverse("lobby") in response.text


def test_every_page_loads_htmx_from_our_own_static_files(client, alice):
    client.force_login(alice)
    html = client.get(reverse("lobby")).text
    assert '<script src="/static/django_htmx/htmx' in html
    assert "https://" not in html and "http://" not in html


def test_htmx_requests_carry_the_csrf_token(client, alice):
    client.force_login(alice)
    response = client.get(reverse("lobby"))
    token = response.context["csrf_token"]
    assert f'hx-headers=\'{{"X-CSRFToken": "{token}"}}\'' in response.text


def test_an_unknown_address_gets_the_404_page(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Page not found" in response.text


def test_a_post_without_a_csrf_token_is_refused_with_an_explanation(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse("profile"), {"display_name": "Mallory"})
    assert response.status_code == 403
    assert "This form has expired" in response.text
    alice.profile.refresh_from_db()
    assert alice.profile.display_name == "Alice"


@pytest.mark.urls("tests.failing_urls")
def test_a_server_error_shows_a_plain_page_without_details(db, settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    response = client.get("/broken/")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert "secret detail" not in response.text
    assert "Traceback" not in response.text


def test_wrong_http_methods_are_refused(client, alice):
    client.force_login(alice)
    assert client.post(reverse("lobby")).status_code == 405
    assert client.delete(reverse("signup")).status_code == 405


def test_the_health_check_answers_ok_without_a_login(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.text == "ok"


def test_a_request_for_an_unknown_host_gets_the_site_s_own_400_page(client, db):
    response = client.get("/", HTTP_HOST="not-this-site.example")
    assert response.status_code == 400
    assert "<h1>Bad request</h1>" in response.text and "Hearts" in response.text


def test_a_refusal_gets_the_site_s_own_403_page(rf, alice):
    from django.core.exceptions import PermissionDenied
    from django.views.defaults import permission_denied

    request = rf.get("/somewhere/")
    request.user = alice
    response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    assert "<h1>Not allowed</h1>" in response.content.decode()
