"""Showing names: one line in plain-text e-mails, and a mark on every bot."""

from functools import cache

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games.lib import names

register = template.Library()

register.filter("one_line", names.one_line)


@cache
def _marker() -> SafeString:
    # Rendered once per process: a table draws it beside every bot's seat on every move.
    return SafeString(render_to_string("games/_bot_marker.html").rstrip("\n"))


@register.simple_tag
def bot_marker(is_bot: bool) -> SafeString:
    """Render the "bot" mark after a name (games/_bot_marker.html), or nothing for a person."""
    return _marker() if is_bot else SafeString("")
