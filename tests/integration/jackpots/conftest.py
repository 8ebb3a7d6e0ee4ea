"""The jackpots' room (pools, a six-handed table, staff) for the services' tests."""

from tests.api.jackpots.conftest import *  # noqa: F403
