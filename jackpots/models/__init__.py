"""The jackpots' rows: pools, bad-beat categories and hits, hands of the month,
awards and transfers (:mod:`.pools`), and the promotions (:mod:`.promotions`)."""

from jackpots.models.pools import (
    Award,
    Category,
    CategoryVersion,
    Hit,
    Month,
    MonthHand,
    Pool,
    QualifiedHand,
    SweepCursor,
    Transfer,
)
from jackpots.models.promotions import (
    Promotion,
    PromotionEntry,
    PromotionPrize,
    PromotionVersion,
)

__all__ = [
    "Award",
    "Category",
    "CategoryVersion",
    "Hit",
    "Month",
    "MonthHand",
    "Pool",
    "Promotion",
    "PromotionEntry",
    "PromotionPrize",
    "PromotionVersion",
    "QualifiedHand",
    "SweepCursor",
    "Transfer",
]
