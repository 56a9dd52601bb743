"""A newcomer signs up, logs out and logs back in, in a real browser."""

from playwright.sync_api import expect

from games.models import Profile
from tests.browser.helpers import log_in, page_in
from tests.conftest import PASSWORD


def test_a_new_player_signs_up_logs_out_and_logs_in_again(page, screenshot, db):
    page.goto("/")
    screenshot(page, "1-welcome")
    page.get_by_role("link", name="Create an account").click()

    page.get_by_label("Username").fill("rosa")
    page.get_by_label("Display name").fill("Rosa Parks")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    screenshot(page, "2-signup")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_test_id("display-name")).to_have_text("Rosa Parks")
    expect(page.get_by_text("Welcome, Rosa Parks!")).to_be_visible()
    screenshot(page, "3-signed-up")

    page.get_by_role("button", name="Log out").click()
    navigation = page.get_by_role("navigation", name="Main")
    expect(navigation.get_by_role("link", name="Log in")).to_be_visible()
    expect(page.get_by_test_id("display-name")).to_have_count(0)
    navigation.get_by_role("link", name="Log in").click()

    page.get_by_label("Username").fill("rosa")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Please enter a correct username and password")).to_be_visible()
    screenshot(page, "4-wrong-password")

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_test_id("display-name")).to_have_text("Rosa Parks")
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
    screenshot(page, "5-logged-in")


def test_sign_up_takes_the_browsers_time_zone_and_the_profile_page_shows_it(
    browser, live_server, screenshot, db
):
    with page_in(browser, live_server.url, 390, 844, timezone_id="Asia/Jakarta") as page:
        page.goto("/accounts/signup/")
        page.get_by_label("Username").fill("sari")
        page.get_by_label("Display name").fill("Sari")
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        page.get_by_label("Password confirmation").fill(PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_test_id("display-name")).to_have_text("Sari")
        assert Profile.objects.get(user__username="sari").time_zone == "Asia/Jakarta"
        page.goto("/accounts/profile/")
        expect(page.get_by_label("Time zone")).to_have_value("Asia/Jakarta")
        screenshot(page, "profile-time-zone-phone")


def test_the_profile_page_offers_the_browsers_zone_to_a_player_travelling(
    browser, live_server, screenshot, alice
):
    Profile.objects.filter(user=alice).update(time_zone="Asia/Jakarta")
    with page_in(browser, live_server.url, 1100, 800, timezone_id="America/Los_Angeles") as page:
        log_in(page, "alice")
        page.goto("/accounts/profile/")
        offer = page.get_by_role("button", name="Use this browser's time zone: America/Los Angeles")
        expect(offer).to_be_visible()
        screenshot(page, "zone-offer")
        offer.click()
        expect(offer).to_be_hidden()
        expect(page.get_by_label("Time zone")).to_have_value("America/Los_Angeles")
        page.get_by_role("button", name="Save", exact=True).click()
        expect(page.get_by_text("Your profile has been saved.")).to_be_visible()
        assert Profile.objects.get(user=alice).time_zone == "America/Los_Angeles"
        # In the zone it has chosen, the browser offers nothing.
        expect(page.locator("[data-browser-zone-offer]")).to_be_hidden()
