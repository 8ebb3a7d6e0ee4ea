"""What the tournament director's and floor's screens share with the manager's
approvals of them (TO5, TO9): the event and its pages' addresses, times and chip
counts as the floor reads them, and a form acted on once by its own key
(:mod:`staff.common.once`), its refusal said in the reader's language with its
rule (:mod:`staff.common.refusals`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from jackpots.models import Pool
from staff.common.money import money_in
from staff.common.once import book_once
from staff.common.refusals import refusal_text
from tournaments.models import Deal, Event, Payout


def clock_text(seconds: int | None) -> str:
    """Seconds as a clock shows them: ``14:33``, ``1:02:05`` beyond an hour.

    >>> clock_text(873), clock_text(3725), clock_text(5), clock_text(None)
    ('14:33', '1:02:05', '0:05', '–')
    """
    if seconds is None:
        return "–"
    seconds = max(int(seconds), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def chips_text(chips: int | None) -> str:
    """A chip count grouped as the reader's language writes numbers."""
    if chips is None:
        return "–"
    return formats.number_format(int(chips), force_grouping=True, use_l10n=True)


def event_of(code: str) -> Event:
    return get_object_or_404(Event.objects.select_related("structure"), code=code)


def floor_url(event: Event, part: str = "") -> str:
    url = reverse("staff:tournament-floor", args=[event.code])
    return f"{url}#{part}" if part else url


def refused(request: HttpRequest, error: ApplicationError, currency: str) -> None:
    messages.error(request, refusal_text(error, money=money_in(currency)))


def act(
    request: HttpRequest,
    event: Event,
    action: Callable[[], str | None],
    done: str | Callable[[], str],
    *,
    back: str,
) -> HttpResponse:
    """Run ``action`` once for the form's key (staff.common.once) and go to the page it
    returns (or ``back``), saying ``done``; on a refusal, say why and go ``back``."""

    def book() -> str:
        return action() or back

    try:
        url, fresh = book_once(request, book)
    except ApplicationError as error:
        refused(request, error, event.currency)
        return redirect(back)
    if fresh:
        messages.success(request, done if isinstance(done, str) else done())
    else:
        messages.info(request, _("This form was already sent; it was recorded once."))
    return redirect(url)


def form_refused(request: HttpRequest, form: Any, back: str) -> HttpResponse:
    """Say what is wrong with a form and go back to its page."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else str(error))
    return redirect(back)


def deal_of(event: Event, deal_id: int) -> Deal:
    return get_object_or_404(Deal, event=event, pk=deal_id)


def payouts_url(event: Event) -> str:
    return reverse("staff:tournament-payouts", args=[event.code])


def pairs_text(values: Mapping[str, int]) -> str:
    return ",".join(f"{k}:{v}" for k, v in values.items())


def destinations_of(event: Event) -> list[tuple[str, str]]:
    """Where a forfeited prize may go (TO9): the house's revenue, or one of the
    room's active jackpot pools in the event's currency (JD5)."""
    pools = Pool.objects.filter(
        room=event.room_id, active=True, account__currency=event.currency
    ).order_by("code")
    return [
        (Payout.Destination.HOUSE, _("to the house's revenue")),
        *(
            (
                f"{Payout.Destination.JACKPOT}:{pool.code}",
                _("to the jackpot %(name)s") % {"name": pool.name},
            )
            for pool in pools
        ),
    ]
