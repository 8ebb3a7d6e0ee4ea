"""The fields and forms every staff screen builds on: an amount typed in the
room's currency (:class:`MoneyField`, read by core.money's strict parser), a form
that books once by its own key (:class:`OnceForm`, :mod:`staff.common.once`) and
the browser's date picker."""

from __future__ import annotations

from typing import Any

from babel.lists import format_list
from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.money import MoneyInputError, locale_of, money_parse, units_format
from staff.common.once import FIELD, form_key


def _reason(error: MoneyInputError, typed: str, currency: str, language: str) -> str:
    """What the cashier is told of an amount that was refused, with the amounts it
    could have been: an ambiguous amount is never guessed (core.money)."""
    if error.reason == "ambiguous":
        return _(
            "“%(typed)s” could be read as two different amounts; did you mean "
            "%(meant)s?"
        ) % {
            "typed": typed,
            "meant": format_list(
                list(error.meant), style="or", locale=locale_of(language)
            ),
        }
    return {
        "empty": _("Type an amount."),
        "negative": _("An amount can't be negative."),
        "too_many_decimals": _("Too many decimals for this currency."),
        "too_large": _("That amount is too large."),
    }.get(
        error.reason,
        _("Type the amount in figures, like %(example)s.")
        % {"example": units_format(123_450, currency, language)},
    )


class MoneyField(forms.CharField):
    """An amount typed in units of ``currency`` (``500`` is €500), cleaned to cents."""

    def __init__(self, *, currency: str, positive: bool = True, **kwargs: Any) -> None:
        self.currency = currency
        self.positive = positive
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={"inputmode": "decimal", "autocomplete": "off", "class": "money"}
            ),
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None if not self.required else 0
        language = get_language() or "en"
        try:
            cents = money_parse(text, self.currency, language)
        except MoneyInputError as error:
            raise forms.ValidationError(
                _reason(error, text, self.currency, language), code=error.reason
            ) from error
        if self.positive and cents <= 0:
            raise forms.ValidationError(_("Type an amount more than zero."))
        return cents

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return units_format(value, self.currency, get_language() or "en")
        return value


class OnceForm(forms.Form):
    """A form that moves money: it carries its own key (staff.common.once), made at each
    rendering; a form shown again after a refusal keeps the key it was sent with
    (the refusal booked nothing and released it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        sent = self.data.get(FIELD, "") if self.is_bound else ""
        self.key = sent or form_key()

    @property
    def once(self) -> SafeString:
        """The hidden field carrying the key; unprefixed, whatever the form's prefix."""
        return format_html(
            '<input type="hidden" name="{}" value="{}">', FIELD, self.key
        )


class DateInput(forms.DateInput):
    """The browser's date picker; the value goes as ISO 8601 whatever the
    language of the page."""

    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)
