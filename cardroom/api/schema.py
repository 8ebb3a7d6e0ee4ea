"""OpenAPI description of the terminal key scheme (loaded by the app config)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class TerminalKeyScheme(OpenApiAuthenticationExtension):
    target_class = "cardroom.auth.TerminalKeyAuthentication"
    name = "TerminalKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Api-Key <key>`: the key of one table's terminal.",
        }
