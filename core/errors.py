"""Application errors: what services and domain code raise, knowing nothing of HTTP.

Plain Python with no Django import, so the ``domain/`` packages can raise them too.
Each carries the fields of API.md's error object: a stable ``code`` for programs,
the ``rule`` of RULES.md that refused the request (``None`` when no house rule
applies), a ``detail`` for people and what was ``allowed``. The class says what
kind of refusal it is; the one exception handler at the edge
(``core.api.errors.exception_handler``, through ``core.api.errors.status_of``)
says which HTTP status each kind is answered with:

- :class:`Invalid`: the request can't be read;
- :class:`Refusal`: a house rule refuses it (without a rule, it can't be read);
- :class:`Unprocessable`: the request is well formed, as its schema says, but
  refused for what the schema can't state and no house rule decides: fields
  that contradict each other;
- :class:`NotFound`: the thing named doesn't exist;
- :class:`Conflict`: it contradicts what is recorded;
- :class:`Unauthenticated`: the caller's credentials don't hold;
- :class:`Forbidden`: the caller may not do it;
- :class:`Throttled`: the caller asked too often; he tries again later.

>>> error = Refusal("short_buy_in_not_allowed", "Once a night.", rule="BI4")
>>> error.as_dict()["error"]["rule"]
'BI4'

Texts are translated when they are read, not when they are raised: ``detail`` is the
message template passed through the active language's catalogue (Django's
``gettext``, installed by ``core.apps``; the identity until then) and filled with
``params``. A plain text that no catalogue holds comes back as it is.

Each app keeps its codes as a :class:`enum.StrEnum` and their texts in one table
beside them (``APP/errors.py``), marked for ``makemessages`` with
:func:`gettext_noop` (this module's, so that ``domain/`` code can use the table).
A code that more than one app refuses with is defined once, here, in
:class:`SharedCode`; an app's table gives it the app's own text (keyed by the
shared member), or leaves it to :data:`SHARED_TEXTS`:

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
from typing import Any, TypeVar

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
    """Input that can't be read: a malformed value, an unknown field."""


class Refusal(ApplicationError):
    """A house rule refuses the request; without a rule it is malformed input."""


class Unprocessable(ApplicationError):
    """A request its schema allows, refused for what the schema can't state.

    "Invalid" says "this request breaks the door's schema"; a request that keeps
    to it is never answered so. What the schema can't state is refused for what
    it is: by the house rule that decides it (:class:`Refusal` with its
    ``rule``: a deal naming other entries than those left, TO5), else here, with
    what ``allowed`` would be taken: fields that each read well and contradict
    each other (a big blind below the small blind, a period that ends before it
    starts). ``rule`` may still name the rule the refusal serves.

    >>> error = Unprocessable(
    ...     "blinds_out_of_order", "Too small.", allowed={"min_big_blind": 200}
    ... )
    >>> (error.code, error.rule, error.allowed)
    ('blinds_out_of_order', None, {'min_big_blind': 200})
    """


class NotFound(ApplicationError):
    """What the request names doesn't exist."""


class Conflict(ApplicationError):
    """The request contradicts recorded state."""


class Unauthenticated(ApplicationError):
    """The caller's credentials don't hold: a terminal key revoked or expired
    since it was last checked, a wrong password."""


class Forbidden(ApplicationError):
    """The caller may not do this, whatever its role allows elsewhere."""


class Throttled(ApplicationError):
    """The caller asked too often and is held off for a while (a sign-in locked
    out after repeated failures)."""


class SharedCode(StrEnum):
    """The codes more than one app answers with, each defined once.

    The API's own (core's: a request's body, its idempotency key, a sign-in)
    and the codes several apps refuse with, each meaning one thing wherever it
    is said; an app's table gives a shared code its own text where its rule
    says it its own way.
    """

    # The API's (core.api, core.idempotency).
    INVALID = "invalid"
    MALFORMED_REQUEST = "malformed_request"
    REQUEST_TOO_LARGE = "request_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    NOT_AUTHENTICATED = "not_authenticated"
    AUTHENTICATION_FAILED = "authentication_failed"
    PERMISSION_DENIED = "permission_denied"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    THROTTLED = "throttled"
    SERVER_ERROR = "server_error"
    ERROR = "error"
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INVALID_CREDENTIALS = "invalid_credentials"
    LOCKED_OUT = "locked_out"
    # Refusals several apps make.
    REASON_REQUIRED = "reason_required"
    FOUR_EYES = "four_eyes"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    INVALID_AMOUNT = "invalid_amount"
    DECIDED = "decided"
    ALREADY_PAID = "already_paid"
    NOT_HELD = "not_held"
    WRONG_CURRENCY = "wrong_currency"
    HAND_VOIDED = "hand_voided"
    TABLE_CLOSED = "table_closed"
    NOT_FOUND = "not_found"
    ALREADY_SEATED = "already_seated"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_EMPTY = "seat_empty"
    SEAT_TAKEN = "seat_taken"
    WRONG_GAME = "wrong_game"


SHARED_TEXTS: dict[SharedCode, str] = {
    SharedCode.INVALID: gettext_noop("The request can't be read."),
    SharedCode.MALFORMED_REQUEST: gettext_noop("The request can't be read."),
    SharedCode.REQUEST_TOO_LARGE: gettext_noop(
        "The request body is larger than %(n)d bytes."
    ),
    SharedCode.UNSUPPORTED_MEDIA_TYPE: gettext_noop(
        "Send the body as JSON (Content-Type: application/json)."
    ),
    SharedCode.PERMISSION_DENIED: gettext_noop(
        "You do not have permission to perform this action."
    ),
    SharedCode.NOT_FOUND: gettext_noop("No such resource."),
    SharedCode.SERVER_ERROR: gettext_noop("The server failed; nothing was recorded."),
    SharedCode.INVALID_IDEMPOTENCY_KEY: gettext_noop(
        "Idempotency-Key is longer than %(n)d characters."
    ),
    SharedCode.IDEMPOTENCY_KEY_REUSED: gettext_noop(
        "This Idempotency-Key was used with another request."
    ),
    SharedCode.INVALID_CREDENTIALS: gettext_noop("Unknown username or wrong password."),
    SharedCode.LOCKED_OUT: gettext_noop(
        "Too many failed logins. Try again later or ask a manager."
    ),
    SharedCode.REASON_REQUIRED: gettext_noop("Say why."),
    SharedCode.NO_SUCH_SEAT: gettext_noop(
        "Seat %(s)d doesn't exist at this table (1–%(n)d)."
    ),
    SharedCode.SEAT_EMPTY: gettext_noop("Nobody sits in seat %(s)d."),
}
"""The texts of the shared codes that read the same in every app; an app's own
table says the others (and may say these its own way)."""


E = TypeVar("E", bound=ApplicationError)


def _text_of(texts: Mapping[Any, str], code: StrEnum) -> str:
    """The text of ``code`` in an app's table, else the shared one."""
    text = texts.get(code)
    return text if text is not None else SHARED_TEXTS[SharedCode(code)]


def refuser(
    texts: Mapping[Any, str],
    kind: type[E] = Refusal,  # type: ignore[assignment]
) -> Callable[..., E]:
    """Return ``refuse(code, *, rule=None, allowed=None, text=None, **params)``.

    ``refuse`` builds (it doesn't raise) an error of ``kind`` whose detail is the
    code's text in ``texts`` (else in :data:`SHARED_TEXTS`), or ``text`` (another
    template of the app's table, for a code that several refusals share); keyword
    arguments other than ``rule``, ``allowed`` and ``text`` fill it.
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
            _text_of(texts, code) if text is None else text,
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
    has one text per rule: ``texts[code]`` (else :data:`SHARED_TEXTS`) and
    ``texts[code, variant]``.

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
        template = _text_of(texts, code) if text is None else texts[code, text]
        return kind(code, template, rule=rule, allowed=allowed, params=params or None)

    return refuse


refuse: Callable[..., Refusal] = refuser(SHARED_TEXTS)
invalid = refuser(SHARED_TEXTS, Invalid)
unprocessable = refuser(SHARED_TEXTS, Unprocessable)
conflict = refuser(SHARED_TEXTS, Conflict)
unauthenticated = refuser(SHARED_TEXTS, Unauthenticated)
throttled = refuser(SHARED_TEXTS, Throttled)
