"""The signal sent after every committed change to a match; live updates listen to it.

It carries no cards: only the match, its new version and the users who must act.
"""

from django.db import transaction
from django.dispatch import Signal

# Sent with: match_id (int), version (int), to_act_user_ids (list[int]), status (str), and
# became_to_act_user_ids (list[int]): those of them who were not already to act before it.
match_changed = Signal()


def announce_after_commit(
    match_id: int,
    version: int,
    to_act_user_ids: list[int],
    status: str,
    became_to_act_user_ids: list[int] | None = None,
) -> None:
    """Send `match_changed` once the surrounding transaction commits (never if it rolls back)."""
    became = list(to_act_user_ids if became_to_act_user_ids is None else became_to_act_user_ids)
    transaction.on_commit(
        lambda: match_changed.send(
            sender=None,
            match_id=match_id,
            version=version,
            to_act_user_ids=to_act_user_ids,
            status=status,
            became_to_act_user_ids=became,
        )
    )
