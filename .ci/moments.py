"""Run the suite under libfaketime at the moments that break date-bound code.

``python .ci/moments.py`` lists them; ``python .ci/moments.py NAME…`` (or
``--all``, or ``--by-day``: the one today's day of the month picks, so that CI runs
every moment in turn) runs ``pytest -m "not slow"`` with the machine's clock moved
to each moment by Debian's ``faketime``, on a fresh embedded PostgreSQL started
under the same clock (the server shares it) and kombu's filesystem broker, both in
a data folder of their own. The clock keeps running from the moment, the same for
every process of the run (libfaketime's shared offset), so the suite crosses the
moment as a room would.

libfaketime reads the true clock in a signal handler that interrupts a wait it
wraps, and PostgreSQL's timeouts are such handlers: a backend waiting for a lock
would never time out (``lock_timeout``, ``statement_timeout``, the deadlock check).
``pg_timeouts.c``, built with the system's C compiler and preloaded before
libfaketime, waits through the system call instead (its comment says why).

One moment for one file: ``python .ci/moments.py after-cutoff --
tests/integration/accounting/test_summed_accounts.py -k fold``; what follows
``--`` goes to pytest as it is.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
HELSINKI = ZoneInfo("Europe/Helsinki")


def _at(text: str, fold: int = 0) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=HELSINKI, fold=fold)


# Room time (Europe/Helsinki). The EU moves the clocks at 01:00 UTC on the last
# Sundays of March (03:00 → 04:00 in Helsinki) and October (04:00 → 03:00).
MOMENTS: dict[str, tuple[datetime, str]] = {
    "month-start": (
        _at("2027-03-01T10:30"),
        "the 1st of a month at 10:30: last month is over but not yet closed (HM3)",
    ),
    "before-cutoff": (
        _at("2026-12-15T05:59"),
        "a minute before the gaming day's 06:00 cut-off (BI8)",
    ),
    "after-cutoff": (
        _at("2026-12-15T06:01"),
        "a minute after the cut-off: a new gaming day (BI8)",
    ),
    "spring-forward": (
        # 03:30 doesn't exist that night: the clocks jump from 03:00 to 04:00.
        # zoneinfo reads it with the offset in force before (fold=0), 01:30 UTC,
        # half an hour after the change: the night is an hour short.
        _at("2027-03-28T03:30"),
        "03:30 on the night the clocks go forward (a 23-hour gaming day)",
    ),
    "fall-back": (
        # 03:30 happens twice; the second (fold=1, EET) is after the change.
        _at("2027-10-31T03:30", fold=1),
        "03:30 on the night the clocks go back, the second time (a 25-hour day)",
    ),
    "new-year": (
        _at("2027-01-01T00:30"),
        "00:30 on New Year's Day: a new month and year, still last year's night",
    ),
}


# What `.ci/run` runs at the day's moment, beside `make test` (CI has 25 minutes):
# the tests that move or read the room's clock, the gaming day, a month or a
# report period, and the workers, beat and servers that share it.
# `make test-clocks` runs the whole suite at every moment.
DATE_BOUND = [
    "tests/api/cage/test_shift_flow.py",
    "tests/api/floor/test_dc3_receivables.py",
    "tests/api/floor/test_hooks_and_time.py",
    "tests/api/floor/test_seating.py",
    "tests/api/jackpots",
    "tests/api/reports",
    "tests/api/test_auth.py",
    "tests/api/waitlist/test_moves.py",
    "tests/api/waitlist/test_time_collection.py",
    "tests/integration/accounting/test_services.py",
    "tests/integration/cage",
    "tests/integration/jackpots",
    "tests/integration/reports",
    "tests/integration/tournaments",
    "tests/reliability/test_worker_killed.py",
    "tests/unit/accounting",
    "tests/unit/floor",
    "tests/unit/tournaments/test_clock.py",
    "tests/unit/waitlist",
]


def by_day(today: date) -> str:
    """The moment that today's day of the month picks: each in turn, month after
    month."""
    names = list(MOMENTS)
    return names[today.day % len(names)]


def timeouts_shim(into: Path) -> Path | None:
    """Build ``pg_timeouts.c`` into ``into`` (readable by the embedded server's
    own user); None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    into.mkdir(parents=True, exist_ok=True)
    into.chmod(0o755)
    built = into / "pg_timeouts.so"
    source = Path(__file__).with_name("pg_timeouts.c")
    subprocess.run(  # noqa: S603
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(source)],
        check=True,
    )
    built.chmod(0o755)
    return built


def run(name: str, pytest_args: list[str]) -> int:
    """Run the suite at moment ``name``; return pytest's exit status."""
    moment, why = MOMENTS[name]
    faketime = shutil.which("faketime")
    if faketime is None:
        print("faketime is not installed (Debian: apt-get install faketime)")
        return 2
    data = ROOT / ".data" / "clocks" / name
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    shim = timeouts_shim(Path(tempfile.mkdtemp(prefix="cardroom-clock-")))
    if shim is None:
        print("a C compiler is needed for PostgreSQL's timeouts under faketime (gcc)")
        return 2
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CELERY_BROKER_URL")
    }
    # faketime puts libfaketime after what LD_PRELOAD names: the shim's
    # epoll_wait is the one PostgreSQL calls.
    env["LD_PRELOAD"] = ":".join(filter(None, [str(shim), env.get("LD_PRELOAD")]))
    env.update(
        # The tests' own clock (tests/conftest.py) steps aside: the product runs at
        # the moved moment, and a test still bound to the wall clock shows itself.
        CARDROOM_TESTS_ON_SYSTEM_CLOCK="1",
        CARDROOM_DATA_DIR=str(data),
        NO_FAKE_STAT="1",  # file times stay true: no pyc or make churn
        PYTHONDONTWRITEBYTECODE="1",
    )
    offset = round(moment.timestamp() - time.time())
    prefix = [faketime, "-m", "-f", f"{offset:+d}"]
    shown = subprocess.run(  # noqa: S603
        [*prefix, sys.executable, "-c", _SHOW],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(f"== {name}: {why}\n   the clock under faketime reads {shown}", flush=True)
    command = [
        *prefix,
        sys.executable,
        "-m",
        "pytest",
        "-m",
        "not slow",
        "-p",
        "no:cacheprovider",
        *pytest_args,
    ]
    started = time.monotonic()
    status = subprocess.run(command, cwd=ROOT, env=env, check=False).returncode  # noqa: S603
    minutes = (time.monotonic() - started) / 60
    print(f"== {name}: pytest exit status {status} after {minutes:.1f} min", flush=True)
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(shim.parent, ignore_errors=True)
    return status


_SHOW = (
    "from datetime import datetime; from zoneinfo import ZoneInfo; "
    "print(datetime.now(ZoneInfo('Europe/Helsinki')).isoformat(timespec='seconds'))"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("moments", nargs="*", help="names of moments to run")
    parser.add_argument("--all", action="store_true", help="run every moment")
    parser.add_argument(
        "--by-day", action="store_true", help="run the moment today's date picks"
    )
    parser.add_argument(
        "--date-bound",
        action="store_true",
        help="run only the date-bound tests (DATE_BOUND), as CI does",
    )
    argv = sys.argv[1:]
    # What follows "--" is pytest's, files and values included.
    after = argv.index("--") if "--" in argv else len(argv)
    args, pytest_args = parser.parse_known_args(argv[:after])
    pytest_args += argv[after + 1 :]
    names = list(args.moments)
    if args.all:
        names = list(MOMENTS)
    elif args.by_day:
        names.append(by_day(date.today()))
    unknown = [n for n in names if n not in MOMENTS]
    if unknown or not names:
        for known, (moment, why) in MOMENTS.items():
            print(f"{known:15} {moment.isoformat()}  {why}")
        return 2 if unknown else 0
    if args.date_bound:
        pytest_args = [*pytest_args, *DATE_BOUND]
    results = {name: run(name, pytest_args) for name in names}
    print("\nmoment           exit status")
    for name, status in results.items():
        print(f"{name:16} {status}{'  (passed)' if status == 0 else '  FAILED'}")
    return max(results.values())


if __name__ == "__main__":
    sys.exit(main())
