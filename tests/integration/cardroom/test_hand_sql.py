"""Every statement a hand's booking sends (cardroom.services.hands.sql) is in
docs/sql/hand as PostgreSQL gets it, so a reviewer reads the statement itself.

Rewrite the files after changing a statement:

    UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py
"""

from __future__ import annotations

import difflib
import inspect
import os
from pathlib import Path

import pytest

from cardroom.services.hands import sql

DOCS = Path(__file__).resolve().parents[3] / "docs" / "sql" / "hand"
HOW = "UPDATE_SQL=1 python -m pytest tests/integration/cardroom/test_hand_sql.py"
ORDER = (
    (
        "lock",
        sql.lock_sql,
        "every booking; with the read in one round trip once"
        " the process knows the table",
    ),
    (
        "read",
        sql.read_sql,
        "every booking, and again after an HS6 hold or when the ids run out",
    ),
    (
        "write",
        sql.write_sql,
        "every booking, its COMMIT with it for a hand posted alone",
    ),
    ("hand", sql.hand_sql, "a record whose number was booked already (a retry)"),
    ("policy", sql.policy_sql, "once a policy version in a process"),
    ("sequence", sql.sequence_sql, "once a table of ids in a process"),
    ("stack_reviews", sql.stack_reviews_sql, "after an HS6 hold"),
)

pytestmark = pytest.mark.django_db  # the read names its sequences as the database does


def rendered() -> dict[str, str]:
    """Each file of docs/sql/hand as the statements are now."""
    statements = sql.statements()
    assert set(statements) == {name for name, _f, _w in ORDER}
    files, index = {}, []
    for name, function, when in ORDER:
        doc = " ".join(inspect.getdoc(function).split())  # type: ignore[union-attr]
        files[f"{name}.sql"] = (
            f"-- {name}: {doc}\n-- Sent: {when}.\n"
            f"-- cardroom.services.hands.sql.{function.__name__}, exactly as sent"
            f" (parameters as %(name)s); written by {HOW}\n"
            f"{statements[name].strip(chr(10))}\n"
        )
        index.append(f"- `{name}.sql`: {doc} Sent: {when}.")
    files["README.md"] = (
        "# The hand path's statements\n\n"
        "Every statement a hand's booking sends, as PostgreSQL gets it, written from\n"
        "`cardroom/services/hands/sql.py` by `tests/integration/cardroom/"
        "test_hand_sql.py`,\nwhich fails when they differ. After changing a"
        f" statement:\n\n    {HOW}\n\n"
        "A hand posted alone is five statements in two round trips: `BEGIN`, the\n"
        "lock and the read, then the write and `COMMIT`. No statement's text\n"
        "depends on the hand: its rows travel as JSON parameters, so a 2-player\n"
        "and a 9-player hand send the same text.\n\n" + "\n".join(index) + "\n"
    )
    return files


def test_docs_sql_hand_shows_every_statement_as_sent():
    files = rendered()
    if os.environ.get("UPDATE_SQL"):
        DOCS.mkdir(parents=True, exist_ok=True)
        for stale in DOCS.iterdir():
            if stale.name not in files:
                stale.unlink()
        for name, text in files.items():
            (DOCS / name).write_text(text)
    found = {p.name: p.read_text() for p in DOCS.iterdir()} if DOCS.is_dir() else {}
    if found != files:
        diff = []
        for name in sorted(set(found) | set(files)):
            diff += difflib.unified_diff(
                found.get(name, "").splitlines(keepends=True),
                files.get(name, "").splitlines(keepends=True),
                f"docs/sql/hand/{name} (checked in)",
                f"docs/sql/hand/{name} (as sent now)",
            )
        pytest.fail(
            "docs/sql/hand differs from the statements of"
            f" cardroom/services/hands/sql.py; rewrite it with\n    {HOW}\n"
            "and commit it with the change.\n" + "".join(diff),
            pytrace=False,
        )
