"""Where a name leads: `{{ seat|player_url }}`, for `games/_player_name.html`."""

from django import template

from games.presenters.players import player_url

register = template.Library()

register.filter("player_url", player_url)
