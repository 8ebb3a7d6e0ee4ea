"""Where the project lives and what the environment says: read first by every other
settings module."""

from __future__ import annotations

import secrets
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parents[2]
DATA_DIR = Path(environ.Env().str("CARDROOM_DATA_DIR", default=str(BASE_DIR / ".data")))

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)


def local_secret_key() -> str:
    """Return a key kept in the data folder, for a checkout run without SECRET_KEY."""
    path = DATA_DIR / "secret_key"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(64))
        path.chmod(0o600)
    return path.read_text().strip()
