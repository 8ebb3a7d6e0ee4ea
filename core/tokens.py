"""A password change or reset ends the user's API tokens (knox).

Whoever changes the password (the user, a manager in the admin, ``manage.py
changepassword``, a reset), every ``Bearer`` token issued before stops working:
a token is a session, and a changed password means the old sessions may be
someone else's. Django already ends the other admin sessions (their auth hash
changes); this does the same for tokens, in the same database transaction as the
save.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction


def note_password_change(sender: type[User], instance: User, **kwargs: Any) -> None:
    """Remember, before a save, whether it changes the stored password hash."""
    fields = kwargs.get("update_fields")
    if instance.pk is None or (fields is not None and "password" not in fields):
        instance._password_changed = False  # type: ignore[attr-defined]
        return
    stored = (
        User.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    )
    instance._password_changed = (  # type: ignore[attr-defined]
        stored is not None and stored != instance.password
    )


def end_tokens_after_password_change(
    sender: type[User], instance: User, **kwargs: Any
) -> None:
    """Delete the user's knox tokens once a save changed his password."""
    if getattr(instance, "_password_changed", False):
        from knox.models import AuthToken

        with transaction.atomic():
            AuthToken.objects.filter(user=instance).delete()
        instance._password_changed = False  # type: ignore[attr-defined]
