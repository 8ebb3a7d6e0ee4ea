"""Tournaments: structures, events, entries, chips, busts, deals and payouts (TO1–TO12),
one module by aggregate.

Money lives in the ledger only (``tournaments.chart``): an event's prize pool and its
bounty pool are liabilities held in trust like the jackpot pools (TO1, TO8), which
the database keeps from going below zero; fees are house revenue; a guarantee's
overlay is the house's expense (TO7). Tournament chips are not money: they are
counted here, in :class:`ChipMovement` rows that say why chips came into or left
play (TO3), so the reconciliation is a sum of records.

The rows say who did what and when and point at the postings. PostgreSQL keeps them
honest: amounts that can't be negative and add up (CHECK), the approver of a payout
sheet another person than who prepared it (four-eyes, TO9), a deal signed by every
player in it (TO5), states that only move forward and records never deleted or
edited (django-pgtrigger).

- :mod:`.structures`: blind structures and their levels (TO12);
- :mod:`.events`: events and the tables they play at (TO1, TO7, TO8, TO11);
- :mod:`.entries`: a player's entries (TO1, TO2);
- :mod:`.purchases`: what the cage sold and refunded (TO1, TO10);
- :mod:`.chips`: chips issued, removed, raced off and counted (TO3, TO6);
- :mod:`.busts`: busts and bounties (TO4, TO8);
- :mod:`.deals`: deals and their signatures (TO5);
- :mod:`.payouts`: payout sheets and payouts (TO7, TO9);
- :mod:`.clock`: the clock's log (TO12);
- :mod:`.seats`: every seat drawn or moved (TO2, TO11).
"""

from tournaments.models.busts import BountyPayment, Bust
from tournaments.models.chips import ChipCount, ChipMovement, ChipRace
from tournaments.models.clock import ClockChange
from tournaments.models.deals import Deal, DealSignature
from tournaments.models.entries import Entry
from tournaments.models.events import Event, EventTable
from tournaments.models.payouts import Payout, PayoutSheet
from tournaments.models.purchases import Purchase, Refund, RefundApproval
from tournaments.models.seats import SeatMove
from tournaments.models.structures import Level, Structure

__all__ = [
    "BountyPayment",
    "Bust",
    "ChipCount",
    "ChipMovement",
    "ChipRace",
    "ClockChange",
    "Deal",
    "DealSignature",
    "Entry",
    "Event",
    "EventTable",
    "Level",
    "Payout",
    "PayoutSheet",
    "Purchase",
    "Refund",
    "RefundApproval",
    "SeatMove",
    "Structure",
]
