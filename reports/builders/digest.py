"""The daily audit's section of the ledger's signed digest: each gaming day of the
period sealed, its Merkle root, the digest of the day before, its own digest, the
signature and the key that makes it (docs/digest.md). The PDF prints it on its
first page; the CSV and the XLSX carry it as a section."""

from __future__ import annotations

from reports.document import DATE, INT, Column, Section
from reports.document import said as _
from reports.domain.digest import fingerprint
from reports.models import DayDigest
from reports.selectors import Period

KEY = "ledger_digest"


def digest_section(period: Period) -> Section:
    """The digests of the period's gaming days, sealed before the audit is made."""
    section = Section(
        key=KEY,
        title=_("The ledger's signed digest"),
        columns=[
            Column("gaming_day", _("gaming day"), DATE),
            Column("transactions", _("transactions"), INT),
            Column("root", _("Merkle root")),
            Column("previous", _("digest of the day before")),
            Column("digest", _("digest")),
            Column("signature", _("Ed25519 signature")),
            Column("key", _("key fingerprint")),
            Column("public_key", _("public key")),
        ],
        note=_(
            "Each gaming day's ledger transactions, with their entries and the hands, "
            "receipts and awards they book, as the leaves of a Merkle tree (RFC "
            "6962), chained to the day before and signed with the room's key. Keep "
            "the digest: manage.py books_verify --digest DAY:DIGEST proves nothing "
            "of that day or before changed since, or names the day and the "
            "transaction that did (docs/digest.md)."
        ),
    )
    for digest in DayDigest.objects.filter(
        gaming_day__gte=period.first, gaming_day__lte=period.last
    ).order_by("gaming_day"):
        section.add(
            gaming_day=digest.gaming_day.isoformat(),
            transactions=digest.size,
            root=digest.root,
            previous=digest.previous,
            digest=digest.hash,
            signature=digest.signature,
            key=fingerprint(digest.public_key),
            public_key=digest.public_key,
        )
    return section
