"""Django itself: the apps, the middleware, URLs, templates, languages, static files."""

from __future__ import annotations

from .environment import BASE_DIR, DEBUG, env

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
    "terminal",
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
    "accounting.middleware.RefusalLogMiddleware",
    # Last, so it sees the lockout flag set while authenticating.
    "axes.middleware.AxesMiddleware",
    # A database connection lost before the commit: a read runs once more, any
    # other request is answered 503 with Retry-After (its exception reaches this
    # one first).
    "core.connection_lost.ConnectionLostMiddleware",
]

ROOT_URLCONF = "config.urls"
# Staff sign in on the staff screens' page and land on their role's home page
# (staff.common.landing).
LOGIN_URL = "staff:login"
LOGIN_REDIRECT_URL = "staff:home"
WSGI_APPLICATION = "config.wsgi.application"

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
