"""The day's signed digest of the ledger (docs/digest.md): sealed with the daily
audit, chained, signed, printed on the audit's first page; ``books_verify`` proves
the books unchanged against a kept digest, or names the day and the transaction
a superuser changed, stored audit and stored digest included.

Each test has books of its own, committed (the sealing reads what committed).
"""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timedelta
from typing import Any

import pypdfium2
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command

from accounting.models import Account
from accounting.services import Leg, transaction_post
from cardroom.services import room_default
from core.db import guards
from reports.builders import daily_audit
from reports.builders.digest import digest_section
from reports.document import digest, rows_of
from reports.domain.digest import (
    body_hash,
    canonical,
    digest_body,
    fingerprint,
    pack_ids,
    public_key_hex,
    sign,
    signature_holds,
)
from reports.leaves import day_leaves
from reports.models import DayDigest, Report
from reports.render import render
from reports.render.files import meta_of
from reports.selectors import Period
from reports.services import report_generate
from reports.services.digests import (
    FIRST_DAYS,
    archive_path,
    body_of,
    digest_file_of,
    room_public_key,
    signing_key,
    stored_leaves,
)
from reports.services.proofs import transaction_proof
from reports.services.verification import books_verify, kept_from_text
from tests.integration.accounting.attacks import AT, DAY, books
from tests.roles import SUPERUSER

pytestmark = pytest.mark.django_db(transaction=True)
NEXT = DAY + timedelta(days=1)


@pytest.fixture(autouse=True)
def archive(settings, tmp_path):
    settings.CARDROOM_DIGEST_ARCHIVE = str(tmp_path / "digests")
    return tmp_path / "digests"


def audit_of(day) -> Report:
    period = Period.of(room_default(), day)
    return report_generate(
        kind="daily_audit",
        first=day,
        source="test",
        now=period.end + timedelta(hours=1),
    ).report


def two_days() -> dict[str, Any]:
    """``books`` on DAY, a chip purchase on the next day; both days audited."""
    made = books()
    made["next"] = transaction_post(
        kind="chip_purchase",
        legs=[Leg(made["cash"], 700), Leg(made["chips"], -700)],
        source="test",
        posted_at=AT + timedelta(days=1),
    )
    made["audits"] = [audit_of(DAY), audit_of(NEXT)]
    return made


def printed_digest(report: Report) -> str:
    """The digest to keep as the audit's PDF prints it on its first page."""
    pdf = pypdfium2.PdfDocument(render(report.data, "pdf", meta=meta_of(report)))
    text = pdf[0].get_textpage().get_text_range()
    pdf.close()
    found = re.search(r"(\d{4}-\d{2}-\d{2}:[0-9a-f]{64})", text)
    assert found, text
    return found[1]


def verify(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with pytest.raises(SystemExit) as ended:
        call_command("books_verify", *args, "--quiet", stdout=out, stderr=io.StringIO())
    return int(ended.value.code or 0), out.getvalue()


def test_each_day_is_sealed_with_its_audit_chained_signed_and_printed(
    database_roles, archive
):
    """The two days' digests follow each other from the genesis, are signed by the
    room's key, hold each transaction once, and are the audits' section; the
    archive keeps each day's file with its leaves; books_verify finds all holds
    and the printed digest proves the books unchanged."""
    made = two_days()
    first, second = DayDigest.objects.order_by("gaming_day")
    assert (first.gaming_day, second.gaming_day) == (DAY, NEXT)
    assert first.previous == "0" * 64 and second.previous == first.hash
    assert (first.size, second.size) == (2, 1)
    key = room_public_key()
    for sealed in (first, second):
        body = body_of(sealed)
        assert body_hash(body) == sealed.hash
        assert signature_holds(body, sealed.signature, key)
        assert body["key"] == fingerprint(key)
    assert [t for t, _h in stored_leaves(first)] == [
        made["funded"].pk,
        made["bought"].pk,
    ]
    leaf = json.loads(canonical_leaf(first, 1))
    assert leaf["entries"] == [
        ["cage:MAIN:cash", 5000, "EUR"],
        ["player:P-1:chips", -5000, "EUR"],
    ]
    assert leaf["posted_at"] == "2026-11-27T20:05:00.000000Z"

    row = rows_of(made["audits"][0].data, "ledger_digest")[0]
    assert (row["digest"], row["root"], row["signature"]) == (
        first.hash,
        first.root,
        first.signature,
    )
    kept = printed_digest(made["audits"][0])
    assert kept == f"{DAY}:{first.hash}"
    archived = json.loads(archive_path(DAY).read_text())
    assert archived["hash"] == first.hash
    assert [i for i, _h in archived["leaves"]] == [made["funded"].pk, made["bought"].pk]

    status, out = verify("--digest", kept)
    assert status == 0, out
    assert "Nothing of that day or before has changed" in out
    # Asking again seals nothing: one digest a day.
    audit_of(NEXT)
    assert DayDigest.objects.count() == 2


def canonical_leaf(sealed: DayDigest, index: int) -> bytes:
    """The leaf at ``index`` of a sealed day, as the ledger gives it now."""
    period = Period.of(room_default(), sealed.gaming_day)
    leaves = day_leaves(
        after=period.start,
        after_horizon=sealed.horizon,
        until=period.end,
        horizon=sealed.horizon,
    )
    return leaves[index].data


def test_a_posting_dated_into_a_sealed_day_goes_into_the_next_day_sealed(
    database_roles,
):
    """A posting dated into a day already sealed (a terminal's late hand) leaves
    the sealed day as it was: books_verify lists it as waiting, and the next day
    sealed holds it; the kept digest of the first day still holds."""
    made = books()
    audit_of(DAY)
    late = transaction_post(
        kind="chip_purchase",
        legs=[Leg(made["cash"], 300), Leg(made["chips"], -300)],
        source="test",
        posted_at=AT + timedelta(hours=1),
    )
    first = DayDigest.objects.get()
    status, out = verify("--digest", f"{DAY}:{first.hash}")
    assert status == 0, out
    assert f"#{late.pk}" in out
    audit_of(NEXT)
    second = DayDigest.objects.get(gaming_day=NEXT)
    assert [t for t, _h in stored_leaves(second)] == [late.pk]
    assert books_verify().status == 0


def as_superuser(roles, *statements: tuple[str, list[Any]]) -> None:
    """Run ``statements`` as a superuser with every guard off, in one transaction
    that puts the guards back and commits."""
    with (
        roles.connect(SUPERUSER) as conn,
        conn.cursor() as cur,
        guards.suspended(cur),
    ):
        for statement, params in statements:
            cur.execute(statement, params)


def tamper(roles, made: dict[str, Any], *, key: Ed25519PrivateKey) -> int:
    """As a superuser with every guard off: the chip purchase of DAY made €10
    smaller (both entries, so it still balances), the cage's and the player's
    cached balances moved with it; the stored digests of DAY and the day after
    computed again from the changed books and signed with ``key``; the stored
    audit of DAY made again from them. Returns the changed transaction's id."""
    bought, cash, chips = made["bought"].pk, made["cash"].pk, made["chips"].pk
    as_superuser(
        roles,
        (
            "UPDATE accounting_entry SET amount_cents = amount_cents"
            " + CASE WHEN account_id = %s THEN -1000 ELSE 1000 END"
            " WHERE transaction_id = %s",
            [cash, bought],
        ),
        (
            "UPDATE accounting_account SET balance_cents = balance_cents - 1000"
            " WHERE id IN (%s, %s)",
            [cash, chips],
        ),
    )
    first, second = DayDigest.objects.order_by("gaming_day")
    stored = body_of(first)
    leaves = day_leaves(
        after=datetime.fromisoformat(stored["from"]),
        after_horizon=first.horizon,
        until=first.until,
        horizon=first.horizon,
    )
    public = public_key_hex(key)
    body = digest_body(
        room=stored["room"],
        gaming_day=str(DAY),
        start=stored["from"],
        until=stored["until"],
        horizon=first.horizon,
        leaves=[leaf.hash for leaf in leaves],
        previous=first.previous,
        key=fingerprint(public),
    )
    next_body = {**body_of(second), "previous": body_hash(body), "key": body["key"]}
    as_superuser(
        roles,
        rewrite(first, body, key, leaves=leaves),
        rewrite(second, next_body, key),
    )
    period = Period.of(room_default(), DAY)
    audit = Report.objects.get(kind="daily_audit", period_start=DAY)
    data = daily_audit(period=period, now=period.end + timedelta(hours=1))
    data["sections"].append(digest_section(period).as_json())
    data["language"] = audit.data["language"]
    as_superuser(
        roles,
        (
            "UPDATE reports_report SET data = %s, digest = %s WHERE id = %s",
            [json.dumps(data), digest(data), audit.pk],
        ),
    )
    return bought


def rewrite(
    sealed: DayDigest, body: dict[str, Any], key: Ed25519PrivateKey, *, leaves=None
) -> tuple[str, list[Any]]:
    """The UPDATE that makes ``sealed`` the digest of ``body``, signed by ``key``."""
    columns: dict[str, Any] = {
        "body": canonical(body).decode(),
        "hash": body_hash(body),
        "previous": body["previous"],
        "root": body["root"],
        "size": body["size"],
        "signature": sign(body, key),
        "public_key": public_key_hex(key),
    }
    if leaves is not None:
        columns["leaves"] = b"".join(leaf.hash for leaf in leaves)
        columns["transactions"] = pack_ids([leaf.transaction for leaf in leaves])
    sets = ", ".join(f"{name} = %s" for name in columns)
    return (
        f"UPDATE reports_daydigest SET {sets} WHERE id = %s",
        [*columns.values(), sealed.pk],
    )


def test_a_superuser_who_rewrites_entries_balances_audit_and_digest_is_named(
    database_roles, archive
):
    """A superuser edits a past day's entries and cached balances, and rewrites
    its stored audit and the stored digests to agree. The stored chain now fails
    only on its signatures (the room's key is in a file the database can't
    read); books_verify with the digest printed on the day's audit names the day
    and the transaction, its leaves read from the archive outside the database;
    the digest printed the day after names them too, walking the chain back. With
    the archive gone, the printed digest still says the books changed, on that
    day or before; the day's digest file the auditor was sent names the day and
    the transaction again."""
    made = two_days()
    printed = printed_digest(made["audits"][0])
    printed_next = printed_digest(made["audits"][1])
    sent = digest_file_of(DayDigest.objects.get(gaming_day=DAY), leaves=True)
    before = Account.objects.get(pk=made["cash"].pk).balance_cents

    changed = tamper(database_roles, made, key=Ed25519PrivateKey.generate())
    assert Account.objects.get(pk=made["cash"].pk).balance_cents == before - 1000
    audit = Report.objects.get(kind="daily_audit", period_start=DAY)
    assert all(r["agrees"] for r in rows_of(audit.data, "checks"))
    # Its proof now agrees with the rewritten digest, which is neither the one
    # kept nor signed by the room's key: the outside verifier refuses it.
    proof = transaction_proof(transaction=changed, of={"t": "x"}, kind="t")
    assert proof["hash"] != printed.split(":")[1]
    assert not signature_holds(proof["digest"], proof["signature"], room_public_key())

    found = books_verify()
    assert {(f.day, f.code) for f in found.findings} == {
        (DAY, "signature"),
        (NEXT, "signature"),
    }
    for kept in (printed, printed_next):
        status, out = verify("--digest", kept)
        assert status == 1, out
        assert f"{DAY}: The first day that differs from the kept digest: {DAY}." in out
        assert f"#{changed} (chip_purchase" in out and ", changed." in out

    for path in archive.iterdir():
        path.unlink()
    # The printed digest alone: the day's signed document is nowhere any more,
    # so the change is on that day or before, and no transaction is named.
    found = books_verify(kept=kept_from_text(printed))
    assert found.first_changed is not None and found.first_changed.day == DAY
    assert found.first_changed.transaction is None
    assert f"changed on {DAY} or before" in found.first_changed.text
    sent_file = archive.parent / "sent.json"
    sent_file.write_text(json.dumps(sent))
    found = books_verify(kept=kept_from_text(str(sent_file)))
    assert found.first_changed.transaction == changed


def test_with_the_rooms_key_the_rewrite_shows_only_against_a_kept_digest(
    database_roles,
):
    """A superuser who could sign with the room's key leaves a stored chain that
    holds: only a digest kept outside shows the change, and names it."""
    made = two_days()
    printed = printed_digest(made["audits"][0])
    changed = tamper(database_roles, made, key=signing_key())
    assert books_verify().findings == []
    found = books_verify(kept=kept_from_text(printed))
    assert found.kept_holds is False
    assert found.first_changed.day == DAY
    assert found.first_changed.transaction == changed


def test_the_chain_starts_at_most_a_month_back(database_roles):
    """Books with a posting forty days before the audited day: the first sealing
    catches up on a month, from its first day on; what is dated before it is in
    no digest, and the chain holds."""
    made = books()
    old = transaction_post(
        kind="chip_purchase",
        legs=[Leg(made["cash"], 100), Leg(made["chips"], -100)],
        source="test",
        posted_at=AT - timedelta(days=40),
    )
    audit_of(DAY)
    days = list(DayDigest.objects.order_by("gaming_day"))
    assert len(days) == FIRST_DAYS
    assert days[0].gaming_day == DAY - timedelta(days=FIRST_DAYS - 1)
    sealed = {t for d in days for t, _h in stored_leaves(d)}
    assert old.pk not in sealed and made["bought"].pk in sealed
    found = books_verify()
    assert found.status == 0 and found.pending == [], found.findings
