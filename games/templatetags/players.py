"""A person's name and where it leads: `{{ user|display_name }}`, `{{ seat|player_url }}`.

For `games/_player_name.html`; the name is `games.models.display_name_of`'s, so that a deleted
account shows as a former player on every page.
"""

from django import template

from games.models import display_name_of
from games.presenters.players import player_url

register = template.Library()

register.filter("player_url", player_url)
register.filter("display_name", display_name_of)
