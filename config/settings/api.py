"""The REST API: DRF, tokens, terminal keys, the OpenAPI schema."""

from __future__ import annotations

from datetime import timedelta

from .environment import env

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
