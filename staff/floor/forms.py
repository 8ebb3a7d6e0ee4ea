"""The floor's forms: tables to open, buy-ins typed in the room's currency, house
moves, corrections and voids asked for, fills asked of the cage, players put on
the lists and pairs of players kept apart."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounting.models import Cage, Player
from cardroom.models import Correction, Game, HandVoid, StackMovement
from staff.common.forms import MoneyField, OnceForm
from staff.common.selectors import players_find, room_facts
from staff.templatetags.staff_floor import stakes
from waitlist.models import WaitingList


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


class FillForm(OnceForm):
    """Ask the cage for a fill of an open table's tray (CA3): a new table's
    opening fill, or more chips for a tray running short. A cashier issues it."""

    def __init__(
        self, *args: Any, currency: str, tables: list[str], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"] = forms.ChoiceField(
            label=_("Table"), choices=[(t, t) for t in tables]
        )
        self.fields["amount"] = MoneyField(currency=currency, label=_("Amount"))
        self.fields["cage"] = forms.ModelChoiceField(
            label=_("Cage"),
            queryset=Cage.objects.order_by("code"),
            empty_label=None,
            error_messages={"invalid_choice": _("Choose one of the room's cages.")},
        )


class ListJoinForm(OnceForm):
    """Put a registered player on a game's list (WL1), by his id or name."""

    player = forms.CharField(label=gettext_lazy("Player"), max_length=64)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["waiting_list"] = forms.ModelChoiceField(
            label=_("List"),
            queryset=WaitingList.objects.select_related("game"),
            error_messages={"invalid_choice": _("That list is gone; reload the page.")},
        )

    def clean_player(self) -> Player:
        """The one registered player the floor typed (:func:`player_typed`)."""
        return player_typed(self.cleaned_data["player"])


def player_typed(typed: str) -> Player:
    """The one registered player the floor typed: his id exactly, or the only
    player whose name, nickname or id matches. Raises ``ValidationError``."""
    query = typed.strip()
    exact = Player.objects.filter(code__iexact=query).first()
    if exact is not None:
        return exact
    found = list(players_find(query, limit=2))
    if not found:
        raise forms.ValidationError(
            _("No registered player matches “%(q)s”.") % {"q": query}
        )
    if len(found) > 1:
        raise forms.ValidationError(
            _("Several players match “%(q)s”; type the player's id.") % {"q": query}
        )
    return found[0]


class PairForm(OnceForm):
    """Keep two registered players out of the same game (WL9), by id or name,
    saying why."""

    player_a = forms.CharField(label=gettext_lazy("First player"), max_length=64)
    player_b = forms.CharField(label=gettext_lazy("Second player"), max_length=64)
    reason = forms.CharField(
        label=gettext_lazy("Why"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def clean_player_a(self) -> Player:
        return player_typed(self.cleaned_data["player_a"])

    def clean_player_b(self) -> Player:
        return player_typed(self.cleaned_data["player_b"])
