"""Run ``python -m MODULE ARGS…`` on a clock the test controls.

``python -m tests.clocked 2026-11-28T10:00:00+02:00 SINCE celery -A config …``
starts the module with every clock Python reads (``time.time``, ``datetime.now``,
Django's ``timezone.now``) showing the given moment at the monotonic instant
``SINCE`` (``time.monotonic()`` as the test read it), and ticking on from there
(time-machine). The monotonic clock is the machine's, shared by every process and
untouched by time travel, so all the processes a test starts on one timeline agree
with each other to the second, whenever the suite runs and whatever the system
clock says (libfaketime included). Forked children (gunicorn's workers, a worker's
pool) inherit the clock.
"""

from __future__ import annotations

import runpy
import sys
import time
from datetime import datetime, timedelta

import time_machine


def main() -> None:
    moment, since, module, *args = sys.argv[1:]
    at = datetime.fromisoformat(moment)
    if at.tzinfo is None:
        raise SystemExit(f"{moment}: give the moment with its offset")
    now = at + timedelta(seconds=time.monotonic() - float(since))
    time_machine.travel(now, tick=True).start()
    sys.argv = [module, *args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
