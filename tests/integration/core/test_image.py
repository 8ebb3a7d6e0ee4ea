"""The production image as the Dockerfile builds it, without Docker.

Exactly the files the Dockerfile's ``COPY`` lines name are copied into a temporary
folder, and ``manage.py`` runs there with the environment the image runs with
(``DEBUG`` off, a ``SECRET_KEY``, ``ALLOWED_HOSTS``): ``check --deploy`` and the
migrations against the test database. The checkout's own packages are hidden from
it (the virtualenv's editable install would otherwise find them), so a package the
settings name and the Dockerfile leaves out fails here as it fails in the image.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.processes import database_url

ROOT = Path(__file__).resolve().parents[3]

# Run manage.py with the checkout's editable install switched off: only the
# folder's own packages are importable, as in the image.
RUN = """
import runpy, sys
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path_hooks[:] = [h for h in sys.path_hooks
                     if not getattr(h, "__module__", "").startswith("__editable__")]
sys.path_importer_cache.clear()
sys.path[:] = [p for p in sys.path if p not in ("", %(root)r)]
sys.path.insert(0, ".")
sys.argv = ["manage.py", *sys.argv[1:]]
runpy.run_path("manage.py", run_name="__main__")
"""


def copied(dockerfile: Path) -> list[tuple[str, str]]:
    """The (source, destination) pairs of the Dockerfile's COPY lines, its
    continuation lines joined; flags (``--chown=…``) are not sources."""
    text = dockerfile.read_text().replace("\\\n", " ")
    pairs = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0].upper() != "COPY":
            continue
        args = [w for w in words[1:] if not w.startswith("--")]
        *sources, destination = args
        pairs.extend((source, destination) for source in sources)
    return pairs


def build(into: Path) -> None:
    """Copy what the Dockerfile copies, from the checkout into ``into`` (the
    image's WORKDIR)."""
    for source, destination in copied(ROOT / "Dockerfile"):
        origin = ROOT / source
        if destination.endswith("/"):
            target = into / destination / origin.name
        else:
            target = into / destination
        target.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(
                origin, target, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(origin, target)


def test_the_dockerfiles_copy_lines_are_read():
    pairs = copied(ROOT / "Dockerfile")
    assert ("manage.py", "./") in pairs and ("cardroom", "cardroom") in pairs
    assert ("config", "config") in pairs


@pytest.mark.django_db
def test_the_image_checks_for_deployment_and_migrates(tmp_path):
    """Every app of INSTALLED_APPS is importable from what the image copies,
    ``check --deploy`` finds nothing, and every migration is known and applied."""
    app = tmp_path / "app"
    build(app)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "cardroom.example",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": os.environ.get(
            "CELERY_BROKER_URL", "redis://127.0.0.1:6379/0"
        ),
        "CARDROOM_DATA_DIR": str(tmp_path / "data"),
    }

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", RUN % {"root": str(ROOT)}, *args],
            cwd=app,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout + done.stderr

    # The folder's packages, not the checkout's.
    ours = [a for a in settings.INSTALLED_APPS if (ROOT / a / "apps.py").exists()]
    where = manage(
        "shell",
        "-c",
        "import importlib\n"
        f"for name in {ours!r}: print(importlib.import_module(name).__file__)",
    )
    found = [line for line in where.splitlines() if line.endswith("__init__.py")]
    assert len(found) == len(ours) > 5, where
    assert all(line.startswith(f"{app}/") for line in found), where
    checked = manage("check", "--deploy", "--fail-level", "WARNING")
    assert "System check identified no issues" in checked
    shown = manage("showmigrations", "--list")
    for label in settings.INSTALLED_APPS:
        name = label.rsplit(".", 1)[-1]
        if (ROOT / name / "migrations").is_dir():
            assert f"\n{name}\n" in f"\n{shown}", (name, shown)
    assert "[ ]" not in shown, shown
    plan = manage("migrate", "--plan")
    assert "No planned migration operations." in plan, plan
