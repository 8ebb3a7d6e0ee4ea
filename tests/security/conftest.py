"""The floor's and the jackpots' fixtures: tables and their terminals, players, a
clock, jackpot pools and a dealer of showdown hands (tests/api/floor, jackpots)."""

from tests.api.floor.test_hands import t01  # noqa: F401
from tests.api.jackpots.conftest import *  # noqa: F403
