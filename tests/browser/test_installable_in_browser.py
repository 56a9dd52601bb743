"""In Chromium: the service worker registers, and with the network gone a page shows the
offline page it keeps; the app's icons and manifest are what the page links."""

from playwright.sync_api import expect

from tests.browser.helpers import log_in, page_in


def test_with_the_network_gone_a_page_shows_the_offline_page(
    browser, live_server, screenshot, alice
):
    with page_in(browser, live_server.url, 390, 844) as page:
        log_in(page, "alice")
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
        # The worker is installed (its offline page kept) and active.
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{live_server.url}/"
        manifest = page.evaluate(
            "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
        )
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"

        context = page.context
        context.set_offline(True)
        page.goto("/lobby/")
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        expect(page.get_by_role("link", name="Try again")).to_be_visible()
        screenshot(page, "offline-phone")

        context.set_offline(False)
        page.get_by_role("link", name="Try again").click()
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
