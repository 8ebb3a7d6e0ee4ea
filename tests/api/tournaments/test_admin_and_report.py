"""The tournaments' admin pages by role, and the event's final report as files."""

from __future__ import annotations

import pytest
from django.test import Client

from core.roles import Role
from tests.integration.tournaments.conftest import make_event

pytestmark = pytest.mark.django_db


def _web(make_staff, name: str, role: Role) -> Client:
    c = Client()
    c.force_login(make_staff(name, role))
    return c


def test_managers_set_up_events_and_cashiers_only_look(room, structure, make_staff):
    event = make_event(room, structure)
    manager = _web(make_staff, "mia", Role.MANAGER)
    cashier = _web(make_staff, "kalle", Role.CASHIER)
    page = f"/admin/tournaments/event/{event.pk}/change/"
    assert manager.get("/admin/tournaments/event/").status_code == 200
    assert manager.get(page).status_code == 200
    assert cashier.get("/admin/tournaments/event/").status_code == 200
    answer = cashier.post(page, {"name": "renamed"})
    assert answer.status_code == 403
    event.refresh_from_db()
    assert event.name == "Sunday €100"
    for records in ("entry", "purchase", "chipmovement", "bust", "payoutsheet"):
        assert manager.get(f"/admin/tournaments/{records}/").status_code == 200
        assert manager.get(f"/admin/tournaments/{records}/add/").status_code == 403


def test_the_final_report_is_a_file_for_auditors(room, structure, staff_client):
    make_event(room, structure)
    auditor = staff_client(Role.AUDITOR, username="aud")
    cashier = staff_client(Role.CASHIER, username="kalle")
    for fmt, kind in [("csv", "text/csv"), ("xlsx", "spreadsheet"), ("pdf", "pdf")]:
        answer = auditor.get(f"/api/v1/reports/tournaments/sunday-100/{fmt}")
        assert answer.status_code == 200, answer.content
        assert kind in answer["Content-Type"]
        assert answer.content
    assert (
        b"prize_pool"
        in auditor.get("/api/v1/reports/tournaments/sunday-100/csv").content
    )
    assert auditor.get("/api/v1/reports/tournaments/sunday-100/doc").status_code == 404
    assert cashier.get("/api/v1/reports/tournaments/sunday-100/csv").status_code == 403
