"""Simulate a night in the room through the back office (see ``simulation.night``)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.timezone import localtime
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from simulation.night import Night, NightError, NightOptions, Summary

DEFAULTS = {"tables": 3, "players": 30, "hands": 300}
SHORT = {"tables": 3, "players": 24, "hands": 90}


def euros(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}€{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


class Command(BaseCommand):
    help = (
        "Play a night in the room: players arrive, list, buy in and move; terminals "
        "post hands over HTTP; a bad beat is paid; an hourly high hand and an "
        "aces-cracked bonus run and their prizes are paid; a tournament is played "
        "to its payouts; the cashier's shift is closed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--tables", type=int, default=None, help="tables in play (default 3)"
        )
        parser.add_argument(
            "--players", type=int, default=None, help="players (default 30)"
        )
        parser.add_argument(
            "--hands", type=int, default=None, help="hands to deal (default 300)"
        )
        parser.add_argument(
            "--minutes", type=float, default=None, help="or deal for this long"
        )
        parser.add_argument("--seed", type=int, default=None, help="the dealer's seed")
        parser.add_argument(
            "--url",
            default=None,
            help="a running back office on this database (default: one in-process)",
        )
        parser.add_argument(
            "--short",
            action="store_true",
            help="a short night: 3 tables, 24 players, 90 hands (options given win)",
        )
        parser.add_argument(
            "--quiet", action="store_true", help="no progress bar, just the summary"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        preset = SHORT if options["short"] else DEFAULTS
        hands = options["hands"]
        if hands is None and options["minutes"] is None:
            hands = preset["hands"]
        night_options = NightOptions(
            tables=options["tables"] or preset["tables"],
            players=options["players"] or preset["players"],
            hands=hands,
            minutes=options["minutes"],
            seed=options["seed"],
            url=options["url"],
        )
        if night_options.tables < 1 or night_options.players < 2:
            raise CommandError("A night needs a table and two players.")
        if (hands is not None and hands < 1) or (
            options["minutes"] is not None and options["minutes"] <= 0
        ):
            raise CommandError("--hands and --minutes must be positive.")
        console = Console(file=sys.stdout)
        show_bar = not options["quiet"] and console.is_terminal
        notes: list[str] = []
        night = Night(night_options, say=notes.append, setup_out=self.stdout)
        try:
            if show_bar:
                with Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    TextColumn("{task.fields[hands]} hands"),
                    TimeElapsedColumn(),
                    console=console,
                    transient=True,
                ) as bar:
                    task = bar.add_task("night", total=1.0, hands=0)

                    def advance(fraction: float, posted: int, status: str) -> None:
                        bar.update(
                            task, completed=fraction, hands=posted, description=status
                        )

                    summary = night.run(progress=advance)
            else:
                summary = night.run()
        except NightError as error:
            raise CommandError(str(error)) from error
        for note in notes:
            self.stdout.write(note)
        self.report(summary)
        if not (summary.trial_balance_zero and summary.cached_balances_agree):
            raise CommandError("The trial balance is not zero.")

    def report_promotions(self, s: Summary) -> None:
        """Print the night's promotions: their prizes, and each high hand's hour
        as the night ends (PR2, PR5)."""
        w = self.stdout.write
        started = f" (started: {', '.join(s.promotions_started)})"
        w(
            f"  promotions: {', '.join(s.promotions) or 'none'}"
            + (started if s.promotions_started else "")
            + f"; {s.periods_closed} periods closed"
        )
        for prize in s.prizes.values():
            w(
                f"  promotion: prize #{prize.id} ({prize.promotion}) "
                + ("for " if prize.kind == "period" else "at ")
                + f"{prize.what}: {prize.status}, {euros(prize.total_cents)}, "
                f"paid {euros(prize.paid_cents)}; verified by {prize.verified_by}, "
                f"approved by {prize.approved_by}"
                + (f" ({prize.note})" if prize.note else "")
            )
        if not s.prizes:
            w("  promotion: no prize")
        for leader in s.leaders:
            hours = f"{localtime(leader.start):%H:%M}–{localtime(leader.end):%H:%M}"
            w(
                f"  {leader.promotion} {hours}: "
                + (
                    f"leader {leader.hand} ({', '.join(leader.players)})"
                    if leader.hand
                    else "no qualifying hand yet"
                )
                + f"; closes after {localtime(leader.end):%H:%M}"
            )

    def report(self, s: Summary) -> None:
        """Print what the night did."""
        w = self.stdout.write
        w(
            f"Simulated night {s.run} (seed {s.seed}) in {s.seconds:.1f} s at "
            f"{', '.join(s.tables)} with {s.players} players."
        )
        w(
            f"  hands: {s.hands_posted} posted, {s.hands_booked} booked, "
            f"{s.showdowns} to a showdown, {s.replays} retries answered from the "
            "first booking"
        )
        w(f"  rake {euros(s.rake_cents)}, jackpot drops {euros(s.drop_cents)}")
        w(
            f"  seats: {s.buy_ins} buy-ins, {s.top_ups} top-ups, "
            f"{s.seated_from_lists} seated from the lists ({s.moves} moves), "
            f"{s.listed} listed, {s.still_seated} still seated, {s.waiting} waiting"
        )
        if s.refusals:
            refused = ", ".join(f"{k} {v}" for k, v in sorted(s.refusals.items()))
            w(f"  refusals answered: {refused}")
        w(
            f"  cage: {s.purchases} chip purchases ({euros(s.purchases_cents)}), "
            f"{s.fills} fills, {len(s.cashed_out)} players cashed out "
            f"({euros(s.cashed_out_cents)}), {s.box_counts} boxes counted"
            + (
                f", vault topped up by {euros(s.vault_funded_cents)}"
                if s.vault_funded_cents
                else ""
            )
        )
        for hit in s.hits.values():
            w(
                f"  jackpot: hit #{hit.id} ({hit.category}) at {hit.table} hand "
                f"{hit.hand_no}: {hit.status}, payout {euros(hit.payout_cents)}, "
                f"paid {euros(hit.paid_cents)}; verified by {hit.verified_by}, "
                f"approved by {hit.approved_by}"
                + (f" ({hit.note})" if hit.note else "")
            )
        if not s.hits:
            w("  jackpot: no hit")
        self.report_promotions(s)
        t = s.tournament
        if t is not None:
            w(
                f"  tournament {t.event}: {t.entries} entries, {t.rebuys} rebuy, "
                f"{t.addons} add-ons, {t.busts} busts ({t.same_hand} hand with two "
                f"out, {t.hand_for_hand} out hand-for-hand on the bubble), tables "
                f"broken {', '.join(t.broken) or 'none'}, a deal among "
                f"{t.deal_players}, pool {euros(t.pool_cents)}, {t.payouts} prizes "
                f"paid ({euros(t.paid_cents)}), chips "
                + ("balanced" if t.chips_balanced else "NOT BALANCED")
                + (f"; {t.running} running on the board" if t.running else "")
            )
        w(
            f"  shift #{s.shift} {s.shift_status}: over/short "
            f"{euros(s.over_short_cents)}"
            + (f", signed off by {s.signed_off_by}" if s.signed_off_by else "")
        )
        w(
            "  trial balance: "
            + ("zero" if s.trial_balance_zero else "NOT ZERO")
            + (
                ", cached balances agree"
                if s.cached_balances_agree
                else ", CACHED BALANCES DISAGREE"
            )
        )
