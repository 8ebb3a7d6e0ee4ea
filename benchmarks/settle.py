#!/usr/bin/env python
"""Measure the settlement engine: batch ``settle_hand`` hands per second.

Generates realistic nine-handed hands that end in a showdown (blinds, folds, calls,
short all-ins with side pots, now and then a raise nobody called), writes them to a
temporary file as one JSON array, runs the batch command on it and reports:

* ``cli``: hands / wall time of the whole command, ``python
  cardroom/domain/settle_cli.py`` (the bare engine command, no Django);
  ``manage.py`` the same through ``manage.py settle_hand`` (with ``--manage``),
  and ``before`` through another checkout's ``manage.py settle_hand`` (with
  ``--before DIR``: an older commit, run in its own directory with its own
  settings module, ``--before-settings``); each ``manage.py`` against ``cli``:
  its time over the bare command's, the median of the rounds (the verdict: the
  commands take turns, round by round) and best against best;
* ``cli - start``: hands / (wall time - the same command on an empty array), i.e.
  without Python and library start-up;
* ``in-process``: the phases of the command one by one, on the same hands: JSON
  decoding, checking the records (``parse_hand``), settling (``settle``) and
  JSON encoding (the settlements' own encoder; orjson for a tree before them);
  ``engine`` is hands/s of what the command does: the typed decode settled in one
  pass (``decode_hands``, ``settle_decoded``) and the encoding, or, for a tree
  before them, the typed ``read_hands`` or the phases above, with ``settle``;
* ``reference``: the least any settling of these hands in Python must do, on the
  same hands in the same run: orjson decoding, mapping every card to its id,
  phevaluator's native evaluation of every hand at the showdown, and orjson
  encoding of the settlements. ``engine / reference`` is the ratio of the two.

Targets (DESIGN.md, issue 16): >= 20,000 Hold'em and >= 2,000 Omaha hi-lo hands/s
per core through ``manage.py settle_hand``, within 10 % of the bare command; the
engine at >= 0.4 of the reference. Each figure is the best of ``--repeat`` runs:
on a shared machine the slower runs measure the neighbours. ``--tree`` measures
another checkout of the project (an older commit, for a comparison in the same
run), ``--json`` appends the figures.

    python benchmarks/settle.py                      # 50,000 NLHE + 50,000 PLO8
    python benchmarks/settle.py --hands 10000 --games PLO8 --profile
    python benchmarks/settle.py --games NLHE --hands 20000 --tree /tmp/old --json r.json
    git worktree add /tmp/before 8a580f1
    python benchmarks/settle.py --games NLHE --hands 20000 --before /tmp/before
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from phevaluator import _pheval

ROOT = Path(__file__).resolve().parent.parent


def _tree() -> Path:
    """Return the checkout to measure: ``--tree``, this one by default."""
    if "--tree" in sys.argv[:-1]:
        return Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
    return ROOT


TREE = _tree()
sys.path.insert(0, str(TREE))

from cardroom.domain import hand_record  # noqa: E402
from cardroom.domain import settlement as engine  # noqa: E402
from cardroom.domain.cards import CARD_IDS, CARD_NAMES  # noqa: E402
from cardroom.domain.hand_record import parse_hand, parse_policy  # noqa: E402

read_hands: Callable[[bytes], Any] | None = getattr(hand_record, "read_hands", None)
# The command's own way (settle_cli): the typed decode settled in one pass.
decode_hands: Callable[[bytes], Any] | None = getattr(hand_record, "decode_hands", None)
settle_decoded: Callable[[Any, Any], Any] | None = getattr(
    engine, "settle_decoded", None
)
if hasattr(engine, "Settlement"):  # typed settlements that encode themselves
    settle_one: Callable[[Any, Any], Any] = engine.settle
    encode_all: Callable[[Any], bytes] = engine.encode
else:  # a tree before them (--tree): dictionaries for orjson
    settle_one, encode_all = engine.settle_record, orjson.dumps

POLICY: dict[str, Any] = {
    "currency": "EUR",
    "smallest_chip": 50,
    "rake": {"scheme": "pot_order", "step": 2000, "unit": 100, "cap": 500},
    "jackpot_drop": {"amount": 100, "min_participants": 6},
}
HOLE_CARDS = {"NLHE": 2, "PLO": 4, "PLO8": 4}
TARGETS = {"NLHE": 20_000, "PLO8": 2_000}
REFERENCE_TARGET = 0.4


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


class Command(NamedTuple):
    """A batch command to time: its arguments, working directory and environment."""

    argv: list[str]
    cwd: Path
    env: dict[str, str] | None = None


def cli_command(python: str, manage: bool) -> Command:
    """Return the batch command of the measured tree (manage.py: ``manage.py
    settle_hand``, which settles without Django since 2026-12-04)."""
    pure = TREE / "cardroom" / "domain" / "settle_cli.py"
    if manage or not pure.exists():
        return Command([python, str(TREE / "manage.py"), "settle_hand"], TREE)
    return Command([python, str(pure)], TREE)


def before_command(python: str, tree: Path, settings: str, data: Path) -> Command:
    """Return ``manage.py settle_hand`` of another checkout (``--before``): run in
    its own directory with its own settings module, the database unreachable so
    that nothing starts one, its data folder a scratch one."""
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE=settings,
        DATABASE_URL="postgres://nobody@127.0.0.1:9/none",
        CARDROOM_DATA_DIR=str(data),
    )
    return Command([python, str(tree / "manage.py"), "settle_hand"], tree, env)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(command: Command, policy: Path, hands: Path) -> tuple[float, float, bytes]:
    """Run settle_hand on a file; return its wall time, CPU time and output."""
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [*command.argv, "--policy", str(policy), str(hands)],
        capture_output=True,
        check=False,
        cwd=command.cwd,
        env=command.env,
    )
    elapsed = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"settle_hand failed ({done.returncode}): {done.stderr[-500:]!r}")
    return elapsed, _children_cpu() - cpu, done.stdout


Timed = tuple[float, float]
"""Wall time and CPU time of one run."""


def time_commands(
    commands: dict[str, Command], repeat: int, policy: Path, hands: Path, empty: Path
) -> tuple[dict[str, tuple[list[Timed], list[Timed]]], dict[str, bytes]]:
    """Time each command on an empty batch (its start-up) and on the hands.

    The commands take turns, round by round, each round starting with the next
    command, so a neighbour's load falls on all of them alike. Return each
    command's start-up and batch runs, round by round, and its output.
    """
    for command in commands.values():
        run_cli(command, policy, empty)  # warm the OS caches
    runs: dict[str, tuple[list[Timed], list[Timed]]] = {
        name: ([], []) for name in commands
    }
    outputs: dict[str, bytes] = {}
    names = list(commands)
    for round_no in range(repeat):
        turn = round_no % len(names)
        for name in names[turn:] + names[:turn]:
            command = commands[name]
            starts, batches = runs[name]
            starts.append(run_cli(command, policy, empty)[:2])
            wall, cpu, outputs[name] = run_cli(command, policy, hands)
            batches.append((wall, cpu))
    return runs, outputs


def reference(text: bytes, game: str, settled: list[Any]) -> bytes:
    """Do the least a settling of ``text`` must: decode, map the cards, evaluate
    every hand at the showdown with phevaluator's native functions, encode."""
    ids = CARD_IDS
    evaluate = (
        _pheval.evaluate_7cards if game == "NLHE" else _pheval.evaluate_omaha_cards
    )
    ranks = []
    for data in orjson.loads(text):
        board = [ids[c] for c in data["board"]]
        for row in data["seats"]:
            cards = row.get("cards")
            if cards is not None:
                ranks.append(evaluate(*board, *[ids[c] for c in cards]))
    assert ranks
    return orjson.dumps(settled)


def best_time(repeat: int, work: Callable[[], Any]) -> float:
    """Return the best CPU time of ``repeat`` runs of ``work``, GC off as in the CLI.

    CPU time, not wall time: on a shared machine the wall clock also counts the
    time the neighbours hold the core.
    """
    times = []
    gc.disable()
    try:
        for _ in range(repeat):
            started = time.process_time()
            work()
            times.append(time.process_time() - started)
    finally:
        gc.enable()
    return min(times)


def measure(game: str, count: int, args: argparse.Namespace) -> dict[str, Any]:
    """Print the figures of one game; return them."""
    rng = random.Random(f"{game}-{count}")
    hands = [showdown_hand(rng, game, n) for n in range(1, count + 1)]
    text = orjson.dumps(hands)
    runs, output = run_commands(text, args)
    timings = {
        name: (
            (min(r[0] for r in starts), min(r[1] for r in starts)),
            (min(r[0] for r in batches), min(r[1] for r in batches)),
        )
        for name, (starts, batches) in runs.items()
    }
    settled = orjson.loads(output)
    assert len(settled) == count
    for s in settled:  # chips are conserved in every settlement
        rows = s["seats"]
        paid = sum(x["returned"] + x["won"] for x in rows)
        assert sum(x["put_in"] for x in rows) == paid + s["rake"] + s["jackpot_drop"]
    print(f"\n{game}: {count:,} nine-handed showdown hands, best of {args.repeat}")
    print(f"  tree                          : {TREE}")
    figures: dict[str, Any] = {"game": game, "hands": count, "tree": str(TREE)}
    for name, ((start, start_cpu), (wall, cpu)) in timings.items():
        line = f"  {name:9s} {{:20s}}: {{}}"
        print(line.format("process start", f"{start:6.2f} s ({start_cpu:.2f} s CPU)"))
        print(line.format("whole batch", f"{wall:6.2f} s ({cpu:.2f} s CPU)"))
        print(line.format("wall", f"{count / wall:8,.0f} hands/s"))
        print(line.format("CPU", f"{count / cpu:8,.0f} hands/s"))
        print(line.format("- start, wall", f"{count / (wall - start):8,.0f} hands/s"))
        figures[name] = {
            "start": start,
            "start_cpu": start_cpu,
            "wall": wall,
            "cpu": cpu,
            "hands_per_s": count / wall,
            "hands_per_cpu_s": count / cpu,
        }
    figures["against_cli"] = compare(runs)
    if not args.commands_only:
        figures |= in_process(hands, text, game, settled, args.repeat)
    target = TARGETS.get(game)
    for name in ("cli", "manage.py") if target else ():
        if name not in timings:
            continue
        for clock, got in (
            ("wall", count / timings[name][1][0]),
            ("CPU", count / timings[name][1][1]),
        ):
            short = f"missed by {1 - got / target:.0%}"
            verdict = "met" if got >= target else short
            label = f"target ({name}, {clock})"
            print(f"  {label:30s}: {target:8,} hands/s ({verdict})")
    if args.profile:
        profile(hands)
    return figures


def run_commands(
    text: bytes, args: argparse.Namespace
) -> tuple[dict[str, tuple[list[Timed], list[Timed]]], bytes]:
    """Time the batch command(s) on ``text``; return the runs and the output."""
    commands = {"cli": cli_command(args.python, manage=False)}
    with tempfile.TemporaryDirectory() as tmp:
        if args.manage or args.before:
            commands["manage.py"] = cli_command(args.python, manage=True)
        if args.before:
            before = Path(args.before).resolve()
            data = Path(tmp, "before-data")
            commands["before"] = before_command(
                args.python, before, args.before_settings, data
            )
        policy_file = Path(tmp, "policy.json")
        policy_file.write_text(json.dumps(POLICY))
        hands_file = Path(tmp, "hands.json")
        hands_file.write_bytes(text)
        empty_file = Path(tmp, "empty.json")
        empty_file.write_text("[]")
        runs, outputs = time_commands(
            commands, args.repeat, policy_file, hands_file, empty_file
        )
    first = outputs["cli"]
    assert all(out == first for out in outputs.values())  # the same bytes each way
    return runs, first


def compare(runs: dict[str, tuple[list[Timed], list[Timed]]]) -> dict[str, Any]:
    """Print and return each ``manage.py`` command against the bare command.

    The ratio is the command's time over the bare command's: paired round by
    round (the two ran one after the other, under the same load), the median,
    which the verdict reads; and best against best. DESIGN.md's "within 10 %"
    is a ratio of at most 1.10.
    """
    figures: dict[str, Any] = {}
    bare = runs["cli"][1]
    for name in ("manage.py", "before"):
        if name not in runs:
            continue
        batches = runs[name][1]
        result: dict[str, Any] = {}
        for clock, i in (("wall", 0), ("CPU", 1)):
            best = min(b[i] for b in batches) / min(b[i] for b in bare)
            paired = statistics.median(
                b[i] / c[i] for b, c in zip(batches, bare, strict=True)
            )
            verdict = "within 10 %" if paired <= 1.10 else "not within 10 %"
            label = f"{name} / cli, {clock}"
            print(
                f"  {label:30s}: {paired:8.3f} median of rounds, {best:.3f} "
                f"best / best ({verdict})"
            )
            result[clock.lower()] = {"best": best, "median_of_rounds": paired}
        figures[name] = result
    return figures


def in_process(
    hands: list[Any], text: bytes, game: str, settled: list[Any], repeat: int
) -> dict[str, Any]:
    """Print and return the in-process phases, the engine and the reference."""
    count = len(hands)
    p = parse_policy(POLICY)
    records = [parse_hand(h) for h in hands]
    results = [settle_one(r, p) for r in records]
    decoded = orjson.loads(text)
    phases = {
        "decode_us": best_time(repeat, lambda: orjson.loads(text)),
        "parse_hand_us": best_time(repeat, lambda: [parse_hand(h) for h in decoded]),
        "settle_us": best_time(repeat, lambda: [settle_one(r, p) for r in records]),
        "encode_us": best_time(repeat, lambda: encode_all(results)),
    }
    engine = sum(phases.values())
    used = "decode, parse_hand, settle"
    if read_hands is not None:  # the batch command's typed decode replaces two
        phases["read_hands_us"] = best_time(repeat, lambda: read_hands(text))
        engine += (
            phases["read_hands_us"] - phases["decode_us"] - phases["parse_hand_us"]
        )
        used = "read_hands, settle"
    if decode_hands is not None and settle_decoded is not None:
        # What the command does now: decode, then check and settle in one pass.
        decode, settle_it = decode_hands, settle_decoded
        phases["settle_decoded_us"] = best_time(
            repeat, lambda: [settle_it(h, p) for h in decode(text)]
        )
        engine = phases["settle_decoded_us"] + phases["encode_us"]
        used = "decode_hands, settle_decoded"
    ref = best_time(repeat, lambda: reference(text, game, settled))
    labels = {
        "decode_us": "decode (orjson)",
        "parse_hand_us": "parse_hand",
        "read_hands_us": "read_hands (typed)",
        "settle_decoded_us": "decode + settle_decoded",
        "settle_us": "settle",
        "encode_us": "JSON encode",
    }
    for name, seconds in phases.items():
        print(f"  in-process, {labels[name]:18s}: {seconds / count * 1e6:6.1f} us/hand")
    print(f"  engine ({used}, encode): {count / engine:8,.0f} hands/s")
    print(f"  reference                     : {count / ref:8,.0f} hands/s")
    ratio = ref / engine
    verdict = "met" if ratio >= REFERENCE_TARGET else "missed"
    print(f"  engine / reference            : {ratio:8.2f} (target 0.4: {verdict})")
    figures = {name: seconds / count * 1e6 for name, seconds in phases.items()}
    figures["reference_us"] = ref / count * 1e6
    figures["engine_per_s"] = count / engine
    figures["reference_per_s"] = count / ref
    figures["ratio"] = ratio
    return figures


def profile(hands: list[Any]) -> None:
    """Print cProfile's top functions of checking and settling ``hands``."""
    policy = parse_policy(POLICY)
    profiler = cProfile.Profile()
    profiler.enable()
    for h in hands:
        settle_one(parse_hand(h), policy)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--games", nargs="+", default=["NLHE", "PLO8"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--tree", default=str(ROOT), help="the checkout to measure")
    parser.add_argument(
        "--manage", action="store_true", help="also time manage.py settle_hand"
    )
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="also time manage.py settle_hand of another checkout (implies --manage)",
    )
    parser.add_argument(
        "--before-settings",
        default="cardroom.settings",
        metavar="MODULE",
        help="the settings module of the --before checkout",
    )
    parser.add_argument(
        "--commands-only",
        action="store_true",
        help="time the commands only, not the in-process phases",
    )
    parser.add_argument("--json", metavar="FILE", help="append the figures to FILE")
    parser.add_argument("--profile", action="store_true", help="cProfile in-process")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, one used.")
    results = [measure(game, args.hands, args) for game in args.games]
    if args.json:
        with open(args.json, "a") as file:
            for figures in results:
                file.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
