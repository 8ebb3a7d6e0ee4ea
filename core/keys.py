"""API keys stored hashed: an abstract model and its manager, knowing nothing of DRF.

The same fields and columns as ``rest_framework_api_key``'s ``AbstractAPIKey``,
and the same scheme, so the keys it issued keep working: a key is
``<prefix>.<secret>``, the primary key ``<prefix>.<hash>``, and the hash
``sha512$$<hex digest of the key>`` (its ``Sha512ApiKeyHasher``). A key hashed by
one of Django's password hashers (the library before 2.0) is checked with
:func:`django.contrib.auth.hashers.check_password` and re-hashed once verified.
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar, Generic, TypeVar

from django.contrib.auth.hashers import check_password
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.crypto import constant_time_compare, get_random_string
from django.utils.translation import gettext_lazy as _

ALGORITHM = "sha512"
PREFIX_LENGTH, SECRET_LENGTH = 8, 32


def key_hash(key: str) -> str:
    """The stored hash of ``key``: ``sha512$$`` and its hex digest (no salt: a key
    is random and long)."""
    return f"{ALGORITHM}$${hashlib.sha512(key.encode()).hexdigest()}"


def key_matches(key: str, hashed: str) -> bool:
    """Whether ``key`` is the one ``hashed`` was made from, in constant time."""
    if hashed.startswith(f"{ALGORITHM}$$"):
        return constant_time_compare(key_hash(key), hashed)
    return check_password(key, hashed)


def key_generate() -> tuple[str, str, str]:
    """A new key: (the key in clear, its prefix, its hash)."""
    prefix, secret = get_random_string(PREFIX_LENGTH), get_random_string(SECRET_LENGTH)
    key = f"{prefix}.{secret}"
    return key, prefix, key_hash(key)


K = TypeVar("K", bound="AbstractKey")


class KeyManager(models.Manager[K], Generic[K]):
    """Issues keys (shown once) and finds the usable one a key names."""

    def assign_key(self, obj: K) -> str:
        """Give ``obj`` a new key; return it in clear (the admin's creation)."""
        key, prefix, hashed = key_generate()
        obj.id, obj.prefix, obj.hashed_key = f"{prefix}.{hashed}", prefix, hashed
        return key

    def create_key(self, **fields: Any) -> tuple[K, str]:
        """Create a key with ``fields``; return it and the key in clear."""
        fields.pop("id", None)
        obj = self.model(**fields)
        key = self.assign_key(obj)
        obj.save()
        return obj, key

    def get_usable_keys(self) -> models.QuerySet[K]:
        return self.filter(revoked=False)

    def get_from_key(self, key: str) -> K:
        """The usable key ``key``; ``DoesNotExist`` for one unknown, revoked or not
        matching its hash."""
        api_key = self.get_usable_keys().get(prefix=key.partition(".")[0])
        if not api_key.is_valid(key):
            raise self.model.DoesNotExist("Key is not valid.")
        return api_key


class AbstractKey(models.Model):
    """A hashed API key: shown once, revocable for good, perhaps expiring."""

    id = models.CharField(max_length=150, unique=True, primary_key=True, editable=False)
    prefix = models.CharField(max_length=8, unique=True, editable=False)
    hashed_key = models.CharField(max_length=150, editable=False)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    name = models.CharField(
        max_length=50,
        blank=False,
        default=None,
        help_text=_(
            "A free-form name for the API key. Need not be unique. 50 characters max."
        ),
    )
    revoked = models.BooleanField(
        blank=True,
        default=False,
        help_text=_(
            "If the API key is revoked, clients cannot use it anymore."
            " (This cannot be undone.)"
        ),
    )
    expiry_date = models.DateTimeField(
        blank=True,
        null=True,
        verbose_name=_("Expires"),
        help_text=_("Once API key expires, clients cannot use it anymore."),
    )

    objects: ClassVar[KeyManager[Any]] = KeyManager()

    class Meta:
        abstract = True
        ordering = ("-created",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initial_revoked = self.revoked

    def __str__(self) -> str:
        return str(self.name)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self._validate_revoked()
        super().save(*args, **kwargs)

    def _has_expired(self) -> bool:
        return self.expiry_date is not None and self.expiry_date < timezone.now()

    _has_expired.short_description = _("Has expired")  # type: ignore[attr-defined]
    _has_expired.boolean = True  # type: ignore[attr-defined]
    has_expired = property(_has_expired)

    def is_valid(self, key: str) -> bool:
        """Whether ``key`` is this one; an old password-hasher hash is replaced by
        the preferred one once it verifies."""
        valid = key_matches(key, self.hashed_key)
        if valid and not self.hashed_key.startswith(f"{ALGORITHM}$$"):
            self.hashed_key = key_hash(key)
            self.save()
        return valid

    def clean(self) -> None:
        self._validate_revoked()

    def _validate_revoked(self) -> None:
        if self._initial_revoked and not self.revoked:
            raise ValidationError(
                _("The API key has been revoked, which cannot be undone.")
            )
