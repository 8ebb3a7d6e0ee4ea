"""Each day's digest sent out of the system: to the configured e-mail addresses
(``CARDROOM_DIGEST_EMAIL``, Django's mail) and webhook (``CARDROOM_DIGEST_WEBHOOK``,
a JSON POST), where the operator's database superuser can't reach it
(docs/digest.md, "Sent out").

The hourly reports' task sends what hasn't been taken yet, oldest day first: a
digest, to each address, until one sending is taken. Every sending is recorded
(:class:`reports.models.DigestDelivery`), taken or not, with the answer.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cardroom.services import room_default
from reports.models import DayDigest, DigestDelivery
from reports.services.digests import digest_file_of, file_bytes
from reports.services.generation import report_language

EMAIL, WEBHOOK = DigestDelivery.Channel.EMAIL, DigestDelivery.Channel.WEBHOOK
MAX_A_RUN = 31  # digests sent to one address in one run; the next run goes on


def targets() -> list[tuple[str, str]]:
    """The configured addresses: (channel, e-mail address or URL)."""
    found = [(EMAIL.value, address) for address in settings.CARDROOM_DIGEST_EMAIL]
    if settings.CARDROOM_DIGEST_WEBHOOK:
        found.append((WEBHOOK.value, settings.CARDROOM_DIGEST_WEBHOOK))
    return found


def digests_deliver(*, now: datetime | None = None) -> list[DigestDelivery]:
    """Send every sealed day's digest not yet taken by each configured address,
    oldest first, at most :data:`MAX_A_RUN` to an address; return the sendings
    recorded."""
    now = now or timezone.now()
    done: list[DigestDelivery] = []
    for channel, target in targets():
        taken = DigestDelivery.objects.filter(
            channel=channel, target=target, ok=True
        ).values("digest_id")
        waiting = (
            DayDigest.objects.exclude(pk__in=taken)
            .defer("leaves", "transactions")
            .order_by("gaming_day")[:MAX_A_RUN]
        )
        for digest in waiting:
            ok, detail = _send(channel, target, digest)
            done.append(
                DigestDelivery.objects.create(
                    digest=digest,
                    channel=channel,
                    target=target,
                    at=now,
                    ok=ok,
                    detail=detail[:500],
                )
            )
    return done


def _send(channel: str, target: str, digest: DayDigest) -> tuple[bool, str]:
    document = file_bytes(
        digest_file_of(DayDigest.objects.get(pk=digest.pk), leaves=True)
    )
    if channel == EMAIL:
        return _email(target, digest, document)
    return _post(target, document)


def _email(address: str, digest: DayDigest, document: bytes) -> tuple[bool, str]:
    room = room_default()
    with translation.override(report_language(room)):
        subject = _("Ledger digest of gaming day %(day)s, %(room)s") % {
            "day": digest.gaming_day.isoformat(),
            "room": room.name,
        }
        body = _(
            "The signed digest of gaming day %(day)s of %(room)s, for you to keep "
            "outside the room's systems.\n\n"
            "digest: %(day)s:%(hash)s\n"
            "transactions: %(size)d\n"
            "Merkle root: %(root)s\n"
            "digest of the day before: %(previous)s\n"
            "Ed25519 signature: %(signature)s\n"
            "public key: %(key)s\n\n"
            "The attached file holds the signed document and each transaction's "
            "leaf hash: with it, manage.py books_verify --digest FILE names any "
            "transaction changed since (docs/digest.md)."
        ) % {
            "day": digest.gaming_day.isoformat(),
            "room": room.name,
            "hash": digest.hash,
            "size": digest.size,
            "root": digest.root,
            "previous": digest.previous,
            "signature": digest.signature,
            "key": digest.public_key,
        }
    message = EmailMessage(subject=subject, body=body, to=[address])
    message.attach(
        f"digest-{digest.gaming_day.isoformat()}.json", document, "application/json"
    )
    try:
        message.send()
    except OSError as error:  # smtplib's errors are OSErrors
        return False, str(error)
    return True, ""


def _post(url: str, document: bytes) -> tuple[bool, str]:
    if not url.startswith(("https://", "http://")):
        return False, "not an http(s) URL"
    request = urllib.request.Request(  # noqa: S310 (checked just above)
        url,
        data=document,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(  # noqa: S310
            request, timeout=settings.CARDROOM_DIGEST_WEBHOOK_TIMEOUT
        ) as answer:
            return 200 <= answer.status < 300, f"HTTP {answer.status}"
    except urllib.error.HTTPError as error:
        return False, f"HTTP {error.code}"
    except OSError as error:
        return False, str(error)
