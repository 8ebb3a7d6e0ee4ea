"""The tournaments' room and structure, for the API tests."""

from tests.integration.tournaments.conftest import room, structure  # noqa: F401
