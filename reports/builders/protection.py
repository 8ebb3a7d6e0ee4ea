"""The daily audit's player-protection sections (PP2–PP7).

What the doors refused, by rule; the restrictions that began and ended; the
awards held for restricted players and the managers' decisions on them; and who
was shown an identity document's number. Read from the append-only records
(:mod:`accounting.models`), so a day's report reads the same whenever it is made.
"""

from __future__ import annotations

from collections import Counter

from accounting.models import (
    AwardDecision,
    DocumentLookup,
    DoorRefusal,
    Restriction,
    RestrictionEnd,
)
from accounting.services.cage import held_awards
from reports.document import DATE, DATETIME, INT, MONEY, TEXT, Column, Section
from reports.document import said as _
from reports.selectors import Period


def audit_sections(period: Period) -> list[Section]:
    """The four player-protection sections of the daily audit of ``period``."""
    return [
        _refusals(period),
        _restrictions(period),
        _held(period),
        _lookups(period),
    ]


def _refusals(period: Period) -> Section:
    section = Section(
        key="protection_refusals",
        title=_("Players refused at the doors (PP2–PP4)"),
        columns=[
            Column("rule", _("rule")),
            Column("code", _("code")),
            Column("door", _("door")),
            Column("refusals", _("refusals"), INT),
            Column("players", _("players"), INT),
        ],
        note=_(
            "Each refusal of a player under age or without a date of birth (PP2), "
            "barred (PP3) or self-excluded (PP4), by the gaming day it was made on."
        ),
    )
    rows = DoorRefusal.objects.filter(
        gaming_day__gte=period.first, gaming_day__lte=period.last
    ).values_list("rule", "code", "door", "player_id")
    counted: Counter[tuple[str, str, str]] = Counter()
    players: dict[tuple[str, str, str], set[int]] = {}
    for rule, code, door, player in rows:
        counted[rule, code, door] += 1
        players.setdefault((rule, code, door), set()).add(player)
    for (rule, code, door), n in sorted(counted.items()):
        section.add(
            rule=rule,
            code=code,
            door=door,
            refusals=n,
            players=len(players[rule, code, door]),
        )
    return section


def _restrictions(period: Period) -> Section:
    section = Section(
        key="protection_restrictions",
        title=_("Bars and self-exclusions begun and ended (PP3, PP4)"),
        columns=[
            Column("at", _("at"), DATETIME),
            Column("event", _("event")),
            Column("player", _("player")),
            Column("name", _("name")),
            Column("kind", _("kind")),
            Column("scope", _("scope")),
            Column("until", _("until"), DATE),
            Column("by", _("by")),
            Column("reason", _("why")),
        ],
        note=_(
            "A bar or a self-exclusion recorded, a bar ended early by a second "
            "manager, a player's request that his self-exclusion lapse (PP7)."
        ),
    )
    events = []
    for row in Restriction.objects.filter(
        starts__gte=period.start, starts__lt=period.end
    ).select_related("player", "set_by"):
        events.append((row.starts, _("begun"), row, row.set_by, row.reason))
    for end in RestrictionEnd.objects.filter(
        at__gte=period.start, at__lt=period.end
    ).select_related("restriction__player", "by"):
        label = (
            _("ended early")
            if end.kind == RestrictionEnd.Kind.ENDED
            else _("lapse asked")
        )
        events.append((end.at, label, end.restriction, end.by, end.reason))
    for at, label, row, by, reason in sorted(events, key=lambda e: (e[0], e[2].pk)):
        section.add(
            at=period.local(at),
            event=str(label),
            player=row.player.code,
            name=row.player.name,
            kind=str(row.get_kind_display()),
            scope=str(row.get_scope_display()),
            until=row.until,
            by=by.get_username(),
            reason=reason,
        )
    return section


def _held(period: Period) -> Section:
    section = Section(
        key="protection_held_awards",
        title=_("Awards held for restricted players (PP6)"),
        columns=[
            Column("reference", _("award")),
            Column("player", _("player")),
            Column("amount", _("amount"), MONEY),
            Column("held_by", _("held because of")),
            Column("decision", _("decision")),
            Column("decided_at", _("decided"), DATETIME),
            Column("by", _("by")),
            Column("reason", _("why")),
        ],
        note=_(
            "Held at the period's end, and decided during it: paid to the player "
            "after all, or forfeited into forfeited awards."
        ),
    )
    for payable, restriction in held_awards(at=period.end):
        section.add(
            reference=payable.reference,
            player=payable.player.code,
            amount=payable.amount_cents,
            held_by=f"{restriction.get_kind_display()} #{restriction.pk}",
            decision=str(_("held")),
            decided_at=None,
            by="",
            reason=restriction.reason,
        )
    for decision in AwardDecision.objects.filter(
        at__gte=period.start, at__lt=period.end
    ).select_related("payable__player", "held_by", "by"):
        section.add(
            reference=decision.payable.reference,
            player=decision.payable.player.code,
            amount=decision.payable.amount_cents,
            held_by=f"{decision.held_by.get_kind_display()} #{decision.held_by_id}",
            decision=str(decision.get_decision_display()),
            decided_at=period.local(decision.at),
            by=decision.by.get_username(),
            reason=decision.reason,
        )
    return section


def _lookups(period: Period) -> Section:
    section = Section(
        key="protection_document_lookups",
        title=_("Identity documents looked at (PP7)"),
        columns=[
            Column("at", _("at"), DATETIME),
            Column("by", _("by")),
            Column("player", _("player")),
            Column("document", _("document"), TEXT),
            Column("purpose", _("why")),
        ],
        note=_("Who was shown a document's number, and when. Numbers aren't shown."),
    )
    for lookup in DocumentLookup.objects.filter(
        at__gte=period.start, at__lt=period.end
    ).select_related("document__player", "by"):
        section.add(
            at=period.local(lookup.at),
            by=lookup.by.get_username(),
            player=lookup.document.player.code,
            document=str(lookup.document.get_kind_display()),
            purpose=lookup.purpose,
        )
    return section
