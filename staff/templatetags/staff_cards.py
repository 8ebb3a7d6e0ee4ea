"""Playing cards as people read them: ``Ah`` is a red A♥, ``Ts`` a black 10♠."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()

SUITS = {"s": ("♠", "black"), "h": ("♥", "red"), "d": ("♦", "red"), "c": ("♣", "black")}
RANKS = {"T": "10"}


@register.filter
def card(code: str) -> SafeString:
    """One card (``Ah``) as its rank and suit symbol, red or black; a card the
    hand record doesn't name (``??``) as a face-down card."""
    code = str(code or "")
    if len(code) != 2 or code[1].lower() not in SUITS:
        return format_html('<span class="playing-card down" title="{}">🂠</span>', code)
    rank, (symbol, colour) = code[0].upper(), SUITS[code[1].lower()]
    return format_html(
        '<span class="playing-card {}" title="{}">{}{}</span>',
        colour,
        code,
        RANKS.get(rank, rank),
        symbol,
    )


@register.filter
def cards(codes: Iterable[str] | str | None) -> SafeString:
    """Several cards (a list, or ``"As Ad"``) side by side."""
    if isinstance(codes, str):
        codes = codes.split()
    return format_html_join("", "{}", ((card(c),) for c in codes or ()))
