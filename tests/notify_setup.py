"""A site where bob, away and opted in to every e-mail, must act: for the worker's tests.

`main` runs inside a real site's process (`manage.py shell -c`): it seats alice and bob (both
must pass), which queues bob's turn notice as any turn does, and prints one JSON line with the
ids. With `NOTIFY_AWAY_SECONDS=0` the notice is due at once.
"""

import json

from django.contrib.auth import get_user_model

from games.models import NotificationSettings
from tests.conftest import PASSWORD
from tests.live_setup import passing


def main() -> None:
    """Create the players and start their match, then print their ids as JSON."""
    users = get_user_model().objects
    alice = users.create_user("alice", "alice@example.com", PASSWORD)
    bob = users.create_user("bob", "bob@example.com", PASSWORD)
    NotificationSettings.objects.filter(user=bob).update(turn_emails=True, daily_digest=True)
    match = passing(alice, bob)
    print(json.dumps({"bob": bob.pk, "match": match.pk}))
