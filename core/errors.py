"""Application errors: what services and domain code raise, knowing nothing of HTTP.

Plain Python with no Django import, so the ``domain/`` packages can raise them too.
Each carries the fields of API.md's error object: a stable ``code`` for programs,
the ``rule`` of RULES.md that refused the request (``None`` when no house rule
applies), a ``detail`` for people and what was ``allowed``. One exception handler at
the edge (``core.api.errors.exception_handler``) maps them to statuses:

- :class:`Invalid`: the request can't be read (400);
- :class:`Refusal`: a house rule refuses it (422; 400 when it names no rule);
- :class:`NotFound`: the thing named doesn't exist (404);
- :class:`Conflict`: it contradicts what is recorded (409);
- :class:`Forbidden`: the caller may not do it (403).

>>> error = Refusal("short_buy_in_not_allowed", "Once a night.", rule="BI4")
>>> error.as_dict()["error"]["rule"]
'BI4'
"""

from __future__ import annotations

from typing import Any, ClassVar


class ApplicationError(Exception):
    """Base of every error a use case raises for its caller to answer."""

    status: ClassVar[int] = 400

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        rule: str | None = None,
        allowed: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.rule = rule
        self.allowed = allowed

    @property
    def status_code(self) -> int:
        """The HTTP status the edge answers with."""
        return self.status

    def as_dict(self) -> dict[str, Any]:
        """Return API.md's error object ``{"error": {code, rule, detail, allowed}}``."""
        return {
            "error": {
                "code": self.code,
                "rule": self.rule,
                "detail": self.detail,
                "allowed": self.allowed,
            }
        }

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.code!r}, rule={self.rule!r},"
            f" detail={self.detail!r})"
        )


class Invalid(ApplicationError):
    """Input that can't be read: a malformed value, an unknown field (400)."""

    status = 400


class Refusal(ApplicationError):
    """A house rule refuses the request (422); without a rule it is malformed (400)."""

    status = 422

    @property
    def status_code(self) -> int:
        return self.status if self.rule else 400


class NotFound(ApplicationError):
    """What the request names doesn't exist (404)."""

    status = 404


class Conflict(ApplicationError):
    """The request contradicts recorded state (409)."""

    status = 409


class Forbidden(ApplicationError):
    """The caller may not do this, whatever its role allows elsewhere (403)."""

    status = 403
