"""The language each player reads the site in.

Without a choice, a page is in the language the browser asks for (Accept-Language), or the
one picked with the switcher (Django's `set_language` view, which sets the language cookie):
both are Django's LocaleMiddleware. A signed-in player's choice is also kept on their profile
(`Profile.language`), so that it follows them to another browser and their e-mails are
written in it. For their requests it is kept in the session (read anyway), so knowing it
costs no query.

This is the requests' side: the middleware, and the choice kept on signing in and on
switching. The site's languages, and the one to write to a player in, are
`games/lib/languages.py`, which the models and the e-mails use too.
"""

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin

from games.lib.languages import supported
from games.models import Profile

SESSION_KEY = "player_language"


def remember(request: HttpRequest, user: User, code: str) -> None:
    """Keep the player's choice on their profile, and in this session for their next pages.

    An empty code is no choice: the pages follow the browser again.
    """
    Profile.objects.filter(user=user).update(language=code)
    if hasattr(user, "profile"):
        user.profile.language = code
    if code:
        request.session[SESSION_KEY] = code
    else:
        request.session.pop(SESSION_KEY, None)


@receiver(user_logged_in)
def language_on_login(
    sender: type[User], request: HttpRequest | None, user: User, **kwargs: object
) -> None:
    """On signing in, bring back the language the player chose before (if they chose one)."""
    if request is None or not hasattr(request, "session"):
        return
    try:
        code = supported(user.profile.language)
    except Profile.DoesNotExist:
        code = None
    if code:
        request.session[SESSION_KEY] = code


class PlayerLanguageMiddleware(MiddlewareMixin):
    """Show a signed-in player's pages in their own language; remember what they switch to.

    After LocaleMiddleware (which picked the cookie's or the browser's language) and the
    session. The language the switcher sets (Django's `set_language` answers with the
    language cookie) is stored on the player's profile; the cookie is kept in step with the
    profile, so the pages stay in that language after signing out too.
    """

    def process_request(self, request: HttpRequest) -> None:
        code = supported(request.session.get(SESSION_KEY))
        if code and code != translation.get_language():
            translation.activate(code)
            request.LANGUAGE_CODE = code

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        cookie = settings.LANGUAGE_COOKIE_NAME
        if not hasattr(request, "session"):
            return response
        if cookie in response.cookies:
            # The switcher: the player's choice, to keep if they are signed in.
            code = supported(response.cookies[cookie].value)
            user = getattr(request, "user", None)
            if code and user is not None and user.is_authenticated:
                remember(request, user, code)
            return response
        code = supported(request.session.get(SESSION_KEY))
        if code and request.COOKIES.get(cookie) != code:
            response.set_cookie(
                cookie,
                code,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
