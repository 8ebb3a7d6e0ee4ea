"""Errors of the hand engine, in the one error shape of API.md."""

from __future__ import annotations

from typing import Any

from core.errors import Refusal


class HandError(Refusal, ValueError):
    """A hand record or policy the engine can't settle.

    Carries the fields of API.md's error object: a stable ``code`` for programs, the
    ``rule`` of RULES.md that refused it (``None`` when no house rule applies, e.g. a
    malformed card), a ``detail`` for people and what was ``allowed``.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        rule: str | None = None,
        allowed: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, detail, rule=rule, allowed=allowed)
        self.index: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the error object of API.md: ``{"error": {code, rule, ...}}``.

        In a batch, ``index`` (an added field) is the position of the failing hand.
        """
        body = super().as_dict()
        if self.index is not None:
            body["error"]["index"] = self.index
        return body

    def __repr__(self) -> str:
        return f"HandError({self.code!r}, rule={self.rule!r}, detail={self.detail!r})"
