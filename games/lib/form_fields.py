"""Form fields the site's forms share, kept apart so that every form module can import them."""

import re
from typing import Any

from django import forms

ASCII_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


class WholeNumberField(forms.IntegerField):
    """A whole number written in ASCII digits, the only digits the site's pages send.

    Python's `int()` also reads other scripts' digits ("٣" is 3, "１" is 1) and refuses the
    superscripts `str.isdigit()` lets through ("²"): neither is a number a page offered.
    """

    def to_python(self, value: Any) -> int | None:
        text = str(value).strip() if value is not None else ""
        if text and not ASCII_WHOLE_NUMBER.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text)
