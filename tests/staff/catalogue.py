"""The message catalogues read as they are written (locale/LANG/LC_MESSAGES/django.po)
and the messages the code and the templates mark, found the way ``makemessages``
finds them: Django's ``templatize`` for templates, the gettext keywords Django
passes to ``xgettext`` for Python. Plain Python: no gettext tools are needed."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ("fi", "ko")
# Every Django app of the project (the folders makemessages walks, less the tests,
# the benchmarks and the docs).
APPS = sorted(p.parent for p in ROOT.glob("*/apps.py"))


@dataclass
class Entry:
    """One message of a catalogue: its context, its English forms, its translations
    (one per plural form) and its flags."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
_FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")$')


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES[m.group(1)], body)


def read_po(path: Path) -> tuple[dict[str, str], list[Entry]]:
    """The header's fields and the entries (not the header, not obsolete ones)."""
    entries: list[Entry] = []
    header: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        entry = Entry(msgid="")
        last: tuple[str, int] | None = None
        seen = False
        for number, raw in enumerate(block.splitlines()):
            line = raw.strip()
            if line.startswith("#,"):
                entry.flags.update(f.strip() for f in line[2:].split(","))
            elif line.startswith("#") or not line:
                continue
            elif match := _FIELD.match(line):
                name, index, value = match.groups()
                seen = True
                entry.line = entry.line or number
                text = _unquote(value)
                if name.startswith("msgstr"):
                    i = int(index or 0)
                    entry.msgstr.extend("" for _ in range(i + 1 - len(entry.msgstr)))
                    entry.msgstr[i] = text
                    last = ("msgstr", i)
                else:
                    setattr(entry, name, text)
                    last = (name, 0)
            elif line.startswith('"') and last is not None:
                name, i = last
                if name == "msgstr":
                    entry.msgstr[i] += _unquote(line)
                else:
                    setattr(entry, name, (getattr(entry, name) or "") + _unquote(line))
        if not seen:
            continue
        if entry.msgid == "" and entry.msgctxt is None:
            for line in entry.msgstr[0].splitlines():
                name, _, value = line.partition(":")
                header[name.strip()] = value.strip()
            continue
        entries.append(entry)
    return header, entries


def catalogue(language: str) -> tuple[dict[str, str], list[Entry]]:
    return read_po(LOCALE / language / "LC_MESSAGES" / "django.po")


# Finding the marked messages --------------------------------------------------------

# Django's makemessages passes these to xgettext (with xgettext's own _, gettext and
# ngettext): the name, and where the context, the message and its plural are.
KEYWORDS: dict[str, tuple[int | None, int, int | None]] = {
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


@dataclass(frozen=True)
class Message:
    """A marked message and where it is marked."""

    msgid: str
    plural: str | None
    context: str | None
    where: str

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


def _calls(tokens: list[tokenize.TokenInfo]):
    """Each ``keyword(<strings>, ...)`` in a token stream, as (name, [args])."""
    for i, token in enumerate(tokens[:-2]):
        if token.type != tokenize.NAME or token.string not in KEYWORDS:
            continue
        if tokens[i + 1].string != "(":
            continue
        args: list[str | None] = []
        current: list[str] = []
        for t in tokens[i + 2 :]:
            if t.type == tokenize.STRING:
                current.append(ast.literal_eval(t.string))
            elif t.string in {",", ")"}:
                args.append("".join(current) if current else None)
                current = []
                if t.string == ")":
                    break
            elif t.type in {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT}:
                continue
            else:
                current = []
                args.append(None)
                break
        yield token.string, args


def _messages(name: str, args: list[str | None], where: str) -> Message | None:
    context, singular, plural = KEYWORDS[name]
    if len(args) <= singular or args[singular] is None:
        return None
    return Message(
        msgid=args[singular],  # type: ignore[arg-type]
        plural=args[plural] if plural is not None and len(args) > plural else None,
        context=args[context] if context is not None else None,
        where=where,
    )


def template_messages(path: Path) -> list[Message]:
    """The messages of one template, as makemessages reads them (``templatize``)."""
    from django.utils.translation.template import templatize

    text = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    # Its lines are no Python blocks: indentation means nothing there.
    text = "\n".join(line.lstrip() for line in text.splitlines())
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    where = str(path.relative_to(ROOT))
    found = (_messages(name, args, where) for name, args in _calls(tokens))
    return [m for m in found if m is not None]


@functools.cache
def _parsed(path: Path) -> ast.Module | None:
    """A module's syntax tree, if it uses gettext at all (parsed once a run)."""
    text = path.read_text(encoding="utf-8")
    return ast.parse(text) if "gettext" in text else None


def _marking_calls(tree: ast.AST, *, in_fstring: bool = False):
    """Each call of a gettext keyword, and whether it sits in an f-string."""
    for node in ast.iter_child_nodes(tree):
        inside = in_fstring or isinstance(node, ast.JoinedStr)
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in KEYWORDS:
                yield name, node, inside
        yield from _marking_calls(node, in_fstring=inside)


def python_messages(path: Path, *, in_fstrings: bool = False) -> list[Message]:
    """The messages marked in one module with Django's gettext keywords.

    ``xgettext`` doesn't look into f-strings: a message marked there never reaches
    the catalogues, so it is left out, or, with ``in_fstrings``, the only ones
    given.
    """
    tree = _parsed(path)
    if tree is None:
        return []
    found: list[Message] = []
    where = str(path.relative_to(ROOT))
    for name, node, inside in _marking_calls(tree):
        if inside != in_fstrings:
            continue
        args = [
            a.value
            if isinstance(a, ast.Constant) and isinstance(a.value, str)
            else None
            for a in node.args
        ]
        message = _messages(name, args, f"{where}:{node.lineno}")
        if message is not None:
            found.append(message)
    return found


def templates() -> list[Path]:
    return sorted(t for app in APPS for t in app.glob("templates/**/*.html"))


def modules() -> list[Path]:
    return sorted(
        m for app in APPS for m in app.rglob("*.py") if "migrations" not in m.parts
    )


def marked_messages() -> list[Message]:
    """Every message the project's templates and Python modules mark."""
    found = [m for t in templates() for m in template_messages(t)]
    found += [m for p in modules() for m in python_messages(p)]
    return found
