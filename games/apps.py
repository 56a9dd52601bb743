from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The Hearts app: accounts, matches and the pages around them."""

    name = "games"
    verbose_name = "Hearts"

    def ready(self) -> None:
        from games import live, signals  # noqa: F401  (connect the profile and live receivers)
