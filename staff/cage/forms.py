"""The cage's forms: amounts typed in the room's currency, counts by denomination,
a box's count (CA4) and the identity document the cashier checked (PP1)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from accounting.models import Player
from core.money import money_format
from staff.common.forms import DateInput, MoneyField, OnceForm


class AmountForm(OnceForm):
    """Sell or redeem chips, or pay an amount: one amount in the room's currency."""

    def __init__(self, *args: Any, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["amount"] = MoneyField(currency=currency, label=_("Amount"))


class AwardPayForm(OnceForm):
    """Pay an approved award: the player has signed the receipt (CA6)."""

    signed = forms.BooleanField(
        label=gettext_lazy("The player has signed the receipt"),
        required=True,
        error_messages={
            "required": gettext_lazy(
                "CA6: the player signs the receipt of an award payout; tick the box "
                "once he has."
            )
        },
    )


def denominations() -> tuple[list[int], list[int]]:
    """The room's note and chip denominations in cents, largest first (settings)."""
    notes = sorted(settings.CARDROOM_NOTE_DENOMINATIONS_CENTS, reverse=True)
    chips = sorted(settings.CARDROOM_CHIP_DENOMINATIONS_CENTS, reverse=True)
    return notes, chips


class CountForm(OnceForm):
    """A drawer count by denomination: notes and chips by number, coins as one sum."""

    def __init__(
        self, *args: Any, currency: str, note_required: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.currency = currency
        language = get_language() or "en"
        self.notes, self.chips = denominations()
        for prefix, values in (("note", self.notes), ("chip", self.chips)):
            for cents in values:
                self.fields[f"{prefix}_{cents}"] = forms.IntegerField(
                    label=money_format(cents, currency, language, whole=True),
                    min_value=0,
                    max_value=100_000,
                    required=False,
                    widget=forms.NumberInput(
                        attrs={
                            "inputmode": "numeric",
                            "class": "count",
                            "data-cents": cents,
                            "data-side": prefix,
                            "min": 0,
                        }
                    ),
                )
        self.fields["coins"] = MoneyField(
            currency=currency, positive=False, required=False, label=_("Coins")
        )
        self.fields["note"] = forms.CharField(
            label=_("Note on the over/short"),
            required=note_required,
            max_length=500,
            widget=forms.Textarea(attrs={"rows": 2}),
        )

    @property
    def note_rows(self) -> list[forms.BoundField]:
        return [self[f"note_{cents}"] for cents in self.notes]

    @property
    def chip_rows(self) -> list[forms.BoundField]:
        return [self[f"chip_{cents}"] for cents in self.chips]

    def counts(self, prefix: str) -> dict[str, int]:
        """What was counted of each note or chip, by denomination in cents."""
        values = self.notes if prefix == "note" else self.chips
        found = {str(c): self.cleaned_data.get(f"{prefix}_{c}") or 0 for c in values}
        return {k: v for k, v in found.items() if v}

    def line_totals(self) -> tuple[dict[str, int | None], dict[str, int]]:
        """What each line of the count being typed comes to, and each side's sum.

        Read from what was typed, field by field, so a line shows its amount while
        another is still wrong: a line left empty or not a whole number of notes or
        chips from 0 up comes to None (shown blank) and adds nothing.
        """
        lines: dict[str, int | None] = {}
        sums = {"note": 0, "chip": 0}
        for prefix, values in (("note", self.notes), ("chip", self.chips)):
            for cents in values:
                name = f"{prefix}_{cents}"
                typed = str(self.data.get(self.add_prefix(name), "")).strip()
                n = int(typed) if typed.isdigit() else 0
                n = n if n <= 100_000 else 0
                lines[name] = n * cents if n else None
                sums[prefix] += n * cents
        return lines, sums

    @property
    def coins_cents(self) -> int:
        return self.cleaned_data.get("coins") or 0

    @property
    def cash_cents(self) -> int:
        return self.coins_cents + sum(
            int(k) * v for k, v in self.counts("note").items()
        )

    @property
    def chips_cents(self) -> int:
        return sum(int(k) * v for k, v in self.counts("chip").items())


class BoxCountForm(OnceForm):
    """What one box held, counted: an amount from zero up (an empty box is
    counted too)."""

    def __init__(self, *args: Any, currency: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["amount"] = MoneyField(
            currency=currency, positive=False, label=gettext_lazy("Counted")
        )


class DocumentForm(OnceForm):
    """The identity document the cashier checked: kind, number, expiry (PP1).

    With its own key, as the cage's other forms: a double post records the check
    once (PP7: the records are never edited, so a second one would stay)."""

    document_type = forms.ChoiceField(
        label=gettext_lazy("Document"), choices=Player.Document.choices
    )
    document_number = forms.CharField(
        label=gettext_lazy("Document number"),
        max_length=64,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    expires = forms.DateField(
        label=gettext_lazy("Expires"), required=False, widget=DateInput()
    )
