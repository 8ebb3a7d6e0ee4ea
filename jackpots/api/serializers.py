"""Shapes of the jackpots' endpoints: pools, categories, hits, months, awards.

Money is integer cents (API.md); every output serializer has its own ``ref_name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from jackpots.domain.promotions import BOARDS, BONUS_HANDS, FUNDINGS
from jackpots.models import (
    Award,
    CategoryVersion,
    Hit,
    Month,
    Pool,
    Promotion,
    PromotionPrize,
    PromotionVersion,
)

_CHOICE_FIELDS: dict[str, type[serializers.ChoiceField]] = {}


def choice(
    choices: Sequence[tuple[str, Any]], name: str, **kwargs: Any
) -> serializers.ChoiceField:
    """A choice field whose enum is the schema component ``name``.

    Several of the app's fields share a name (``status``, ``kind``) with other
    choices, and the games share their choices with the floor's under another
    name: drf-spectacular's own enum naming would warn. DRF copies fields by
    re-instantiating their class, so the schema goes on a class of its own, one
    per component.
    """
    if name not in _CHOICE_FIELDS:
        values = [value for value, _label in choices]
        _CHOICE_FIELDS[name] = extend_schema_field(
            {"type": "string", "enum": values}, component_name=name
        )(type(f"{name}Field", (serializers.ChoiceField,), {}))
    return _CHOICE_FIELDS[name](choices=choices, **kwargs)


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


class PoolSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotPool"

    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    code = serializers.CharField()
    name = serializers.CharField()
    kind = choice(Pool.Kind.choices, "JackpotPoolKind")
    amount = serializers.IntegerField(
        source="account.balance_cents",
        help_text="The pool's ledger balance, in cents (JD6).",
    )
    reserve = serializers.IntegerField(
        source="reserve_account.balance_cents",
        help_text="The reserve for the next jackpot: its ledger balance (JD6).",
    )
    currency = serializers.CharField(source="account.currency")
    drop_ratio = serializers.IntegerField()
    reserve_percent = serializers.IntegerField()
    seed = serializers.IntegerField(source="seed_cents")
    games = serializers.ListField(child=serializers.CharField())
    payout_percent = serializers.IntegerField()
    month_close_day = serializers.IntegerField()
    month_close_hour = serializers.IntegerField()
    starts_on = serializers.DateField()
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class HistoryLineSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotPoolHistoryLine"

    kind = serializers.CharField(help_text="hand (drop), jackpot_seed, jackpot_award…")
    reference = serializers.CharField()
    memo = serializers.CharField()
    posted_at = serializers.DateTimeField()
    amount = serializers.IntegerField(
        source="amount_cents", help_text="Positive adds to the account."
    )
    balance = serializers.IntegerField(
        source="balance_cents",
        allow_null=True,
        help_text="The account's balance after it (without a kind filter).",
    )
    transaction = serializers.IntegerField()


class CategoryVersionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotCategoryVersion"

    version = serializers.IntegerField()
    active = serializers.BooleanField()
    pool = serializers.CharField(source="pool_code")
    games = serializers.ListField(child=serializers.CharField())
    min_losing_hand = serializers.ListField(child=serializers.CharField())
    card_use = serializers.DictField()
    min_participants = serializers.IntegerField()
    min_pot = serializers.IntegerField(source="min_pot_cents")
    payout = serializers.SerializerMethodField()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()

    def get_payout(self, version: CategoryVersion) -> dict[str, int]:
        return {
            "percent": version.payout_percent,
            "loser": version.loser_part,
            "winner": version.winner_part,
            "table": version.table_part,
        }

    def get_created_by(self, version: CategoryVersion) -> str | None:
        return _username(version.created_by)


class CategorySerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotCategory"

    code = serializers.CharField()
    name = serializers.CharField()
    current = CategoryVersionSerializer(help_text="The version in force.")
    versions = CategoryVersionSerializer(many=True, required=False)


class AwardSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotAward"

    id = serializers.IntegerField()
    pool = serializers.CharField(source="pool.code")
    hit = serializers.IntegerField(source="hit_id", allow_null=True)
    month = serializers.IntegerField(source="month_id", allow_null=True)
    table = serializers.CharField(source="hand.table.code")
    hand_no = serializers.IntegerField(source="hand.hand_no")
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player.code")
    role = choice(Award.Role.choices, "JackpotAwardRole")
    part = serializers.IntegerField(help_text="The role's part of the payout.")
    sharing = serializers.IntegerField(help_text="How many share the role's part.")
    amount = serializers.IntegerField(
        source="amount_cents", help_text="Fixed when approved; until then as it stands."
    )
    status = choice(Award.Status.choices, "JackpotAwardStatus")
    payable = serializers.IntegerField(
        source="payable_id",
        allow_null=True,
        help_text="The cage payable the cashier pays (CA6).",
    )
    paid = serializers.SerializerMethodField()

    def get_paid(self, award: Award) -> bool:
        return award.payable is not None and award.payable.status == "paid"


class HitAwardSerializer(AwardSerializer):
    class Meta:
        ref_name = "JackpotHitAward"


class HitSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotHit"

    id = serializers.IntegerField()
    status = choice(Hit.Status.choices, "JackpotHitStatus")
    category = serializers.CharField(source="category.code")
    category_version = serializers.IntegerField(source="category_version.version")
    pool = serializers.CharField(source="pool.code")
    table = serializers.CharField(source="hand.table.code")
    hand_no = serializers.IntegerField(source="hand.hand_no")
    hand_ended_at = serializers.DateTimeField()
    details = serializers.DictField(
        help_text="losers, winners, other_losers (with hands and cards), table seats."
    )
    pool_amount = serializers.IntegerField(
        source="pool_cents",
        help_text="The pool after the hand's drop, less earlier hits (BB4); fixed "
        "when approved.",
    )
    payout = serializers.IntegerField(source="payout_cents")
    found_at = serializers.DateTimeField()
    verified_by = serializers.SerializerMethodField()
    verified_at = serializers.DateTimeField(allow_null=True)
    verification_note = serializers.CharField()
    approved_by = serializers.SerializerMethodField()
    approved_at = serializers.DateTimeField(allow_null=True)
    rejected_by = serializers.SerializerMethodField()
    rejected_at = serializers.DateTimeField(allow_null=True)
    rejection_reason = serializers.CharField()
    booking = serializers.IntegerField(source="booking_id", allow_null=True)
    awards = HitAwardSerializer(many=True, source="awards.all")

    def get_verified_by(self, hit: Hit) -> str | None:
        return _username(hit.verified_by)

    def get_approved_by(self, hit: Hit) -> str | None:
        return _username(hit.approved_by)

    def get_rejected_by(self, hit: Hit) -> str | None:
        return _username(hit.rejected_by)


class MonthAwardSerializer(AwardSerializer):
    class Meta:
        ref_name = "JackpotMonthAward"


class MonthSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotMonth"

    id = serializers.IntegerField()
    pool = serializers.CharField(source="pool.code")
    month = serializers.SerializerMethodField()
    status = choice(Month.Status.choices, "JackpotMonthStatus")
    best_hand = serializers.CharField()
    pool_amount = serializers.IntegerField(
        source="pool_cents",
        help_text="The pool at the month's end; fixed when approved.",
    )
    payout = serializers.IntegerField(source="payout_cents")
    closed_at = serializers.DateTimeField()
    closed_by = serializers.SerializerMethodField()
    approved_by = serializers.SerializerMethodField()
    approved_at = serializers.DateTimeField(allow_null=True)
    rejected_by = serializers.SerializerMethodField()
    rejection_reason = serializers.CharField()
    booking = serializers.IntegerField(source="booking_id", allow_null=True)
    awards = MonthAwardSerializer(many=True, source="awards.all")

    def get_month(self, month: Month) -> str:
        return month.month.strftime("%Y-%m")

    def get_closed_by(self, month: Month) -> str:
        return _username(month.closed_by) or month.closed_source

    def get_approved_by(self, month: Month) -> str | None:
        return _username(month.approved_by)

    def get_rejected_by(self, month: Month) -> str | None:
        return _username(month.rejected_by)


class StandingSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotStanding"

    player = serializers.CharField(source="player.code")
    hand = serializers.CharField(source="description")
    cards = serializers.ListField(child=serializers.CharField())
    table = serializers.CharField(source="hand.table.code")
    hand_no = serializers.IntegerField(source="hand.hand_no")
    seat = serializers.IntegerField()
    ended_at = serializers.DateTimeField()


class TransferSerializer(serializers.Serializer):
    class Meta:
        ref_name = "JackpotTransfer"

    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    source = serializers.CharField(  # type: ignore[assignment]
        source="source.code",
        allow_null=True,
        default=None,
        help_text="The pool it left; null for drops that reached no pool.",
    )
    target = serializers.CharField(source="target.code")
    amount = serializers.IntegerField(source="amount_cents")
    reserve = serializers.IntegerField(source="reserve_cents")
    reason = serializers.CharField()
    retired = serializers.BooleanField()
    decided_by = serializers.SerializerMethodField()
    decided_at = serializers.DateTimeField()
    transaction = serializers.IntegerField(source="ledger_transaction_id")

    def get_decided_by(self, transfer: Any) -> str:
        return transfer.decided_by.get_username()


# Promotions (PR1–PR6).


class PromotionCardUseSerializer(serializers.Serializer):
    class Meta:
        ref_name = "PromotionCardUse"

    hole_cards = serializers.IntegerField(
        help_text="How many hole cards play in the best five (Hold'em: 2)."
    )
    quads_pocket_pair = serializers.BooleanField(
        help_text="Four of a kind counts only with a pocket pair."
    )


class PromotionPrizeRuleSerializer(serializers.Serializer):
    class Meta:
        ref_name = "PromotionPrizeRule"

    fixed = serializers.IntegerField(help_text="Cents.")
    pool_percent = serializers.IntegerField()
    funding = choice([(f, f) for f in FUNDINGS], "PromotionFunding")


class PromotionBonusLineSerializer(serializers.Serializer):
    class Meta:
        ref_name = "PromotionBonusLine"

    hand = choice([(h, h) for h in BONUS_HANDS], "PromotionBonusHand")
    fixed = serializers.IntegerField(help_text="Cents.")


class PromotionRulesSerializer(serializers.Serializer):
    """A version's rules as stored: every field, defaults filled in."""

    class Meta:
        ref_name = "PromotionRules"

    kind = choice(Promotion.Kind.choices, "PromotionKind")
    games = serializers.ListField(child=serializers.CharField())
    big_blinds = serializers.ListField(
        child=serializers.IntegerField(), help_text="Empty: every stake."
    )
    min_hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="Five cards."
    )
    card_use = PromotionCardUseSerializer()
    board = choice([(b, b) for b in BOARDS], "PromotionBoard")
    min_pot = serializers.IntegerField(help_text="Cents.")
    min_pot_big_blinds = serializers.IntegerField()
    min_dealt_in = serializers.IntegerField()
    first_run_only = serializers.BooleanField()
    exclude_bomb_pots = serializers.BooleanField()
    period_minutes = serializers.IntegerField()
    anchor_minutes = serializers.IntegerField(allow_null=True)
    time_zone = serializers.CharField(allow_null=True)
    carry_over = serializers.BooleanField()
    prize = PromotionPrizeRuleSerializer()
    bonuses = PromotionBonusLineSerializer(many=True)


class PromotionVersionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "PromotionVersion"

    version = serializers.IntegerField()
    active = serializers.BooleanField(help_text="False: the promotion ended here.")
    rules = PromotionRulesSerializer()
    note = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()

    def get_created_by(self, version: PromotionVersion) -> str | None:
        return _username(version.created_by)


class PromotionSerializer(serializers.Serializer):
    class Meta:
        ref_name = "Promotion"

    id = serializers.IntegerField()
    room = serializers.CharField(source="room.code")
    code = serializers.CharField()
    name = serializers.CharField()
    kind = choice(Promotion.Kind.choices, "PromotionKind")
    pool = serializers.IntegerField(
        source="pool_id", help_text="The pool holding its money (PR1, JD5)."
    )
    amount = serializers.IntegerField(
        source="pool.account.balance_cents",
        help_text="What the pool holds: its ledger balance, in cents (JD6).",
    )
    currency = serializers.CharField(source="pool.account.currency")
    drop_ratio = serializers.IntegerField(
        source="pool.drop_ratio", help_text="The pool's share of each drop (JD4)."
    )
    active = serializers.SerializerMethodField()
    current = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()

    def _versions(self, promotion: Promotion) -> list[PromotionVersion]:
        return sorted(promotion.versions.all(), key=lambda v: -v.version)

    def get_active(self, promotion: Promotion) -> bool:
        return self._versions(promotion)[0].active

    @extend_schema_field(PromotionVersionSerializer)
    def get_current(self, promotion: Promotion) -> Any:
        return PromotionVersionSerializer(self._versions(promotion)[0]).data

    def get_created_by(self, promotion: Promotion) -> str | None:
        return _username(promotion.created_by)


class PromotionDetailSerializer(PromotionSerializer):
    class Meta:
        ref_name = "PromotionDetail"

    versions = serializers.SerializerMethodField()

    @extend_schema_field(PromotionVersionSerializer(many=True))
    def get_versions(self, promotion: Promotion) -> Any:
        return PromotionVersionSerializer(self._versions(promotion), many=True).data


class PromotionEntrySerializer(serializers.Serializer):
    """A hand tabled in a high-hand period (PR2)."""

    class Meta:
        ref_name = "PromotionEntry"

    player = serializers.CharField(source="player.code")
    hand = serializers.CharField(source="description")
    cards = serializers.ListField(
        child=serializers.CharField(), help_text="The best five."
    )
    hole = serializers.ListField(child=serializers.CharField())
    table = serializers.CharField(source="hand.table.code")
    hand_no = serializers.IntegerField(source="hand.hand_no")
    seat = serializers.IntegerField()
    tabled_at = serializers.DateTimeField(source="ended_at")


class PrizeAwardSerializer(AwardSerializer):
    class Meta:
        ref_name = "PromotionPrizeAward"

    prize = serializers.IntegerField(source="prize_id")


class PrizeHandSerializer(serializers.Serializer):
    """A winning hand of a prize, drawn as cards."""

    class Meta:
        ref_name = "PromotionPrizeHand"

    seat = serializers.IntegerField()
    player = serializers.CharField()
    hand = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    hole = serializers.ListField(child=serializers.CharField())
    table = serializers.CharField(required=False)
    hand_no = serializers.IntegerField(required=False)
    tabled_at = serializers.DateTimeField(required=False)
    bonus = serializers.CharField(required=False, help_text="The bonus line paid.")
    amount = serializers.IntegerField(required=False, help_text="Cents.")


class PrizeSerializer(serializers.Serializer):
    class Meta:
        ref_name = "PromotionPrize"

    id = serializers.IntegerField()
    promotion = serializers.CharField(source="promotion.code")
    promotion_id = serializers.IntegerField()
    promotion_name = serializers.CharField(source="promotion.name")
    version = serializers.IntegerField(source="version.version")
    kind = choice(PromotionPrize.Kind.choices, "PromotionPrizeKind")
    status = choice(PromotionPrize.Status.choices, "PromotionPrizeStatus")
    period_start = serializers.DateTimeField(allow_null=True)
    period_end = serializers.DateTimeField(allow_null=True)
    table = serializers.CharField(
        source="hand.table.code", allow_null=True, default=None
    )
    hand_no = serializers.IntegerField(
        source="hand.hand_no", allow_null=True, default=None
    )
    hands = PrizeHandSerializer(
        many=True, source="details.hands", help_text="The winning hands, as cards."
    )
    board = serializers.ListField(
        child=serializers.CharField(),
        source="details.board",
        required=False,
        help_text="A bonus's hand: the board.",
    )
    house = serializers.IntegerField(
        source="house_cents", help_text="From the house, an expense (PR1)."
    )
    pool_amount = serializers.IntegerField(
        source="pool_cents", help_text="From the promotion's pool (PR1, JD5)."
    )
    carried_in = serializers.IntegerField(
        source="carried_in_cents",
        help_text="Carried from empty periods before (in pool_amount).",
    )
    total = serializers.SerializerMethodField()
    currency = serializers.CharField(source="promotion.pool.account.currency")
    found_at = serializers.DateTimeField()
    closed_by = serializers.SerializerMethodField()
    verified_by = serializers.SerializerMethodField()
    verified_at = serializers.DateTimeField(allow_null=True)
    verification_note = serializers.CharField()
    approved_by = serializers.SerializerMethodField()
    approved_at = serializers.DateTimeField(allow_null=True)
    rejected_by = serializers.SerializerMethodField()
    rejected_at = serializers.DateTimeField(allow_null=True)
    rejection_reason = serializers.CharField()
    booking = serializers.IntegerField(source="booking_id", allow_null=True)
    awards = PrizeAwardSerializer(many=True, source="awards.all")

    def get_total(self, prize: PromotionPrize) -> int:
        return prize.house_cents + prize.pool_cents

    def get_closed_by(self, prize: PromotionPrize) -> str:
        return _username(prize.closed_by) or prize.closed_source

    def get_verified_by(self, prize: PromotionPrize) -> str | None:
        return _username(prize.verified_by)

    def get_approved_by(self, prize: PromotionPrize) -> str | None:
        return _username(prize.approved_by)

    def get_rejected_by(self, prize: PromotionPrize) -> str | None:
        return _username(prize.rejected_by)
