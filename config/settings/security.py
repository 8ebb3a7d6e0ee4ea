"""Security: the secret key, hosts, passwords, login lockout, HTTPS, body size."""

from __future__ import annotations

from datetime import timedelta

from .environment import DEBUG, env, local_secret_key

SECRET_KEY = env.str("SECRET_KEY", default="") or local_secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

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

# HTTPS hardening: on unless DEBUG; behind a proxy that terminates TLS.
secure = env.bool("SECURE", default=not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = secure
SESSION_COOKIE_SECURE = secure
CSRF_COOKIE_SECURE = secure
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if secure else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = secure
SECURE_HSTS_PRELOAD = secure
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# The largest request body read, in bytes: a hand record is a few kilobytes. A
# larger body is answered 400 request_too_large (core.api.parsers).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_BODY_BYTES", default=262_144)
