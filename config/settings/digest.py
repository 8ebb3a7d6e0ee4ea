"""The day's signed digest of the ledger (reports, docs/digest.md): the room's
signing key, where each day's digest file is archived, and where it is sent.

The private key lives in a file, never in the database: ``CARDROOM_DIGEST_KEY``
names it (PEM, PKCS#8, Ed25519). Unset, the key is ``digest_key.pem`` in the data
folder, made on first use (a checkout, the demo, the tests); set, a missing file is
an error (``manage.py digest_key`` makes one).
"""

from __future__ import annotations

import os

from .environment import DATA_DIR, env

CARDROOM_DIGEST_KEY = env.str("CARDROOM_DIGEST_KEY", default="") or str(
    DATA_DIR / "digest_key.pem"
)
# Made when missing only where nobody named a key.
CARDROOM_DIGEST_KEY_MADE_IF_MISSING = not os.environ.get("CARDROOM_DIGEST_KEY")
# Each day's digest file, with its leaves, written outside the database.
CARDROOM_DIGEST_ARCHIVE = env.str("CARDROOM_DIGEST_ARCHIVE", default="") or str(
    DATA_DIR / "digests"
)
# Addresses outside the system each day's digest is sent to: e-mail addresses,
# and a URL it is POSTed to as JSON.
CARDROOM_DIGEST_EMAIL = env.list("CARDROOM_DIGEST_EMAIL", default=[])
CARDROOM_DIGEST_WEBHOOK = env.str("CARDROOM_DIGEST_WEBHOOK", default="")
CARDROOM_DIGEST_WEBHOOK_TIMEOUT = env.float(
    "CARDROOM_DIGEST_WEBHOOK_TIMEOUT", default=10.0
)
# The mail server, as a URL (smtp://USER:${PASSWORD}@host:587, submission+tls://…);
# Django's defaults (smtp on localhost:25) without it.
if os.environ.get("EMAIL_URL"):
    globals().update(env.email_url("EMAIL_URL"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="cardroom@localhost")
