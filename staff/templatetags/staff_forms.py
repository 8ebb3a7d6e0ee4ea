"""The hidden key of a money form rendered in a list (staff.common.once)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from staff.common.once import FIELD, form_key

register = template.Library()


@register.simple_tag
def once_field() -> SafeString:
    """A hidden field with a fresh key: one per rendering of the form."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, form_key())
