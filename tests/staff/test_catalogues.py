"""The Finnish and Korean catalogues are whole: nothing untranslated or fuzzy, every
plural form, the placeholders of the English kept, and the compiled catalogue the
server reads made from the one in the repository."""

from __future__ import annotations

import gettext
import re
from collections import Counter

import pytest

from tests.staff.catalogue import LANGUAGES, LOCALE, catalogue

PLURAL_FORMS = {
    "fi": "nplurals=2; plural=(n != 1);",
    "ko": "nplurals=1; plural=0;",
}
# Python's %-placeholders (named or not) and the braces the board's script fills.
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]|\{\w*\}")


def placeholders(text: str) -> Counter[str]:
    return Counter(PLACEHOLDER.findall(text))


@pytest.fixture(scope="module", params=LANGUAGES)
def language(request) -> str:
    return request.param


def test_the_catalogues_hold_many_messages(language):
    _header, entries = catalogue(language)
    assert len(entries) > 1000


def test_nothing_is_untranslated_or_fuzzy(language):
    _header, entries = catalogue(language)
    untranslated = [e.msgid for e in entries if not e.msgstr or not all(e.msgstr)]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert (untranslated, fuzzy) == ([], [])


def test_no_message_is_in_the_catalogue_twice(language):
    """A merge of two branches' catalogues can leave one message twice."""
    _header, entries = catalogue(language)
    twice = [key for key, n in Counter(e.key for e in entries).items() if n > 1]
    assert twice == []


def test_plural_forms_are_the_languages_and_every_form_is_there(language):
    header, entries = catalogue(language)
    assert header["Plural-Forms"] == PLURAL_FORMS[language]
    forms = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[language]).group(1))
    plurals = [e for e in entries if e.msgid_plural is not None]
    assert plurals
    assert [e.msgid for e in plurals if len(e.msgstr) != forms] == []
    assert [e.msgid for e in entries if not e.msgid_plural and len(e.msgstr) > 1] == []


def test_the_placeholders_of_the_english_are_kept(language):
    """Each form keeps the placeholders of its English form: Finnish's one and many
    are the English one and many; Korean's only form is the English many."""
    _header, entries = catalogue(language)
    wrong = []
    for e in entries:
        english = [e.msgid] if e.msgid_plural is None else [e.msgid, e.msgid_plural]
        if len(e.msgstr) < len(english):
            english = english[-len(e.msgstr) :]
        for source, translated in zip(english, e.msgstr, strict=False):
            if placeholders(source) != placeholders(translated):
                wrong.append((source, translated))
    assert wrong == []


def test_the_compiled_catalogue_is_made_from_the_source(language):
    """django.mo, which the server reads, says what django.po says."""
    _header, entries = catalogue(language)
    path = LOCALE / language / "LC_MESSAGES" / "django.mo"
    with path.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    for e in entries:
        msgid = e.msgid if e.msgctxt is None else f"{e.msgctxt}\x04{e.msgid}"
        if e.msgid_plural is None:
            expected[msgid] = e.msgstr[0]
        else:
            expected.update(((msgid, i), s) for i, s in enumerate(e.msgstr))
    compiled = {k: v for k, v in compiled.items() if k != ""}
    stale = sorted(str(k) for k in expected.keys() ^ compiled.keys())
    changed = sorted(str(k) for k in expected if compiled.get(k) != expected[k])
    assert (stale, changed) == ([], [])
