"""``books_verify``: recompute every sealed day's digest from the database, check
the stored chain and its signatures, and, given a digest the auditor kept, prove
nothing of that day or before changed since, or name the first day and the first
transaction that did (docs/digest.md, "Verifying").

What is trusted: the kept digest (printed on an audit, e-mailed, posted), the
room's public key (from its key file, or given), and SHA-256. What isn't: every
row of the database, the stored digests and audits included, which a superuser
can rewrite together. A day's stored digest is believed only when its hash is
the one the kept chain names; a list of leaves only when its Merkle root is the
authentic one; a changed transaction is named from its own record, whose leaf
holds its id.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.db import connection
from django.utils.translation import gettext as _

from reports.domain.digest import (
    GENESIS,
    Difference,
    body_hash,
    fingerprint,
    first_difference,
    leaves_commit,
    signature_holds,
)
from reports.domain.merkle import root_of
from reports.leaves import day_leaves
from reports.models import DayDigest
from reports.services.digests import (
    archived_file,
    body_of,
    room_public_key,
    stored_leaves,
)

Pairs = list[tuple[int, bytes]]


@dataclass(frozen=True, slots=True)
class Kept:
    """A digest the auditor kept: its hash (the printed digest), the day when
    known, and the whole digest file when he kept that."""

    hash: str
    day: date | None = None
    file: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """Something the check found, on a day; the transaction when one is named."""

    day: date
    code: str
    text: str
    transaction: int | None = None


@dataclass(slots=True)
class Sealed:
    """A stored day and what the ledger gives for it now."""

    digest: DayDigest
    body: dict[str, Any]
    root: str = ""
    size: int = 0
    chained: str = ""  # this day's digest recomputed, chained to the days before

    @property
    def day(self) -> date:
        return self.digest.gaming_day


@dataclass(slots=True)
class Verification:
    """What ``books_verify`` found: the days checked, what disagrees, the kept
    digest's verdict, and the postings dated into sealed days still to seal."""

    days: int = 0
    findings: list[Finding] = field(default_factory=list)
    kept: str = ""
    kept_holds: bool | None = None
    first_changed: Finding | None = None
    pending: list[int] = field(default_factory=list)

    @property
    def status(self) -> int:
        """0: everything holds; 1: something changed or disagrees; 2: the kept
        digest can't be checked."""
        if self.findings or self.first_changed or self.kept_holds is False:
            return 1
        return 2 if self.kept and self.kept_holds is None else 0


def books_verify(
    *,
    kept: Kept | None = None,
    public_key: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> Verification:
    """Recompute every sealed day from the ledger and check it (see the module).

    ``public_key`` (hex) is the room's key the auditor trusts; without it, the
    key of the room's key file. Raises nothing for what it finds: it is in the
    answer.
    """
    found = Verification()
    states = list(_recomputed(progress))
    found.days = len(states)
    if not states:
        found.kept = _("No gaming day is sealed yet.") if kept else ""
        return found
    found.findings = list(_stored_chain(states, public_key))
    found.pending = _pending(states[-1])
    if kept is not None:
        _kept_check(found, kept, states, public_key)
    return found


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _bounds(body: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any]:
    """The bounds of ``body``'s day, after ``before``'s (the first day sealed:
    after its own start and horizon, reports.services.digests)."""
    return {
        "after": _parse(before["until"] if before else body["from"]),
        "after_horizon": int((before or body)["horizon"]),
        "until": _parse(body["until"]),
        "horizon": int(body["horizon"]),
    }


def _now_pairs(bounds: dict[str, Any]) -> Pairs:
    return [(leaf.transaction, leaf.hash) for leaf in day_leaves(**bounds)]


def _recomputed(progress: Callable[[str], None] | None) -> Iterable[Sealed]:
    """Each stored day, in order, with its root, size and chained digest as the
    ledger gives them now, read with the stored days' bounds."""
    before: Sealed | None = None
    digests = DayDigest.objects.defer("leaves", "transactions").order_by("gaming_day")
    for digest in digests.iterator():
        state = Sealed(digest, body_of(digest))
        pairs = _now_pairs(_bounds(state.body, before.body if before else None))
        state.root, state.size = _root_size(pairs)
        state.chained = body_hash(
            {
                **state.body,
                "root": state.root,
                "size": state.size,
                "previous": before.chained if before else GENESIS,
            }
        )
        if progress is not None:
            progress(state.day.isoformat())
        before = state
        yield state


def _root_size(pairs: Pairs) -> tuple[str, int]:
    return root_of([h for _t, h in pairs]).hex(), len(pairs)


def _stored_chain(states: list[Sealed], public_key: str | None) -> Iterable[Finding]:
    """What disagrees in the stored chain, day by day: its fields, its links, its
    signatures, its leaves, and the ledger against it."""
    trusted = public_key or room_public_key()
    previous: Sealed | None = None
    for state in states:
        digest, body = state.digest, state.body
        yield from _stored_fields(state)
        expected = previous.digest.hash if previous else GENESIS
        if body.get("previous") != expected or (
            previous and digest.gaming_day != previous.day + timedelta(days=1)
        ):
            yield Finding(
                state.day,
                "chain",
                _("Its digest doesn't follow the day before's stored digest."),
            )
        signed = trusted is not None and signature_holds(
            body, digest.signature, trusted
        )
        if trusted is not None and (
            not signed or body.get("key") != fingerprint(trusted)
        ):
            yield Finding(
                state.day,
                "signature",
                _("Its stored digest isn't signed by the room's key %(key)s.")
                % {"key": fingerprint(trusted)},
            )
        leaves = stored_leaves(
            DayDigest.objects.only("leaves", "transactions").get(pk=digest.pk)
        )
        committed = leaves_commit(leaves, root=body["root"], size=body["size"])
        if not committed:
            yield Finding(
                state.day,
                "stored_leaves",
                _("Its stored leaves don't make its stored root."),
            )
        if (state.root, state.size) != (body["root"], body["size"]):
            yield _ledger_differs(state, previous, leaves if committed else None)
        previous = state


def _stored_fields(state: Sealed) -> Iterable[Finding]:
    digest, body = state.digest, state.body
    columns = (
        digest.gaming_day.isoformat(),
        digest.hash,
        digest.previous,
        digest.root,
        digest.size,
        digest.horizon,
    )
    signed = (
        body.get("gaming_day"),
        body_hash(body),
        body.get("previous"),
        body.get("root"),
        body.get("size"),
        body.get("horizon"),
    )
    if columns != signed:
        yield Finding(
            state.day,
            "stored_fields",
            _("Its stored digest's fields aren't those of its signed document."),
        )


def _ledger_differs(
    state: Sealed, previous: Sealed | None, sealed: Pairs | None
) -> Finding:
    """The day's ledger against its stored digest, naming the transaction when
    the stored leaves are the sealed ones."""
    difference = None
    if sealed is not None:
        bounds = _bounds(state.body, previous.body if previous else None)
        difference = first_difference(sealed, _now_pairs(bounds))
    return _changed_finding(
        state.day,
        difference,
        _("The ledger of the day is not what its stored digest sealed."),
    )


def _changed_finding(day: date, difference: Difference | None, text: str) -> Finding:
    if difference is None:
        return Finding(day, "ledger", text)
    return Finding(
        day,
        "ledger",
        f"{text} {describe(difference)}",
        difference.transaction,
    )


def describe(difference: Difference) -> str:
    """The transaction that differs, in words, as the ledger reads it now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT kind, reference, posted_at FROM accounting_transaction"
            " WHERE id = %s",
            [difference.transaction],
        )
        row = cursor.fetchone()
    what = f"#{difference.transaction}"
    if row is not None:
        kind, reference, posted_at = row
        what = (
            f"#{difference.transaction} ({kind} {reference}, {posted_at.isoformat()})"
        )
    texts = {
        "changed": _("The first transaction that differs: %(t)s, changed."),
        "added": _("The first transaction that differs: %(t)s, not sealed in it."),
        "missing": _(
            "The first transaction that differs: %(t)s, sealed in it and no longer "
            "there."
        ),
    }
    return texts[difference.how] % {"t": what}


def _pending(last: Sealed) -> list[int]:
    """Postings dated into sealed days written after the last day was sealed:
    the next day sealed holds them."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM accounting_transaction"
            " WHERE posted_at < %s AND xact_id >= %s ORDER BY id",
            [last.digest.until, last.digest.horizon],
        )
        return [row[0] for row in cursor.fetchall()]


# --- A kept digest --------------------------------------------------------------------


def _kept_check(
    found: Verification, kept: Kept, states: list[Sealed], public_key: str | None
) -> None:
    """Set ``found``'s verdict on the kept digest (see the module)."""
    by_day = {s.day: s for s in states}
    day = kept.day or _locate(kept, states)
    if day is None or day not in by_day:
        found.kept = _(
            "The kept digest names no sealed day this database knows: give its "
            "gaming day (--day, or DAY:DIGEST)."
        )
        return
    found.kept = _("The kept digest of gaming day %(day)s.") % {"day": day}
    trusted = public_key or room_public_key()
    if (
        kept.file is not None
        and trusted is not None
        and not signature_holds(kept.file["digest"], kept.file["signature"], trusted)
    ):
        found.kept += " " + _("Its file isn't signed by the room's key.")
    if by_day[day].chained == kept.hash:
        found.kept_holds = True
        found.kept += " " + holds_text()
        return
    bodies, lowest = _authentic(kept, day, by_day)
    intact = bool(bodies) and _intact_before(bodies, by_day)
    changed = _first_changed(bodies, by_day, kept)
    found.kept_holds = intact and changed is None
    if found.kept_holds:
        found.kept += " " + holds_text()
    elif intact:
        found.first_changed = changed
    else:
        found.first_changed = Finding(
            lowest,
            "ledger",
            _(
                "The ledger changed on %(day)s or before; the stored and archived "
                "digests of those days aren't the kept chain's: give a digest kept "
                "of an earlier day."
            )
            % {"day": lowest},
        )


def holds_text() -> str:
    return _("Nothing of that day or before has changed since it was sealed.")


def _first_changed(
    bodies: dict[date, dict[str, Any]], by_day: dict[date, Sealed], kept: Kept
) -> Finding | None:
    """The first authenticated day whose ledger isn't the one sealed, with the
    transaction that differs; None when every one is."""
    for day in sorted(bodies):
        sealed_body = bodies[day]
        now = _now_pairs(_bounds(sealed_body, _body_before(day, bodies, by_day)))
        if _root_size(now) == (sealed_body["root"], sealed_body["size"]):
            continue
        sealed = _authentic_leaves(day, sealed_body, by_day, kept)
        text = _("The first day that differs from the kept digest: %(day)s.") % {
            "day": day
        }
        if sealed is None:
            text += " " + _(
                "Its leaves are neither in the database nor in the archive as "
                "sealed: give its digest file (--digest FILE) to name the "
                "transaction."
            )
            return Finding(day, "ledger", text)
        return _changed_finding(day, first_difference(sealed, now), text)
    return None


def _body_before(
    day: date, bodies: dict[date, dict[str, Any]], by_day: dict[date, Sealed]
) -> dict[str, Any] | None:
    """The body whose bounds the day's postings follow: the day before's, kept
    chain's if known, else stored; none after the genesis."""
    if bodies[day]["previous"] == GENESIS:
        return None
    before = day - timedelta(days=1)
    if before in bodies:
        return bodies[before]
    return by_day[before].body if before in by_day else None


def _locate(kept: Kept, states: list[Sealed]) -> date | None:
    """The day a bare kept hash belongs to: a stored, recomputed or archived
    digest with that hash."""
    for state in states:
        archived = archived_file(state.day) or {}
        if kept.hash in (state.digest.hash, state.chained, archived.get("hash")):
            return state.day
    return None


def _candidates(
    day: date, by_day: dict[date, Sealed], kept: Kept, kept_day: date
) -> Iterable[dict[str, Any]]:
    if kept.file is not None and day == kept_day:
        yield kept.file["digest"]
    if day in by_day:
        yield by_day[day].body
    archived = archived_file(day)
    if archived is not None and isinstance(archived.get("digest"), dict):
        yield archived["digest"]


def _authentic(
    kept: Kept, day: date, by_day: dict[date, Sealed]
) -> tuple[dict[date, dict[str, Any]], date]:
    """The signed bodies the kept digest authenticates, walking its chain back
    from ``day`` while a stored or archived body has the hash the next day names;
    and the lowest day whose hash is known."""
    hashes = {day: kept.hash}
    bodies: dict[date, dict[str, Any]] = {}
    current = day
    while True:
        body = next(
            (
                c
                for c in _candidates(current, by_day, kept, day)
                if body_hash(c) == hashes[current]
            ),
            None,
        )
        if body is None:
            return bodies, current
        bodies[current] = body
        if body.get("previous") == GENESIS:
            return bodies, current
        current -= timedelta(days=1)
        hashes[current] = body["previous"]


def _intact_before(
    bodies: dict[date, dict[str, Any]], by_day: dict[date, Sealed]
) -> bool:
    """Whether every day before the authenticated ones is as the kept chain sealed
    it: the first authenticated day follows the genesis, or the day before it
    recomputes to the digest it names."""
    first = min(bodies)
    previous = bodies[first]["previous"]
    if previous == GENESIS:
        return True
    before = by_day.get(first - timedelta(days=1))
    return before is not None and before.chained == previous


def _authentic_leaves(
    day: date, body: dict[str, Any], by_day: dict[date, Sealed], kept: Kept
) -> Pairs | None:
    """The first list of (id, leaf hash) of ``day`` whose root is the sealed one:
    the stored leaves, the archived file's, the kept file's."""
    lists: list[Pairs] = []
    if day in by_day:
        lists.append(stored_leaves(DayDigest.objects.get(pk=by_day[day].digest.pk)))
    for document in (archived_file(day), kept.file):
        if document and document["digest"].get("gaming_day") == day.isoformat():
            lists.append(
                [(int(i), bytes.fromhex(h)) for i, h in document.get("leaves", [])]
            )
    for pairs in lists:
        if leaves_commit(pairs, root=body["root"], size=body["size"]):
            return pairs
    return None


def kept_from_text(text: str) -> Kept:
    """A kept digest from what the auditor gives: ``DIGEST``, ``DAY:DIGEST``, or
    the path of a digest file (JSON). Raises :class:`ValueError` when it is none
    of them."""
    if ":" in text and len(text.split(":", 1)[1]) == 64:
        day, digest = text.split(":", 1)
        return Kept(hash=_hex64(digest), day=date.fromisoformat(day))
    if len(text) == 64:
        return Kept(hash=_hex64(text))
    document = json.loads(Path(text).read_text())
    if not isinstance(document, dict) or "digest" not in document:
        raise ValueError(f"{text} is no digest file")
    hash_ = body_hash(document["digest"])
    if document.get("hash") not in (None, hash_):
        raise ValueError(f"{text}: its hash isn't its digest's")
    return Kept(
        hash=hash_,
        day=date.fromisoformat(document["digest"]["gaming_day"]),
        file=document,
    )


def _hex64(text: str) -> str:
    value = text.strip().lower()
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise ValueError(f"{text} is no SHA-256 digest in hex")
    return value
