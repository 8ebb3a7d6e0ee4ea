"""Player protection through the API (PP1–PP7), as API.md describes it: a
player's correction, his identity documents and who looked at their numbers,
bars and self-exclusions with their ends, the settings, the exclusion list."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from accounting.models import (
    DocumentLookup,
    IdentityDocument,
    Player,
    PlayerChange,
    ProtectionRules,
    Restriction,
)
from accounting.services import cage
from accounting.services.cage import Door, door_check
from core.errors import Refusal
from core.roles import Role

pytestmark = [pytest.mark.django_db, pytest.mark.room_evening]

HELSINKI = ZoneInfo("Europe/Helsinki")
# ROOM_EVENING (tests/conftest.py) is 2026-11-29 21:00, gaming day 2026-11-29;
# the gaming day turns at 06:00.
TODAY = date(2026, 11, 29)
NUMBER = "FI-PASS-998877"


def api(client, method: str, path: str, body: dict | None = None, key: str = ""):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    call = getattr(client, method)
    return call(f"/api/v1/{path}", body or {}, format="json", **headers)


def error(answer, status: int, code: str, rule: str | None) -> dict:
    assert answer.status_code == status, answer.content
    found = answer.json()["error"]
    assert (found["code"], found["rule"]) == (code, rule), found
    return found


def refused_at(player: Player, door: Door = Door.SEAT) -> str | None:
    """The rule that refuses ``player`` at ``door`` now, or None."""
    try:
        door_check(player=Player.objects.get(pk=player.pk), door=door)
    except Refusal as refusal:
        return refusal.rule
    return None


@pytest.fixture
def manager(staff_client):
    return staff_client(Role.MANAGER, username="mia")


@pytest.fixture
def second_manager(staff_client):
    return staff_client(Role.MANAGER, username="max")


@pytest.fixture
def cashier(staff_client):
    return staff_client(Role.CASHIER, username="kalle")


@pytest.fixture
def floor(staff_client):
    return staff_client(Role.FLOOR, username="fred")


@pytest.fixture
def auditor(staff_client):
    return staff_client(Role.AUDITOR, username="aud")


@pytest.fixture
def player(db) -> Player:
    return cage.player_register(
        code="P-1001", name="Aino Virtanen", birth_date=date(1990, 5, 17)
    )


def bar(client, body: dict | None = None, code: str = "P-1001"):
    body = body or {"kind": "bar", "scope": "room", "reason": "Abuse of a dealer."}
    return api(client, "post", f"players/{code}/restrictions", body)


# -- PATCH /players/{id} (PP7) -----------------------------------------------


def test_a_manager_corrects_a_player_and_each_change_is_recorded(manager, player):
    """Each changed field is a PlayerChange: who, when, why, the old value."""
    body = {
        "name": "Aino Virtanen-Korhonen",
        "birth_date": "1990-05-18",
        "nickname": "",
        "reason": "Married; the passport shows the 18th.",
    }
    answer = api(manager, "patch", "players/P-1001", body)
    assert answer.status_code == 200, answer.content
    shown = answer.json()
    assert shown["name"] == "Aino Virtanen-Korhonen"
    assert shown["birth_date"] == "1990-05-18" and shown["age"] == 36
    changes = {c.field: c for c in PlayerChange.objects.filter(player=player)}
    # The nickname was blank already: nothing to record for it.
    assert set(changes) == {"name", "birth_date"}
    assert changes["name"].old == "Aino Virtanen"
    assert changes["birth_date"].old == "1990-05-17"
    assert changes["birth_date"].new == "1990-05-18"
    for change in changes.values():
        assert change.by.username == "mia"
        assert change.reason == "Married; the passport shows the 18th."


def test_a_correction_says_why_and_changes_something(manager, player):
    """No reason or no field: 400; the values on file: 422 PP7; a date of birth
    not in the past: 422 PP1; nobody registered: 404. Nothing is recorded."""
    answer = api(manager, "patch", "players/P-1001", {"name": "Aino V."})
    assert answer.status_code == 400
    assert "reason" in answer.json()["error"]["fields"]
    answer = api(manager, "patch", "players/P-1001", {"reason": "typo"})
    assert answer.status_code == 400
    same = {"name": "Aino Virtanen", "reason": "typo"}
    error(api(manager, "patch", "players/P-1001", same), 422, "nothing_changed", "PP7")
    future = {"birth_date": TODAY.isoformat(), "reason": "typo"}
    answer = api(manager, "patch", "players/P-1001", future)
    error(answer, 422, "birth_date_future", "PP1")
    answer = api(manager, "patch", "players/P-404", {"name": "X", "reason": "typo"})
    assert answer.status_code == 404
    assert not PlayerChange.objects.exists()
    assert Player.objects.get(pk=player.pk).birth_date == date(1990, 5, 17)


@pytest.mark.parametrize("role", [Role.CASHIER, Role.FLOOR, Role.AUDITOR])
def test_only_a_manager_corrects_a_player(staff_client, player, role):
    client = staff_client(role)
    answer = api(client, "patch", "players/P-1001", {"name": "X", "reason": "r"})
    error(answer, 403, "permission_denied", None)
    assert Player.objects.get(pk=player.pk).name == "Aino Virtanen"


# -- GET /players/{id}: age and restrictions at a glance (PP2–PP4) -------------


def test_a_players_age_is_counted_on_the_gaming_day(manager, floor, room_clock):
    """Born 2008-11-30: 17 on the evening of the 29th and at 03:00 on the 30th
    (still the 29th's gaming day), 18 from the 06:00 cut-off (PP2)."""
    cage.player_register(code="P-18", name="Teemu", birth_date=date(2008, 11, 30))
    assert floor.get("/api/v1/players/P-18").json()["age"] == 17
    room_clock.move_to(datetime(2026, 11, 30, 3, 0, tzinfo=HELSINKI))
    assert floor.get("/api/v1/players/P-18").json()["age"] == 17
    room_clock.move_to(datetime(2026, 11, 30, 6, 0, tzinfo=HELSINKI))
    assert floor.get("/api/v1/players/P-18").json()["age"] == 18
    cage.player_register(code="P-0", name="Nobody")
    shown = floor.get("/api/v1/players/P-0").json()
    assert shown["age"] is None and shown["birth_date"] is None


def test_a_player_shows_his_restrictions_in_force_never_a_number(
    manager, cashier, player
):
    """restricted and the restrictions that hold now; no document number."""
    api(
        cashier,
        "post",
        "players/P-1001/documents",
        {"kind": "passport", "number": NUMBER},
    )
    shown = cashier.get("/api/v1/players/P-1001").json()
    assert shown["restricted"] is False and shown["restrictions"] == []
    until = (TODAY + timedelta(days=30)).isoformat()
    body = {"kind": "bar", "scope": "cash", "until": until, "reason": "Collusion."}
    restriction = bar(manager, body).json()["id"]
    answer = cashier.get("/api/v1/players/P-1001")
    shown = answer.json()
    assert shown["restricted"] is True
    assert shown["restrictions"] == [
        {"id": restriction, "kind": "bar", "scope": "cash", "until": until}
    ]
    assert NUMBER not in answer.content.decode()


# -- identity documents (PP1, PP7) --------------------------------------------


def test_the_cage_records_a_document_and_lists_it_without_its_number(
    cashier, auditor, player
):
    """201: the document checked now by the caller; the player is verified
    (CA5). Neither the answer nor the list shows the number."""
    body = {"kind": "passport", "number": NUMBER, "expires": "2030-01-31"}
    answer = api(cashier, "post", "players/P-1001/documents", body)
    assert answer.status_code == 201, answer.content
    recorded = answer.json()
    assert recorded["player"] == "P-1001" and recorded["kind"] == "passport"
    assert recorded["expires"] == "2030-01-31" and recorded["valid"] is True
    assert recorded["checked_by"] == "kalle"
    assert NUMBER not in answer.content.decode()
    document = IdentityDocument.objects.get()
    assert document.number == NUMBER and document.checked_by.username == "kalle"
    assert Player.objects.get(pk=player.pk).id_verified is True
    listed = auditor.get("/api/v1/players/P-1001/documents")
    assert listed.status_code == 200
    assert [d["id"] for d in listed.json()] == [document.pk]
    assert NUMBER not in listed.content.decode()


def test_an_expired_document_is_refused(cashier, player):
    """PP1: a document past its expiry is no identity: 422, nothing recorded."""
    body = {"kind": "id_card", "number": "X1", "expires": "2026-11-28"}
    answer = api(cashier, "post", "players/P-1001/documents", body)
    found = error(answer, 422, "document_expired", "PP1")
    assert "2026-11-28" in found["detail"]
    assert not IdentityDocument.objects.exists()
    assert Player.objects.get(pk=player.pk).id_verified is False


def test_the_number_is_shown_to_those_who_need_it_and_each_look_up_recorded(
    manager, cashier, floor, auditor, player
):
    """PP7: a manager and a cashier see the number, each look-up a
    DocumentLookup with who and why; the floor and the auditors are refused,
    and their attempts record nothing."""
    body = {"kind": "passport", "number": NUMBER}
    document = api(cashier, "post", "players/P-1001/documents", body).json()["id"]
    url = f"/api/v1/documents/{document}/number"
    answer = manager.get(url, {"purpose": "tax form"})
    assert answer.status_code == 200, answer.content
    assert answer.json() == {
        "id": document,
        "player": "P-1001",
        "kind": "passport",
        "number": NUMBER,
        "expires": None,
    }
    assert cashier.get(url).json()["number"] == NUMBER
    for client in (floor, auditor):
        error(client.get(url), 403, "permission_denied", None)
    lookups = list(DocumentLookup.objects.order_by("at", "id"))
    assert [(x.by.username, x.purpose) for x in lookups] == [
        ("mia", "tax form"),
        ("kalle", ""),
    ]
    assert manager.get("/api/v1/documents/999999/number").status_code == 404


@pytest.mark.parametrize("role", [Role.FLOOR, Role.AUDITOR])
def test_neither_the_floor_nor_the_auditor_records_documents(
    staff_client, player, role
):
    body = {"kind": "passport", "number": NUMBER}
    answer = api(staff_client(role), "post", "players/P-1001/documents", body)
    error(answer, 403, "permission_denied", None)
    assert not IdentityDocument.objects.exists()


def test_the_floor_doesnt_list_documents(floor, player):
    error(floor.get("/api/v1/players/P-1001/documents"), 403, "permission_denied", None)


# -- bars (PP3) ---------------------------------------------------------------


def test_a_manager_bars_a_player_and_every_door_refuses_him(manager, auditor, player):
    """201 with API.md's fields; GET lists it with active; the door says PP3."""
    until = (TODAY + timedelta(days=90)).isoformat()
    body = {"kind": "bar", "scope": "room", "until": until, "reason": "Cheating."}
    answer = bar(manager, body)
    assert answer.status_code == 201, answer.content
    shown = answer.json()
    assert {k: shown[k] for k in ("player", "kind", "scope", "until", "active")} == {
        "player": "P-1001",
        "kind": "bar",
        "scope": "room",
        "until": until,
        "active": True,
    }
    assert shown["set_by"] == "mia" and shown["end"] is None
    assert shown["reason"] == "Cheating."
    listed = auditor.get("/api/v1/players/P-1001/restrictions")
    assert listed.status_code == 200
    assert [(r["id"], r["active"]) for r in listed.json()] == [(shown["id"], True)]
    for door in (Door.WAITLIST, Door.SEAT, Door.CHIP_PURCHASE, Door.TOURNAMENT):
        assert refused_at(player, door) == "PP3"
    assert refused_at(player, Door.REDEMPTION) is None  # PP5: his money is his


def test_a_bar_ends_on_a_gaming_day_to_come(manager, player):
    """A bar until today (or before): 422 until_passed, with the first day allowed."""
    body = {"kind": "bar", "scope": "room", "until": TODAY.isoformat(), "reason": "r"}
    found = error(bar(manager, body), 422, "until_passed", "PP3")
    assert found["allowed"] == {"min_until": "2026-11-30"}
    assert not Restriction.objects.exists()


@pytest.mark.parametrize("role", [Role.CASHIER, Role.FLOOR, Role.AUDITOR])
def test_only_a_manager_bars_a_player(staff_client, player, role):
    error(bar(staff_client(role)), 403, "permission_denied", None)
    assert not Restriction.objects.exists()


@pytest.mark.parametrize("role", [Role.CASHIER, Role.FLOOR])
def test_the_cage_and_the_floor_dont_list_restrictions(staff_client, player, role):
    answer = staff_client(role).get("/api/v1/players/P-1001/restrictions")
    error(answer, 403, "permission_denied", None)


def test_a_bar_is_ended_early_by_a_second_manager_only(manager, second_manager, player):
    """PP3: who set it can't end it (422); another manager can (200), once (409);
    then the doors let the player in again."""
    restriction = bar(manager).json()["id"]
    url = f"restrictions/{restriction}/end"
    reason = {"reason": "Apologised; the dealer agrees."}
    error(api(manager, "post", url, reason), 422, "second_manager", "PP3")
    assert refused_at(player) == "PP3"
    answer = api(second_manager, "post", url, reason)
    assert answer.status_code == 200, answer.content
    shown = answer.json()
    assert shown["active"] is False
    assert shown["end"]["kind"] == "ended" and shown["end"]["by"] == "max"
    assert shown["end"]["reason"] == "Apologised; the dealer agrees."
    assert refused_at(player) is None
    error(api(manager, "post", url, reason), 409, "restriction_ended", "PP7")


def test_ending_needs_a_reason_and_a_restriction(manager, second_manager, player):
    restriction = bar(manager).json()["id"]
    answer = api(second_manager, "post", f"restrictions/{restriction}/end", {})
    assert answer.status_code == 400
    answer = api(second_manager, "post", "restrictions/999999/end", {"reason": "r"})
    error(answer, 404, "restriction_not_found", None)
    assert refused_at(player) == "PP3"


@pytest.mark.parametrize("role", [Role.CASHIER, Role.FLOOR, Role.AUDITOR])
def test_only_a_manager_ends_a_bar(staff_client, manager, player, role):
    restriction = bar(manager).json()["id"]
    answer = api(
        staff_client(role), "post", f"restrictions/{restriction}/end", {"reason": "r"}
    )
    error(answer, 403, "permission_denied", None)
    assert refused_at(player) == "PP3"


def test_a_bar_posted_twice_with_its_key_is_recorded_once(manager, player):
    """Idempotency-Key: the retry replays the first answer and writes nothing."""
    body = {"kind": "bar", "scope": "tournaments", "reason": "Chip dumping."}
    path = "players/P-1001/restrictions"
    first = api(manager, "post", path, body, key="bar-1")
    again = api(manager, "post", path, body, key="bar-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Restriction.objects.count() == 1


def test_a_restriction_with_an_unknown_field_is_refused(manager, player):
    body = {"kind": "bar", "scope": "room", "reason": "r", "lifted": False}
    answer = bar(manager, body)
    assert answer.status_code == 400
    assert "lifted" in answer.json()["error"]["fields"]


# -- self-exclusions (PP4) ----------------------------------------------------


def self_exclude(client, until: str | None, scope: str = "room"):
    body = {"kind": "self_exclusion", "scope": scope, "until": until}
    return bar(client, {**body, "reason": "At his own request."})


def test_a_self_exclusion_lasts_at_least_the_rooms_minimum(manager, player):
    """PP4: 180 days by default; shorter is 422 with the earliest until."""
    short = (TODAY + timedelta(days=179)).isoformat()
    found = error(self_exclude(manager, short), 422, "self_exclusion_too_short", "PP4")
    assert found["allowed"] == {"min_until": "2027-05-28"}
    assert not Restriction.objects.exists()
    answer = self_exclude(manager, "2027-05-28")
    assert answer.status_code == 201, answer.content
    assert refused_at(player) == "PP4"


def test_nobody_ends_a_self_exclusion(manager, second_manager, player):
    """PP4: not the manager who recorded it, not another: 422 self_exclusion_final."""
    restriction = self_exclude(manager, None).json()["id"]
    for client in (manager, second_manager):
        answer = api(client, "post", f"restrictions/{restriction}/end", {"reason": "r"})
        error(answer, 422, "self_exclusion_final", "PP4")
    # For good: it never lapses either.
    answer = api(manager, "post", f"restrictions/{restriction}/lapse", {"reason": "r"})
    error(answer, 422, "self_exclusion_final", "PP4")
    assert refused_at(player) == "PP4"


def test_a_self_exclusion_lapses_at_his_request_after_the_cooling_off(
    manager, staff_client, player, room_clock
):
    """PP4: its lapse can't be asked for while its period runs (422); after it,
    he is still kept out until he asks and the cooling-off time (24 hours) has
    passed; then the doors let him in."""
    until = date(2027, 6, 1)
    restriction = self_exclude(manager, until.isoformat()).json()["id"]
    url = f"restrictions/{restriction}/lapse"
    reason = {"reason": "The player asks to come back."}
    found = error(
        api(manager, "post", url, reason), 422, "self_exclusion_running", "PP4"
    )
    assert found["allowed"] == {"from": "2027-06-01"}
    # The first gaming day of until: the period is over, the exclusion isn't.
    asked = datetime(2027, 6, 1, 12, 0, tzinfo=HELSINKI)
    room_clock.move_to(asked)
    assert refused_at(player) == "PP4"
    # Half a year on, the evening's session has expired: the day's manager.
    manager = staff_client(Role.MANAGER, username="mika")
    answer = api(manager, "post", url, reason)
    assert answer.status_code == 200, answer.content
    shown = answer.json()
    assert shown["active"] is True and shown["end"]["kind"] == "lapse"
    lapses = datetime.fromisoformat(shown["end"]["effective"])
    assert (
        asked + timedelta(hours=24) <= lapses < asked + timedelta(hours=24, minutes=1)
    )
    error(api(manager, "post", url, reason), 409, "restriction_ended", "PP7")
    room_clock.move_to(lapses - timedelta(minutes=1))
    assert refused_at(player) == "PP4"
    room_clock.move_to(lapses + timedelta(minutes=1))
    assert refused_at(player) is None
    # The next day's manager sees him let in.
    manager = staff_client(Role.MANAGER, username="mikko")
    assert manager.get("/api/v1/players/P-1001").json()["restricted"] is False


def test_a_bar_has_no_lapse(manager, player):
    restriction = bar(manager).json()["id"]
    answer = api(manager, "post", f"restrictions/{restriction}/lapse", {"reason": "r"})
    error(answer, 422, "self_exclusion_final", "PP4")


# -- the settings (PP2, PP4) --------------------------------------------------


def test_the_settings_are_versioned_and_read_by_the_doors(
    manager, cashier, floor, player
):
    """Version 0 is the project's defaults; a manager records version 1, which
    the doors apply at once: a self-exclusion's minimum, the minimum age."""
    shown = floor.get("/api/v1/protection/settings").json()
    assert shown["version"] == 0 and shown["versions"] == []
    assert (shown["min_age"], shown["min_self_exclusion_days"]) == (18, 180)
    body = {
        "min_age": 21,
        "min_self_exclusion_days": 30,
        "cooling_off_hours": 48,
        "note": "The licence's new conditions.",
    }
    error(
        api(floor, "post", "protection/settings", body), 403, "permission_denied", None
    )
    answer = api(manager, "post", "protection/settings", body)
    assert answer.status_code == 201, answer.content
    assert answer.json()["version"] == 1 and answer.json()["created_by"] == "mia"
    shown = cashier.get("/api/v1/protection/settings").json()
    assert (shown["version"], shown["min_age"], shown["cooling_off_hours"]) == (
        1,
        21,
        48,
    )
    assert [v["version"] for v in shown["versions"]] == [1]
    assert ProtectionRules.objects.get().note == "The licence's new conditions."
    assert self_exclude(manager, "2026-12-29").status_code == 201
    young = cage.player_register(code="P-20", name="Ville", birth_date=date(2006, 1, 1))
    assert refused_at(young) == "PP2"


def test_settings_out_of_bounds_are_malformed(manager):
    body = {
        "min_age": 15,
        "min_self_exclusion_days": 0,
        "cooling_off_hours": 24,
        "note": "n",
    }
    answer = api(manager, "post", "protection/settings", body)
    assert answer.status_code == 400
    assert {"min_age", "min_self_exclusion_days"} <= set(
        answer.json()["error"]["fields"]
    )
    assert not ProtectionRules.objects.exists()


# -- the exclusion list (PP3, PP4) --------------------------------------------


def test_the_exclusion_list_names_who_is_kept_out_now(
    manager, second_manager, cashier, player
):
    """Every restriction in force, by name, JSON and CSV: not an ended bar, never
    a document number; the cage doesn't export it."""
    api(
        cashier,
        "post",
        "players/P-1001/documents",
        {"kind": "passport", "number": NUMBER},
    )
    cage.player_register(code="P-2", name="Bertta", birth_date=date(1980, 1, 2))
    cage.player_register(code="P-3", name="Cecilia", birth_date=date(1985, 3, 4))
    barred = bar(manager).json()["id"]
    excluded = self_exclude(manager, None, scope="cash").json()
    ended = bar(manager, code="P-3").json()["id"]
    api(second_manager, "post", f"restrictions/{ended}/end", {"reason": "r"})
    excluded_p2 = bar(
        manager, {"kind": "bar", "scope": "tournaments", "reason": "r"}, code="P-2"
    ).json()["id"]
    answer = manager.get("/api/v1/restrictions/exclusions")
    assert answer.status_code == 200
    rows = answer.json()
    assert [(r["name"], r["restriction"]) for r in rows] == [
        ("Aino Virtanen", excluded["id"]),
        ("Aino Virtanen", barred),
        ("Bertta", excluded_p2),
    ]
    assert rows[0] == {
        "restriction": excluded["id"],
        "player": "P-1001",
        "name": "Aino Virtanen",
        "birth_date": "1990-05-17",
        "scope": "cash",
        "starts": excluded["starts"],
        "until": None,
    }
    assert NUMBER not in answer.content.decode()
    csv = manager.get("/api/v1/restrictions/exclusions.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "Player,Name,Date of birth,Excluded from,Since,Until"
    assert len(lines) == 4
    assert lines[1].startswith("P-1001,Aino Virtanen,1990-05-17,cash games,")
    assert lines[1].endswith(",for good")
    assert "Cecilia" not in csv.content.decode() and NUMBER not in csv.content.decode()
    for url in (
        "/api/v1/restrictions/exclusions",
        "/api/v1/restrictions/exclusions.csv",
    ):
        error(cashier.get(url), 403, "permission_denied", None)
