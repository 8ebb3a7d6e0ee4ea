"""The manager's screens, under ``/manager/``: the inbox of everything a second
person decides (DC2, RK8, HS6, CA1, HM3), the jackpot hits' pages (BB5, BB6) and
the promotions' prizes' pages beside them (PR5), the tables' terminal keys,
player protection (PP1–PP7: players, held awards, the exclusion list, the
settings), and the approvals on the tournament floor's pages, under
``/floor/events/`` beside them (TO5, TO9)."""

from django.urls import path

from staff.manager import (
    approvals,
    hits,
    keys,
    players,
    prizes,
    protection,
    tournaments,
)

urlpatterns = [
    path("manager/", approvals.approvals, name="approvals"),
    path(
        "manager/corrections/<int:correction_id>",
        approvals.correction_decide,
        name="correction-decide",
    ),
    path("manager/voids/<int:void_id>", approvals.void_decide, name="void-decide"),
    path(
        "manager/stack-reviews/<int:review_id>",
        approvals.review_approve,
        name="review-approve",
    ),
    path(
        "manager/shifts/<int:shift_id>/sign-off",
        approvals.shift_sign_off,
        name="shift-sign-off",
    ),
    path("manager/months/<int:month_id>", approvals.month_decide, name="month-decide"),
    path("manager/hits/<int:hit_id>", hits.hit_detail, name="hit"),
    path("manager/hits/<int:hit_id>/verify", hits.hit_verify, name="hit-verify"),
    path("manager/hits/<int:hit_id>/approve", hits.hit_approve, name="hit-approve"),
    path("manager/hits/<int:hit_id>/reject", hits.hit_reject, name="hit-reject"),
    path("manager/prizes/<int:prize_id>", prizes.prize_detail, name="prize"),
    path(
        "manager/prizes/<int:prize_id>/verify", prizes.prize_verify, name="prize-verify"
    ),
    path(
        "manager/prizes/<int:prize_id>/approve",
        prizes.prize_approve,
        name="prize-approve",
    ),
    path(
        "manager/prizes/<int:prize_id>/reject", prizes.prize_reject, name="prize-reject"
    ),
    path("manager/keys", keys.terminal_keys, name="terminal-keys"),
    path(
        "manager/keys/<str:prefix>/revoke",
        keys.terminal_key_revoke,
        name="terminal-key-revoke",
    ),
    path("manager/players", players.players, name="protection-players"),
    path("manager/players/<str:code>", players.player, name="protection-player"),
    path(
        "manager/players/<str:code>/restrictions",
        players.restriction_set,
        name="restriction-set",
    ),
    path(
        "manager/players/<str:code>/correct",
        players.player_correct,
        name="player-correct",
    ),
    path(
        "manager/restrictions/<int:restriction_id>/end",
        players.restriction_end,
        name="restriction-end",
    ),
    path(
        "manager/restrictions/<int:restriction_id>/lapse",
        players.self_exclusion_lapse,
        name="self-exclusion-lapse",
    ),
    path(
        "manager/documents/<int:document_id>/number",
        players.document_number,
        name="document-number",
    ),
    path("manager/held-awards", protection.held_awards, name="held-awards"),
    path(
        "manager/held-awards/<int:payable_id>/pay",
        protection.held_award,
        {"decision": "pay"},
        name="held-award-pay",
    ),
    path(
        "manager/held-awards/<int:payable_id>/forfeit",
        protection.held_award,
        {"decision": "forfeit"},
        name="held-award-forfeit",
    ),
    path("manager/exclusions", protection.exclusions, name="exclusions"),
    path(
        "manager/protection-settings",
        protection.settings_page,
        name="protection-settings",
    ),
    path(
        "floor/events/<slug:event>/deals/<int:deal_id>/approve",
        tournaments.deal_approve,
        name="tournament-deal-approve",
    ),
    path(
        "floor/events/<slug:event>/payouts/approve",
        tournaments.payout_sheet_approve,
        name="tournament-payouts-approve",
    ),
    path(
        "floor/events/<slug:event>/payouts/<int:payout_id>/release",
        tournaments.payout_release,
        name="tournament-payout-release",
    ),
    path(
        "floor/events/<slug:event>/payouts/<int:payout_id>/forfeit",
        tournaments.payout_forfeit,
        name="tournament-payout-forfeit",
    ),
]
