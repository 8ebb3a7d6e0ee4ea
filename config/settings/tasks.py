"""Celery: the real broker when CELERY_BROKER_URL is set, else kombu's filesystem
one."""

from __future__ import annotations

from .environment import DATA_DIR, env
from .room import TIME_ZONE

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or "filesystem://"
# Tasks are acknowledged when done (CELERY_TASK_ACKS_LATE): Redis hands a task whose
# worker died out again after this many seconds. The filesystem transport can't (a
# message is gone once delivered); there the hourly schedules catch up.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)
}
if CELERY_BROKER_URL == "filesystem://":
    # Kombu's filesystem transport, writing each message aside and renaming it into
    # place, so that no worker reads a half-written one (core/broker.py).
    CELERY_BROKER_TRANSPORT = "core.broker:Transport"
    broker_dir = DATA_DIR / "broker"
    # Worker, beat and web share these folders; they must exist before any starts.
    for folder in ("queue", "processed", "control"):
        (broker_dir / folder).mkdir(parents=True, exist_ok=True)
    # kombu sleeps this long whenever a poll finds the worker nothing to take; its
    # default (1 s) held the worker to about 2 tasks a second (benchmarks/broker.py).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "polling_interval": env.float("CELERY_BROKER_POLLING_INTERVAL", default=0.02),
        "data_folder_in": str(broker_dir / "queue"),
        "data_folder_out": str(broker_dir / "queue"),
        "processed_folder": str(broker_dir / "processed"),
        "control_folder": str(broker_dir / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
