"""In Chromium: the service worker registers, and with the network gone a page shows the
offline page it keeps; the app's icons and manifest are what the page links."""

from playwright.sync_api import expect

from tests.conftest import PASSWORD


def test_with_the_network_gone_a_page_shows_the_offline_page(
    browser, live_server, screenshot, alice
):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("alice")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
        # The worker is installed (its offline page kept) and active.
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{live_server.url}/"
        manifest = page.evaluate(
            "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
        )
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"

        context.set_offline(True)
        page.goto("/lobby/")
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
        expect(page.get_by_role("link", name="Try again")).to_be_visible()
        screenshot(page, "offline-phone")

        context.set_offline(False)
        page.get_by_role("link", name="Try again").click()
        expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
    finally:
        context.close()
