"""Booking hands, the use case of ``POST hands`` and ``POST hands/batch``: a
table's hands booked together under its lock (STYLE.md: collect, lock what grows,
commit once). The table locked and what the hands need read (:mod:`.sql`, one
round trip once the process knows the table); each hand checked, settled by the
engine and planned on the stacks the one before it left
(:func:`cardroom.domain.postings.hand`), its ledger transaction netted and checked
(:class:`accounting.bulk.Postings`); every row of every hand written in one
statement, with its commit for a hand posted alone. One hand posted alone is a
booking of one (benchmarks/README.md, "One statement a booking").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from accounting import chart
from accounting.domain.postings import PlanLeg
from accounting.services import AccountRow, Postings, account_for, plan_post
from cardroom import hooks
from cardroom.domain import postings
from cardroom.domain.hand_record import HandRecord
from cardroom.domain.postings import Frozen, HandPlan
from cardroom.domain.settlement import Settlement
from cardroom.errors import (
    KEY_REVOKED_TEXT,
    Code,
    conflict,
    unauthenticated,
)
from cardroom.models import Hand, Policy, TerminalKey
from cardroom.services.hands import sql
from cardroom.services.hands.checks import (
    record_fingerprint,
    record_for_table,
    record_settled,
    record_time,
)
from cardroom.services.protection import leaves_carry_out
from cardroom.services.tables import table_check_open, table_not_found
from core.errors import ApplicationError
from core.work import retried


@dataclass(frozen=True, slots=True)
class Booked:
    """One hand of a booking: the hand and whether it is new, or its refusal."""

    hand: Hand | None = None
    created: bool = False
    error: ApplicationError | None = None


@retried()
@transaction.atomic
def hands_record(
    *,
    table_code: str,
    records: Sequence[dict[str, Any]],
    source: str = "",
    by: User | None = None,
    key: TerminalKey | None = None,
    now: datetime | None = None,
) -> list[Booked]:
    """Validate, settle and book ``records``, hands of one table, in order; return
    each one's :class:`Booked`: the hand and whether it is new, or its refusal.

    Each hand is checked and booked as :func:`hand_record` books it alone, on the
    stacks the hands before it left; a refused hand (its :class:`ApplicationError`
    in its ``Booked``) changes nothing and the others book. All of them are
    written in one database transaction. Should the database refuse what the
    checks let through, each hand is booked again on its own (a savepoint each),
    so the refusal is its hand's alone. Raises as :func:`hand_record` for the
    table itself (unknown, closed, without a policy).
    """
    now = now or timezone.now()
    if len(records) < 2:
        return _book(
            table_code, records, source=source, by=by, key=key, now=now, last=True
        )
    try:
        with transaction.atomic():
            return _book(table_code, records, source=source, by=by, key=key, now=now)
    except DatabaseError:
        pass
    done: list[Booked] = []
    for record in records:
        try:
            with transaction.atomic():
                done += _book(
                    table_code, [record], source=source, by=by, key=key, now=now
                )
        except ApplicationError as error:
            done.append(Booked(error=error))
    return done


def hand_record(
    *,
    table_code: str,
    record: dict[str, Any],
    source: str = "",
    by: User | None = None,
    key: TerminalKey | None = None,
    now: datetime | None = None,
) -> tuple[Hand, bool]:
    """Validate, settle and book a hand; return it and whether it is new.

    The natural key ``(table, hand_no)`` makes a repeat return the first booking;
    another record with the same number is a :class:`Conflict`. The table row is
    locked for the booking, so hands of one table book one after another. The hand
    books on the ledger's stacks (:func:`cardroom.domain.postings.hand`, HS6, HS7).
    Raises the engine's refusals (400/422) for a record it can't settle.
    """
    (booked,) = hands_record(
        table_code=table_code,
        records=[record],
        source=source,
        by=by,
        key=key,
        now=now,
    )
    if booked.error is not None:
        raise booked.error
    assert booked.hand is not None
    return booked.hand, booked.created


def _book(
    table_code: str,
    records: Sequence[dict[str, Any]],
    *,
    source: str,
    by: User | None,
    key: TerminalKey | None,
    now: datetime,
    last: bool = False,
) -> list[Booked]:
    """Book ``records`` in order in the caller's transaction; see
    :func:`hands_record`. ``last``: nothing follows in that transaction
    (:meth:`Booking.write`)."""
    try:
        booking = Booking(table_code, records, source=source, by=by, key=key, now=now)
    except ApplicationError as error:
        return [_refused_with(error, record, table_code) for record in records]
    done: list[Booked] = []
    for i, record in enumerate(records):
        try:
            done.append(booking.take(record, records[i + 1 :]))
        except ApplicationError as error:
            done.append(Booked(error=error))
    booking.write(last=last)
    return done


def _refused_with(
    error: ApplicationError, record: dict[str, Any], table_code: str
) -> Booked:
    """A hand of a booking the table refused (unknown, closed, the key revoked);
    a record naming another table is told that first, as when posted alone."""
    try:
        record_for_table(record, table_code)
    except ApplicationError as wrong:
        return Booked(error=wrong)
    return Booked(error=error)


class Booking:
    """Hands of one table booked under one lock: read once, planned in memory,
    written in one statement.

    Every hand is checked as if it were booked alone, on the stacks the hands
    before it left: a refused hand leaves them as they were and the next is taken.
    A hand with an HS6 hold is written at once with the hands before it, its hold
    posted, and what the next hands need read again.
    """

    def __init__(
        self,
        table_code: str,
        records: Sequence[Any],
        *,
        source: str,
        by: User | None,
        key: TerminalKey | None,
        now: datetime,
    ) -> None:
        """Lock the table and read what ``records`` need (:func:`sql.table_lock`).

        The policy in force is read in the locking statement, so as it was when
        the booking began; a version published meanwhile applies from the next
        booking (RK7). ``key``, the terminal's key the hands came with, is read
        again in the same statement (:func:`_key_check`). Raises
        :class:`NotFound` for an unknown table, :class:`Refusal` (BI8) for a
        closed one, and 401 for a key revoked or expired since it was verified.
        """
        self.code, self.source, self.by, self.now = table_code, source, by, now
        self.created = timezone.now()
        locked = sql.table_lock(
            table_code, key.pk if key is not None else None, records
        )
        if locked is None:
            raise table_not_found(table_code)
        if key is not None:
            _key_check(locked.key_revoked, locked.key_expiry, now)
        self.table = table_check_open(table_code, locked.table)
        if locked.policy_id is None:
            raise Policy.DoesNotExist(f"{self.table.game} has no policy")
        assert self.table.room is not None and self.table.game is not None
        assert locked.policy_written_by is not None
        self.policy_id = locked.policy_id
        self.policy = sql.policy_rules(locked.policy_id, locked.policy_written_by)
        self.room, self.game = self.table.room, self.table.game
        self.posting_source = source if by is None else ""
        self.drops: dict[int, list[PlanLeg]] = {}
        self._clear()
        if locked.read is None:
            self.read(records)
        else:
            self._know(locked.read)

    def _clear(self) -> None:
        self.postings = Postings()
        self.pending: list[tuple[Hand, HandPlan]] = []
        self.by_no: dict[int, Hand] = {}

    def read(self, records: Sequence[Any]) -> None:
        """Lock the table's open sessions and read its last hand number, the
        accounts ``records`` would move and ids for as many hands.

        Runs under the table's lock, which every hand takes: no hand can be booked
        at the table between this statement's snapshot and the commit.
        """
        self._know(sql.booking_read(self.table, records))

    def _know(self, read: sql.Read) -> None:
        """Take in what :meth:`read` reads."""
        self.pools = read.pools
        self.last = read.last
        self.sittings = read.sittings
        # The accounts as read, and what the postings of this booking make of the
        # balances that have a floor: written so far, and with the hands taken.
        self.accounts = read.accounts
        self.balances = {
            c: a.balance_cents for c, a in self.accounts.items() if not a.summed
        }
        self.written = dict(self.balances)
        self.ids = iter(read.ids)

    # One hand.

    def take(self, record: dict[str, Any], rest: Sequence[Any]) -> Booked:
        """Book ``record`` after the hands taken before it; ``rest`` are the records
        after it, read along if the booking must read again."""
        record = record_for_table(record, self.code)
        fingerprint = record_fingerprint(record)
        existing = self._replayed(record, fingerprint)
        if existing is not None:
            return Booked(existing, False)
        parsed, settlement = record_settled(
            self.table, record, self.policy, self.last, self.now
        )
        planned = postings.hand(
            table=self.code,
            parsed=parsed,
            settlement=settlement,
            sittings=self.sittings,
            ledger=self.balances,
            cards={s["seat"]: s.get("cards") for s in record["seats"]},
            drop_legs=self._drop_legs(settlement.jackpot_drop),
        )
        legs = [(self._account(code), cents) for code, cents in planned.plan.legs]
        txn_id, hand_id = self._next_ids(record, rest)
        hand = self._hand(
            hand_id, parsed, settlement, planned, record, fingerprint, txn_id, legs
        )
        if legs:
            netted = self.postings.add(
                txn_id,
                legs,
                kind=planned.plan.kind,
                reference=str(hand),
                external_id=f"hand:{self.code}:{hand.hand_no}",
                source=self.posting_source,
                posted_at=hand.ended_at,
                posted_by=self.by.pk if self.by is not None else None,
            )
            balances = self.balances
            for account, amount in netted:
                if not account.summed:
                    balances[account.code] += account.moved(amount)
        if rest:  # the stacks the next hand is played from
            seats = {s.session_id: s for s in self.sittings.values()}
            for session_id, stack, _no in planned.stacks:
                sitting = seats[session_id]
                self.sittings[sitting.seat] = sitting._replace(stack_cents=stack)
        self.last = hand.hand_no
        self.pending.append((hand, planned))
        self.by_no[hand.hand_no] = hand
        if planned.frozen:
            self.write()
            self._hs6_hold(hand, planned.frozen)
            self.read(rest)
        return Booked(hand, True)

    def _hs6_hold(self, hand: Hand, frozen: tuple[Frozen, ...]) -> None:
        """Freeze what the ledger holds beyond each reported stack of ``hand`` in
        the player's review hold (the ledger's own posting), and open a stack
        review for each (HS6)."""
        holds = [
            plan_post(
                postings.review_hold(
                    table=self.code, player=f.sitting.player, amount=f.held - f.reported
                ),
                posted_by=self.by,
                source=self.posting_source,
                reference=f"{hand} seat {f.sitting.seat}",
                memo="HS6",
                posted_at=hand.ended_at,
            )
            for f in frozen
        ]
        sql.stack_reviews_insert(hand, frozen, holds, self.now)

    def _replayed(self, record: dict[str, Any], fingerprint: str) -> Hand | None:
        """The hand booked first, when ``record`` repeats it; ``None`` for a new hand.

        Hand numbers increase at a table: a number above the last one is new, so the
        natural key needs a look only for a number at or below it. Another record
        with a booked number is a :class:`Conflict`.
        """
        hand_no = record.get("hand_no")
        if self.last is None or type(hand_no) is not int or hand_no > self.last:
            return None
        existing = self.by_no.get(hand_no) or sql.hand_get(self.table.pk, hand_no)
        if existing is not None and existing.record_hash != fingerprint:
            raise conflict(Code.HAND_CONFLICT, n=hand_no)
        return existing

    def _drop_legs(self, drop: int) -> list[PlanLeg]:
        """The legs crediting a jackpot drop to the pools (JD1, JD4), asked once a
        booking for each amount, with the pools the booking read."""
        if not drop:
            return []
        if drop not in self.drops:
            known = {
                code: row.as_account()
                for code, row in self.accounts.items()
                if code == chart.JACKPOT_DROPS
            }
            self.drops[drop] = hooks.jackpot_drop_legs(
                room=self.room,
                table=self.table,
                amount_cents=drop,
                accounts=known,
                pools=self.pools,
            )
            for account in known.values():
                self._add(AccountRow.of(account))
        return self.drops[drop]

    def _account(self, code: str) -> AccountRow:
        """The account ``code``, opened as the chart says on its first use (the
        first hand of a seat or a table)."""
        found = self.accounts.get(code)
        if found is None:
            found = self._add(AccountRow.of(account_for(code)))
        return found

    def _add(self, account: AccountRow) -> AccountRow:
        """Know ``account`` (opened, or read by the pools' app) from now on."""
        if account.code not in self.accounts:
            self.accounts[account.code] = account
            if not account.summed:
                self.balances[account.code] = account.balance_cents
                self.written[account.code] = account.balance_cents
        return self.accounts[account.code]

    def _next_ids(self, record: dict[str, Any], rest: Sequence[Any]) -> tuple[int, int]:
        try:
            return next(self.ids)
        except StopIteration:
            self.write()
            self.read([record, *rest])
            return next(self.ids)

    def _hand(
        self,
        hand_id: int,
        parsed: HandRecord,
        settlement: Settlement,
        planned: HandPlan,
        record: dict[str, Any],
        fingerprint: str,
        txn_id: int,
        legs: list[tuple[AccountRow, int]],
    ) -> Hand:
        """The hand's row (written with the booking), timed by the record or at
        ``now``."""
        ended = record_time(parsed.ended_at, self.now)
        hand = Hand(
            id=hand_id,
            table=self.table,
            hand_no=parsed.hand_no,
            game=self.game,
            policy_id=self.policy_id,
            gaming_day=self.room.gaming_day(ended),
            started_at=(
                record_time(parsed.started_at, ended) if parsed.started_at else None
            ),
            ended_at=ended,
            record=record,
            record_hash=fingerprint,
            settlement={**settlement.as_api(), "exceptions": list(planned.exceptions)},
            pot_cents=sum(p.amount for p in settlement.pots),
            rake_cents=settlement.rake,
            jackpot_drop_cents=settlement.jackpot_drop,
            participants=settlement.participants,
            ledger_transaction_id=txn_id if legs else None,
            source=self.source,
            created_at=self.created,
        )
        hand._state.adding = False
        hand._state.db = "default"
        return hand

    # All of them.

    def write(self, *, last: bool = False) -> None:
        """Write the hands taken since the last write, with their postings, in one
        statement (:func:`sql.booking_write`); the apps above hear of each once
        the transaction commits. ``last``: the statement ends the caller's
        transaction, and its commit may travel with it.

        Raises the ledger's :class:`InsufficientFunds` when the database refuses an
        overdraft (which the plans' checks leave no way to).
        """
        if not self.pending:
            return
        try:
            sql.booking_write(
                self.pending, self.postings, created_at=self.created, last=last
            )
        except IntegrityError as error:
            before = {self.accounts[c].pk: b for c, b in self.written.items()}
            refusal = self.postings.overdraft(error, before)
            if refusal is not None:
                raise refusal from error
            raise
        for hand, _planned in self.pending:
            hooks.after_hand_booked(hand.pk)
        leaving = [s.session_id for s in self.sittings.values() if s.leaving]
        if leaving:
            # PP5: the hand in play is over; the marked players leave.
            transaction.on_commit(functools.partial(leaves_carry_out, leaving))
        self.written = dict(self.balances)
        self._clear()


def _key_check(revoked: bool | None, expiry: datetime | None, now: datetime) -> None:
    """Refuse (401) a key the table's lock found revoked or expired since it was
    verified, so a revocation holds from the next hand in every process."""
    if revoked is not False:
        raise unauthenticated(Code.KEY_NO_LONGER_VALID, text=KEY_REVOKED_TEXT)
    if expiry is not None and expiry <= now:
        raise unauthenticated(Code.KEY_NO_LONGER_VALID)
