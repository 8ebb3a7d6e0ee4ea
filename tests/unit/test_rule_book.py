"""The rule book (docs/rules.md) and the code agree on the rules' IDs.

Every rule ID the apps and the tests cite (in Python, templates and Markdown: ``BI5``,
``HS10``, ``HS-P1``, and every ``rule="…"`` or ``"rule": "…"`` value) has its entry
in the book, and every rule in the book is cited by code or a test, but for the
few the book holds ahead of the code. Static reads of the source, no database.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "docs" / "rules.md"
HERE = Path(__file__).resolve()

# Where rules are cited: the apps, the project and the tests.
CITING = (
    "accounting",
    "cardroom",
    "config",
    "core",
    "jackpots",
    "reports",
    "simulation",
    "staff",
    "tournaments",
    "waitlist",
    "tests",
)
SUFFIXES = (".py", ".html", ".md")

SECTIONS = "RK|JD|BB|HM|HS|BI|CA|WL|PP|PR|DC|TO"
# A rule of RULES.md (``CA3``) or a product rule of the book (``HS-P1``), standing
# alone: not inside a word or a longer number (``NCA3``, ``CA31x``, ``T01``).
RULE_ID = re.compile(
    rf"(?<![A-Za-z0-9_])(?P<id>(?:{SECTIONS})(?:\d{{1,2}}|-P\d{{1,2}}))(?![A-Za-z0-9])"
)
# ``RK1–RK3`` cites RK2 too.
RULE_RANGE = re.compile(
    rf"(?<![A-Za-z0-9_])(?P<s>{SECTIONS})(?P<a>\d{{1,2}})\s?[–-]\s?(?P=s)(?P<b>\d{{1,2}})"
    r"(?![A-Za-z0-9])"
)
# What goes on the wire: ``rule="TO7"``, ``rule = "TO9"``, ``"rule": "PP3"``.
RULE_VALUE = re.compile(
    r"""(?:\brule\s*=\s*|["']rule["']\s*:\s*)["'](?P<value>[^"'\n]*)["']"""
)
BOOK_ENTRY = re.compile(rf"^### (?P<id>(?:{SECTIONS})(?:\d{{1,2}}|-P\d{{1,2}})) — ")
BOOK_SECTION = re.compile(rf"^## (?P<section>{SECTIONS}) — ")

AHEAD_OF_THE_CODE: dict[str, str] = {}
"""Rules the book holds before any code enforces them, and why."""

NOT_RULES = {
    "XX1": "tests/api/idempotency_urls.py: a made-up rule for a refusal after writing",
}
"""``rule`` values of the tests that name no rule on purpose, and why."""


def citing_files() -> list[Path]:
    found = []
    for folder in CITING:
        found += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.suffix in SUFFIXES and p.is_file() and p.resolve() != HERE
        ]
    return sorted(found)


def rule_ids(text: str) -> set[str]:
    """Return the rule IDs ``text`` cites, the inside of ranges included."""
    ids = {m["id"] for m in RULE_ID.finditer(text)}
    for m in RULE_RANGE.finditer(text):
        ids |= {f"{m['s']}{n}" for n in range(int(m["a"]), int(m["b"]) + 1)}
    return ids


def cited() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Return where each rule ID is cited, and where each ``rule`` value is."""
    ids: dict[str, set[str]] = defaultdict(set)
    values: dict[str, set[str]] = defaultdict(set)
    for path in citing_files():
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(ROOT))
        for rule in rule_ids(text):
            ids[rule].add(where)
        for m in RULE_VALUE.finditer(text):
            values[m["value"]].add(where)
    return ids, values


def book() -> list[tuple[str, str | None]]:
    """Return the book's entries in order, each with the section it stands in."""
    entries, section = [], None
    for line in BOOK.read_text(encoding="utf-8").splitlines():
        if m := BOOK_SECTION.match(line):
            section = m["section"]
        elif line.startswith("## "):
            section = None
        if m := BOOK_ENTRY.match(line):
            entries.append((m["id"], section))
    return entries


def test_the_regex_reads_ids_and_nothing_else():
    text = (
        "HS10, (BI5) and `PP3`: CA3 RK1–RK3 HS-P1. Not NCA3, CA3x, CA123, T01, TT1,"
        " test_bi5, PLO5, NL12, XCA3."
    )
    assert rule_ids(text) == {
        "HS10",
        "BI5",
        "PP3",
        "CA3",
        "RK1",
        "RK2",
        "RK3",
        "HS-P1",
    }
    values = [m["value"] for m in RULE_VALUE.finditer('rule="TO7", "rule": "PP3"')]
    assert values == ["TO7", "PP3"]


def test_the_book_has_each_rule_once_in_its_section():
    entries = book()
    ids = [rule for rule, _ in entries]
    assert len(ids) > 90
    assert sorted(r for r in set(ids) if ids.count(r) > 1) == []
    assert [(r, s) for r, s in entries if s != r[:2]] == []


def test_every_rule_the_code_cites_is_in_the_book():
    ids, values = cited()
    in_book = {rule for rule, _ in book()}
    missing = {r: sorted(where) for r, where in ids.items() if r not in in_book}
    assert missing == {}
    unknown = {
        value: sorted(where)
        for value, where in values.items()
        if value not in in_book and value not in NOT_RULES
    }
    assert unknown == {}


def test_every_rule_in_the_book_is_cited_by_code_or_a_test():
    ids, values = cited()
    cited_ids = set(ids) | set(values)
    uncited = [
        rule
        for rule, _ in book()
        if rule not in cited_ids and rule not in AHEAD_OF_THE_CODE
    ]
    assert uncited == []


def test_the_allow_lists_hold_only_what_they_must():
    """A rule built leaves AHEAD_OF_THE_CODE; a made-up value gone leaves NOT_RULES."""
    ids, values = cited()
    in_book = {rule for rule, _ in book()}
    assert set(AHEAD_OF_THE_CODE) <= in_book
    assert sorted(set(AHEAD_OF_THE_CODE) & (set(ids) | set(values))) == []
    assert set(NOT_RULES) <= set(values)
    assert sorted(set(NOT_RULES) & in_book) == []
