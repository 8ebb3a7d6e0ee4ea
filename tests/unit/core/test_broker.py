"""The embedded broker shows a message only once it is whole (core/broker.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from kombu import Connection

from core import broker

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def channel(tmp_path: Path):
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "processed_folder": str(tmp_path),
        "store_processed": False,
    }
    with Connection(
        "filesystem://", transport="core.broker:Transport", transport_options=options
    ) as connection:
        yield connection.default_channel


def test_the_embedded_broker_uses_this_transport(tmp_path: Path) -> None:
    """Without CELERY_BROKER_URL the settings give the Celery app this transport."""
    script = (
        "import django; django.setup()\n"
        "from config.celery import app\n"
        "transport = type(app.connection_for_write().transport)\n"
        "print(transport.__module__, transport.__name__)\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CELERY_BROKER_URL", "DATABASE_URL")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings", CARDROOM_DATA_DIR=str(tmp_path)
    )
    shown = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert shown == ["core.broker", "Transport"]


def test_a_message_being_written_is_not_taken_and_is_taken_whole_after(
    channel, monkeypatch
) -> None:
    seen: dict[str, Any] = {}
    replace = os.replace

    def at_rename(source: str, target: str) -> None:
        # The file is written in full but not renamed: a reader finds nothing.
        seen["size"] = channel._size("celery")
        with pytest.raises(Empty):
            channel._get("celery")
        seen["written"] = Path(source).read_bytes()
        replace(source, target)

    monkeypatch.setattr(broker.os, "replace", at_rename)
    payload = {"body": "x" * 100_000, "headers": {"task": "t"}}
    channel._put("celery", payload)

    assert seen["size"] == 0
    assert b'"body"' in seen["written"]
    assert channel._size("celery") == 1
    assert channel._get("celery") == payload
    assert os.listdir(channel.data_folder_in) == []


def test_messages_come_out_in_the_order_they_went_in(channel) -> None:
    for number in range(5):
        channel._put("celery", {"n": number})
    assert [channel._get("celery")["n"] for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(Empty):
        channel._get("celery")


def test_a_failed_write_leaves_no_file(channel, monkeypatch) -> None:
    from kombu.exceptions import ChannelError

    def refuse(source: str, target: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(broker.os, "replace", refuse)
    with pytest.raises(ChannelError):
        channel._put("celery", {"n": 1})
    assert os.listdir(channel.data_folder_in) == []
