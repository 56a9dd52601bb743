from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The Hearts app: accounts, matches and the pages around them."""

    name = "games"
    verbose_name = "Hearts"

    def ready(self) -> None:
        # The URL patterns' converters, before any URL configuration is loaded.
        from games.lib import converters

        converters.register()
        # Connect the receivers: profiles, languages, live updates, turn e-mails, timeouts,
        # background bots.
        from games import languages, live, signals, time_zones  # noqa: F401
        from games.background import bot_runner, deadlines, round_deadline_tasks  # noqa: F401
        from games.notifications import notices, receivers  # noqa: F401
