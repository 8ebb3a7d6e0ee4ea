"""The contract a table terminal reads: the hand record, the settlement and the policy.

API.md's formats, field by field, for the OpenAPI schema (``/api/schema/``,
``/api/docs/``). They describe; the engine (:mod:`cardroom.domain.hand_record`)
checks, so a record the schema allows can still be refused with a rule, and the
engine's error names the field. Fields are only ever added (API.md), and every
added field is optional with the default that keeps older records meaning what
they meant.

What a request sends (the hand record, the policy) is described strictly, as the
engine reads it: no field it doesn't read (``additionalProperties: false``;
:func:`cardroom.api.views.hand_body` and :class:`cardroom.api.views.PolicyField`
refuse them, 400) and numbers as JSON integers only (the engine's ``_int``).
"""

from __future__ import annotations

from rest_framework import serializers

from cardroom.domain.games import GAMES
from core.api.fields import StrictIntegerField, StrictSerializer
from core.api.parsers import BIGINT_MAX

CARD_HELP = 'Rank then suit, e.g. "Ah", "Tc".'


class CardListField(serializers.ListField):
    child = serializers.CharField(min_length=2, max_length=2, help_text=CARD_HELP)


# -- hand record ------------------------------------------------------------------


class SeatRecordSerializer(StrictSerializer):
    """One seat dealt in, as the terminal reports it."""

    class Meta:
        ref_name = "HandSeat"

    seat = StrictIntegerField(min_value=1, max_value=12, help_text="HS1.")
    player = serializers.CharField(help_text="The registered player's id (BI10).")
    stack = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        help_text="Chips when the hand started, in cents.",
    )
    present = serializers.BooleanField(
        help_text="Physically at the table while the hand was played (JD1)."
    )
    put_in = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        help_text="Everything the seat put in: antes, blinds, bets, calls, including "
        "any part nobody called. At most stack (BI3).",
    )
    folded = serializers.BooleanField()
    cards = CardListField(
        required=False,
        allow_null=True,
        help_text="As tabled: the hole cards, all seven in stud. Absent when not "
        "shown.",
    )
    dead = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        default=0,
        help_text="Added field (HS2). The part of put_in that is dead money: antes, "
        "the big-blind ante, a dead small blind, the dead part of a post. In the "
        "pot, matches no bet, never returned as uncalled.",
    )
    straddle = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        default=0,
        help_text="Added field (HS11). The part of put_in posted as a straddle, a "
        "live blind. Informative: it counts like any live bet.",
    )
    mucked = serializers.BooleanField(
        default=False,
        help_text="Added field (HS3). Reached the showdown and mucked: wins no pot; "
        "cards may be absent. Not with folded.",
    )


class PushSerializer(StrictSerializer):
    """What the dealer pushed to one seat (HS7)."""

    class Meta:
        ref_name = "Push"

    seat = StrictIntegerField(min_value=1, max_value=12)
    amount = StrictIntegerField(max_value=BIGINT_MAX, min_value=0)


class HandRecordSerializer(StrictSerializer):
    """The hand record of API.md that a terminal posts when a hand ends."""

    class Meta:
        ref_name = "HandRecord"

    table = serializers.CharField(
        required=False, help_text="The table code; the path's table when absent."
    )
    hand_no = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=1,
        help_text="Increases at a table; with the table, the natural key.",
    )
    game = serializers.ChoiceField(choices=list(GAMES), help_text="The table's game.")
    button = StrictIntegerField(
        min_value=1,
        max_value=12,
        required=False,
        allow_null=True,
        help_text="The button's seat; stud games may leave it out (HS5).",
    )
    started_at = serializers.DateTimeField(required=False, allow_null=True)
    ended_at = serializers.DateTimeField(required=False, allow_null=True)
    streets = StrictIntegerField(
        min_value=1,
        max_value=5,
        help_text="Dealing rounds dealt; 1 = only the initial deal (RK4).",
    )
    board = CardListField(
        required=False, help_text="The community cards; the first run's board."
    )
    boards = serializers.ListField(
        child=CardListField(),
        required=False,
        help_text="Added field (HS10). When the pot was run more than once, every "
        "run's whole board, the first equal to board. Board games only.",
    )
    bring_in = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        default=0,
        help_text="Added field (HS11). Stud: the bring-in, a live bet; informative.",
    )
    bomb_pot = serializers.BooleanField(
        required=False,
        allow_null=True,
        help_text="Added field (PR4). True for a bomb pot (every seat antes, no "
        "betting before the flop): promotions that leave bomb pots out ignore it. "
        "Informative for the settlement.",
    )
    seats = SeatRecordSerializer(many=True, help_text="Every seat dealt in.")
    awarded = PushSerializer(
        many=True,
        required=False,
        allow_null=True,
        help_text="What the dealer pushed to each seat, uncalled returns excluded. "
        "Different from the settlement: booked as the table paid it, flagged (HS7).",
    )


# -- settlement -------------------------------------------------------------------


class AmountSerializer(serializers.Serializer):
    """An amount to one seat."""

    class Meta:
        ref_name = "SeatAmount"

    seat = serializers.IntegerField()
    amount = serializers.IntegerField()


class RunSerializer(serializers.Serializer):
    """One run's part of a pot run more than once (HS10)."""

    class Meta:
        ref_name = "PotRun"

    run = serializers.IntegerField(help_text="1 for the first run.")
    amount = serializers.IntegerField(help_text="This run's part, after rake, drop.")
    winners = AmountSerializer(many=True)


class PotSerializer(serializers.Serializer):
    """A main or side pot, in formation order (HS2)."""

    class Meta:
        ref_name = "Pot"

    amount = serializers.IntegerField(help_text="Before rake and drop.")
    eligible = serializers.ListField(child=serializers.IntegerField())
    rake = serializers.IntegerField()
    jackpot_drop = serializers.IntegerField()
    winners = AmountSerializer(many=True, help_text="After rake and drop.")
    high = AmountSerializer(
        many=True, required=False, help_text="Hi-lo games: the high half's (HS4)."
    )
    low = AmountSerializer(
        many=True, required=False, help_text="Hi-lo games: the low half's (HS4)."
    )
    runs = RunSerializer(
        many=True,
        required=False,
        help_text="A pot run more than once: each run's part and winners (HS10).",
    )


class SettledSeatSerializer(serializers.Serializer):
    """A seat's result."""

    class Meta:
        ref_name = "SettledSeat"

    seat = serializers.IntegerField()
    player = serializers.CharField()
    stack = serializers.IntegerField()
    put_in = serializers.IntegerField()
    returned = serializers.IntegerField(help_text="The uncalled bet (RK5).")
    won = serializers.IntegerField()
    final_stack = serializers.IntegerField()
    hand = serializers.CharField(
        required=False, help_text="The first run's hand, when tabled at showdown."
    )
    dead = serializers.IntegerField(
        required=False, help_text="The record's dead money, when any (HS2)."
    )
    mucked = serializers.BooleanField(
        required=False, help_text="True when the seat mucked at showdown (HS3)."
    )


class MispaidSeatSerializer(serializers.Serializer):
    class Meta:
        ref_name = "MispaidSeat"

    seat = serializers.IntegerField()
    awarded = serializers.IntegerField(help_text="What the dealer pushed.")
    due = serializers.IntegerField(help_text="What the rules give.")


class ExceptionSerializer(serializers.Serializer):
    """What needs a person: a mispaid pot, a stack mismatch, a bad beat."""

    class Meta:
        ref_name = "HandExceptionItem"

    code = serializers.ChoiceField(
        choices=["mispaid_pot", "stack_mismatch", "bad_beat_candidate"]
    )
    rule = serializers.CharField(help_text="HS7, HS6 or BB1.")
    detail = serializers.CharField()
    seats = MispaidSeatSerializer(
        many=True, required=False, help_text="mispaid_pot: each seat paid otherwise."
    )
    pushed_total = serializers.IntegerField(
        required=False, help_text="mispaid_pot, when the pushes don't add up."
    )
    due_total = serializers.IntegerField(required=False)
    suspense = serializers.IntegerField(
        required=False,
        help_text="mispaid_pot: chips pushed beyond the pots (negative: left over), "
        "held in the table's suspense account until corrected.",
    )
    seat = serializers.IntegerField(required=False, help_text="stack_mismatch.")
    player = serializers.CharField(required=False, help_text="stack_mismatch.")
    reported = serializers.IntegerField(required=False, help_text="stack_mismatch.")
    recorded = serializers.IntegerField(required=False, help_text="stack_mismatch.")


class RunBoardSerializer(serializers.Serializer):
    class Meta:
        ref_name = "RunBoard"

    run = serializers.IntegerField()
    board = CardListField()
    hands = serializers.DictField(
        child=serializers.CharField(), help_text="Each seat's hand on this board."
    )


class SettlementSerializer(serializers.Serializer):
    """The settlement of API.md: sum(put_in) = returned + won + rake + drop."""

    class Meta:
        ref_name = "Settlement"

    table = serializers.CharField()
    hand_no = serializers.IntegerField()
    participants = serializers.IntegerField(help_text="Dealt in and present (JD1).")
    returned = AmountSerializer(many=True)
    pots = PotSerializer(many=True)
    rake = serializers.IntegerField()
    jackpot_drop = serializers.IntegerField()
    seats = SettledSeatSerializer(many=True)
    exceptions = ExceptionSerializer(many=True)
    runs = RunBoardSerializer(
        many=True, required=False, help_text="A hand run more than once (HS10)."
    )


# -- policy -----------------------------------------------------------------------


class PlayerCapSerializer(StrictSerializer):
    class Meta:
        ref_name = "RakeCapByPlayers"

    min_players = StrictIntegerField(min_value=2, max_value=12)
    cap = StrictIntegerField(max_value=BIGINT_MAX, min_value=0)


PERCENT = r"^(100(\.0+)?|[0-9]{1,2}(\.[0-9]+)?)$"
"""A percentage from 0 to 100 as a decimal string, as parse_policy reads it."""


class RakeSerializer(StrictSerializer):
    """How the house rakes (RK1-RK3, RK6, RK7)."""

    class Meta:
        ref_name = "RakePolicy"
        # What each scheme needs, as parse_policy refuses it (400 invalid_policy).
        required_when = {
            "step": ("scheme", ["pot_order"]),
            "unit": ("scheme", ["pot_order"]),
            "percent": ("scheme", ["percent"]),
        }

    scheme = serializers.ChoiceField(choices=["pot_order", "percent", "time", "none"])
    step = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=1,
        required=False,
        help_text="pot_order: one unit per full step.",
    )
    unit = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=1,
        required=False,
        help_text="pot_order: at most the step.",
    )
    percent = serializers.RegexField(
        PERCENT,
        trim_whitespace=False,
        required=False,
        help_text='percent: a decimal string from 0 to 100, "5" or "2.5".',
    )
    cap = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Per hand.",
    )
    caps_by_players = PlayerCapSerializer(
        many=True,
        required=False,
        help_text="Added field (RK7). A hand dealt to at least min_players seats is "
        "capped at cap (the entry with the most players it reaches); cap otherwise.",
    )
    min_pot = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        required=False,
        help_text="Added field (RK7). No rake from pots adding up to less.",
    )


class DropSerializer(StrictSerializer):
    """The jackpot drop (JD1-JD3)."""

    class Meta:
        ref_name = "DropPolicy"

    amount = StrictIntegerField(max_value=BIGINT_MAX, min_value=0)
    min_participants = StrictIntegerField(max_value=BIGINT_MAX, min_value=0)
    min_pot = StrictIntegerField(
        max_value=BIGINT_MAX,
        min_value=0,
        required=False,
        help_text="Added field (JD3). No drop from pots adding up to less.",
    )


class TimeCollectionSerializer(StrictSerializer):
    """Time collection (RK6): what each seat pays per period, read by
    :func:`waitlist.domain.time.time_policy` when the rake scheme is ``time``."""

    class Meta:
        ref_name = "TimeCollectionPolicy"

    period_minutes = StrictIntegerField(
        min_value=1, max_value=24 * 60, help_text="The period, at most a day."
    )
    amount = StrictIntegerField(
        min_value=1, max_value=BIGINT_MAX, help_text="Per seat and period, in cents."
    )


class PolicySerializer(StrictSerializer):
    """A game's policy (API.md "Policy")."""

    class Meta:
        ref_name = "Policy"

    currency = serializers.CharField(required=False)
    smallest_chip = StrictIntegerField(max_value=BIGINT_MAX, min_value=1)
    rake = RakeSerializer()
    jackpot_drop = DropSerializer(allow_null=True, required=False)
    time = TimeCollectionSerializer(
        required=False, help_text="Time collection (RK6), with rake.scheme time."
    )
    jackpots_first_run_only = serializers.BooleanField(
        required=False,
        help_text="Added field (HS10). A hand run more than once qualifies for "
        "jackpots on its first run only (default true).",
    )
