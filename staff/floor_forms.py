"""The floor's forms: tables to open, buy-ins typed in the room's currency, house
moves, corrections and voids asked for."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom.models import Correction, Game, HandVoid, StackMovement
from staff.forms import MoneyField, OnceForm
from staff.selectors import room_facts
from staff.templatetags.staff_floor import stakes


class GameChoice(forms.ModelChoiceField):
    """The room's games, said with their blinds in money (``NLHE €1/€2``)."""

    def label_from_instance(self, obj: Any) -> str:
        return stakes(obj, room_facts().currency)


class TableOpenForm(forms.Form):
    """Open a table dealing one of the room's games, under its current policy."""

    code = forms.SlugField(label=gettext_lazy("Table"), max_length=16)
    seats = forms.IntegerField(
        label=gettext_lazy("Seats"), min_value=2, max_value=12, initial=9
    )

    def __init__(self, *args: Any, games: list[Game], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"] = GameChoice(
            label=_("Game"),
            queryset=Game.objects.filter(pk__in=[g.pk for g in games]),
            empty_label=None,
        )


class SeatForm(OnceForm):
    """Seat a called player: a new player's buy-in, typed in units (``500``)."""

    method = forms.ChoiceField(
        label=gettext_lazy("Paid in"),
        choices=StackMovement.Method.choices,
        initial=StackMovement.Method.CASH,
    )

    def __init__(self, *args: Any, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["amount"] = MoneyField(
            currency=currency, label=_("Buy-in"), required=False
        )


class MoveForm(forms.Form):
    """A house move (BI7): one player changes seat, or the table must move (WL7,
    WL10)."""

    MUST_MOVE = "must_move"
    SEAT_CHANGE = "seat_change"

    kind = forms.ChoiceField(
        label=gettext_lazy("Move"),
        choices=[
            (SEAT_CHANGE, gettext_lazy("Seat change for one player")),
            (MUST_MOVE, gettext_lazy("Must-move: this table feeds another")),
        ],
    )
    seat = forms.IntegerField(
        label=gettext_lazy("Seat"), min_value=1, max_value=12, required=False
    )

    def __init__(
        self, *args: Any, players: list[tuple[str, str]], tables: list[str], **kw: Any
    ) -> None:
        super().__init__(*args, **kw)
        self.fields["player"] = forms.ChoiceField(
            label=_("Player"), choices=[("", "—"), *players], required=False
        )
        self.fields["to"] = forms.ChoiceField(
            label=_("To table"), choices=[(t, t) for t in tables]
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == self.SEAT_CHANGE and not data.get("player"):
            self.add_error("player", _("Choose the player who changes seat."))
        return data


class CorrectionForm(OnceForm):
    """Ask for a correction (DC2): another person approves it before it books."""

    kind = forms.ChoiceField(
        label=gettext_lazy("Correction"), choices=Correction.Kind.choices
    )
    hand_no = forms.IntegerField(
        label=gettext_lazy("Hand number"), min_value=1, required=False
    )
    from_player = forms.CharField(
        label=gettext_lazy("From player"), max_length=32, required=False
    )
    to_player = forms.CharField(
        label=gettext_lazy("To player"), max_length=32, required=False
    )
    held = forms.IntegerField(
        label=gettext_lazy("Held pot number"), min_value=1, required=False
    )
    reason = forms.CharField(
        label=gettext_lazy("Why"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["amount"] = MoneyField(currency=currency, label=_("Amount"))


class VoidForm(OnceForm):
    """Void the table's last hand (RK8): a manager approves one that took rake."""

    hand_no = forms.IntegerField(label=gettext_lazy("Hand number"), min_value=1)
    reason = forms.ChoiceField(
        label=gettext_lazy("Why"), choices=HandVoid.Reason.choices
    )
