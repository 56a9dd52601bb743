"""The translatable strings of the site's source, found in pure Python (no GNU gettext).

What `manage.py makemessages` gives xgettext, read the same way: each template through
Django's own `templatize` (the text it hands xgettext), each Python module through `ast`, for
the calls makemessages looks for (gettext, ngettext, pgettext and their lazy and noop forms).
The scripts' strings (the `djangojs` domain, `makemessages -d djangojs`) are the string
literals of their `gettext(…)`, `ngettext(…)` and `pgettext(…)` calls.
"""

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parent.parent
# What makemessages reads here (`--ignore` the rest, as the README's command does).
SOURCE_DIRS = ("games", "hearts_site", "templates")
TEMPLATE_SUFFIXES = (".html", ".txt")

# Name -> (context argument, singular, plural) positions, as makemessages' xgettext keywords.
CALLS: dict[str, tuple[int | None, int, int | None]] = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}


CALL_IN_TEMPLATE = re.compile(r"(?<![\w.])(?:npgettext|ngettext|pgettext|gettext|_)\(")


@dataclass(frozen=True)
class Message:
    msgid: str
    plural: str | None
    context: str | None
    where: str

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _from_call(node: ast.Call, where: str) -> Message | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name not in CALLS:
        return None
    context_at, singular_at, plural_at = CALLS[name]
    args = node.args
    needed = max(i for i in (context_at, singular_at, plural_at) if i is not None)
    if len(args) <= needed:
        return None
    msgid = _literal(args[singular_at])
    plural = _literal(args[plural_at]) if plural_at is not None else None
    context = _literal(args[context_at]) if context_at is not None else None
    if msgid is None or (plural_at is not None and plural is None):
        return None
    if context_at is not None and context is None:
        return None
    return Message(msgid, plural, context, where)


def python_messages(source: str, where: str) -> Iterator[Message]:
    """Yield the marked strings of one Python module."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and (message := _from_call(node, where)):
            yield message


def template_messages(source: str, where: str) -> Iterator[Message]:
    """Yield the marked strings of one template.

    `templatize` writes each as a call on one line (its strings as Python literals), with
    everything else blanked out: each call is read from its name to the first closing
    parenthesis after which it parses.
    """
    text = templatize(source, where)
    for found in CALL_IN_TEMPLATE.finditer(text):
        close = found.end()
        while (close := text.find(")", close)) != -1:
            close += 1
            try:
                node = ast.parse(text[found.start() : close], mode="eval").body
            except SyntaxError:
                continue
            if isinstance(node, ast.Call) and (message := _from_call(node, where)):
                yield message
            break


# A JavaScript string literal, in double or single quotes, with its escapes.
JS_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
JS_CALL = re.compile(
    rf"(?<![\w.$])(?P<name>ngettext|pgettext|gettext)\(\s*(?P<first>{JS_STRING})"
    rf"(?:\s*,\s*(?P<second>{JS_STRING}))?"
)
SCRIPT_DIRS = ("games/static",)


def _js_literal(text: str) -> str:
    # The scripts' strings are plain: JSON reads a double-quoted one; a single-quoted one is
    # given double quotes first.
    if text.startswith("'"):
        text = '"' + text[1:-1].replace("\\'", "'").replace('"', '\\"') + '"'
    return json.loads(text)


def script_messages(source: str, where: str) -> Iterator[Message]:
    """Yield the marked strings of one script (`gettext("…")`, `ngettext("…", "…", n)`)."""
    for found in JS_CALL.finditer(source):
        name, first, second = found["name"], found["first"], found["second"]
        if name == "gettext":
            yield Message(_js_literal(first), None, None, where)
        elif second is not None and name == "ngettext":
            yield Message(_js_literal(first), _js_literal(second), None, where)
        elif second is not None:
            yield Message(_js_literal(second), None, _js_literal(first), where)


def script_files() -> Iterator[Path]:
    for directory in SCRIPT_DIRS:
        for path in sorted((ROOT / directory).rglob("*.js")):
            if path.is_file():
                yield path


def all_script_messages() -> list[Message]:
    """Every translatable string of the site's scripts (the djangojs domain)."""
    found: list[Message] = []
    for path in script_files():
        where = str(path.relative_to(ROOT))
        found.extend(script_messages(path.read_text(encoding="utf-8"), where))
    return found


def source_files() -> Iterator[Path]:
    for directory in SOURCE_DIRS:
        for path in sorted((ROOT / directory).rglob("*")):
            if path.is_file() and (path.suffix == ".py" or path.suffix in TEMPLATE_SUFFIXES):
                yield path


def all_messages() -> list[Message]:
    """Every translatable string of the site, with where it was found."""
    found: list[Message] = []
    for path in source_files():
        where = str(path.relative_to(ROOT))
        source = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            found.extend(python_messages(source, where))
        else:
            found.extend(template_messages(source, where))
    return found
