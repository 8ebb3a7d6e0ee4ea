"""The tournament director's screens: tonight's events, and setting one up — its
blind structure and levels, the event with its money and rule settings, its
tables and its payout table (TO1, TO7, TO11, TO12).

Every write calls the set-up services (``tournaments.services.setup``), which
say what can't change once entries are sold or the event has started; the
floor's screen of a running event is :mod:`staff.floor.tournaments.event`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages
from django.db import models
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.api.permissions import staff
from core.errors import ApplicationError
from core.money import symbol_of
from staff.common.money import money_in, style_of
from staff.common.once import book_once, form_key
from staff.common.roles import floor_only
from staff.common.selectors import room_facts
from staff.common.tournaments import act, chips_text, event_of, form_refused, refused
from staff.floor.tournaments import forms
from tournaments import selectors
from tournaments.domain.setup import LevelSpec
from tournaments.models import Event, EventTable, Structure
from tournaments.services import setup


def _defaults() -> dict[str, Any]:
    """The event settings' defaults, for a new event's form."""
    fields = [Event._meta.get_field(name) for name in setup.SETTINGS]
    return {f.name: f.get_default() for f in fields if isinstance(f, models.Field)}


def tonight(*, now: datetime | None = None) -> list[Event]:
    """The events running, and those scheduled from twelve hours ago on."""
    now = now or timezone.now()
    return list(
        Event.objects.select_related("structure")
        .filter(
            Q(status=Event.Status.RUNNING)
            | Q(
                status=Event.Status.SCHEDULED,
                starts_at__gte=now - timedelta(hours=12),
                starts_at__lte=now + timedelta(hours=18),
            )
        )
        .order_by("starts_at", "code")
    )


def _row(event: Event) -> dict[str, Any]:
    money = money_in(event.currency)
    return {
        "event": event,
        "price": money(
            int(event.buy_in_cents)
            + int(event.fee_cents)
            + int(event.staff_fee_cents)
            + int(event.bounty_cents)
        ),
        "guarantee": money(int(event.guarantee_cents)) if event.guarantee_cents else "",
        "stack": chips_text(event.starting_stack),
        "entries": event.entries.exclude(status="refunded").count(),
        "left": event.entries.filter(status="active").count(),
    }


@floor_only
@require_GET
def events(request: HttpRequest) -> HttpResponse:
    """Tonight's events, the others to come, and the structures."""
    now = timezone.now()
    current = tonight(now=now)
    later = (
        Event.objects.filter(status=Event.Status.SCHEDULED, starts_at__gt=now)
        .exclude(pk__in=[e.pk for e in current])
        .order_by("starts_at")[:20]
    )
    return render(
        request,
        "staff/floor/tournaments/events.html",
        {
            "room": room_facts(),
            "rows": [_row(e) for e in current],
            "later": [_row(e) for e in later],
            "structures": Structure.objects.order_by("code"),
        },
    )


@floor_only
@require_GET
def events_tonight(request: HttpRequest) -> HttpResponse:
    """Tonight's events alone, for the floor's home page."""
    return render(
        request,
        "staff/floor/tournaments/_events.html",
        {"rows": [_row(e) for e in tonight()]},
    )


# Structures (TO12) -------------------------------------------------------------


def _level_specs(formset: Any) -> list[LevelSpec]:
    levels = []
    for form in formset.forms:
        data = form.cleaned_data
        if not data or data.get("DELETE") or not data.get("minutes"):
            continue
        levels.append(
            LevelSpec(
                minutes=data["minutes"],
                small_blind=data.get("small_blind") or 0,
                big_blind=data.get("big_blind") or 0,
                ante=data.get("ante") or 0,
                big_blind_ante=bool(data.get("big_blind_ante")),
                is_break=bool(data.get("is_break")),
                retire_denomination=data.get("retire_denomination") or None,
            )
        )
    return levels


def _level_initial(structure: Structure) -> list[dict[str, Any]]:
    return [
        {
            "minutes": row.minutes,
            "small_blind": row.small_blind,
            "big_blind": row.big_blind,
            "ante": row.ante,
            "big_blind_ante": row.big_blind_ante,
            "is_break": row.is_break,
            "retire_denomination": row.retire_denomination,
        }
        for row in structure.levels.order_by("number")
    ]


@floor_only
def structure_edit(request: HttpRequest, code: str = "") -> HttpResponse:
    """Create a structure, or replace an existing one's name and levels while no
    event using it has started (TO12)."""
    structure = get_object_or_404(Structure, code=code) if code else None
    if request.method == "POST":
        form = forms.StructureForm(request.POST)
        levels = forms.LevelFormSet(request.POST, prefix="level")
        if structure is not None:
            form.fields["code"].required = False
        if form.is_valid() and levels.is_valid():
            specs = _level_specs(levels)
            by = staff(request)
            data = form.cleaned_data

            def book() -> str:
                if structure is None:
                    made = setup.structure_create(
                        code=data["code"], name=data["name"], levels=specs, by=by
                    )
                else:
                    made = setup.structure_update(
                        structure=structure, name=data["name"], levels=specs, by=by
                    )
                return reverse("staff:tournament-structure", args=[made.code])

            try:
                url, _fresh = book_once(request, book)
            except ApplicationError as error:
                refused(request, error, room_facts().currency)
            else:
                messages.success(
                    request,
                    _("The structure %(code)s is saved with %(n)d levels.")
                    % {"code": data.get("code") or code, "n": len(specs)},
                )
                return redirect(url)
    else:
        form = forms.StructureForm(
            initial={"code": structure.code, "name": structure.name}
            if structure
            else None
        )
        levels = forms.LevelFormSet(
            prefix="level",
            initial=_level_initial(structure) if structure else None,
        )
    return render(
        request,
        "staff/floor/tournaments/structure.html",
        {
            "room": room_facts(),
            "structure": structure,
            "form": form,
            "levels": levels,
            "once": request.POST.get("once") or form_key(),
            "started": selectors.structure_started_by(structure=structure)
            if structure
            else None,
        },
    )


# Events (TO1, TO7, TO11) -------------------------------------------------------


def _structures() -> list[tuple[str, str]]:
    return [
        (s.code, f"{s.name} ({s.code})") for s in Structure.objects.order_by("code")
    ]


def _event_initial(event: Event) -> dict[str, Any]:
    values = {name: getattr(event, name) for name in setup.SETTINGS}
    values.update(
        name=event.name,
        starts_at=timezone.localtime(event.starts_at),
        structure=event.structure.code,
    )
    return values


@floor_only
def event_new(request: HttpRequest) -> HttpResponse:
    """Create tonight's event with its settings (TO1, TO7)."""
    room = room_facts()
    form = forms.EventForm(
        request.POST or None,
        settings=setup.SETTINGS,
        structures=_structures(),
        currency=room.currency,
        new=True,
        initial={
            **_defaults(),
            "starts_at": timezone.localtime().replace(second=0, microsecond=0),
        },
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        by = staff(request)

        def book() -> str:
            made = setup.event_create(
                code=data["code"],
                name=data["name"],
                structure=data["structure"],
                starts_at=data["starts_at"],
                settings=form.values(),
                by=by,
            )
            return reverse("staff:tournament-setup", args=[made.code])

        try:
            url, _fresh = book_once(request, book)
        except ApplicationError as error:
            refused(request, error, room.currency)
        else:
            messages.success(
                request,
                _("The event %(name)s is created; add its tables.")
                % {"name": data["name"]},
            )
            return redirect(url)
    return render(
        request,
        "staff/floor/tournaments/event_form.html",
        {"room": room, "form": form, "event": None, **_money_signs(room.currency)},
    )


@floor_only
def event_setup(request: HttpRequest, event: str) -> HttpResponse:
    """An event's settings, tables and payout table, as far as the players' terms
    allow changes (TO1, TO7, TO9, TO11)."""
    found = event_of(event)
    room = room_facts()
    form = forms.EventForm(
        request.POST or None,
        settings=setup.SETTINGS,
        structures=_structures(),
        currency=found.currency,
        new=False,
        initial=_event_initial(found),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        by = staff(request)
        changes = {
            **form.values(),
            "name": data["name"],
            "starts_at": data["starts_at"],
            "structure": data["structure"],
        }

        def action() -> None:
            setup.event_settings_update(event=found, changes=changes, by=by)

        return act(
            request,
            found,
            action,
            _("The event's settings are saved."),
            back=reverse("staff:tournament-setup", args=[found.code]),
        )
    return render(
        request,
        "staff/floor/tournaments/event_form.html",
        {
            "room": room,
            "form": form,
            "event": found,
            "tables": EventTable.objects.filter(event=found).order_by("break_order"),
            "table_form": forms.TableForm(),
            "payout_form": forms.PayoutTableForm(
                initial={"rows": forms.rows_text(found.payout_table or [])}
            ),
            "preview": _preview(found),
            **_money_signs(found.currency),
        },
    )


def _money_signs(currency: str) -> dict[str, Any]:
    """The currency's sign, and whether the reader's language writes it after the
    amount (``100,00 €`` in Finnish)."""
    return {
        "currency_sign": symbol_of(currency),
        "sign_after": style_of(get_language() or "en").symbol_after,
    }


def _preview(event: Event) -> list[dict[str, Any]]:
    """What the payout table pays at a few field sizes (TO7)."""
    money = money_in(event.currency)
    out = []
    for entries in (10, 20, 50):
        try:
            seen = selectors.payout_preview(event=event, entries=entries)
        except ApplicationError:
            continue
        out.append(
            {
                "entries": entries,
                "pool": money(seen.pool_cents),
                "places": [money(p.prize_cents) for p in seen.places[:9]],
                "more": max(len(seen.places) - 9, 0),
            }
        )
    return out


@floor_only
@require_POST
def table_add(request: HttpRequest, event: str) -> HttpResponse:
    """Add a table to the event, in its breaking order (TO11)."""
    found = event_of(event)
    back = reverse("staff:tournament-setup", args=[found.code]) + "#tables"
    form = forms.TableForm(request.POST)
    if not form.is_valid():
        return form_refused(request, form, back)
    data = form.cleaned_data
    by = staff(request)
    code = data["table"].strip().upper()

    def action() -> None:
        setup.event_table_add(
            event=found,
            table=code,
            seats=data["seats"],
            break_order=data.get("break_order"),
            by=by,
        )

    done = _("Table %(t)s plays in the event.") % {"t": code}
    return act(request, found, action, done, back=back)


@floor_only
@require_POST
def payout_table_set(request: HttpRequest, event: str) -> HttpResponse:
    """Set the event's payout table (TO7)."""
    found = event_of(event)
    back = reverse("staff:tournament-setup", args=[found.code]) + "#payouts"
    form = forms.PayoutTableForm(request.POST)
    if not form.is_valid():
        return form_refused(request, form, back)
    rows = form.cleaned_data["rows"]
    by = staff(request)

    def action() -> None:
        setup.payout_table_set(event=found, rows=rows, by=by)

    done = (
        _("The payout table is saved.")
        if rows
        else _("The event pays by the house's default table.")
    )
    return act(request, found, action, done, back=back)
