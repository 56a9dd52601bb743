from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The Hearts app: accounts, matches and the pages around them."""

    name = "games"
    verbose_name = "Hearts"

    def ready(self) -> None:
        # The URL patterns' converters, before any URL configuration is loaded.
        from games import converters

        converters.register()
        # Connect the receivers: profiles, languages, live updates, turn e-mails, timeouts,
        # background bots.
        from games import (  # noqa: F401
            bot_runner,
            deadlines,
            languages,
            live,
            round_deadline_tasks,
            signals,
        )
        from games.notifications import notices, receivers  # noqa: F401
