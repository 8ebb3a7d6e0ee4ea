"""Proofs of a single figure over the API, checked by the small verifier that
imports nothing of the project (scripts/verify_proof.py, docs/digest.md).

The verifier runs as a subprocess with an empty environment, Python's isolated
mode, another working folder, and an import hook that refuses every package of
the project: what it checks, it checks with the standard library, the
``cryptography`` package, the room's public key and the day's digest alone.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from accounting.models import Receipt
from cardroom.models import Hand
from jackpots.models import Award
from reports.models import DayDigest
from tests.unit.test_architecture import PROJECT

from .conftest import DAY

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
VERIFIER = ROOT / "scripts" / "verify_proof.py"
# Runs the verifier with every package of the project refused at import.
GUARDED = """
import runpy, sys
from importlib.abc import MetaPathFinder

class Refuse(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {project!r}:
            raise ImportError("the verifier imported " + name)
        return None

sys.meta_path.insert(0, Refuse())
sys.argv = {argv!r}
runpy.run_path({script!r}, run_name="__main__")
"""


def verifier(tmp_path: Path, document: dict, *args: str) -> tuple[int, str]:
    """Run the verifier on ``document`` as an outsider would."""
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(document, ensure_ascii=False))
    argv = [str(VERIFIER), str(path), *args]
    code = GUARDED.format(project=sorted(PROJECT), argv=argv, script=str(VERIFIER))
    done = subprocess.run(
        [sys.executable, "-I", "-c", code],
        env={},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def test_the_verifier_imports_only_the_standard_library_and_cryptography():
    imported = set()
    for node in ast.walk(ast.parse(VERIFIER.read_text())):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) == {"cryptography"}


def test_a_hand_a_receipt_and_an_award_are_proved_in_the_days_digest(
    played_day, auditor, tmp_path
):
    """Before the day's audit nothing is sealed; after it, the proof of a hand, of
    the award of the bad beat and of its payout receipt each verify with the
    room's public key and the printed digest alone, and show their figures; a
    figure changed in the proof, another key or another day's digest fail it."""
    hand = Hand.objects.filter(table__code="A1", ledger_transaction__isnull=False)[0]
    url = f"/api/v1/reports/proofs/hands/A1/{hand.hand_no}"
    unsealed = auditor.get(url)
    assert unsealed.status_code == 404, unsealed.content
    assert unsealed.json()["error"]["code"] == "not_sealed"
    assert auditor.get(f"/api/v1/reports/digests/{DAY}").status_code == 404

    made = auditor.post(
        "/api/v1/reports/", {"kind": "daily_audit", "first": str(DAY)}, format="json"
    )
    assert made.status_code == 201, made.content
    sealed = DayDigest.objects.get(gaming_day=DAY)
    signed = auditor.get(f"/api/v1/reports/digests/{DAY}").json()
    assert (signed["hash"], signed["digest"]["root"]) == (sealed.hash, sealed.root)
    key, kept = sealed.public_key, f"{DAY}:{sealed.hash}"
    file = auditor.get(f"/api/v1/reports/digests/{DAY}/file")
    assert file["Content-Disposition"] == f'attachment; filename="digest-{DAY}.json"'
    assert len(json.loads(file.content)["leaves"]) == sealed.size

    proof = auditor.get(url).json()
    assert proof["agrees"] and proof["of"] == {"hand": f"A1#{hand.hand_no}"}
    status, out = verifier(tmp_path, proof, "--public-key", key, "--digest", kept)
    assert status == 0, out
    assert f"hand A1#{hand.hand_no} ({DAY}): pots {hand.pot_cents}" in out
    assert out.rstrip().endswith("VERIFIED")

    award = Award.objects.filter(hit__isnull=False, status="approved").first()
    award_proof = auditor.get(f"/api/v1/reports/proofs/awards/{award.pk}").json()
    receipt = Receipt.objects.get(payable_id=award.payable_id)
    assert award_proof["paid_by_receipt"] == receipt.no
    receipt_proof = auditor.get(f"/api/v1/reports/proofs/receipts/{receipt.no}").json()
    for document, shown in (
        (award_proof, f"award #{award.pk} {award.role} {award.player.code}"),
        (receipt_proof, f"receipt {receipt.no} award_payout"),
    ):
        status, out = verifier(
            tmp_path, document, "--public-key", key, "--digest", kept
        )
        assert status == 0, out
        assert shown in out

    record = json.loads(proof["leaf"])
    record["hand"]["rake_cents"] += 100
    forged = {
        **proof,
        "leaf": json.dumps(record, sort_keys=True, separators=(",", ":")),
    }
    status, out = verifier(tmp_path, forged, "--public-key", key)
    assert status == 1 and "FAIL  leaf" in out, out
    other = "11" * 32
    status, out = verifier(tmp_path, proof, "--public-key", other)
    assert status == 1 and "FAIL  the digest is signed by" in out, out
    status, out = verifier(tmp_path, proof, "--digest", f"{DAY}:{'0' * 64}")
    assert status == 1 and "FAIL  the digest is the one kept" in out, out
    status, out = verifier(tmp_path, json.loads(file.content), "--public-key", key)
    assert status == 0 and f"its {sealed.size} leaves make its root" in out, out


def test_unknown_figures_answer_404(played_day, auditor):
    for path in (
        "proofs/hands/A1/99999",
        "proofs/receipts/MAIN-999999",
        "proofs/receipts/nonsense",
        "proofs/awards/99999",
        "digests/2026-13-45",
        "digests/nonsense/file",
    ):
        answer = auditor.get(f"/api/v1/reports/{path}")
        assert answer.status_code == 404, path
        assert answer.json()["error"]["code"] == "not_found", path
