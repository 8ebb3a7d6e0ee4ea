from django.contrib import admin
from rest_framework_api_key.admin import APIKeyModelAdmin

from cardroom.models import Table, TerminalKey


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "seats", "created_at"]
    search_fields = ["code", "name"]


@admin.register(TerminalKey)
class TerminalKeyAdmin(APIKeyModelAdmin):
    """Managers create keys here (shown once) and revoke them."""

    list_display = [*APIKeyModelAdmin.list_display, "table"]
    list_filter = [*APIKeyModelAdmin.list_filter, "table"]
    autocomplete_fields = ["table"]
