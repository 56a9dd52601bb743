"""The site installs as an app: a web app manifest with icons drawn here, a service worker
from the root, and an offline page it keeps (issue "Reach people where they are", part 3)."""

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from games.icons import ICONS, png
from tests.factories import client_for

ICON_FOLDER = Path(__file__).resolve().parents[1] / "games" / "static" / "games" / "icons"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_its_icons_and_where_it_opens(client, db):
    answer = client.get(reverse("manifest"))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert (manifest["name"], manifest["short_name"]) == ("Hearts", "Hearts")
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == reverse("home") == "/"  # "Your turn", once signed in
    assert manifest["scope"] == "/"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        found = finders.find(name)
        assert found, f"{icon['src']} is not a static file"
        width, height = png_size(Path(found).read_bytes())
        assert icon["sizes"] == f"{width}x{height}"


def test_the_manifest_speaks_the_readers_language(client, db):
    answer = client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE="id")
    manifest = json.loads(answer.content)
    assert manifest["lang"] == "id"
    assert manifest["description"] == "Hearts untuk 3 sampai 10 pemain, sesuai kecepatan Anda."


@pytest.mark.parametrize("icon", [i for i in ICONS if i.size < 512], ids=lambda i: i.name)
def test_the_committed_icons_are_what_the_drawing_makes(icon):
    # The 512-pixel icons take seconds to draw; they come from the same code, and their
    # sizes are checked above. `manage.py make_icons` draws them all.
    assert (ICON_FOLDER / icon.name).read_bytes() == png(icon)


def test_every_page_links_the_manifest_and_the_apple_icon(alice):
    page = client_for(alice).get(reverse("home")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'rel="apple-touch-icon"' in page and '<meta name="theme-color"' in page
    assert 'data-service-worker="/service-worker.js"' in page


def test_the_service_worker_comes_from_the_root_and_keeps_only_the_offline_page_and_assets(
    client, db
):
    answer = client.get("/service-worker.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert "no-cache" in answer["Cache-Control"]
    script = answer.text
    assert 'var OFFLINE = "/offline/";' in script
    assert "/static/games/site.css" in script
    assert "{%" not in script and "{{" not in script


def test_the_offline_page_needs_nothing_but_itself(client, db):
    answer = client.get(reverse("offline"), HTTP_ACCEPT_LANGUAGE="su")
    assert answer.status_code == 200
    page = answer.text
    assert "Anjeun keur luring" in page
    assert "<script" not in page  # no socket, no scripts: it is shown without the network


def test_the_app_routes_refuse_what_they_do_not_serve(client, db):
    for url in (reverse("manifest"), "/service-worker.js", reverse("offline")):
        assert client.post(url).status_code == 405
