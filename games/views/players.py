"""Player pages (a person's, or a bot level's) and the leaderboard."""

from django.conf import settings
from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games.forms import LEADERBOARD_SIZES, LeaderboardForm, first_error
from games.models import BotLevel, Competitor, TableSizeStats, display_name_of
from games.presenters import players
from games.services import people

LEADERBOARD_PAGE = 50
TABLE_SIZES = LEADERBOARD_SIZES


@require_GET
def player_page(request: HttpRequest, name: str) -> HttpResponse:
    """Show a person's record: rating and its history, statistics, recent matches."""
    return person_page(request, person_or_404(name))


def person_or_404(name: str) -> User:
    """Return the active person showing this name, or answer 404."""
    user = people.person_named(name)
    if user is None:
        raise Http404(gettext("There is no player of that name."))
    return user


def person_page(request: HttpRequest, user: User, status: int = 200) -> HttpResponse:
    """Render a person's page, with the viewer's follow and block buttons for others."""
    competitor = Competitor.objects.filter(user=user).first()
    context = {
        "nav": "leaderboard",
        "name": display_name_of(user),
        "is_bot": False,
        **players.player_context(competitor, request.user),
        **relation_context(request, user),
    }
    return render(request, "games/player.html", context, status=status)


def relation_context(request: HttpRequest, user: User) -> dict[str, object]:
    """Return the buttons' state: only for a signed-in viewer looking at someone else."""
    viewer = request.user
    if not viewer.is_authenticated or viewer.pk == user.pk:
        return {"person": None}
    return {"person": user, "relation": people.relation(viewer, user)}


@require_GET
def bot_page(request: HttpRequest, level: str) -> HttpResponse:
    """Show one bot level's record: every bot of that level counts as one player."""
    if level not in BotLevel.values:
        raise Http404(gettext("There is no bot level of that name."))
    competitor = Competitor.objects.filter(bot_level=level).first()
    context = {
        "nav": "leaderboard",
        "name": gettext("%(label)s bots") % {"label": BotLevel(level).label},
        "is_bot": True,
        **players.player_context(competitor, request.user),
    }
    return render(request, "games/player.html", context)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """List the players with enough rated matches, highest rating first; by table size too."""
    least = settings.LEADERBOARD_MIN_RATED_MATCHES
    form = LeaderboardForm(request.GET)
    if not form.is_valid():
        refused = {"nav": "leaderboard", "error": first_error(form), "sizes": TABLE_SIZES}
        return render(request, "games/leaderboard.html", refused, status=400)
    size: int | None = form.cleaned_data["players"]
    page, lines = _leaderboard_page(size, least, request.GET.get("page"))
    context: dict[str, object] = {
        "nav": "leaderboard",
        "page": page,
        "lines": lines,
        "first_rank": page.start_index(),
        "size": size,
        "sizes": TABLE_SIZES,
        "least": least,
        "bots": players.bot_levels(),
    }
    return render(request, "games/leaderboard.html", context)


def _leaderboard_page(
    size: int | None, least: int, number: str | None
) -> tuple[Page[Competitor] | Page[TableSizeStats], list[tuple[Competitor, int]]]:
    """Return one page of the leaderboard: each competitor with its rated matches counted."""
    if size is None:
        rows = (
            Competitor.objects.filter(user__isnull=False, rated_matches__gte=least)
            .select_related("user__profile")
            .order_by("-rating", "id")
        )
        page = Paginator(rows, LEADERBOARD_PAGE).get_page(number)
        return page, [(c, c.rated_matches) for c in page.object_list]
    by_size = (
        TableSizeStats.objects.filter(
            players=size, rated_matches__gte=least, competitor__user__isnull=False
        )
        .select_related("competitor__user__profile")
        .order_by("-competitor__rating", "competitor_id")
    )
    size_page = Paginator(by_size, LEADERBOARD_PAGE).get_page(number)
    return size_page, [(s.competitor, s.rated_matches) for s in size_page.object_list]
