"""The tournaments' messages read in Finnish and Korean (STYLE: every string a
person reads is translated)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.models import Entry, Event

MESSAGES = [
    "TO1: registration closed after level %(level)d.",
    "TO9: a payout sheet is approved by another person than who prepared it.",
    "TO5: a deal includes every player left, and only them.",
    "Tournament final report: %(name)s",
    "Sell an entry",
    "Guaranteed %(amount)s",
    "%(rule)s: the amount is %(price)s; %(typed)s was typed.",
    "TO10: a manager approves a refund before the cage pays it.",
    "Buy-in (prize pool)",
]


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_the_tournament_messages_are_translated(language: str) -> None:
    with translation.override(language):
        for message in MESSAGES:
            assert translation.gettext(message) != message, message
        assert str(Event.Status.RUNNING.label) != "running"
        assert str(Entry.Kind.REENTRY.label) != "re-entry"
