"""The tournament desk's forms at the cage (TO1, TO9, TO10, CA2, CA5, CA6).

Amounts are typed in units of the event's currency, as the cash cage types them
(:mod:`core.money`, strict): an amount that could be read two ways (``115,50`` on
an English screen, ``1.150`` on a Finnish one) is refused, never guessed. Every
form that moves money carries its own key (:class:`OnceForm`); the cashier types
what he counted and it must be the price.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounting.models import Player
from staff.common.forms import MoneyField, OnceForm
from staff.common.money import money_in


def player_find(typed: str) -> Player | None:
    """The player whose id or identity card number is ``typed`` exactly (CA2)."""
    typed = typed.strip()
    if not typed:
        return None
    return (
        Player.objects.filter(
            Q(code__iexact=typed) | Q(id_document_number__iexact=typed)
        )
        .order_by("code")
        .first()
    )


class _Counted(OnceForm):
    """A form with the cash counted, which must be ``price`` (``rule``)."""

    rule = "TO1"

    def __init__(
        self, *args: Any, currency: str, price: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.currency = currency
        self.price = price
        self.fields["amount"] = MoneyField(currency=currency, label=_("Cash counted"))

    def clean_amount(self) -> int:
        typed = int(self.cleaned_data["amount"])
        if self.price is not None and typed != self.price:
            money = money_in(self.currency)
            raise forms.ValidationError(
                _("%(rule)s: the amount is %(price)s; %(typed)s was typed.")
                % {
                    "rule": self.rule,
                    "price": money(self.price),
                    "typed": money(typed),
                },
                code="amount_mismatch",
            )
        return typed


class _Identified(_Counted):
    """A form naming the player by his id or identity card (CA2)."""

    player = forms.CharField(
        label=gettext_lazy("Player ID or card"),
        max_length=64,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean_player(self) -> Player:
        found = player_find(self.cleaned_data["player"])
        if found is None:
            raise forms.ValidationError(
                _(
                    "CA2: no registered player has this ID or card; find or register "
                    "him at the cage first."
                ),
                code="player_unknown",
            )
        return found


class EntryForm(_Identified):
    """Sell an entry, or a re-entry to a player who busted (TO1, CA2, CA5)."""


class RebuyForm(_Counted):
    """Sell a rebuy to a playing entry: his stack now, under the limit (TO1)."""

    stack = forms.IntegerField(
        label=gettext_lazy("Chips now"),
        min_value=0,
        max_value=10**12,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "stack"}),
    )


class AddonForm(_Counted):
    """Sell the add-on to a playing entry (TO1)."""


class PrizePayForm(_Identified):
    """Pay a prize to the identified player against his signature, with a tax
    document at or above the event's threshold (TO9, CA6)."""

    rule = "TO9"

    tax_document = forms.CharField(
        label=gettext_lazy("Tax document"), max_length=64, required=False
    )
    signed = forms.BooleanField(
        label=gettext_lazy("The player has signed the receipt"),
        required=True,
        error_messages={
            "required": gettext_lazy(
                "CA6: the player signs the receipt of a prize; tick the box once he "
                "has."
            )
        },
    )


class RefundPayForm(_Counted):
    """Pay an approved refund: the amount the manager approved (TO10)."""

    rule = "TO10"


class RefundApproveForm(OnceForm):
    """A manager approves a refund, whole or in part, saying why (TO10)."""

    reason = forms.CharField(label=gettext_lazy("Why"), max_length=500)

    def __init__(
        self, *args: Any, currency: str, most: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.currency = currency
        self.most = most
        self.fields["amount"] = MoneyField(
            currency=currency,
            required=False,
            label=_("Amount (empty: the whole purchase)"),
        )

    def clean_amount(self) -> int | None:
        amount = self.cleaned_data.get("amount")
        if amount is not None and self.most is not None and amount > self.most:
            raise forms.ValidationError(
                _("TO10: at most %(most)s can be refunded of this purchase.")
                % {"most": money_in(self.currency)(self.most)},
                code="too_much",
            )
        return amount


class SheetApproveForm(OnceForm):
    """A manager approves the payout sheet the floor prepared (TO9, four-eyes)."""
