"""Compare rendered regions of the match page by what a browser makes of them.

Templates lay their markup out on several lines; what a browser shows does not change when
whitespace next to a block-level tag (a `<div>`, `<li>`, `<p>`...) comes or goes, nor when a
run of spaces and line breaks becomes one space. Between inline tags or words a space does
matter ("3♣ You" against "3♣You"), so it is kept, as one space.
"""

from __future__ import annotations

import re

BLOCK_TAGS = frozenset({
    "section", "div", "p", "h1", "h2", "h3", "h4", "ol", "ul", "li", "dl", "dt", "dd",
    "form", "fieldset", "legend", "header", "details", "summary",
})  # fmt: skip
# A run of whitespace between two tags: the tag before it and the tag after it.
_BETWEEN_TAGS = re.compile(r"(<(/?)([a-z0-9]+)[^>]*>)\s+(?=<(/?)([a-z0-9]+))")


def normalise(html: str) -> str:
    """Return the markup with insignificant whitespace dropped and the rest as single spaces."""
    html = re.sub(r"\s+", " ", html.strip())

    def between(found: re.Match) -> str:
        before, after = found.group(3), found.group(5)
        if before in BLOCK_TAGS or after in BLOCK_TAGS:
            return found.group(1)
        return found.group(1) + " "

    return _BETWEEN_TAGS.sub(between, html)


def readable(html: str) -> str:
    """Return normalised markup with each block-level element starting a line, for diffs."""
    starts = re.compile(r"(?=<(?:" + "|".join(sorted(BLOCK_TAGS)) + r")[\s>])")
    return starts.sub("\n", normalise(html)).strip() + "\n"
