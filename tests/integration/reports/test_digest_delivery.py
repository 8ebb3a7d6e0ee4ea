"""Each day's digest is sent out of the system: by e-mail (Django's mail) and to a
webhook, here a local HTTP receiver on a thread (docs/digest.md, "Sent out")."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cardroom.services import room_default
from reports.domain.digest import body_hash, leaves_commit, signature_holds
from reports.models import DayDigest, DigestDelivery
from reports.selectors import Period
from reports.services import digests_deliver, report_generate
from reports.services.digests import room_public_key
from tests.integration.accounting.attacks import DAY, books

pytestmark = pytest.mark.django_db


class Receiver(ThreadingHTTPServer):
    """A webhook on 127.0.0.1: keeps what is POSTed, answers ``status``."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.bodies: list[bytes] = []
        self.status = 200

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/digests"


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        self.server.bodies.append(self.rfile.read(length))
        self.send_response(self.server.status)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def receiver():
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_days_digest_is_mailed_and_posted_once_taken(
    settings, receiver, mailoutbox, tmp_path
):
    """The sealed day goes to the auditor's address and the webhook: the signed
    document, its signature and its leaves, which verify with the room's key; a
    webhook that refuses it is tried again on the next run; a digest taken is
    not sent again."""
    settings.CARDROOM_DIGEST_ARCHIVE = str(tmp_path)
    settings.CARDROOM_DIGEST_EMAIL = ["audit@regulator.example"]
    settings.CARDROOM_DIGEST_WEBHOOK = receiver.url
    books()
    period = Period.of(room_default(), DAY)
    report_generate(
        kind="daily_audit",
        first=DAY,
        source="test",
        now=period.end + timedelta(hours=1),
    )
    sealed = DayDigest.objects.get()

    receiver.status = 503
    first = digests_deliver()
    assert {(d.channel, d.ok, d.detail) for d in first} == {
        ("email", True, ""),
        ("webhook", False, "HTTP 503"),
    }
    [mail] = mailoutbox
    assert mail.to == ["audit@regulator.example"]
    assert f"digest: {DAY}:{sealed.hash}" in mail.body
    assert f"Ed25519 signature: {sealed.signature}" in mail.body
    [(name, attached, kind)] = mail.attachments
    assert (name, kind) == (f"digest-{DAY}.json", "application/json")

    receiver.status = 200
    second = digests_deliver()
    assert [(d.channel, d.ok) for d in second] == [("webhook", True)]
    assert digests_deliver() == []
    assert len(mailoutbox) == 1
    assert DigestDelivery.objects.filter(ok=True).count() == 2

    for received in (json.loads(attached), json.loads(receiver.bodies[-1])):
        body = received["digest"]
        assert body_hash(body) == received["hash"] == sealed.hash
        assert signature_holds(body, received["signature"], room_public_key())
        leaves = [(i, bytes.fromhex(h)) for i, h in received["leaves"]]
        assert leaves_commit(leaves, root=body["root"], size=body["size"])
