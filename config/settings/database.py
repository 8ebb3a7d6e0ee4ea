"""The database: the real server when DATABASE_URL is set, else the embedded one."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from .environment import DATA_DIR, env

# Database: the real server when DATABASE_URL is set, else the embedded one. The app
# connects as a least-privilege role; ``migrate`` as the tables' owner, the ``OWNER``
# entry (core.db.roles): DATABASE_OWNER_URL, given only to the process that migrates.
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db("DATABASE_URL")}
    # Django's backend with a health check that costs no round trip
    # (core/db/postgresql).
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "core.db.postgresql"
    if env.str("DATABASE_OWNER_URL", default=""):
        owner = env.db("DATABASE_OWNER_URL")
        if owner["NAME"] != DATABASES["default"]["NAME"]:
            raise ImproperlyConfigured(
                "DATABASE_OWNER_URL must name the database of DATABASE_URL."
            )
        DATABASES["default"]["OWNER"] = {
            k: owner[k] for k in ("USER", "PASSWORD", "HOST", "PORT") if k in owner
        }
else:
    # Roles named after the database, made by the embedded server (core.db.roles).
    DATABASES = {
        "default": {
            "ENGINE": "core.db.embedded",
            "NAME": "cardroom",
            "EMBEDDED_DATABASE": "cardroom",
            "USER": "cardroom_app",
            "OWNER": {"USER": "cardroom_owner"},
            "DATA_DIR": str(DATA_DIR / "postgres"),
        }
    }
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# core.db.rows (a hand's booking, a terminal's key) prepares a statement once it has
# run this many times on a connection; the ORM's statements are never prepared.
# Behind a pooler in transaction mode that can't keep prepared statements
# (PgBouncer before 1.21), set it empty: never prepare.
prepare = env.str("DATABASE_PREPARE_THRESHOLD", default="5")
DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
    "prepare_threshold", int(prepare) if prepare else None
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
