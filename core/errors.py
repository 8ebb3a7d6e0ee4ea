"""Application errors: what services and domain code raise, knowing nothing of HTTP.

Plain Python with no Django import, so the ``domain/`` packages can raise them too.
Each carries the fields of API.md's error object: a stable ``code`` for programs,
the ``rule`` of RULES.md that refused the request (``None`` when no house rule
applies), a ``detail`` for people and what was ``allowed``. One exception handler at
the edge (``core.api.errors.exception_handler``) maps them to statuses:

- :class:`Invalid`: the request can't be read (400);
- :class:`Refusal`: a house rule refuses it (422; 400 when it names no rule);
- :class:`Unprocessable`: the request is well formed, as its schema says, but
  refused for what the schema can't state and no house rule decides: fields
  that contradict each other (422);
- :class:`NotFound`: the thing named doesn't exist (404);
- :class:`Conflict`: it contradicts what is recorded (409);
- :class:`Forbidden`: the caller may not do it (403).

>>> error = Refusal("short_buy_in_not_allowed", "Once a night.", rule="BI4")
>>> error.as_dict()["error"]["rule"]
'BI4'

Texts are translated when they are read, not when they are raised: ``detail`` is the
message template passed through the active language's catalogue (Django's
``gettext``, installed by ``core.apps``; the identity until then) and filled with
``params``. A plain text that no catalogue holds comes back as it is.

Each app keeps its codes as a :class:`enum.StrEnum` and their texts in one table
beside them (``APP/errors.py``), marked for ``makemessages`` with
:func:`gettext_noop` (this module's, so that ``domain/`` code can use the table):

>>> from enum import StrEnum
>>> class Code(StrEnum):
...     OVER_MAXIMUM = "over_maximum"
>>> TEXTS = {Code.OVER_MAXIMUM: gettext_noop("At most %(maximum)s may be bought in.")}
>>> refuse = refuser(TEXTS)
>>> error = refuse(Code.OVER_MAXIMUM, rule="BI1", maximum="€500.00")
>>> (error.code, error.detail)
('over_maximum', 'At most €500.00 may be bought in.')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

_translate: Callable[[str], str] = str


def install_translator(translate: Callable[[str], str]) -> None:
    """Set the function that turns a message template into the active language's."""
    global _translate
    _translate = translate


def gettext_noop(message: str) -> str:
    """Mark a message template for the catalogues; it is translated when read."""
    return message


class Said(str):
    """A parameter of a message that is itself a message (a scope's name): marked
    for the catalogues with :func:`gettext_noop`, translated when the message is
    read, as the message is.

    >>> "from %(scope)s" % {"scope": Said("the room")}
    'from the room'
    """

    __slots__ = ()

    def __str__(self) -> str:
        return _translate(str.__str__(self))


class ApplicationError(Exception):
    """Base of every error a use case raises for its caller to answer."""

    status: ClassVar[int] = 400
    template: str = ""
    params: Mapping[str, Any] | None = None

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        rule: str | None = None,
        allowed: dict[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = str(code)
        self.template = detail
        self.params = params
        self.rule = rule
        self.allowed = allowed

    @property
    def detail(self) -> str:
        """The message in the active language, with its parameters (and ``rule``)
        filled in."""
        text = _translate(self.template)
        return text % {"rule": self.rule, **self.params} if self.params else text

    @detail.setter
    def detail(self, value: str) -> None:
        self.template, self.params = value, None

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

    def __str__(self) -> str:
        return self.detail

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


class Unprocessable(ApplicationError):
    """A request its schema allows, refused for what the schema can't state (422).

    400 says "this request breaks the door's schema"; a request that keeps to it
    is never answered 400. What the schema can't state is refused for what it
    is: by the house rule that decides it (:class:`Refusal` with its ``rule``,
    422: a deal naming other entries than those left, TO5), else here, with
    what ``allowed`` would be taken: fields that each read well and contradict
    each other (a big blind below the small blind, a period that ends before it
    starts). ``rule`` may still name the rule the refusal serves.

    >>> error = Unprocessable(
    ...     "blinds_out_of_order", "Too small.", allowed={"min_big_blind": 200}
    ... )
    >>> (error.status_code, error.rule, error.allowed)
    (422, None, {'min_big_blind': 200})
    """

    status = 422


class NotFound(ApplicationError):
    """What the request names doesn't exist (404)."""

    status = 404


class Conflict(ApplicationError):
    """The request contradicts recorded state (409)."""

    status = 409


class Unauthenticated(ApplicationError):
    """The caller's credentials no longer hold (401): a terminal key revoked or
    expired since it was last checked."""

    status = 401


class Forbidden(ApplicationError):
    """The caller may not do this, whatever its role allows elsewhere (403)."""

    status = 403


E = TypeVar("E", bound=ApplicationError)


def refuser(
    texts: Mapping[Any, str],
    kind: type[E] = Refusal,  # type: ignore[assignment]
) -> Callable[..., E]:
    """Return ``refuse(code, *, rule=None, allowed=None, text=None, **params)``.

    ``refuse`` builds (it doesn't raise) an error of ``kind`` whose detail is the
    code's text in ``texts``, or ``text`` (another template of the app's table, for
    a code that several refusals share); keyword arguments other than ``rule``,
    ``allowed`` and ``text`` fill it.
    """

    def refuse(
        code: StrEnum,
        /,
        *,
        rule: str | None = None,
        allowed: dict[str, Any] | None = None,
        text: str | None = None,
        **params: Any,
    ) -> E:
        return kind(
            code,
            texts[code] if text is None else text,
            rule=rule,
            allowed=allowed,
            params=params or None,
        )

    return refuse


def variants_refuser(
    texts: Mapping[Any, str],
    kind: type[E] = Refusal,  # type: ignore[assignment]
) -> Callable[..., E]:
    """As :func:`refuser`, over a table where a code that several rules refuse with
    has one text per rule: ``texts[code]`` and ``texts[code, variant]``.

    ``refuse(code, /, *, text=None, rule=None, allowed=None, **params)`` says the
    code's text, or its ``text`` variant; ``code`` is positional, so a text may
    have a ``%(code)s`` of its own.
    """

    def refuse(
        code: StrEnum,
        /,
        *,
        text: str | None = None,
        rule: str | None = None,
        allowed: dict[str, Any] | None = None,
        **params: Any,
    ) -> E:
        template = texts[code if text is None else (code, text)]
        return kind(code, template, rule=rule, allowed=allowed, params=params or None)

    return refuse
