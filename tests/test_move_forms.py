"""The forms a move is read with: each field cleaned exactly as a Django form would clean it."""

import pytest
from django import forms
from django.http import QueryDict

from games.forms import MoonForm, MoveForm, PassForm, PlayForm, first_error


def as_django_form(form_class: type[MoveForm]) -> type[forms.Form]:
    """The same fields and hooks in a Django form: what a move's form must behave like."""
    hooks = {k: v for k, v in vars(form_class).items() if k.startswith("clean_")}
    return type(f"Django{form_class.__name__}", (forms.Form,), {**form_class.fields, **hooks})


INPUTS = [
    (PlayForm, "version=12&card=QS"),
    (PlayForm, "version=12&card=qs"),
    (PlayForm, "version=+12&card=%2010h%20"),
    (PlayForm, "version=12.0&card=AS"),
    (PlayForm, "version=x&card=ZZ"),
    (PlayForm, "version=-1&card=QS"),
    (PlayForm, "version=99999999999&card=QS"),
    (PlayForm, "card=QS"),
    (PlayForm, "version=3"),
    (PlayForm, "version=3&card="),
    (PlayForm, "version=3&card=QSQS"),
    (PlayForm, "version=3&card=Q%00"),
    (PlayForm, ""),
    (PassForm, "version=1&cards=2C&cards=3C&cards=4C"),
    (PassForm, "version=1&cards=2C&cards=3C&cards=ZZ"),
    (PassForm, "version=1&cards=2C&cards=3C"),
    (PassForm, "version=1&cards=2C&cards=2C&cards=3C"),
    (PassForm, "version=1&cards=2C&cards=3C&cards=4C&cards=5C"),
    (PassForm, "version=1"),
    (PassForm, "cards=2C&cards=3C&cards=4C"),
    (MoonForm, "version=1&option=add"),
    (MoonForm, "version=1&option=subtract"),
    (MoonForm, "version=1&option=both"),
    (MoonForm, "version=1"),
]


@pytest.mark.parametrize(("form_class", "query"), INPUTS)
def test_a_move_form_cleans_and_refuses_as_a_django_form_would(form_class, query):
    data = QueryDict(query)
    ours, django_form = form_class(data), as_django_form(form_class)(data)
    assert ours.is_valid() == django_form.is_valid()
    assert ours.cleaned_data == django_form.cleaned_data
    assert ours.errors == {name: list(errors) for name, errors in django_form.errors.items()}
    if not ours.is_valid():
        assert first_error(ours) == first_error(django_form)


def test_a_move_form_cleans_once_and_keeps_its_own_data():
    bad, good = PlayForm(QueryDict("version=x&card=ZZ")), PlayForm(QueryDict("version=3&card=qs"))
    assert not bad.is_valid()
    assert good.is_valid()
    assert not bad.is_valid()  # asked again: the same answer
    assert good.cleaned_data == {"version": 3, "card": "QS"}
    assert list(bad.errors) == ["version", "card"]  # in the order the fields are declared
    assert list(PlayForm.fields) == ["version", "card"]
    assert list(MoonForm.fields) == ["version", "option"]
