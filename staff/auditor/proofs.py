"""The auditor's proofs of a single figure (docs/digest.md): a hand's, a receipt's
or a jackpot award's ledger transaction in its gaming day's signed digest, shown
with the record sealed, the path to the day's Merkle root and the signed digest,
checked here with the room's key, and downloadable as the JSON file that
``scripts/verify_proof.py`` checks outside the room. A sealed day's digest file,
with its leaves, downloads too.

Nothing here writes: the proofs are read from the stored digests
(:mod:`reports.services.proofs`).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from cardroom.services import room_default
from core.errors import ApplicationError
from core.roles import Role, has_role
from reports.domain.digest import signature_holds
from reports.domain.merkle import leaf_hash, root_from_path
from reports.services import award_proof, hand_proof, receipt_proof
from reports.services.digests import (
    digest_file_of,
    digest_of_day,
    file_bytes,
    room_public_key,
)
from staff.common.roles import auditor_only
from staff.common.selectors import room_facts

KINDS = ("hand", "receipt", "award")


class Unreadable(ValueError):
    """What the form names can't be read; the message says what to type."""


def proof_asked(kind: str, of: str) -> dict[str, Any]:
    """The proof of the hand (``A1#17``), receipt (``MAIN-000012``) or award
    (``7``) the form names.

    Raises :class:`Unreadable`, and the services' :class:`ApplicationError`.
    """
    of = of.strip()
    if kind == "hand":
        table, _sep, number = of.partition("#")
        if not table or not number.isdigit():
            raise Unreadable(_("Name a hand as its table and number: A1#17."))
        return hand_proof(table=table, hand_no=int(number))
    if kind == "receipt":
        return receipt_proof(number=of)
    if kind == "award" and of.lstrip("#").isdigit():
        return award_proof(award=int(of.lstrip("#")))
    raise Unreadable(_("Name a hand (A1#17), a receipt (MAIN-000012) or an award (7)."))


def checked(proof: dict[str, Any]) -> dict[str, bool]:
    """The proof checked as the verifier does: the leaf's path leads to the signed
    root, and the digest is signed by the room's key."""
    path = [bytes.fromhex(h) for h in proof["audit_path"]]
    root = root_from_path(
        leaf_hash(proof["leaf"].encode()), proof["leaf_index"], proof["tree_size"], path
    )
    key = room_public_key()
    return {
        "path": root is not None and root.hex() == proof["digest"]["root"],
        "signed": key is not None
        and proof["public_key"] == key
        and signature_holds(proof["digest"], proof["signature"], key),
        "sealed": bool(proof["agrees"]),
    }


def _asked(request: HttpRequest) -> dict[str, Any] | None:
    """The proof the query asks for; None (with a message) when it can't be had."""
    kind, of = request.GET.get("kind", "hand"), request.GET.get("of", "")
    if not of:
        return None
    try:
        return proof_asked(kind, of)
    except Unreadable as error:
        messages.error(request, str(error))
    except ApplicationError as error:
        messages.error(request, error.detail)
    return None


@auditor_only
@require_GET
def ledger_proof(request: HttpRequest) -> HttpResponse:
    """A figure's proof, its record and its check; the form to ask for another."""
    proof = _asked(request)
    extra: dict[str, Any] = {
        "kinds": [(k, KIND_LABELS[k]()) for k in KINDS],
        "asked_kind": request.GET.get("kind", "hand"),
        "asked_of": request.GET.get("of", ""),
    }
    if proof is not None:
        record = json.loads(proof["leaf"])
        extra |= {
            "proof": proof,
            "record": record,
            "check": checked(proof),
            "kept": f"{proof['gaming_day']}:{proof['hash']}",
            "query": request.GET.urlencode(),
        }
    room = room_default()
    context = {
        "room": room_facts(),
        "zone": room.time_zone,
        "currency": room.currency,
        "manager": has_role(request.user, Role.MANAGER),
        **extra,
    }
    return render(request, "staff/auditor/proof.html", context)


KIND_LABELS = {
    "hand": lambda: _("hand"),
    "receipt": lambda: _("receipt"),
    "award": lambda: _("jackpot award"),
}


@auditor_only
@require_GET
def ledger_proof_download(request: HttpRequest) -> HttpResponse:
    """The proof as the JSON file ``scripts/verify_proof.py`` checks."""
    proof = _asked(request)
    if proof is None:
        return ledger_proof(request)
    response = HttpResponse(file_bytes(proof), content_type="application/json")
    name = "-".join(f"{k}-{v}" for k, v in proof["of"].items())
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name)
    response["Content-Disposition"] = f'attachment; filename="proof-{safe}.json"'
    return response


@auditor_only
@require_GET
def digest_download(request: HttpRequest, day: str) -> HttpResponse:
    """A sealed day's digest file, with each transaction's leaf hash."""
    try:
        sealed = digest_of_day(day)
    except ApplicationError as error:
        raise Http404(error.detail) from error
    response = HttpResponse(
        file_bytes(digest_file_of(sealed, leaves=True)),
        content_type="application/json",
    )
    name = f"digest-{sealed.gaming_day.isoformat()}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


__all__ = ["digest_download", "ledger_proof", "ledger_proof_download"]
