"""Every message the code and the templates mark is in the Finnish and Korean
catalogues, translated, and no template shows text it doesn't mark."""

from __future__ import annotations

import re

import pytest

from tests.staff.catalogue import (
    APPS,
    LANGUAGES,
    ROOT,
    catalogue,
    marked_messages,
    modules,
    python_messages,
    templates,
)


@pytest.fixture(scope="module")
def marked():
    return marked_messages()


def test_the_code_and_the_templates_mark_their_messages(marked):
    wheres = {m.where.split("/")[0] for m in marked}
    assert len({m.key for m in marked}) > 1000
    assert {"staff", "accounting", "reports", "waitlist", "jackpots"} <= wheres


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_message_is_in_the_catalogue_translated(marked, language):
    _header, entries = catalogue(language)
    done = {e.key for e in entries if all(e.msgstr) and "fuzzy" not in e.flags}
    plural = {e.key for e in entries if e.msgid_plural is not None}
    missing = sorted({f"{m.where}: {m.msgid!r}" for m in marked if m.key not in done})
    assert missing == []
    # A message marked with a plural in one place is a plural entry (ngettext).
    assert sorted({m.msgid for m in marked if m.plural and m.key not in plural}) == []


def test_no_message_is_marked_inside_an_f_string():
    """``makemessages`` doesn't look into f-strings, so such a message is never
    translated: mark it first, then put it in the f-string."""
    found = sorted(
        f"{m.where}: {m.msgid!r}"
        for path in modules()
        for m in python_messages(path, in_fstrings=True)
    )
    assert found == []


# What a person reads in a template: text between the tags and in the attributes
# that show. Template tags, variables, comments, scripts and styles are left out,
# and what is inside translate and blocktranslate.
_HIDDEN = [
    re.compile(r"{#.*?#}", re.S),
    re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S),
    re.compile(r"{%\s*blocktrans(?:late)?\b.*?{%\s*endblocktrans(?:late)?\s*%}", re.S),
    re.compile(r"<(script|style)\b.*?</\1\s*>", re.S | re.I),
    re.compile(r"{%.*?%}", re.S),
    re.compile(r"{{.*?}}", re.S),
    re.compile(r"&#?\w+;"),
]
_SHOWN_ATTRIBUTE = re.compile(
    r"""\b(title|placeholder|alt|aria-label|label)\s*=\s*(["'])(.*?)\2""", re.S
)
_BUTTON_VALUE = re.compile(
    r"""<input\b[^>]*\btype=["']?(?:submit|button|reset)[^>]*\bvalue=(["'])(.*?)\1""",
    re.S | re.I,
)
_TAG = re.compile(r"<[^>]*>", re.S)
# Two letters or more make a word; numbers, symbols and one-letter units pass.
_WORD = re.compile(r"[^\W\d_]{2,}")


def unmarked_text(source: str) -> list[str]:
    """The words a person would read in ``source`` that no translate tag holds."""
    for pattern in _HIDDEN:
        source = pattern.sub(" ", source)
    shown = [m.group(3) for m in _SHOWN_ATTRIBUTE.finditer(source)]
    shown += [m.group(2) for m in _BUTTON_VALUE.finditer(source)]
    shown += [line.strip() for line in _TAG.sub("\n", source).splitlines()]
    return [text for text in shown if _WORD.search(text)]


def test_the_template_scan_finds_unmarked_text():
    source = """{% load i18n %}<h1>{% translate "Tables" %}</h1><p>Seat {{ n }}</p>
    <input type="submit" value="Go"><input type="hidden" name="a" value="call">
    <a title="Back">←</a> {% blocktranslate %}Fine {{ x }}{% endblocktranslate %}
    <span>{{ amount }}&nbsp;€ · 12 %</span><script>let s = "not shown";</script>"""
    assert unmarked_text(source) == ["Back", "Go", "Seat"]


@pytest.mark.parametrize(
    "template", templates(), ids=lambda t: str(t.relative_to(ROOT))
)
def test_no_template_shows_text_it_does_not_mark(template):
    assert unmarked_text(template.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "full house, aces full of tens"),
        ("fi", "täyskäsi, ässät ja kympit"),
        ("ko", "풀하우스, 에이스 풀 오브 10"),
    ],
)
def test_a_hand_recorded_in_english_is_said_in_the_pages_language(language, said):
    """The ranking's descriptions are stored as API.md reads them; a low hand,
    which has no other words, is shown as it is."""
    from django.utils import translation

    from cardroom.templatetags.hands import hand_words

    with translation.override(language):
        assert hand_words("full house, aces full of tens") == said
        assert hand_words("low, 7-5-4-3-A") == "low, 7-5-4-3-A"


def test_every_model_names_its_plural_for_the_catalogues():
    """Without it the admin writes the plural as the name and an "s", translated or
    not: "Pelaajas", "명s". (django-pghistory's event tables are no screen's.)"""
    from django.apps import apps
    from pghistory.models import Event

    ours = {app.name for app in apps.get_app_configs()} & {p.name for p in APPS}
    unnamed = sorted(
        model._meta.label
        for model in apps.get_models()
        if model._meta.app_config.name in ours
        and "verbose_name_plural" not in model._meta.original_attrs
        and not issubclass(model, Event)
    )
    assert unnamed == []
