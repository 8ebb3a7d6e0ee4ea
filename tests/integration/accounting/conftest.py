from __future__ import annotations

import pytest

from accounting.models import AccountType
from accounting.services import account_get_or_open


@pytest.fixture
def accounts(db):
    """A cage drawer, a player's chips and rake revenue, in euros."""
    return {
        "cash": account_get_or_open(
            code="cage:MAIN:cash",
            name="Cage cash",
            type=AccountType.ASSET,
            currency="EUR",
            non_negative=True,
        ),
        "chips": account_get_or_open(
            code="player:P-1:chips",
            name="P-1 chips",
            type=AccountType.LIABILITY,
            currency="EUR",
            non_negative=True,
        ),
        "rake": account_get_or_open(
            code="revenue:rake",
            name="Rake",
            type=AccountType.REVENUE,
            currency="EUR",
        ),
        "float": account_get_or_open(
            code="equity:float",
            name="Float",
            type=AccountType.EQUITY,
            currency="EUR",
        ),
        "sek": account_get_or_open(
            code="cage:SEK:cash",
            name="SEK cash",
            type=AccountType.ASSET,
            currency="SEK",
        ),
    }
