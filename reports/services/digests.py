"""Writes of the day's digest: seal each gaming day's ledger when it has ended, sign
it with the room's key, keep a copy of it outside the database (docs/digest.md).

A day is sealed once, in order: the first day sealed is the gaming day of the
ledger's earliest posting (or the day asked for, on books with none before it),
at most a month back, and each later one chains to the digest of the day before.
The daily audit seals the days up to its own before it is computed and prints
their digests (:func:`reports.services.report_generate`); nothing is done on the
hand's path.

The private key is read from a file (``CARDROOM_DIGEST_KEY``), never from the
database: a superuser of the database can rewrite rows, not sign them.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from cardroom.models import Room
from cardroom.services import room_default
from core.errors import SharedCode
from reports.domain.digest import (
    GENESIS,
    Leaf,
    canonical,
    digest_body,
    digest_file,
    fingerprint,
    pack_ids,
    public_key_hex,
    sha256_hex,
    sign,
    unpack_hashes,
    unpack_ids,
)
from reports.errors import missing
from reports.leaves import day_leaves, first_posted_at, ledger_horizon
from reports.models import DayDigest
from reports.selectors import Period

log = logging.getLogger(__name__)
FIRST_DAYS = 31  # the days the first sealing catches up on, at most


# --- The room's key -----------------------------------------------------------------


def digest_key_path() -> Path:
    return Path(settings.CARDROOM_DIGEST_KEY)


def digest_key_make(*, path: Path | None = None) -> tuple[Path, str, bool]:
    """Make the room's Ed25519 signing key at ``path`` (the configured one) unless
    it exists; return the path, the public key (hex) and whether it was made.

    The file is PEM (PKCS#8), readable by its owner only, and written whole or not
    at all: two processes making it at once end with one key.
    """
    path = path or digest_key_path()
    if path.exists():
        return path, public_key_hex(_load_key(path)), False
    path.parent.mkdir(parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".digest-key-")
    try:
        os.fchmod(handle, 0o600)
        os.write(handle, pem)
        os.close(handle)
        os.link(temporary, path)  # refuses if another process made it first
    except FileExistsError:
        return path, public_key_hex(_load_key(path)), False
    finally:
        os.unlink(temporary)
    return path, public_key_hex(key), True


def _load_key(path: Path) -> Ed25519PrivateKey:
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ImproperlyConfigured(f"{path} holds no Ed25519 private key.")
    return key


def signing_key() -> Ed25519PrivateKey:
    """The room's signing key, from its file; made there when no key was named
    (``CARDROOM_DIGEST_KEY`` unset: a checkout, the demo, the tests).

    Raises :class:`ImproperlyConfigured` when the named file is missing or holds
    no Ed25519 key.
    """
    path = digest_key_path()
    if not path.exists():
        if not settings.CARDROOM_DIGEST_KEY_MADE_IF_MISSING:
            raise ImproperlyConfigured(
                f"CARDROOM_DIGEST_KEY names {path}, which doesn't exist "
                "(manage.py digest_key makes one)."
            )
        digest_key_make(path=path)
    return _load_key(path)


def room_public_key() -> str | None:
    """The public key (hex) of the room's key file; None when there is none."""
    path = digest_key_path()
    return public_key_hex(_load_key(path)) if path.exists() else None


# --- Sealing ------------------------------------------------------------------------


def utc_text(at: datetime) -> str:
    """``at`` as the digest writes times: ISO 8601 in UTC to the microsecond."""
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def digests_seal(*, through: date, now: datetime | None = None) -> list[DayDigest]:
    """Seal every gaming day up to ``through`` that isn't sealed and has ended,
    in order; return the digests made (none when all are).

    Each day in a database transaction of its own, from one snapshot of the
    ledger. A day asked for by two processes at once is sealed once: the other
    finds it stored.
    """
    now = now or timezone.now()
    room = room_default()
    latest = DayDigest.objects.order_by("-gaming_day").first()
    if latest is not None:
        day = latest.gaming_day + timedelta(days=1)
    else:
        day = _first_day(room, through)
    made = []
    while day <= through:
        period = Period.of(room, day)
        if period.end > now:
            break  # BI8: a day still open isn't sealed
        latest = _seal_day(room, period, latest, now)
        made.append(latest)
        day += timedelta(days=1)
    return made


def _first_day(room: Room, through: date) -> date:
    """The day the chain starts: the ledger's first gaming day, at most
    :data:`FIRST_DAYS` days before ``through`` (a room upgraded with years of
    history doesn't seal them all on its first night; the days before the chain
    starts are not sealed, docs/digest.md)."""
    earliest = first_posted_at()
    first = through if earliest is None else min(room.gaming_day(earliest), through)
    back = min(FIRST_DAYS - 1, (through - date.min).days)  # the calendar's first days
    return max(first, through - timedelta(days=back))


def _seal_day(
    room: Room, period: Period, before: DayDigest | None, now: datetime
) -> DayDigest:
    started = time.perf_counter()
    outer = connection.in_atomic_block  # then the caller's snapshot is used
    try:
        with transaction.atomic():
            if not outer:
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            digest, leaves = _sealed(room, period, before, now, started)
    except IntegrityError:
        # Sealed a moment ago by another run.
        return DayDigest.objects.get(gaming_day=period.first)
    transaction.on_commit(lambda: digest_archive(digest=digest, leaves=leaves))
    return digest


def _sealed(
    room: Room,
    period: Period,
    before: DayDigest | None,
    now: datetime,
    started: float,
) -> tuple[DayDigest, list[Leaf]]:
    horizon = max(ledger_horizon(), before.horizon if before is not None else 0)
    # The first day holds nothing dated before it (its own horizon, below).
    leaves = day_leaves(
        after=before.until if before is not None else period.start,
        after_horizon=before.horizon if before is not None else horizon,
        until=period.end,
        horizon=horizon,
    )
    key = signing_key()
    public = public_key_hex(key)
    body = digest_body(
        room=room.code,
        gaming_day=period.first.isoformat(),
        start=utc_text(period.start),
        until=utc_text(period.end),
        horizon=horizon,
        leaves=[leaf.hash for leaf in leaves],
        previous=before.hash if before is not None else GENESIS,
        key=fingerprint(public),
    )
    text = canonical(body)
    digest = DayDigest.objects.create(
        gaming_day=period.first,
        body=text.decode(),
        hash=sha256_hex(text),
        previous=body["previous"],
        root=body["root"],
        size=body["size"],
        until=period.end,
        horizon=horizon,
        signature=sign(body, key),
        public_key=public,
        leaves=b"".join(leaf.hash for leaf in leaves),
        transactions=pack_ids([leaf.transaction for leaf in leaves]),
        sealed_at=now,
        duration_ms=int((time.perf_counter() - started) * 1000),
    )
    return digest, leaves


# --- The digest as a document and a file --------------------------------------------


def digest_of_day(day: str) -> DayDigest:
    """The digest of gaming day ``day`` (ISO 8601).

    Raises :class:`core.errors.NotFound` when the day isn't sealed, or ``day``
    is no date.
    """
    try:
        found = DayDigest.objects.filter(gaming_day=date.fromisoformat(day)).first()
    except ValueError:
        found = None
    if found is None:
        raise missing(SharedCode.NOT_FOUND)
    return found


def body_of(digest: DayDigest) -> dict[str, Any]:
    """The signed document of ``digest``, as stored."""
    return dict(json.loads(digest.body))


def stored_leaves(digest: DayDigest) -> list[tuple[int, bytes]]:
    """The (transaction id, leaf hash) pairs stored with ``digest``, in order."""
    ids = unpack_ids(bytes(digest.transactions))
    hashes = unpack_hashes(bytes(digest.leaves))
    return list(zip(ids, hashes, strict=False))


def digest_file_of(digest: DayDigest, *, leaves: bool) -> dict[str, Any]:
    """The day's digest file (:func:`reports.domain.digest.digest_file`), from the
    stored record; with the leaves when ``leaves``."""
    return digest_file(
        body=body_of(digest),
        signature=digest.signature,
        public_key=digest.public_key,
        leaves=stored_leaves(digest) if leaves else None,
    )


def file_bytes(document: dict[str, Any]) -> bytes:
    """A digest file or proof as the bytes to keep: JSON, indented for people."""
    return json.dumps(document, indent=1, ensure_ascii=False).encode() + b"\n"


def archive_path(day: date) -> Path:
    return Path(settings.CARDROOM_DIGEST_ARCHIVE) / f"digest-{day.isoformat()}.json"


def digest_archive(*, digest: DayDigest, leaves: list[Leaf]) -> Path | None:
    """Write the day's digest file, with its leaves, to the archive folder outside
    the database (``CARDROOM_DIGEST_ARCHIVE``); a copy of the leaves a superuser
    of the database can't rewrite. None when the folder can't be written (logged;
    the digest is in the database and is sent)."""
    path = archive_path(digest.gaming_day)
    document = digest_file(
        body=body_of(digest),
        signature=digest.signature,
        public_key=digest.public_key,
        leaves=[(leaf.transaction, leaf.hash) for leaf in leaves],
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".digest-")
        with os.fdopen(handle, "wb") as out:
            out.write(file_bytes(document))
        os.replace(temporary, path)
    except OSError:
        log.exception("the digest of %s could not be archived in %s", digest, path)
        return None
    return path


def archived_file(day: date) -> dict[str, Any] | None:
    """The archived digest file of ``day``; None when there is none or it can't
    be read as one."""
    try:
        found = json.loads(archive_path(day).read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None
