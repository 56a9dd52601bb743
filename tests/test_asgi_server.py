"""The site as daphne serves it: a real server process on a free port."""

import urllib.request

from tests.servers import daphne, manage, site_env


def test_daphne_serves_pages_and_static_files(tmp_path):
    env = site_env(tmp_path / "site.sqlite3")
    manage(env, "migrate", "-v0")
    with daphne(env) as base:
        page = urllib.request.urlopen(f"{base}/", timeout=10)
        assert page.status == 200
        assert "Hearts, at your own pace" in page.read().decode()
        stylesheet = urllib.request.urlopen(f"{base}/static/games/site.css", timeout=10)
        assert stylesheet.status == 200
        htmx = urllib.request.urlopen(f"{base}/static/django_htmx/htmx-2.min.js", timeout=10)
        assert b"htmx" in htmx.read()
