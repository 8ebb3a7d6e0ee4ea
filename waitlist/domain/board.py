"""What the public board may say about a player: a nickname or initials (WL11)."""

from __future__ import annotations


def initials(name: str) -> str:
    """Return the initials of a name, each followed by a dot.

    >>> initials("Mika Virtanen")
    'M. V.'
    >>> initials("  anna-liisa  ")
    'A.'
    >>> initials("김민준")
    '김.'
    """
    return " ".join(f"{word[0].upper()}." for word in name.split())


def board_name(nickname: str, name: str) -> str:
    """Return how the board shows a player: his nickname, else his initials.

    >>> board_name("", "Mika Virtanen"), board_name(" Ace ", "Mika Virtanen")
    ('M. V.', 'Ace')
    """
    return nickname.strip() or initials(name) or "?"
