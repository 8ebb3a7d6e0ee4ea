"""``settle_hand`` without Django: settle hand records from JSON files, no database.

    python manage.py settle_hand --policy POLICY.json HAND.json
    python -m cardroom.domain.settle_cli --policy POLICY.json HAND.json
    python cardroom/domain/settle_cli.py --policy POLICY.json HAND.json

Prints the settlement of API.md for one hand record, or an array of settlements for an
array of hand records, as JSON on standard output. ``HAND.json`` may be ``-`` for
standard input. A hand that can't be settled prints API.md's error object on standard
error and exits with status 2.

Settling touches no model and no setting, so none of these starts Django.
``manage.py`` hands a ``settle_hand`` in the plain form (``--policy`` and the hand
file, nothing else: :func:`plain_arguments`) to :func:`run_plain` before Django is
loaded; any other form (``--help``, Django's own options, a missing argument) goes
through the Django command (``cardroom/management/commands/settle_hand.py``), which
calls the same :func:`settle_files` and prints the same bytes. Run from the command
line, it ends with ``os._exit`` once its output is flushed: freeing the decoded hands
and settlements one object at a time would only delay the exit.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from typing import IO, Any, NoReturn

if __name__ == "__main__" and not __package__:  # pragma: no cover - run by its path
    # Import the engine from the project's root, not from this directory.
    sys.path[0] = os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    )

import msgspec
import orjson

from cardroom.domain.errors import Code, HandError, refuse
from cardroom.domain.hand_record import HandJSON, Policy, decode_hands, parse_policy
from cardroom.domain.settlement import encode, settle, settle_decoded, settle_many


def _read(path: str, what: str | None, stdin: IO[Any]) -> bytes | str:
    """Return the text of ``path`` (``-``: ``stdin``, bytes unless it is a text
    stream), the hand file or, ``what`` ``"policy"``, the policy; raise HandError."""
    data: bytes | str
    try:
        if path == "-":
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
        else:
            with open(path, "rb") as file:
                data = file.read()
    except OSError as error:
        raise refuse(
            Code.UNREADABLE_FILE, text=what, path=path, reason=error.strerror
        ) from None
    return data


def _decode(data: bytes | str, path: str, what: str | None) -> Any:
    """Return the decoded JSON of a file's bytes (the hand file's or, ``what``
    ``"policy"``, the policy's); raise HandError."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise refuse(
            Code.MALFORMED_JSON, text=what, path=path, reason=str(error)
        ) from None


def settle_files(policy_path: str, hand_path: str, stdin: IO[Any]) -> tuple[int, bytes]:
    """Return ``(status, JSON)``: 0 and the settlements, or 2 and the error object.

    ``policy_path`` and ``hand_path`` are file names, ``-`` reading ``stdin``. The
    JSON ends with a newline. A batch builds millions of small objects without
    cycles, so the cyclic garbage collector is off while it settles (it would walk
    them again and again: a third of the run time at 50,000 hands).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        policy_data = _read(policy_path, "policy", stdin)
        policy = parse_policy(_decode(policy_data, policy_path, "policy"))
        return 0, _settle_text(_read(hand_path, None, stdin), hand_path, policy)
    except HandError as error:
        return 2, orjson.dumps(error.as_dict(), option=orjson.OPT_APPEND_NEWLINE)
    finally:
        if collecting:
            gc.enable()


def _settle_text(text: bytes | str, path: str, policy: Policy) -> bytes:
    """Return the JSON of the settlements of a hand file's text; raise HandError.

    The records are decoded straight into typed values and settled from them
    (:func:`settle_decoded`: the common hand in one pass, any other by its
    checked record); when one of them can't be settled so, the decoded JSON is
    checked and settled hand by hand, which says which hand is wrong and why.
    """
    try:
        records = decode_hands(text)
        if type(records) is list:
            return encode([settle_decoded(r, policy) for r in records]) + b"\n"
        assert isinstance(records, HandJSON)
        return encode(settle_decoded(records, policy)) + b"\n"
    except (msgspec.DecodeError, HandError, KeyError):
        pass  # settle_many below names the hand and says what is wrong
    hands = _decode(text, path, None)
    if isinstance(hands, list):
        return encode(settle_many(hands, policy)) + b"\n"
    return encode(settle(hands, policy)) + b"\n"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the command's arguments, here and in ``manage.py settle_hand``."""
    parser.add_argument(
        "--policy", required=True, metavar="POLICY.json", help="the game's policy"
    )
    parser.add_argument(
        "hand",
        metavar="HAND.json",
        help="a hand record or an array of them; - reads standard input",
    )


def main(argv: list[str] | None = None) -> int:
    """Settle the files named by ``argv``; print the JSON; return the exit status."""
    parser = argparse.ArgumentParser(
        prog="settle_hand",
        description="Settle hand records (API.md) under a policy and print the "
        "settlements as JSON. Touches no database.",
    )
    add_arguments(parser)
    arguments = parser.parse_args(argv)
    return _print(arguments.policy, arguments.hand)


def plain_arguments(argv: Sequence[str]) -> tuple[str, str] | None:
    """Return ``(policy, hand)`` of ``settle_hand``'s arguments in the plain form,
    else None.

    The plain form is what :func:`add_arguments` reads and argparse would take
    the same way: ``--policy POLICY.json`` (or ``--policy=POLICY.json``) once and
    one hand file (``-`` for standard input), in either order. Anything else (an
    option of Django's, ``--help``, an abbreviation, a value that looks like an
    option, a missing or extra argument) is None: the Django command then parses
    it, answers it or refuses it as it always has.
    """
    policy = hand = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if policy is None and arg == "--policy" and i + 1 < len(argv):
            value = argv[i + 1]
            if value.startswith("-") and value != "-":
                return None
            policy = value
            i += 2
        elif policy is None and arg.startswith("--policy="):
            policy = arg[len("--policy=") :]
            i += 1
        elif hand is None and (arg == "-" or not arg.startswith("-")):
            hand = arg
            i += 1
        else:
            return None
    if policy is None or hand is None:
        return None
    return policy, hand


def run_plain(argv: Sequence[str]) -> None:
    """Settle as ``manage.py settle_hand`` does and exit, when ``argv`` (the
    arguments after ``settle_hand``) is in the plain form; else return at once.

    ``manage.py`` calls it before loading Django: the same settlements, error
    objects and exit statuses as the Django command, without Django's start-up.
    """
    arguments = plain_arguments(argv)
    if arguments is not None:
        exit_now(_print(*arguments))


def _print(policy: str, hand: str) -> int:
    """Settle the files; write the JSON to standard output (standard error for
    the error object); return the exit status."""
    status, output = settle_files(policy, hand, sys.stdin)
    stream = sys.stdout if status == 0 else sys.stderr
    stream.flush()
    stream.buffer.write(output)
    stream.flush()
    return status


def exit_now(status: int) -> NoReturn:
    """Flush the standard streams and end the process with ``status`` at once.

    The output is written; tearing the heap down object by object is wasted time.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover - exercised by the subprocess tests
    exit_now(main())
