"""The terminal's own addresses, without a browser: the page, the service worker
(its scope, what it keeps), the manifest and the catalogues (issue 37)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client(HTTP_HOST="127.0.0.1")


def test_the_page_is_one_for_every_table_and_language(client):
    """The page carries its configuration and loads its scripts as ES modules from
    unhashed static addresses (the ones the service worker keeps)."""
    answer = client.get("/terminal/?pair=7KQ4-M2XD")
    assert answer.status_code == 200
    html = answer.content.decode()
    config = json.loads(
        re.search(r'id="terminal-config"[^>]*>(.*?)</script>', html).group(1)
    )
    assert config["api"] == "/api/v1/"
    assert config["sw"] == "/terminal/sw.js"
    assert config["languages"] == ["en", "fi", "ko"]
    assert '<script type="module" src="/static/terminal/js/app/main.js">' in html
    assert answer["Cache-Control"] == "no-cache"


def test_the_service_worker_keeps_the_page_its_scripts_and_the_catalogues(client):
    """Served from /terminal/, so that its scope is the terminal's, as JavaScript,
    never cached by the browser; it lists every script, style and catalogue."""
    answer = client.get("/terminal/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/terminal/"
    assert answer["Cache-Control"] == "no-cache"
    body = answer.content.decode()
    urls = json.loads(re.search(r"const URLS = (\[.*?\]);", body).group(1))
    for url in (
        "/terminal/",
        "/terminal/manifest.webmanifest",
        "/terminal/i18n/en.js",
        "/terminal/i18n/fi.js",
        "/terminal/i18n/ko.js",
        "/static/terminal/js/app/main.js",
        "/static/terminal/js/rules/betting.js",
        "/static/terminal/js/rules/table.js",
        "/static/terminal/js/rules/settle.js",
        "/static/terminal/css/terminal.css",
        "/static/terminal/vendor/idb-8.0.4/index.js",
    ):
        assert url in urls
    static = Path(__file__).resolve().parents[2] / "terminal" / "static"
    for url in urls:
        if url.startswith("/static/"):
            assert (static / url.removeprefix("/static/")).is_file(), url
        else:
            assert client.get(url).status_code == 200, url
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', body)


def test_the_manifest_installs_the_terminal_full_screen(client):
    answer = client.get("/terminal/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["start_url"] == manifest["scope"] == "/terminal/"
    assert manifest["display"] == "fullscreen"


def test_a_catalogue_a_language(client):
    """Django's JavaScript catalogue of the djangojs domain, whatever language the
    browser asks in; another language is not found."""
    answer = client.get("/terminal/i18n/ko.js", HTTP_ACCEPT_LANGUAGE="fi")
    assert answer.status_code == 200
    assert answer["Content-Language"] == "ko"
    assert "django.gettext = function" in answer.content.decode()
    assert client.get("/terminal/i18n/de.js").status_code == 404
