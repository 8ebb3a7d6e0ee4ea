"""The shape issue 17 set for the code: money moves in one place, services by use
case, errors without HTTP. Static checks over the source, no database."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "accounting",
    "cardroom",
    "core",
    "jackpots",
    "reports",
    "simulation",
    "staff",
    "tournaments",
    "waitlist",
)
MAX_FUNCTION = 80
MAX_SERVICES_MODULE = 600


def sources(*folders: str) -> list[Path]:
    found = []
    for folder in folders:
        found += [
            p for p in (ROOT / folder).rglob("*.py") if "migrations" not in p.parts
        ]
    return sorted(found)


def services_modules() -> list[Path]:
    return [
        p for p in sources(*APPS) if p.relative_to(ROOT).parts[1].startswith("services")
    ]


def test_no_services_module_is_over_600_lines():
    long = {
        str(p.relative_to(ROOT)): n
        for p in services_modules()
        if (n := len(p.read_text().splitlines())) > MAX_SERVICES_MODULE
    }
    assert services_modules()
    assert long == {}


def test_no_function_of_the_apps_is_over_80_lines():
    long = {}
    for path in sources(*APPS):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > MAX_FUNCTION:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = lines
    assert long == {}


def test_only_the_ledger_builds_legs():
    """Services post plans of (account code, cents); the ledger makes the legs."""
    allowed = {"accounting/services.py", "accounting/posting.py"}
    builders = sorted(
        str(p.relative_to(ROOT))
        for p in sources(*APPS)
        if re.search(r"\bLeg\(", p.read_text())
    )
    assert set(builders) <= allowed, builders


@pytest.mark.parametrize(
    "pattern", ["*/services*", "*/domain", "accounting/cage", "*/models.py"]
)
def test_services_models_and_domain_know_nothing_of_http(pattern):
    paths = [
        p
        for match in ROOT.glob(pattern)
        for p in ([match] if match.is_file() else match.rglob("*.py"))
        if match.relative_to(ROOT).parts[0] in APPS
    ]
    assert paths
    speaking = sorted(
        str(p.relative_to(ROOT))
        for p in paths
        if re.search(r"core\.api\.errors|rest_framework", p.read_text())
    )
    assert speaking == []
