"""Create the demo staff account and demo players, once; print their logins."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.accounts.names import available_name
from games.models import Profile

DEMO_PASSWORD = "hearts-demo"
# (username, display name, is staff)
DEMO_ACCOUNTS = [
    ("admin", "Admin", True),
    ("alice", "Alice", False),
    ("bob", "Bob", False),
    ("carol", "Carol", False),
    ("dave", "Dave", False),
]


class Command(BaseCommand):
    help = "Create demo accounts (a staff user and four players) if they do not exist yet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Create the accounts even with DEBUG off (they have a published password).",
        )

    def handle(self, *args: object, allow_production: bool = False, **options: object) -> None:
        if not settings.DEBUG and not allow_production:
            raise CommandError(
                "Demo accounts have a published password; with DEBUG off, pass "
                "--allow-production if you really want them."
            )
        users = get_user_model()
        for username, display_name, is_staff in DEMO_ACCOUNTS:
            user, created = users.objects.get_or_create(
                username=username,
                defaults={"is_staff": is_staff, "is_superuser": is_staff},
            )
            if created:
                # Existing accounts are left exactly as they are: the command is safe to rerun.
                user.set_password(DEMO_PASSWORD)
                user.save()
                name = available_name(display_name, user.pk)
                Profile.objects.update_or_create(user=user, defaults={"display_name": name})
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, display_name, is_staff in DEMO_ACCOUNTS:
            role = "staff, can open /admin/" if is_staff else "player"
            self.stdout.write(f"  {username:<8} {display_name:<8} {role}")
