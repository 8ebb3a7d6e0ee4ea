"""Health check, schema and docs, deploy check, management commands."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from cardroom.models import TerminalKey

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.mark.broker
def test_healthz_reports_database_and_broker(api):
    """/healthz answers 200 when the database and the broker answer."""
    answer = api.get("/healthz")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"status": "ok", "database": "ok", "broker": "ok"}


def test_healthz_reports_a_dead_broker(api, settings):
    """A broker that doesn't answer makes /healthz 503."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    answer = api.get("/healthz")
    assert answer.status_code == 503
    assert answer.json()["broker"] == "down"


def test_schema_and_docs_are_served_offline(api):
    """The OpenAPI schema and its docs page load, with the docs' assets local."""
    schema = api.get("/api/schema/?format=json")
    assert schema.status_code == 200
    spec = schema.json()
    assert "/api/v1/auth/login" in spec["paths"]
    assert "TerminalKey" in spec["components"]["securitySchemes"]
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn" not in html.lower()


def test_check_deploy_is_clean_with_production_settings():
    """`manage.py check --deploy` finds nothing with production settings."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "cardroom.example",
        "DATABASE_URL": os.environ.get(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:1/unused"
        ),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_create_staff_gives_the_role():
    """create_staff makes a staff account in the role's group."""
    call_command(
        "create_staff",
        "mika",
        "--role",
        "cashier",
        "--password",
        "Kassa-2026-yo",
        stdout=StringIO(),
    )
    user = User.objects.get(username="mika")
    assert user.is_staff and user.check_password("Kassa-2026-yo")
    assert list(user.groups.values_list("name", flat=True)) == ["cashier"]


def test_terminal_key_command_prints_a_working_key(table):
    """terminal_key prints a key, once, that authenticates for that table."""
    out = StringIO()
    call_command("terminal_key", "T01", stdout=out)
    key = out.getvalue().strip()
    assert TerminalKey.objects.get_from_key(key).table == table
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key}")
    assert client.get("/api/v1/tables/T01").status_code == 200


def test_demo_room_prints_logins_that_work():
    """demo_room prints a login per role that opens the API."""
    out = StringIO()
    call_command("demo_room", stdout=out)
    lines = [line.split() for line in out.getvalue().splitlines()]
    logins = {parts[0]: parts[1:] for parts in lines if len(parts) == 3}
    assert set(logins) == {"cashier", "floor", "manager", "auditor"}
    username, password = logins["floor"]
    answer = APIClient().post(
        "/api/v1/auth/login",
        {"username": username, "password": password},
        format="json",
    )
    assert answer.status_code == 200


def test_app_dependencies_point_one_way():
    """accounting knows no other app; domain/ imports no Django (lint-imports)."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
