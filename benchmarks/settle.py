#!/usr/bin/env python
"""Measure the settlement engine: batch ``manage.py settle_hand`` hands per second.

Generates realistic nine-handed hands that end in a showdown (blinds, folds, calls,
short all-ins with side pots, now and then a raise nobody called), writes them to a
temporary file as one JSON array, runs ``manage.py settle_hand`` on it and reports:

* ``cli``: hands / wall time of the whole command;
* ``cli - start``: hands / (wall time - the same command on an empty array), i.e.
  without Python, Django and library start-up;
* ``in-process``: the phases of the command one by one, on the same hands: JSON
  decoding, checking the records (``parse_hand``), settling (``settle_record``) and
  JSON encoding.

Targets (DESIGN.md): >= 20,000 Hold'em and >= 2,000 Omaha hi-lo hands/s per core.
Each figure is the best of ``--repeat`` runs: on a shared machine the slower runs
measure the neighbours.

    python benchmarks/settle.py                      # 50,000 NLHE + 50,000 PLO8
    python benchmarks/settle.py --hands 10000 --games PLO8 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.util
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardroom.domain.cards import CARD_NAMES  # noqa: E402
from cardroom.domain.hand_record import parse_hand, parse_policy  # noqa: E402
from cardroom.domain.settlement import settle_record  # noqa: E402

POLICY: dict[str, Any] = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}
HOLE_CARDS = {"NLHE": 2, "PLO": 4, "PLO8": 4}
TARGETS = {"NLHE": 20_000, "PLO8": 2_000}
# settle_hand uses orjson when it is installed, the standard library otherwise.
JSON_LIBRARY = "orjson" if importlib.util.find_spec("orjson") else "json"


def showdown_hand(rng: random.Random, game: str, hand_no: int) -> dict[str, Any]:
    """Return a nine-handed hand record of ``game`` that ends in a showdown."""
    deck = list(CARD_NAMES)
    rng.shuffle(deck)
    button = rng.randint(1, 9)
    order = [(button + i) % 9 + 1 for i in range(9)]  # small blind first
    stacks = {s: rng.randrange(40, 801) * 50 for s in order}
    in_showdown = set(rng.sample(order, rng.choice((2, 2, 2, 3, 3, 4))))
    level = rng.randrange(4, 161) * 50  # what the showdown seats bet
    put_in: dict[int, int] = {}
    for i, seat in enumerate(order):
        blind = 100 if i == 0 else 200 if i == 1 else 0
        if seat in in_showdown:
            put_in[seat] = min(stacks[seat], max(level, blind))
        else:
            # Folded: the blind, or a call they later gave up on.
            called = rng.choice((0, 0, 0, 200, 200, rng.randrange(4, 41) * 50))
            put_in[seat] = min(stacks[seat], max(blind, min(called, level)))
    if rng.random() < 0.2:  # a last raise nobody called
        raiser = rng.choice(sorted(in_showdown))
        raised = put_in[raiser] + rng.randrange(1, 41) * 50
        put_in[raiser] = min(stacks[raiser], raised)
    board = [deck.pop() for _ in range(5)]
    seats = []
    for seat in sorted(order):
        row: dict[str, Any] = {
            "seat": seat,
            "player": f"P-{1000 + seat}",
            "stack": stacks[seat],
            "present": rng.random() > 0.05,
            "put_in": put_in[seat],
            "folded": seat not in in_showdown,
        }
        if seat in in_showdown:
            row["cards"] = [deck.pop() for _ in range(HOLE_CARDS[game])]
        seats.append(row)
    return {
        "table": "T01",
        "hand_no": hand_no,
        "game": game,
        "button": button,
        "streets": 4,
        "board": board,
        "seats": seats,
    }


def run_cli(python: str, policy: Path, hands: Path) -> tuple[float, str]:
    """Run settle_hand on a file; return its wall time and standard output."""
    command = [python, str(ROOT / "manage.py"), "settle_hand"]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "--policy", str(policy), str(hands)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    elapsed = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"settle_hand failed ({done.returncode}): {done.stderr[-500:]}")
    return elapsed, done.stdout


def best_time(repeat: int, work: Callable[[], Any]) -> float:
    """Return the best time of ``repeat`` runs of ``work``, GC off as in the CLI."""
    times = []
    gc.disable()
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            work()
            times.append(time.perf_counter() - started)
    finally:
        gc.enable()
    return min(times)


def measure(game: str, count: int, python: str, repeat: int, profile: bool) -> None:
    """Print the figures of one game."""
    rng = random.Random(f"{game}-{count}")
    hands = [showdown_hand(rng, game, n) for n in range(1, count + 1)]
    text = json.dumps(hands)
    with tempfile.TemporaryDirectory() as tmp:
        policy_file = Path(tmp, "policy.json")
        policy_file.write_text(json.dumps(POLICY))
        hands_file = Path(tmp, "hands.json")
        hands_file.write_text(text)
        empty_file = Path(tmp, "empty.json")
        empty_file.write_text("[]")
        run_cli(python, policy_file, empty_file)  # warm the OS caches
        start = min(run_cli(python, policy_file, empty_file)[0] for _ in range(repeat))
        wall = 1e9
        for _ in range(repeat):
            elapsed, out = run_cli(python, policy_file, hands_file)
            wall = min(wall, elapsed)
    settled = json.loads(out)
    assert len(settled) == count
    for s in settled:  # chips are conserved in every settlement
        rows = s["seats"]
        paid = sum(x["returned"] + x["won"] for x in rows)
        assert sum(x["put_in"] for x in rows) == paid + s["rake"] + s["jackpot_drop"]

    policy = parse_policy(POLICY)
    records = [parse_hand(h) for h in hands]
    if JSON_LIBRARY == "orjson":
        import orjson

        decode = best_time(repeat, lambda: orjson.loads(text))
        encode = best_time(repeat, lambda: orjson.dumps(settled))
    else:
        decode = best_time(repeat, lambda: json.loads(text))
        encode = best_time(repeat, lambda: json.dumps(settled, separators=(",", ":")))
    check = best_time(repeat, lambda: [parse_hand(h) for h in hands])
    settle = best_time(repeat, lambda: [settle_record(r, policy) for r in records])
    engine = check + settle

    def per_hand(seconds: float) -> str:
        return f"{seconds / count * 1e6:6.1f} us/hand"

    print(f"\n{game}: {count:,} nine-handed showdown hands, best of {repeat}")
    print(f"  process start (empty batch)   : {start:6.2f} s")
    print(f"  whole batch, wall             : {wall:6.2f} s")
    print(f"  cli                           : {count / wall:8,.0f} hands/s")
    print(f"  cli - start                   : {count / (wall - start):8,.0f} hands/s")
    print(f"  in-process, JSON decode       : {per_hand(decode)}  ({JSON_LIBRARY})")
    print(f"  in-process, parse_hand        : {per_hand(check)}")
    print(f"  in-process, settle_record     : {per_hand(settle)}")
    print(f"  in-process, JSON encode       : {per_hand(encode)}  ({JSON_LIBRARY})")
    print(f"  engine alone (parse + settle) : {count / engine:8,.0f} hands/s")
    target = TARGETS.get(game)
    if target:
        got = count / (wall - start)
        verdict = "met" if got >= target else f"missed by {1 - got / target:.0%}"
        print(f"  target                        : {target:8,} hands/s ({verdict})")
    if profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for h in hands:
            settle_record(parse_hand(h), policy)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--games", nargs="+", default=["NLHE", "PLO8"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--profile", action="store_true", help="cProfile in-process")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, one used.")
    print(f"settle_hand reads and writes JSON with {JSON_LIBRARY}.")
    for game in args.games:
        measure(game, args.hands, args.python, args.repeat, args.profile)


if __name__ == "__main__":
    main()
