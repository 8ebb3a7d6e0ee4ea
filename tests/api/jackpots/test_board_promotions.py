"""The promotions on the public board (PR6, WL11): each running promotion, a high
hand with its period's leading hand as cards, the prize it would pay now and the
time left, a bonus with its table of amounts; in the board's language, no player
named, on a moved clock."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from cardroom.services import room_default
from cardroom.templatetags.hands import hand_words
from core.money import money_format
from core.roles import Role
from jackpots import services
from jackpots.domain.promotions import EXAMPLES

pytestmark = pytest.mark.django_db

HIGH_HAND = {
    "kind": "high_hand",
    "games": ["NLHE"],
    "min_hand": ["As", "Ah", "Ad", "Ks", "Kh"],
    "card_use": {"hole_cards": 2, "quads_pocket_pair": True},
    "min_pot_big_blinds": 10,
    "min_dealt_in": 4,
    "period_minutes": 60,
    "carry_over": True,
    "prize": {"fixed": 10_000, "pool_percent": 50, "funding": "both"},
}


@pytest.fixture
def promote(clock, make_staff):
    boss = make_staff("promoter", Role.MANAGER)

    def make(code, rules, drop_ratio=0):
        return services.promotion_create(
            room=room_default(),
            code=code,
            name=code.replace("-", " ").title(),
            rules=rules,
            by=boss,
            drop_ratio=drop_ratio,
        )

    return make


def panel(api, lang="en"):
    answer = api.get(f"/board?panel=promotions&lang={lang}")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Language"] == lang
    return answer.json()


def test_a_high_hand_shows_its_leader_as_cards_the_prize_and_the_time_left(
    api, promote, pools, dealer, clock, sweep
):
    """PR6: four nines lead the hour; the prize is the house's €100 and half of
    the 20 cents the pool holds free; 44:30 are left at 21:15:30. The page
    carries the panel and its data; asked again, the panel answers its data."""
    clock.set("2026-11-29T21:00")
    promote("high-hand", HIGH_HAND, drop_ratio=1)
    clock.set("2026-11-29T21:10")
    dealer.deal("9c 9d 2h Ks 3c", {1: "9s 9h", 2: "As Kd"})
    sweep()
    clock.set("2026-11-29T21:15:30")

    page = api.get("/board")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="promotions-panel"' in html
    urls = [json.loads(u) for u in re.findall(r'const URL = ("[^"]*");', html)]
    assert "/board?panel=promotions&lang=en" in urls
    data = json.loads(
        re.search(
            r'<script id="promotion-data" type="application/json">(.*?)</script>',
            html,
            re.S,
        ).group(1)
    )
    (high,) = data["promotions"]
    assert (high["code"], high["kind"], high["kind_label"]) == (
        "high-hand",
        "high_hand",
        "high hand",
    )
    assert high["seconds_left"] == 44 * 60 + 30
    assert high["ends_at"] == "2026-11-29T22:00:00+02:00"
    assert high["prize"] == 10_010 and high["prize_text"] == "€100.10"
    assert high["leaders"] == [
        {
            "hand": "four of a kind, nines",
            "cards": ["9s", "9h", "9c", "9d", "Ks"],
            "hole": ["9s", "9h"],
            "table": "T01",
        }
    ]
    assert high["lines"] == []
    for private in ("P-1", "Player P-1"):
        assert private not in html

    for lang in ("fi", "ko"):
        (again,) = panel(api, lang)["promotions"]
        assert again["prize_text"] == money_format(10_010, "EUR", lang, whole=True)
        with translation.override(lang):
            assert again["leaders"][0]["hand"] == hand_words("four of a kind, nines")
        assert again["seconds_left"] == 44 * 60 + 30


def test_a_period_after_an_empty_one_shows_the_prize_carried_in(
    api, promote, pools, dealer, clock, sweep
):
    """PR2: the first hour had no hand and carried its prize over: the second
    hour would pay it too (€100 + 10 cents, and its own €100 + half of what is
    free); with no hand yet, nobody leads."""
    clock.set("2026-11-29T21:00")
    promote("high-hand", HIGH_HAND, drop_ratio=1)
    clock.set("2026-11-29T21:30")
    dealer.ordinary()
    sweep()
    clock.set("2026-11-29T22:01:10")
    (carried,) = services.periods_close_due()
    assert carried.status == "carried_over"
    (high,) = panel(api)["promotions"]
    assert high["leaders"] == []
    assert high["seconds_left"] == 58 * 60 + 50
    # Free: €100.20 in the pool less €100.10 carried in: 10 cents, half is 5.
    assert high["prize"] == 10_010 + 10_000 + 5


def test_bonuses_show_their_table_and_an_ended_promotion_goes(
    api, promote, clock, make_staff
):
    """PR3, PR6: a fixed bonus shows each hand of its table with what it pays,
    best first; aces cracked its one amount. A promotion that ended is not
    shown; without any, the page has no panel and its data is null."""
    clock.set("2026-11-29T21:00")
    royal = promote("royal", EXAMPLES["royal-flush"])
    aces = promote("aces", EXAMPLES["aces-cracked"])
    clock.set("2026-11-29T21:01")
    shown = panel(api, "en")["promotions"]
    assert [(p["code"], p["seconds_left"]) for p in shown] == [
        ("royal", None),
        ("aces", None),
    ]
    assert [(line["hand"], line["amount_text"]) for line in shown[0]["lines"]] == [
        ("Royal flush", "€500"),
        ("Straight flush", "€200"),
        ("Four of a kind", "€100"),
    ]
    assert shown[1]["lines"] == [
        {
            "hand": "Pocket aces beaten at a showdown",
            "amount": 5_000,
            "amount_text": "€50",
        }
    ]
    boss = make_staff("closer", Role.MANAGER)
    services.promotion_publish(promotion=royal, rules=None, by=boss, active=False)
    clock.set("2026-11-29T21:02")
    assert [p["code"] for p in panel(api)["promotions"]] == ["aces"]
    services.promotion_publish(promotion=aces, rules=None, by=boss, active=False)
    clock.set("2026-11-29T21:03")
    assert panel(api) is None
    assert 'id="promotions-panel"' not in api.get("/board").content.decode()
