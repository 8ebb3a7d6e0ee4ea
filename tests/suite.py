"""``make test``: the whole suite, with the slow test beside the rest on a server.

With ``DATABASE_URL`` set (CI's PostgreSQL), the one test marked ``slow`` (10,000
hands posted twice over HTTP, minutes of gunicorn and PostgreSQL) runs in a second
pytest process at the same time as everything else, on its own test database
(the URL's database name with ``_slow`` after it), its own Redis database (the next
number, when the broker is Redis) and its own data folder, so that the two share
nothing but the machine. Its output is printed after the rest's, and the exit
status is non-zero if either fails. Without ``DATABASE_URL`` (the embedded
PostgreSQL) the suite runs in one process, as ``python -m pytest`` does.

Arguments are passed to pytest; given any, the suite runs in one process with them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def _renamed(url: str, suffix: str) -> str:
    """``url`` with ``suffix`` after its database name."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + suffix))


def _next_redis(url: str) -> str:
    """A Redis URL's next database number; any other broker URL unchanged."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return url
    number = parts.path.strip("/") or "0"
    return urlunsplit(parts._replace(path=f"/{int(number) + 1}"))


def main(argv: list[str]) -> int:
    pytest = [sys.executable, "-m", "pytest"]
    database = os.environ.get("DATABASE_URL", "")
    if argv or not database:
        return subprocess.call([*pytest, *argv], cwd=ROOT)
    env = dict(os.environ, DATABASE_URL=_renamed(database, "_slow"))
    env["CARDROOM_DATA_DIR"] = str(ROOT / ".data" / "slow")
    if os.environ.get("CELERY_BROKER_URL"):
        env["CELERY_BROKER_URL"] = _next_redis(os.environ["CELERY_BROKER_URL"])
    with tempfile.TemporaryFile("w+") as log:
        slow = subprocess.Popen(
            [*pytest, "-m", "slow"], cwd=ROOT, env=env, stdout=log, stderr=log
        )
        try:
            # The slowest tests named at the end: where CI's minutes go.
            rest = subprocess.call(
                [*pytest, "-m", "not slow", "--durations=30"], cwd=ROOT
            )
        finally:
            status = slow.wait()
        log.seek(0)
        print("\n== the slow test (pytest -m slow), beside the rest ==", flush=True)
        sys.stdout.write(log.read())
    return rest or status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
