"""The forms a move is read with: what each accepts, and the message for what it refuses."""

import pytest
from django.http import QueryDict

from games.forms import MoonForm, PassForm, PlayForm, first_error

STALE = "This page is out of date: reload it and try again."
MOON = "Choose to subtract 26 from your score or add 26 to everyone else's."
THREE = "Choose exactly three cards to pass, not 2."
ACCEPTED = [
    (PlayForm, "version=12&card=QS", {"version": 12, "card": "QS"}),
    (PlayForm, "version=12&card=qs", {"version": 12, "card": "QS"}),
    (PlayForm, "version=+12&card=%20th%20", {"version": 12, "card": "TH"}),
    (PassForm, "version=1&cards=2C&cards=3C&cards=4C", {"version": 1, "cards": ["2C", "3C", "4C"]}),
    (MoonForm, "version=1&option=add", {"version": 1, "option": "add"}),
    (MoonForm, "version=1&option=subtract", {"version": 1, "option": "subtract"}),
]
REFUSED = [
    (PlayForm, "version=x&card=QS", STALE),
    (PlayForm, "version=-1&card=QS", STALE),
    (PlayForm, "version=99999999999&card=QS", STALE),
    (PlayForm, "card=QS", STALE),
    (PlayForm, "version=3", "Choose a card to play."),
    (PlayForm, "version=3&card=", "Choose a card to play."),
    (PlayForm, "version=3&card=ZZ", "That is not a card."),
    (PlayForm, "version=3&card=10H", "That is not a card."),
    (PlayForm, "version=3&card=Q%00", "That is not a card."),
    (PlayForm, "version=3&card=QSQS", "That is not a card."),
    (PassForm, "version=1&cards=2C&cards=3C&cards=ZZ", "That is not a card."),
    (PassForm, "version=1&cards=2C&cards=3C", THREE),
    (PassForm, "version=1&cards=2C&cards=2C&cards=3C", THREE),
    (PassForm, "version=1", "Choose three cards to pass."),
    (PassForm, "cards=2C&cards=3C&cards=4C", STALE),
    (MoonForm, "version=1&option=both", MOON),
    (MoonForm, "version=1", MOON),
]  # fmt: skip


@pytest.mark.parametrize(("form_class", "query", "cleaned"), ACCEPTED)
def test_a_move_form_accepts_and_cleans(form_class, query, cleaned):
    form = form_class(QueryDict(query))
    assert form.is_valid(), form.errors
    assert form.cleaned_data == cleaned


@pytest.mark.parametrize(("form_class", "query", "message"), REFUSED)
def test_a_move_form_refuses_with_a_clear_message(form_class, query, message):
    form = form_class(QueryDict(query))
    assert not form.is_valid()
    assert first_error(form) == message
