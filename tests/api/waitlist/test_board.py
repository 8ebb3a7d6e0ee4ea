"""The public board: open games, lists by nickname or initials, jackpots (WL11, JD6),
in the room's language."""

from __future__ import annotations

import pytest

from accounting import chart
from accounting.models import Player
from accounting.services import Leg, transaction_post
from cardroom.models import Room
from core.money import money_format, stakes_format
from tests.api.waitlist.conftest import called, fill, joined

pytestmark = pytest.mark.django_db


def seed_pool(pool: str, cents: int) -> None:
    transaction_post(
        kind="jackpot_seed",
        legs=[
            Leg(chart.jackpot_pool(pool=pool), -cents),
            Leg(chart.house_capital(), cents),
        ],
        reference=f"seed {pool}",
        source="test",
    )


@pytest.fixture
def room(open_table, players, floor, clock):
    Player.objects.filter(code="P-5").update(name="Mika Virtanen")
    Player.objects.filter(code="P-6").update(name="Anna Korhonen", nickname="Jokeri")
    t = open_table("T01")
    fill(t, "T01", ["P-1", "P-2"])
    joined(floor, "P-5")
    joined(floor, "P-6")
    seed_pool("badbeat", 125_050)
    chart.jackpot_reserve(pool="badbeat")
    return t


def test_the_board_needs_no_login_and_shows_games_lists_and_jackpots(api, room):
    """WL11: free seats per table, names as nickname or initials, pool amounts."""
    answer = api.get("/api/v1/board")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    (game,) = body["games"]
    assert (game["game"], game["stakes"], game["seats_free"]) == ("NLHE", "1/2", 7)
    assert game["tables"] == [{"table": "T01", "seats": 9, "players": 2, "free": 7}]
    assert game["waiting"] == [
        {"position": 1, "name": "M. V.", "called": False, "table": None},
        {"position": 2, "name": "Jokeri", "called": False, "table": None},
    ]
    assert body["jackpots"] == [
        {
            "name": "Jackpot badbeat",
            "amount": 125_050,
            "amount_text": "€1,250.50",
            "reserve": 0,
            "reserve_text": "€0",
            "currency": "EUR",
        }
    ]
    assert body["language"] == "en"


@pytest.mark.parametrize("language", ["fi", "ko"])
def test_the_board_writes_money_and_stakes_in_its_language(api, room, floor, language):
    """Issue 33: the board's money and stakes are written by core.money in the
    board's language (``?lang=``), beside the cents, which stay as they were."""
    joined(floor, "P-7", game="NL051")
    seed_pool("badbeat", 1_200_000)
    answer = api.get(f"/api/v1/board?lang={language}")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Language"] == language
    body = answer.json()
    assert body["language"] == language
    (jackpot,) = body["jackpots"]
    assert jackpot["amount"] == 1_325_050
    assert jackpot["amount_text"] == money_format(1_325_050, "EUR", language)
    assert jackpot["reserve_text"] == money_format(0, "EUR", language, whole=True)
    stakes = {g["big_blind"]: g["stakes"] for g in body["games"]}
    assert stakes == {
        100: stakes_format(50, 100, "EUR", language),
        200: stakes_format(100, 200, "EUR", language),
    }
    if language == "fi":
        assert jackpot["amount_text"] == "13\xa0250,50\xa0€"
        assert stakes == {100: "0,50/1", 200: "1/2"}
    else:
        assert jackpot["amount_text"] == "€13,250.50"


def test_the_boards_language_is_the_rooms_unless_asked(api, room):
    """Without ``?lang=`` the room's language, as the board's page (WL11)."""
    seed_pool("badbeat", 49_950)
    Room.objects.update(language="fi")
    body = api.get("/api/v1/board").json()
    assert body["language"] == "fi"
    assert body["jackpots"][0]["amount_text"] == "1\xa0750\xa0€"
    assert api.get("/api/v1/board?lang=en").json()["jackpots"][0]["amount_text"] == (
        "€1,750"
    )


@pytest.mark.parametrize("asked", ["sv", "", "FI", "fi-x"])
def test_a_language_the_room_has_not_is_refused(api, room, asked):
    """A ``?lang=`` outside the enum is refused (400, naming ``lang``), never
    read as another language."""
    answer = api.get("/api/v1/board", {"lang": asked})
    assert answer.status_code == 400, answer.content
    assert list(answer.json()["error"]["fields"]) == ["lang"]


def test_the_board_says_nothing_more_about_players(api, room):
    """WL11: no player id, name or stack leaves the board."""
    text = api.get("/api/v1/board").content.decode()
    for secret in ("P-5", "P-6", "Mika", "Virtanen", "Korhonen", "20000", "Player "):
        assert secret not in text


def test_a_call_shows_and_an_expired_call_disappears(api, room, floor, clock):
    """WL2 on the board: called to T01; gone when the 5 minutes are over."""
    called(floor, table="T01")
    first = api.get("/api/v1/board").json()["games"][0]["waiting"][0]
    assert (first["name"], first["called"], first["table"]) == ("M. V.", True, "T01")
    clock.advance(minutes=5, seconds=1)
    waiting = api.get("/api/v1/board").json()["games"][0]["waiting"]
    assert [w["name"] for w in waiting] == ["Jokeri"]


def test_the_jackpot_is_the_ledger_balance(api, room):
    """JD6: after another credit the board shows the account's new balance."""
    seed_pool("badbeat", 950)
    assert api.get("/api/v1/board").json()["jackpots"][0]["amount"] == 126_000


def test_the_board_ignores_credentials_and_refuses_writes(api, room):
    api.credentials(HTTP_AUTHORIZATION="Bearer nonsense")
    assert api.get("/api/v1/board").status_code == 200
    assert api.post("/api/v1/board", {}).status_code == 405


class TestPage:
    def test_the_page_loads_without_login_and_fetches_the_board(self, client, room):
        answer = client.get("/board")
        assert answer.status_code == 200
        html = answer.content.decode()
        assert '<html lang="en">' in html
        assert '"/api/v1/board?lang=en"' in html
        assert "Waiting list" in html and "Jackpots" in html
        assert "P-5" not in html

    def test_the_rooms_language_is_the_boards(self, client, room):
        """The room's setting chooses the language; a screen may ask for another."""
        Room.objects.update(language="fi")
        html = client.get("/board").content.decode()
        assert '<html lang="fi">' in html
        assert '"/api/v1/board?lang=fi"' in html
        assert "Jonotuslista" in html and "Jättipotit" in html
        html = client.get("/board?lang=ko").content.decode()
        assert '<html lang="ko">' in html
        assert '"/api/v1/board?lang=ko"' in html
        assert "대기자 명단" in html and "잭팟" in html

    def test_without_a_room_setting_the_browser_chooses(self, client, room):
        Room.objects.update(language="")
        answer = client.get("/board", HTTP_ACCEPT_LANGUAGE="ko")
        assert '<html lang="ko">' in answer.content.decode()
        assert answer["Content-Language"] == "ko"
