"""The jackpots in the admin: pools with their amounts, categories, hits, months,
promotions.

Pools are started and changed through the services (their ledger accounts, the
history of changes). Hits and months are records: the floor verifies and managers
approve them on the manager's screens (staff/manager/) or through the API, never
here: the admin shows them, read-only. So are the promotions (PR1–PR5): their
versions are published through the API, append-only, and their prizes decided on
the manager's screens or through the API; the admin shows the configuration and
the records, and does no night's work.
Access follows the staff roles (Django groups), as in the cage's admin.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounting.admin import ReadOnlyAdmin, RoleAdmin
from core.api.permissions import staff
from core.money_admin import money_text
from core.roles import Role
from jackpots import services
from jackpots.models import (
    Award,
    Category,
    CategoryVersion,
    Hit,
    Month,
    MonthHand,
    Pool,
    Promotion,
    PromotionPrize,
    PromotionVersion,
    Transfer,
)

READERS = (Role.FLOOR, Role.MANAGER, Role.AUDITOR)
EDITABLE = [
    "name",
    "drop_ratio",
    "reserve_percent",
    "games",
    "payout_percent",
    "month_close_day",
    "month_close_hour",
    "active",
]


@admin.register(Pool)
class PoolAdmin(RoleAdmin):
    readers = READERS
    editors = (Role.MANAGER,)
    list_display = ["name", "room", "code", "kind", "amount", "reserve", "active"]
    list_filter = ["room", "kind", "active"]
    readonly_fields = ["amount", "reserve", "seed_cents", "created_at", "created_by"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        identity = ["room", "code", "kind", "starts_on"]
        return [*identity, *EDITABLE, *self.readonly_fields]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fixed = list(self.readonly_fields)
        # The database keeps a pool's room, code and kind (and its accounts) fixed.
        return [*fixed, "room", "code", "kind", "starts_on"] if obj else fixed

    def get_queryset(self, request: HttpRequest) -> QuerySet[Pool]:
        return (
            super().get_queryset(request).select_related("account", "reserve_account")
        )

    @admin.display(description=_("amount"))
    def amount(self, pool: Pool) -> str:
        if not pool.pk:
            return "—"
        return money_text(pool.account.balance_cents, pool.account.currency)

    @admin.display(description=_("reserve"))
    def reserve(self, pool: Pool) -> str:
        if not pool.pk:
            return "—"
        return money_text(pool.reserve_account.balance_cents, pool.account.currency)

    def save_model(
        self, request: HttpRequest, obj: Pool, form: Any, change: bool
    ) -> None:
        if change:
            services.pool_update(
                pool=obj,
                by=staff(request),
                **{f: getattr(obj, f) for f in form.changed_data if f in EDITABLE},
            )
            return
        created = services.pool_create(
            room=obj.room,
            code=obj.code,
            name=obj.name,
            kind=obj.kind,
            by=staff(request),
            starts_on=obj.starts_on,
            **{f: getattr(obj, f) for f in EDITABLE if f not in ("name", "active")},
        )
        obj.pk = created.pk


class VersionInline(admin.TabularInline):
    model = CategoryVersion
    extra = 0
    can_delete = False
    ordering = ["-version"]
    fields = [
        "version",
        "active",
        "pool_code",
        "games",
        "min_losing_hand",
        "card_use",
        "min_participants",
        "min_pot_cents",
        "payout_percent",
        "loser_part",
        "winner_part",
        "table_part",
        "note",
        "created_at",
        "created_by",
    ]
    readonly_fields = fields  # type: ignore[assignment]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Category)
class CategoryAdmin(ReadOnlyAdmin):
    """Versions are published through the API (manager): append-only (BB2)."""

    readers = READERS
    list_display = ["code", "name"]
    inlines = [VersionInline]


class AwardInline(admin.TabularInline):
    model = Award
    extra = 0
    can_delete = False
    fields = [
        "seat",
        "player",
        "role",
        "part",
        "sharing",
        "amount",
        "status",
        "payable",
    ]
    readonly_fields = fields  # type: ignore[assignment]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("amount"))
    def amount(self, award: Award) -> str:
        return money_text(award.amount_cents, award.pool.account.currency)


@admin.register(Hit)
class HitAdmin(ReadOnlyAdmin):
    readers = READERS
    list_display = [
        "id",
        "hand",
        "category",
        "status",
        "pool_amount",
        "payout",
        "verified_by",
        "approved_by",
    ]
    list_filter = ["status", "category", "pool"]
    list_select_related = ["hand__table", "category", "pool__account"]
    inlines = [AwardInline]

    @admin.display(description=_("pool at the hand"))
    def pool_amount(self, hit: Hit) -> str:
        return money_text(hit.pool_cents, hit.pool.account.currency)

    @admin.display(description=_("pays"))
    def payout(self, hit: Hit) -> str:
        return money_text(hit.payout_cents, hit.pool.account.currency)


@admin.register(Month)
class MonthAdmin(ReadOnlyAdmin):
    readers = READERS
    list_display = ["pool", "month", "status", "best_hand", "payout", "approved_by"]
    list_filter = ["status", "pool"]
    list_select_related = ["pool__account", "approved_by"]
    inlines = [AwardInline]

    @admin.display(description=_("pays"))
    def payout(self, month: Month) -> str:
        return money_text(month.payout_cents, month.pool.account.currency)


@admin.register(Award)
class AwardAdmin(ReadOnlyAdmin):
    readers = (*READERS, Role.CASHIER)
    list_display = ["id", "pool", "player", "role", "amount", "status", "payable"]
    list_filter = ["status", "role", "pool"]
    search_fields = ["player__code"]
    list_select_related = ["pool__account", "player", "payable"]

    @admin.display(description=_("amount"))
    def amount(self, award: Award) -> str:
        return money_text(award.amount_cents, award.pool.account.currency)


@admin.register(MonthHand)
class MonthHandAdmin(ReadOnlyAdmin):
    """The hand-of-the-month standings: best hand first (HM4)."""

    readers = READERS
    list_display = ["month", "pool", "description", "player", "hand", "ended_at"]
    list_filter = ["pool", "month"]
    ordering = ["-month", "-key", "ended_at"]
    list_select_related = ["pool", "player", "hand__table"]


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    """Money moved between pools with the manager's reason (JD5): through the API."""

    readers = READERS
    list_display = [
        "decided_at",
        "room",
        "source",
        "target",
        "amount",
        "reserve",
        "retired",
        "decided_by",
    ]
    list_filter = ["room", "retired"]
    list_select_related = ["room", "source", "target", "decided_by"]
    readonly_fields = ["amount", "reserve"]

    @admin.display(description=_("to the pool"), ordering="amount_cents")
    def amount(self, transfer: Transfer) -> str:
        return money_text(transfer.amount_cents, transfer.target.room.currency)

    @admin.display(description=_("to the reserve"), ordering="reserve_cents")
    def reserve(self, transfer: Transfer) -> str:
        return money_text(transfer.reserve_cents, transfer.target.room.currency)


# -- Promotions (PR1-PR6): configuration and records, read-only ---------------------


def _json(value: Any) -> SafeString:
    """A JSON value as the admin shows it: indented, escaped."""
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


class PromotionVersionInline(admin.TabularInline):
    model = PromotionVersion
    extra = 0
    can_delete = False
    ordering = ["-version"]
    fields = ["version", "active", "rules_text", "note", "created_at", "created_by"]
    readonly_fields = fields  # type: ignore[assignment]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("rules"))
    def rules_text(self, version: PromotionVersion) -> SafeString:
        return _json(version.rules)


def _latest(promotion: Promotion) -> PromotionVersion | None:
    return max(promotion.versions.all(), key=lambda v: v.version, default=None)


@admin.register(Promotion)
class PromotionAdmin(ReadOnlyAdmin):
    """A promotion, its pool's amount and its versions: started, changed and ended
    through the API (manager), never here (PR1)."""

    readers = READERS
    list_display = ["name", "room", "code", "kind", "amount", "in_force", "created_at"]
    list_filter = ["room", "kind"]
    search_fields = ["code", "name"]
    list_select_related = ["room", "pool__account"]
    readonly_fields = ["amount"]
    inlines = [PromotionVersionInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Promotion]:
        return super().get_queryset(request).prefetch_related("versions")

    @admin.display(description=_("amount"))
    def amount(self, promotion: Promotion) -> str:
        account = promotion.pool.account
        return money_text(account.balance_cents, account.currency)

    @admin.display(description=_("active"), boolean=True)
    def in_force(self, promotion: Promotion) -> bool:
        latest = _latest(promotion)
        return latest is not None and latest.active


@admin.register(PromotionVersion)
class PromotionVersionAdmin(ReadOnlyAdmin):
    """The versions of the promotions' rules, append-only (PR1)."""

    readers = READERS
    list_display = ["promotion", "version", "active", "created_at", "created_by"]
    list_filter = ["promotion", "active"]
    list_select_related = ["promotion", "created_by"]
    readonly_fields = ["rules_text"]

    @admin.display(description=_("rules"))
    def rules_text(self, version: PromotionVersion) -> SafeString:
        return _json(version.rules)


class PrizeAwardInline(AwardInline):
    fk_name = "prize"


@admin.register(PromotionPrize)
class PromotionPrizeAdmin(ReadOnlyAdmin):
    """The prizes found and who decided them (PR5): decided on the manager's
    screens or through the API, never here."""

    readers = READERS
    list_display = [
        "id",
        "promotion",
        "kind",
        "status",
        "period_start",
        "hand",
        "total",
        "verified_by",
        "approved_by",
    ]
    list_filter = ["status", "kind", "promotion"]
    list_select_related = [
        "promotion__pool__account",
        "hand__table",
        "verified_by",
        "approved_by",
    ]
    readonly_fields = ["total", "hands_text"]
    inlines = [PrizeAwardInline]

    @admin.display(description=_("pays"))
    def total(self, prize: PromotionPrize) -> str:
        currency = prize.promotion.pool.account.currency
        return money_text(prize.house_cents + prize.pool_cents, currency)

    @admin.display(description=_("hands"))
    def hands_text(self, prize: PromotionPrize) -> SafeString:
        return _json(prize.details)
