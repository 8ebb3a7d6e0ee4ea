"""A hand as people say it, in the language of the page: the descriptions the ranking
writes (``cardroom.domain.ranking``, in English as API.md reads them) are kept in
records, so they are put in words when they are shown."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext_lazy

from cardroom.domain.cards import RANK_NAMES, RANK_PLURALS

register = template.Library()

# The ranking's descriptions (``describe_ranks``), with the ranks as %(a)s and %(b)s.
_RANK = re.compile(r"%\\\(\w\\\)s")


def _pattern(words: str) -> re.Pattern[str]:
    return re.compile("^" + _RANK.sub(r"(\\w+)", re.escape(words)) + "$")


_SHAPES = tuple(
    (_pattern(words), words)
    for words in (
        gettext_noop("royal flush"),
        gettext_noop("straight flush, %(a)s high"),
        gettext_noop("flush, %(a)s high"),
        gettext_noop("straight, %(a)s high"),
        gettext_noop("high card, %(a)s"),
        gettext_noop("four of a kind, %(a)s"),
        gettext_noop("full house, %(a)s full of %(b)s"),
        gettext_noop("three of a kind, %(a)s"),
        gettext_noop("two pair, %(a)s and %(b)s"),
        gettext_noop("one pair, %(a)s"),
    )
)  # fmt: skip

_NAMES = (
    pgettext_lazy("card rank", "two"), pgettext_lazy("card rank", "three"),
    pgettext_lazy("card rank", "four"), pgettext_lazy("card rank", "five"),
    pgettext_lazy("card rank", "six"), pgettext_lazy("card rank", "seven"),
    pgettext_lazy("card rank", "eight"), pgettext_lazy("card rank", "nine"),
    pgettext_lazy("card rank", "ten"), pgettext_lazy("card rank", "jack"),
    pgettext_lazy("card rank", "queen"), pgettext_lazy("card rank", "king"),
    pgettext_lazy("card rank", "ace"),
)  # fmt: skip
_PLURALS = (
    pgettext_lazy("card ranks", "twos"), pgettext_lazy("card ranks", "threes"),
    pgettext_lazy("card ranks", "fours"), pgettext_lazy("card ranks", "fives"),
    pgettext_lazy("card ranks", "sixes"), pgettext_lazy("card ranks", "sevens"),
    pgettext_lazy("card ranks", "eights"), pgettext_lazy("card ranks", "nines"),
    pgettext_lazy("card ranks", "tens"), pgettext_lazy("card ranks", "jacks"),
    pgettext_lazy("card ranks", "queens"), pgettext_lazy("card ranks", "kings"),
    pgettext_lazy("card ranks", "aces"),
)  # fmt: skip
_RANKS = dict(zip(RANK_NAMES + RANK_PLURALS, _NAMES + _PLURALS, strict=True))


@register.filter
def hand_words(description: str | None) -> str:
    """Say ``"full house, aces full of tens"`` in the page's language; a description
    of another shape (a low hand: ``"low, 7-5-4-3-A"``) is shown as it is."""
    text = description or ""
    for pattern, words in _SHAPES:
        match = pattern.match(text)
        if match:
            ranks = [str(_RANKS.get(w, w)) for w in match.groups()]
            return _(words) % dict(zip("ab", ranks, strict=False))
    return text
