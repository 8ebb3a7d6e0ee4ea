"""Every message the terminal's screens mark (``gettext("…")`` in its scripts) is
in the Finnish and Korean JavaScript catalogues, translated: the dealer's tablet
reads in the language he chose, offline too (the service worker keeps them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = sorted((ROOT / "terminal/static/terminal/js/app").glob("*.js"))
# A string literal in double quotes, as the scripts write their messages.
MARKED = re.compile(r'\b(?:gettext|gettext_noop)\(\s*("(?:[^"\\]|\\.)*")\s*[,)]')
# A line that is a comment: its examples are not messages.
COMMENT = re.compile(r"^\s*(?://|/?\*).*$", re.M)


def marked() -> set[str]:
    found: set[str] = set()
    for script in SCRIPTS:
        code = COMMENT.sub("", script.read_text("utf-8"))
        found.update(json.loads(m) for m in MARKED.findall(code))
    return found


def catalogue(language: str) -> dict[str, str]:
    """msgid → msgstr of the language's djangojs catalogue (singular entries)."""
    text = (ROOT / f"locale/{language}/LC_MESSAGES/djangojs.po").read_text("utf-8")
    entries: dict[str, str] = {}
    for block in text.split("\n\n"):
        ids = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        strs = re.search(r'^msgstr ((?:".*"\n?)+)', block, re.M)
        if not (ids and strs) or "#, fuzzy" in block:
            continue
        join = lambda raw: "".join(json.loads(x) for x in raw.split("\n") if x)  # noqa: E731
        entries[join(ids.group(1))] = join(strs.group(1))
    return entries


def test_the_scripts_mark_their_messages():
    assert len(marked()) > 100


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_every_marked_message_is_translated(language):
    known = catalogue(language)
    missing = sorted(m for m in marked() if not known.get(m))
    assert missing == []
