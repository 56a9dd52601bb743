"""What every page's navigation shows: how many matches and challenges wait for the signed-in
player."""

from functools import cached_property

from django.contrib.auth.models import User
from django.http import HttpRequest

from games.lib import clock
from games.models import Challenge, MatchStatus, Seat


class YourTurn:
    """The matches waiting for one player, read only when a template asks (partials never do)."""

    def __init__(self, user: User) -> None:
        self.user = user

    @cached_property
    def match_ids(self) -> list[int]:
        """Return the ids of the matches in play where the player must act, in one query."""
        seats = Seat.objects.filter(
            user=self.user, to_act=True, resigned=False, match__status=MatchStatus.ACTIVE
        )
        return sorted(seats.values_list("match_id", flat=True))

    @property
    def count(self) -> int:
        return len(self.match_ids)

    @cached_property
    def challenges(self) -> int:
        """Return how many challenges wait for the player's answer."""
        return Challenge.waiting_for(self.user.pk, clock.now()).count()

    @property
    def ids_text(self) -> str:
        """Return the ids space-separated, for the live script to count notices against."""
        return " ".join(str(pk) for pk in self.match_ids)


def your_turn(request: HttpRequest) -> dict[str, object]:
    """Offer `your_turn` to templates for signed-in players."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turn": YourTurn(user)}
