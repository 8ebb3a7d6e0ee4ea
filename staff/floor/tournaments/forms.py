"""The director's and the floor's forms: the clock, busts, counts, the race, the
deal, the payout sheet, penalties, and the event's set-up.

Numbers are whole numbers only (a chip count typed ``1.5`` or ``abc`` is refused
here, before any service is asked); money is typed in the room's currency
(:class:`staff.common.forms.MoneyField`); forms that write carry a one-time key
(:class:`staff.common.forms.OnceForm`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _

from staff.common.forms import MoneyField, OnceForm
from tournaments.models import Entry

ACTIONS = (
    ("start", _("Start")),
    ("pause", _("Pause")),
    ("resume", _("Resume")),
    ("move", _("Move to level")),
    ("add_time", _("Add time")),
    ("stop", _("Stop")),
)


def _who(entry: Entry) -> str:
    name = entry.player.name or entry.player.code
    where = f" · {entry.table} {entry.seat}" if entry.seat else ""
    return f"{name} (#{entry.number}){where}"


def parse_pairs(text: str) -> dict[str, int]:
    """``"1:500,4:75"`` as ``{"1": 500, "4": 75}``; raises ValidationError."""
    out: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition(":")
        if not sep or not key.isdigit() or not value.isdigit():
            raise forms.ValidationError(_("This form was changed; open it again."))
        out[key] = int(value)
    return out


class ClockForm(OnceForm):
    """One change of the clock (TO12)."""

    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS)
    level = forms.TypedChoiceField(
        label=_("Level"), coerce=int, required=False, empty_value=None
    )
    minutes = forms.IntegerField(
        label=_("Minutes (negative takes time away)"),
        required=False,
        min_value=-600,
        max_value=600,
    )
    reason = forms.CharField(label=_("Why"), max_length=200, required=False)

    def __init__(self, *args: Any, levels: Sequence[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = [("", "–"), *levels]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        action = data.get("action")
        if action == "move" and data.get("level") is None:
            self.add_error("level", _("Choose the level to move to."))
        if action == "add_time":
            if not data.get("minutes"):
                self.add_error("minutes", _("Give the minutes to add or take away."))
            else:
                data["seconds"] = data["minutes"] * 60
        if action not in ("move", "start"):
            data["level"] = None
        return data


class BustForm(OnceForm):
    """The players out in one hand (TO4): up to three, with their stacks at the
    start of the hand, and who won the hand."""

    ROWS = 3
    table = forms.ChoiceField(label=_("Table"), required=False)
    hand = forms.CharField(label=_("Hand"), max_length=40)
    hand_for_hand = forms.BooleanField(label=_("Hand-for-hand"), required=False)
    busted_by = forms.ChoiceField(label=_("Won by"), required=False)

    def __init__(
        self,
        *args: Any,
        tables: Sequence[str],
        players: Sequence[Entry],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [(t, t) for t in tables]  # type: ignore[attr-defined]
        who = [("", "–"), *((e.player.code, _who(e)) for e in players)]
        self.fields["busted_by"].choices = who  # type: ignore[attr-defined]
        for n in range(1, self.ROWS + 1):
            self.fields[f"player_{n}"] = forms.ChoiceField(
                label=_("Player out"), choices=who, required=n == 1
            )
            self.fields[f"stack_{n}"] = forms.IntegerField(
                label=_("Stack at the start of the hand"),
                min_value=1,
                required=n == 1,
            )

    def rows(self) -> list[tuple[Any, Any]]:
        return [
            (self[f"player_{n}"], self[f"stack_{n}"]) for n in range(1, self.ROWS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        busts = []
        for n in range(1, self.ROWS + 1):
            player, stack = data.get(f"player_{n}"), data.get(f"stack_{n}")
            if player and not stack:
                self.add_error(
                    f"stack_{n}", _("Give his stack at the start of the hand.")
                )
            elif player:
                busts.append((player, stack))
        if not data.get("hand_for_hand") and not data.get("table"):
            self.add_error("table", _("Choose the table."))
        data["busts"] = busts
        return data


class CountForm(OnceForm):
    """One table's chips counted (TO3)."""

    table = forms.ChoiceField(label=_("Table"))
    chips = forms.IntegerField(label=_("Chips counted"), min_value=0)

    def __init__(self, *args: Any, tables: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [(t, t) for t in tables]  # type: ignore[attr-defined]


class DisqualifyForm(OnceForm):
    """An entry disqualified, with the cause and the chips that leave play (TO3)."""

    entry = forms.TypedChoiceField(label=_("Entry"), coerce=int)
    reason = forms.CharField(label=_("Why"), max_length=500)
    stack = forms.IntegerField(
        label=_("His stack (chips)"), min_value=0, required=False
    )

    def __init__(self, *args: Any, players: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [(e.pk, _who(e)) for e in players]  # type: ignore[attr-defined]


class RemoveForm(OnceForm):
    """Chips taken out of play for a recorded cause (TO3)."""

    cause = forms.ChoiceField(label=_("Cause"))
    chips = forms.IntegerField(label=_("Chips"), min_value=1)
    entry = forms.TypedChoiceField(
        label=_("Player"), coerce=int, required=False, empty_value=None
    )
    note = forms.CharField(label=_("Note"), max_length=500, required=False)

    def __init__(
        self,
        *args: Any,
        causes: Sequence[tuple[str, str]],
        players: Sequence[Entry],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["cause"].choices = list(causes)  # type: ignore[attr-defined]
        self.fields["entry"].choices = [  # type: ignore[attr-defined]
            ("", "–"),
            *((e.pk, _who(e)) for e in players),
        ]


class RaceForm(forms.Form):
    """A table's colour-up (TO6): the denomination retired, the one raced for, and
    each seat's whole stack and chips of the retired denomination."""

    table = forms.CharField(widget=forms.HiddenInput)
    denomination = forms.IntegerField(label=_("Chip retired"), min_value=1)
    new_denomination = forms.IntegerField(label=_("Raced for"), min_value=2)

    def __init__(self, *args: Any, seats: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for seat in self.seats:
            self.fields[f"stack_{seat}"] = forms.IntegerField(
                label=_("Stack"), min_value=0
            )
            self.fields[f"retired_{seat}"] = forms.IntegerField(
                label=_("Chips retired"), min_value=0, initial=0
            )

    def seat_fields(self) -> list[tuple[str, Any, Any]]:
        return [(s, self[f"stack_{s}"], self[f"retired_{s}"]) for s in self.seats]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.seats:
            raise forms.ValidationError(_("Nobody sits at this table."))
        data["stacks"] = {s: data.get(f"stack_{s}") or 0 for s in self.seats}
        data["retired"] = {s: data.get(f"retired_{s}") or 0 for s in self.seats}
        return data


class RaceRecordForm(OnceForm):
    """The race as drawn on screen, recorded (TO6)."""

    table = forms.CharField(widget=forms.HiddenInput)
    denomination = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    new_denomination = forms.IntegerField(widget=forms.HiddenInput, min_value=2)
    stacks = forms.CharField(widget=forms.HiddenInput)
    retired = forms.CharField(widget=forms.HiddenInput)
    seed = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def clean_stacks(self) -> dict[str, int]:
        return parse_pairs(self.cleaned_data["stacks"])

    def clean_retired(self) -> dict[str, int]:
        return parse_pairs(self.cleaned_data["retired"])


class DealStacksForm(forms.Form):
    """The stacks of the players left and the button's seat, for the figures (TO5)."""

    button = forms.IntegerField(label=_("Button at seat"), min_value=1, max_value=99)

    def __init__(self, *args: Any, players: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for entry in self.players:
            self.fields[f"s_{entry.pk}"] = forms.IntegerField(
                label=_who(entry), min_value=1
            )

    def stacks(self) -> dict[int, int]:
        return {e.pk: self.cleaned_data[f"s_{e.pk}"] for e in self.players}


class DealProposeForm(OnceForm):
    """The amounts agreed, prefilled from the method chosen (TO5)."""

    method = forms.ChoiceField(
        widget=forms.HiddenInput,
        choices=[("chip_chop", "chip_chop"), ("icm", "icm"), ("custom", "custom")],
    )
    stacks = forms.CharField(widget=forms.HiddenInput)
    button_order = forms.CharField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        players: Sequence[Entry],
        currency: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for entry in self.players:
            self.fields[f"amount_{entry.pk}"] = MoneyField(
                currency=currency, label=_who(entry), positive=False
            )
        self.fields["left_in_play"] = MoneyField(
            currency=currency,
            label=_("Left to play for (with the title)"),
            positive=False,
            required=False,
        )

    def amount_fields(self) -> list[Any]:
        return [self[f"amount_{e.pk}"] for e in self.players]

    def clean_stacks(self) -> dict[str, int]:
        return parse_pairs(self.cleaned_data["stacks"])

    def clean_button_order(self) -> list[int]:
        text = self.cleaned_data["button_order"]
        if not all(p.isdigit() for p in text.split(",")):
            raise forms.ValidationError(_("This form was changed; open it again."))
        return [int(p) for p in text.split(",")]

    def clean_left_in_play(self) -> int:
        return self.cleaned_data.get("left_in_play") or 0

    def amounts(self) -> dict[int, int]:
        return {e.pk: self.cleaned_data[f"amount_{e.pk}"] for e in self.players}


class PrepareForm(OnceForm):
    """The payout sheet's holds: a reason beside each prize held (TO9)."""

    def __init__(self, *args: Any, players: Sequence[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for entry in self.players:
            self.fields[f"hold_{entry.pk}"] = forms.CharField(
                label=_who(entry), max_length=500, required=False
            )

    def hold_fields(self) -> list[Any]:
        return [self[f"hold_{e.pk}"] for e in self.players]

    def holds(self) -> dict[int, str]:
        return {
            e.pk: self.cleaned_data[f"hold_{e.pk}"].strip()
            for e in self.players
            if self.cleaned_data.get(f"hold_{e.pk}", "").strip()
        }


class ReleaseForm(OnceForm):
    """A held prize released, with why (TO9)."""

    reason = forms.CharField(label=_("Why"), max_length=500)


class ForfeitForm(OnceForm):
    """A held prize forfeited, with why and where the money goes (TO9)."""

    reason = forms.CharField(label=_("Why"), max_length=500)
    destination = forms.ChoiceField(label=_("The money goes"))

    def __init__(
        self, *args: Any, destinations: Sequence[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["destination"].choices = list(destinations)  # type: ignore[attr-defined]


# The event's set-up (TO1, TO7, TO11, TO12) -------------------------------------


class LevelForm(forms.Form):
    """One level of a structure, or a break that may colour up a chip (TO6, TO12)."""

    minutes = forms.IntegerField(label=_("Minutes"), min_value=1, max_value=600)
    small_blind = forms.IntegerField(
        label=_("Small blind"), min_value=0, required=False
    )
    big_blind = forms.IntegerField(label=_("Big blind"), min_value=0, required=False)
    ante = forms.IntegerField(label=_("Ante"), min_value=0, required=False)
    big_blind_ante = forms.BooleanField(label=_("Big blind ante"), required=False)
    is_break = forms.BooleanField(label=_("Break"), required=False)
    retire_denomination = forms.IntegerField(
        label=_("Chip retired"), min_value=1, required=False
    )


LevelFormSet = forms.formset_factory(LevelForm, extra=3, max_num=100, min_num=1)


class StructureForm(forms.Form):
    """A blind structure's code and name; its levels are :data:`LevelFormSet`."""

    code = forms.SlugField(label=_("Code"), max_length=32)
    name = forms.CharField(label=_("Structure name"), max_length=100)


def _event_field(name: str, currency: str) -> forms.Field:
    from tournaments.models import Event

    field = Event._meta.get_field(name)
    assert isinstance(field, models.Field)
    label = str(field.verbose_name).capitalize()
    help_text = str(field.help_text or "")
    if name.endswith("_cents"):
        return MoneyField(
            currency=currency,
            label=label,
            positive=False,
            required=name == "buy_in_cents",
            help_text=help_text,
        )
    if field.choices:
        return forms.ChoiceField(label=label, choices=field.choices)
    return forms.IntegerField(
        label=label, min_value=0, required=name == "starting_stack"
    )


class EventForm(OnceForm):
    """An event's name, start, structure and money and rule settings (TO1, TO7)."""

    def __init__(
        self,
        *args: Any,
        settings: Sequence[str],
        structures: Sequence[tuple[str, str]],
        currency: str,
        new: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if new:
            self.fields["code"] = forms.SlugField(label=_("Code"), max_length=32)
        self.fields["name"] = forms.CharField(label=_("Event name"), max_length=200)
        self.fields["starts_at"] = forms.DateTimeField(
            label=_("Starts"),
            widget=forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
            input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        )
        self.fields["structure"] = forms.ChoiceField(
            label=_("Structure"), choices=list(structures)
        )
        self.settings = list(settings)
        for name in self.settings:
            self.fields[name] = _event_field(name, currency)

    def values(self) -> dict[str, Any]:
        """The settings typed; one left empty keeps its default (no add-on for
        the add-on's level)."""
        data = self.cleaned_data
        return {
            name: data.get(name)
            for name in self.settings
            if data.get(name) is not None or name == "addon_level"
        }


class TableForm(OnceForm):
    """A table added to the event, broken in the order given (TO11)."""

    table = forms.CharField(label=_("Table"), max_length=16)
    seats = forms.IntegerField(label=_("Seats"), min_value=2, max_value=11, initial=9)
    break_order = forms.IntegerField(
        label=_("Broken in order"), min_value=1, required=False
    )


class PayoutTableForm(OnceForm):
    """The event's payout table, one row a line: from how many entries, then each
    place's share in percent (``10: 50, 30, 20``); empty for the default (TO7)."""

    rows = forms.CharField(
        label=_("Payout table"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "One line per field size: the entries from which it applies, a colon, "
            "then each place's share in percent, first place first. For example "
            "“10: 50, 30, 20”. Leave empty for the house's default table."
        ),
    )

    def clean_rows(self) -> list[tuple[int, list[int]]]:
        rows = []
        for n, line in enumerate(self.cleaned_data["rows"].splitlines(), start=1):
            if not line.strip():
                continue
            head, sep, tail = line.partition(":")
            try:
                entries = int(head.strip())
                shares = [_basis_points(part) for part in tail.split(",")]
            except ValueError:
                raise forms.ValidationError(
                    _("Line %(n)s: write the entries, a colon, then the shares.")
                    % {"n": n}
                ) from None
            if not sep:
                raise forms.ValidationError(
                    _("Line %(n)s: write the entries, a colon, then the shares.")
                    % {"n": n}
                )
            rows.append((entries, shares))
        return rows


def _basis_points(text: str) -> int:
    """``"12.5"`` or ``"12,5"`` percent as 1250 basis points; two decimals at most."""
    text = text.strip().rstrip("%").strip().replace(",", ".")
    whole, _sep, part = text.partition(".")
    if not whole.isdigit() or (part and not part.isdigit()) or len(part) > 2:
        raise ValueError(text)
    return int(whole) * 100 + int(part.ljust(2, "0") or 0)


def rows_text(rows: Sequence[Any]) -> str:
    """A payout table as the form writes it."""

    def pct(bp: int) -> str:
        return f"{bp // 100}" if bp % 100 == 0 else f"{bp // 100}.{bp % 100:02d}"

    return "\n".join(
        f"{row['min_entries']}: " + ", ".join(pct(int(s)) for s in row["shares"])
        for row in rows
    )
