"""Book hand histories in the PHH format for one table, through the terminal's path.

``import_phh FILE --table T01 [--unit 100] [--seat] [--dry-run]`` reads a ``.phh``
or ``.phhs`` file, turns each hand into a hand record (cardroom.domain.phh) and
books it with :func:`cardroom.services.hand_record`, the service behind a
terminal's ``POST /api/v1/tables/{table}/hands``. A hand the rules refuse is
reported with its rule and reason and the import goes on; the summary at the end
counts the hands booked, already there and refused. ``--dry-run`` books nothing and
prints what each hand would book under the table's policy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from cardroom import selectors, services
from cardroom.domain.errors import HandError
from cardroom.domain.hand_record import parse_policy
from cardroom.domain.phh import Seating, load_histories, number_hands, to_record
from cardroom.domain.settlement import settle_record
from cardroom.models import Policy, SeatSession, Table
from core.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Import PHH hand histories for one table: import_phh FILE --table T01 "
        "[--unit 100] [--seat] [--dry-run]"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--table", required=True)
        parser.add_argument(
            "--unit",
            type=int,
            default=1,
            help="Cents per PHH chip: 1 for files counted in cents or chips of one "
            "cent (default), 100 for files counted in euros or dollars. An amount "
            "that isn't whole cents at that unit is refused, never rounded.",
        )
        parser.add_argument(
            "--first-hand",
            type=int,
            default=1,
            help="Hand number of the file's first hand when the hands' own numbers "
            "don't increase through the file; they are then numbered by their "
            "place in it, so a re-run books nothing twice.",
        )
        parser.add_argument(
            "--seat",
            action="store_true",
            help="Seat players not yet seated with a cash buy-in of their starting "
            "stack (the buy-in rules apply; one back the same night brings what "
            "BI5 and BI6 ask of him); a player holding a seat another "
            "player takes leaves the table with his stack first. A seated "
            "player's hand is booked on the stack the ledger holds (HS6); when "
            "he puts in more than that, he tops up to the file's stack first "
            "(BI2, BI4 apply).",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Book nothing; print what each hand would book.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        code = options["table"]
        table = Table.objects.filter(code=code).select_related("game").first()
        if table is None:
            raise CommandError(f"No table {code!r}.")
        if options["unit"] < 1:
            raise CommandError("--unit is a whole number of cents, 1 or more.")
        path: Path = options["file"]
        try:
            with path.open("rb") as fp:
                histories = load_histories(fp)
        except OSError as error:
            raise CommandError(f"Can't read {path}: {error.strerror}") from None
        except HandError as error:
            raise CommandError(f"{path}: {error.detail}") from None
        source = f"phh:{path.name}"
        numbers = number_hands(histories, options["first_hand"])
        seating = Seating()
        booked = repeated = 0
        refused: list[str] = []
        for position, (hh, number) in enumerate(
            zip(histories, numbers, strict=True), start=1
        ):
            where = f"hand {position} (no. {number})"
            try:
                record = to_record(
                    hh,
                    table=code,
                    hand_no=number,
                    unit=options["unit"],
                    seating=seating,
                )
                if options["dry_run"]:
                    self._show(where, record, table)
                    continue
                with transaction.atomic():
                    if options["seat"]:
                        self._seat_missing(code, record, source)
                        self._stacks_to_ledger(code, record, source)
                    _hand, created = services.hand_record(
                        table_code=code, record=record, source=source
                    )
            except ApplicationError as error:
                rule = f" [{error.rule}]" if error.rule else ""
                refused.append(f"{where}: {error.code}{rule}: {error.detail}")
                self.stderr.write(
                    f"{where} refused: {error.code}{rule}: {error.detail}"
                )
                continue
            booked += created
            repeated += not created
        if options["dry_run"]:
            self.stdout.write(
                f"Dry run: {len(histories) - len(refused)} hands would be booked at "
                f"{code}, {len(refused)} refused; nothing was booked."
            )
        else:
            self.stdout.write(
                f"{booked} hands booked at {code}, {repeated} already there, "
                f"{len(refused)} refused."
            )
        for line in refused:
            self.stdout.write(f"  refused {line}")

    def _show(self, where: str, record: dict[str, Any], table: Table) -> None:
        """Print the settlement the hand would book under the table's policy."""
        assert table.game is not None
        if record["game"] != table.game.code:
            raise HandError(
                "wrong_game",
                f"The table deals {table.game.code}, not {record['game']}.",
                rule="HS9",
                allowed={"game": table.game.code},
            )
        try:
            policy = table.game.current_policy()
        except Policy.DoesNotExist:
            raise CommandError(f"{table.game} has no policy to settle by.") from None
        result = settle_record(record, parse_policy(policy.document))
        pots = sum(p["amount"] for p in result["pots"])
        self.stdout.write(
            f"{where}: {record['game']}, pots {pots}, rake {result['rake']}, "
            f"jackpot drop {result['jackpot_drop']}"
        )
        for seat in result["seats"]:
            self.stdout.write(
                f"  seat {seat['seat']} {seat['player']}: stack {seat['stack']}, "
                f"put in {seat['put_in']}, returned {seat['returned']}, "
                f"won {seat['won']}, final {seat['final_stack']}"
            )

    def _seat_missing(self, code: str, record: dict[str, Any], source: str) -> None:
        sitting = {
            s.seat: s
            for s in SeatSession.objects.filter(
                table__code=code, ended_at__isnull=True
            ).select_related("player")
        }
        held = {s.player.code: s.seat for s in sitting.values()}
        for seat in record["seats"]:
            if held.get(seat["player"]) == seat["seat"]:
                continue
            # The seat's last player left the table, or the player moves seats:
            # each takes his stack with him.
            for leaving in (
                sitting.get(seat["seat"]),
                sitting.get(held.get(seat["player"], 0)),
            ):
                if leaving is not None:
                    services.seat_leave(
                        table_code=code,
                        seat=leaving.seat,
                        stack=leaving.stack_cents,
                        source=source,
                    )
                    del sitting[leaving.seat]
                    del held[leaving.player.code]
            try:
                with transaction.atomic():
                    services.seat_take(
                        table_code=code,
                        seat=seat["seat"],
                        player_code=seat["player"],
                        amount=seat["stack"],
                        method="cash",
                        source=source,
                    )
            except ApplicationError as error:
                # One night, one stack (BI5, BI6): a player back at the table brings
                # the stack he left with, not the file's; the hand then plays the
                # ledger's stack (_stacks_to_ledger).
                least = (error.allowed or {}).get("min")
                if error.rule not in ("BI5", "BI6") or not isinstance(least, int):
                    raise
                services.seat_take(
                    table_code=code,
                    seat=seat["seat"],
                    player_code=seat["player"],
                    amount=least,
                    method="cash",
                    source=source,
                )
            held[seat["player"]] = seat["seat"]

    def _stacks_to_ledger(self, code: str, record: dict[str, Any], source: str) -> None:
        """Put the hand on the table's ledger stacks (HS6).

        A file's starting stacks are its own (a dataset may give every player the
        same stack each hand); the table plays with what the ledger holds. A seat
        putting in more than that tops up to the file's stack first, between
        hands, under the buy-in rules; any other seat plays the ledger's stack, and
        the hand's chips (put in, won) stay the file's.
        """
        held = {
            row["seat"]: row["stack"] for row in selectors.table_seats(code)["seats"]
        }
        for seat in record["seats"]:
            ledger = held.get(seat["seat"])
            if ledger is None or ledger == seat["stack"]:
                continue
            if seat["put_in"] > ledger:
                services.seat_top_up(
                    table_code=code,
                    seat=seat["seat"],
                    amount=seat["stack"] - ledger,
                    method="cash",
                    source=source,
                )
            else:
                seat["stack"] = ledger
