"""The regions every played card redraws (status line, table, hand), as plain strings.

A card's answer is mostly these regions. Drawn by the template engine they cost about
0.15 ms each warm (its node walk, variable lookups and `{% if %}` nodes), and two to three
times that in a server whose caches cool between moves; drawn here, a tenth of it. The
match page's template calls them (`{% status_region %}`, `{% table_region %}`,
`{% hand_region %}`), and the answers htmx swaps in call them directly (`REGIONS`), so both
draw them the same way. Only the rarer parts (the seating form of an open match, the pass
picker, the moon choice) are templates, included from here. Text is escaped with
`html.escape`, as Django escapes it; numbers and the fixed markup need none.
"""

from __future__ import annotations

from functools import cache
from html import escape

from django import template
from django.template import Engine
from django.template.defaultfilters import pluralize
from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

from games.models import MatchStatus

from .hearts import (
    card_faces,
    form_csrf,
    ordinal,
    play_buttons,
    seat_items,
    signed,
    trick_cards,
    trick_list,
)
from .names import bot_marker

register = template.Library()


def _name(place) -> str:
    """Return a seat's name as text, or nothing for no seat (as the template said it)."""
    return escape(place.name) if place else ""


def _class(css: str) -> str:
    """Return a class attribute, or nothing for no class."""
    return f' class="{css}"' if css else ""


def _rule(rule: str | None) -> str:
    """Return the rule that forbids a card, cited after its reason (R3.8)."""
    return f' <span class="rule">(rule {escape(rule)})</span>' if rule else ""


# A match's primary key no URL holds otherwise: reversed once in its place, then replaced.
_PK_MARK = "987654321"


@cache
def _match_url_pattern(name: str, prefix: str, resolver) -> str:
    # `prefix` and `resolver` only key the cache: `reverse` reads both for itself.
    return reverse(name, args=[int(_PK_MARK)])


def match_url(name: str, pk: int) -> str:
    """Return `reverse(name, args=[pk])` for a URL of one match, reversed once per process.

    Reversing walks the URL patterns and quotes the result, about 20 µs a call, and a card's
    answer needs two. The pattern is kept per script prefix and URL configuration, so a site
    mounted elsewhere, or a test's own URLs, get their own.
    """
    pattern = _match_url_pattern(name, get_script_prefix(), get_resolver(get_urlconf()))
    return pattern.replace(_PK_MARK, str(pk))


def _oob(context) -> str:
    """Mark a region sent out of band: htmx swaps it by its id, wherever it is on the page."""
    return ' hx-swap-oob="true"' if context.get("oob") else ""


def _include(context, name: str) -> str:
    """Render a template with the region's context, as `{% include %}` would."""
    engine = context.template.engine if context.template else Engine.get_default()
    return engine.get_template(name).render(context)


@register.simple_tag(takes_context=True)
def status_region(context) -> SafeString:
    """The status line: what just happened, read out by screen readers as it changes."""
    oob = ' hx-swap-oob="innerHTML"' if context.get("oob") else ""
    return SafeString(
        f'<div id="status" class="status-line" role="status" aria-live="polite"{oob}>'
        f"{conditional_escape(context['announcement'])}</div>"
    )


@register.simple_tag(takes_context=True)
def table_region(context) -> SafeString:
    """The table: the seating of an open match, else the seats, the trick and the facts."""
    if context["match"].status == MatchStatus.OPEN:
        body = _include(context, "games/legacy/_setup.html")
    else:
        body = table_body(context)
    return SafeString(
        f'<section id="table" class="table-region" aria-labelledby="table-heading"'
        f"{_oob(context)}>{body}</section>"
    )


@register.simple_tag(takes_context=True)
def hand_region(context) -> SafeString:
    """The viewer's own side of the table: their hand and what they may do with it."""
    match = context["match"]
    error = context.get("error")
    if not context["is_player"]:
        if context["has_left"]:
            whose = "You have left this match; a bot plays your seat."
        else:
            whose = "You are watching this match."
        hidden = "The cards in players' hands stay hidden."
        if context.get("sealed"):
            hidden = (
                "Other tables of this round are playing the same deals, so every card played "
                "here stays hidden until the round is closed."
            )
        body = f'<h2 id="hand-heading">Watching</h2><p>{whose} {hidden}</p>'

    elif match.status != MatchStatus.ACTIVE:
        result = context["result"]
        if result:
            over = f"The match is over. {conditional_escape(result['headline'])}"
        else:
            over = "This match was abandoned."
        body = f'<h2 id="hand-heading">Your hand</h2><p>{over}</p>'
    elif (phase := context["phase"]) == "playing":
        body = play_form(context)
    elif phase == "passing":
        body = _include(context, "games/legacy/_pass.html")
    elif phase == "moon":
        body = _include(context, "games/legacy/_moon.html")
    else:
        body = ""
    alert = f'<p class="action-error" role="alert">{conditional_escape(error)}</p>' if error else ""
    return SafeString(
        '<section id="hand" class="hand-region card" aria-labelledby="hand-heading"'
        f"{_oob(context)}>{alert}{body}</section>"
    )


# The regions an answer draws without the template engine, by name, each from a `Context`.
REGIONS = {"status": status_region, "table": table_region, "hand": hand_region}


@register.simple_tag(takes_context=True)
def table_body(context) -> SafeString:
    """Render the table of a match under way or over: seats, trick, facts and results."""
    match = context["match"]
    me = context["me"]
    poll = ""
    if match.status == MatchStatus.ACTIVE and not (me and me.to_act):
        # While others decide, look for changes now and then; 204 means nothing new.
        url = f"{match_url('match', match.pk)}?since={context['version']}"
        poll = f'<span hidden hx-get="{url}" hx-trigger="every 15s" hx-swap="none"></span>'
    return SafeString(
        '<h2 id="table-heading" class="visually-hidden">The table</h2>'
        f'{poll}<div class="table-grid">{_felt(context)}'
        f'<div class="table-side">{_facts(context)}{_result(context)}'
        f"{_last_trick(context['last_trick'])}{_last_hand(context['last_hand'])}</div></div>"
    )


def _felt(context) -> str:
    """The seats around the table and the cards of the trick in front of them."""
    places, phase, trick = context["places"], context["phase"], context["trick"]
    message = ""
    if not trick:
        message = f'<p class="felt-message" aria-hidden="true">{_felt_message(context)}</p>'
    return (
        f'<div class="felt felt-{len(places)}">'
        f'<ol class="seats" aria-label="Seats in playing order">{seat_items(places, phase)}</ol>'
        f'{message}<h3 class="visually-hidden">Current trick</h3>'
        f'<ol class="trick" aria-label="Current trick">{trick_cards(trick)}</ol></div>'
    )


def _felt_message(context) -> str:
    """What the empty felt says: who leads, which way cards pass, or that it is over."""
    phase, actor = context["phase"], context["actor"]
    if context.get("sealed") and not context["result"]:
        return "Cards hidden until the round closes"
    if phase == "passing":
        return f"Passing {escape(context['view'].pass_direction)}"
    if phase == "playing":
        if actor and actor.is_you:
            return "Your lead"
        return f"{_name(actor)} to lead"
    if phase == "moon":
        return "Moon shot!"
    return "Match over" if context["result"] else ""


def _facts(context) -> str:
    """The hand's number, its pass, whether hearts are broken, and the match's length."""
    view, match = context["view"], context["match"]
    if not view:
        return ""
    # Each fact in a group of its own, so that a narrow screen never parts a name from its value.
    facts = [("Hand", "", str(view.hand_no))]
    if match.status == MatchStatus.ACTIVE:
        if view.pass_direction == "none":
            passing = "no pass this hand"
        else:
            passing = escape(view.pass_direction)
            if pass_info := context["pass_info"]:
                passing += f", to {escape(pass_info['to'].name)}"
        facts.append(("Passing", "", passing))
    if context["phase"] == "playing":
        if view.hearts_broken:
            facts.append(("Hearts", "hearts-broken", '<span aria-hidden="true">♥</span> broken'))
        else:
            facts.append(("Hearts", "", "not broken yet"))
    if hands := match.fixed_hands:
        facts.append(("Length", "", f"{hands} hand{pluralize(hands)}"))
    else:
        facts.append(("Target", "", f"{match.target} points"))
    items = "".join(
        f"<div><dt>{name}</dt><dd{_class(css)}>{value}</dd></div>" for name, css, value in facts
    )
    return f'<dl class="hand-facts">{items}</dl>'


def _result(context) -> str:
    """The final standings, or a word that the match was abandoned."""
    result = context["result"]
    if not result:
        if context["match"].status == MatchStatus.ABANDONED:
            return '<p class="result">This match was abandoned.</p>'
        return ""
    standings = "".join(
        f"<li{_class('is-winner' if place.rank == 1 else '')}>"
        f'<span class="rank">{ordinal(place.rank)}</span> {escape(place.name)}'
        f"{bot_marker(place.is_bot)}"
        f"{' (you)' if place.is_you else ''} "
        f'<span class="standing-total">{place.total} point{pluralize(place.total)}</span></li>'
        for place in result["standings"]
    )
    return (
        '<div class="result" aria-labelledby="result-heading">'
        f'<h3 id="result-heading">{escape(result["headline"])}</h3>'
        f'<ol class="standings">{standings}</ol></div>'
    )


def _last_trick(trick) -> str:
    """The trick taken last: who won it, its points, and its cards."""
    if not trick:
        return ""
    of_hand = f" of hand {trick['hand']}" if trick["hand"] else ""
    points = trick["points"]
    taking = f", taking {points} point{pluralize(points)}" if points else ""
    return (
        f'<div class="last-trick"><h3>Last trick{of_hand} '
        f'<span class="aside">(trick {trick["number"]})</span></h3>'
        f"<p>{escape(trick['winner'].who)} won it{taking}.</p>"
        f'<ol class="trick-list">{trick_list(trick["plays"])}</ol></div>'
    )


def _last_hand(summary) -> str:
    """The points each seat took in the hand just scored, and who shot the moon."""
    if not summary:
        return ""
    moon = '<span class="moon-mark"><span aria-hidden="true">☾</span> shot the moon</span>'
    rows = "".join(
        f'<li><span class="summary-name">{escape(place.who)}</span> '
        f'<span class="summary-points">{signed(line.score)}</span>'
        f"{' ' + moon if line.shot_moon else ''}</li>"
        for place, line in summary["rows"]
    )
    return (
        f'<div class="last-hand"><h3>Hand {summary["number"]} summary</h3>'
        f'<ul class="hand-summary">{rows}</ul></div>'
    )


@register.simple_tag(takes_context=True)
def play_form(context) -> SafeString:
    """Render the player's hand while cards are played: a button per card, and why a card
    cannot be played, then the cards passed and received this hand."""
    view, actor = context["view"], context["actor"]
    if view.my_turn:
        note = "<strong>Your turn:</strong> choose a card to play."
    else:
        note = f"Waiting for {_name(actor)} to play."
    url = match_url("play_card", context["match"].pk)
    reasons = ""
    if context["reasons"]:
        items = "".join(
            f'<li id="{escape(reason.id)}">{escape(reason.text)}{_rule(reason.rule)}</li>'
            for reason in context["reasons"]
        )
        reasons = f'<ul class="reasons">{items}</ul>'
    record = ""
    pass_info = context["pass_info"]
    if pass_info and pass_info["received"]:
        record = (
            '<p class="pass-record">'
            f"You passed {card_faces(pass_info['passed'], 'card-small')} "
            f"to {escape(pass_info['to'].name)} "
            f"and received {card_faces(pass_info['received'], 'card-small')} "
            f"from {escape(pass_info['from'].name)}.</p>"
        )
    return SafeString(
        f'<h2 id="hand-heading">Your hand</h2><p class="hand-note">{note}</p>'
        f'<form method="post" action="{url}" class="play-form" hx-post="{url}" '
        'hx-target="#hand" hx-swap="outerHTML" hx-sync="this:drop">'
        f"{form_csrf(context)}"
        f'<input type="hidden" name="version" value="{context["version"]}">'
        f'<ul class="hand" aria-label="Your cards">{play_buttons(context["hand_cards"])}</ul>'
        f"{reasons}</form>{record}"
    )
