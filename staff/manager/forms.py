"""The manager's player-protection forms (PP2–PP7): a bar or a self-exclusion,
the end of a bar, a self-exclusion's lapse, a correction of the player's data, a
decision on a held award (PP6) and a new version of the settings (PP2, PP4), each
with its reason. The cashier's checked identity document (PP1) is the cage's
(:class:`staff.cage.forms.DocumentForm`).

Each that records carries its own key (:class:`staff.common.forms.OnceForm`): a
double click records one bar, one end, one decision, one version.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounting.models import Restriction
from staff.common.forms import DateInput, OnceForm


def _reason_field(label: Any = None) -> forms.CharField:
    return forms.CharField(
        label=label or _("Why"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RestrictionForm(OnceForm):
    """A bar (PP3) or a self-exclusion (PP4): its scope, until a gaming day or
    for good, and why. The service decides how soon it may end."""

    scope = forms.ChoiceField(
        label=_("Kept out of"),
        choices=Restriction.Scope.choices,
        initial=Restriction.Scope.ROOM,
        widget=forms.RadioSelect,
    )
    until = forms.DateField(
        label=_("Until"),
        required=False,
        widget=DateInput(),
        help_text=_("The first gaming day he is let in again."),
    )
    for_good = forms.BooleanField(label=_("For good"), required=False)
    reason = _reason_field()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        until: date | None = data.get("until")
        if "until" in self.errors:
            return data
        if until is None and not data.get("for_good"):
            raise forms.ValidationError(
                _("Give the day it ends, or tick “For good”."), code="until"
            )
        if until is not None and data.get("for_good"):
            raise forms.ValidationError(
                _("Either a day it ends or “For good”, not both."), code="until"
            )
        return data


class ReasonForm(OnceForm):
    """The end of a bar (PP3) or a self-exclusion's lapse (PP4): why."""

    reason = _reason_field()


class CorrectionForm(OnceForm):
    """Correct a player's name or date of birth, with why (PP7)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    birth_date = forms.DateField(
        label=_("Date of birth"), required=False, widget=DateInput()
    )
    reason = _reason_field()


class NumberForm(forms.Form):
    """Why the manager asks to see a document's number (recorded, PP7)."""

    purpose = forms.CharField(label=_("Why"), max_length=200, required=False)


class SettingsForm(OnceForm):
    """A new version of the room's protection settings (PP2, PP4), with why.

    The bounds are the API's (``POST protection/settings``). ``version`` is the
    version the manager read: another recorded since is said, not overwritten
    unseen."""

    min_age = forms.IntegerField(
        label=_("Minimum age (PP2)"),
        min_value=16,
        max_value=25,
        help_text=_("On the gaming day; from 16 to 25."),
    )
    min_self_exclusion_days = forms.IntegerField(
        label=_("Shortest self-exclusion, in days (PP4)"),
        min_value=1,
        max_value=3650,
    )
    cooling_off_hours = forms.IntegerField(
        label=_("Cooling-off time, in hours (PP4)"),
        min_value=1,
        max_value=8760,
        help_text=_("From the player's request until his ended self-exclusion lapses."),
    )
    note = _reason_field(_("Why it changes"))
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
