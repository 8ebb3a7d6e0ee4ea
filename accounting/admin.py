"""The admin for cashiers, managers and auditors.

The ledger is read-only here: nothing in the admin adds, changes or deletes a posted
transaction or entry, or any cage record (shifts, receipts, slips, counts, awards);
those move only through the services, which post to the ledger. Managers keep the
cages' settings and, with cashiers, the players. Access follows the staff roles
(Django groups), not per-model permissions.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounting.models import (
    Account,
    AwardDecision,
    BoxCount,
    Cage,
    CashTransaction,
    DocumentLookup,
    DoorRefusal,
    Entry,
    IdentityDocument,
    Payable,
    Player,
    PlayerChange,
    ProtectionRules,
    Receipt,
    Restriction,
    RestrictionEnd,
    Shift,
    TableSlip,
    Transaction,
)
from accounting.selectors import drawer_running_balance, shift_report
from core.api.permissions import staff
from core.money_admin import money_column, money_text
from core.roles import Role, has_role

READERS = (Role.CASHIER, Role.MANAGER, Role.AUDITOR)


def _money(cents: int | None, currency: str) -> str:
    return money_text(cents, currency)


class RoleAdmin(admin.ModelAdmin):
    """Seen by the roles in ``readers``; changed by those in ``editors``."""

    readers: tuple[Role, ...] = READERS
    editors: tuple[Role, ...] = ()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return has_role(request.user, *self.readers)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return has_role(request.user, *self.readers, *self.editors)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(self.editors) and has_role(request.user, *self.editors)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(self.editors) and has_role(request.user, *self.editors)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(RoleAdmin):
    """Records that only services write (DC2): look, never touch."""

    editors = ()

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields] + list(self.readonly_fields)


# --- The ledger -----------------------------------------------------------------------


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["code", "name", "type", "currency", "balance", "non_negative"]
    list_filter = ["type", "currency", "non_negative"]
    search_fields = ["code", "name"]
    readonly_fields = ["balance"]

    @admin.display(description=_("balance"), ordering="balance_cents")
    def balance(self, account: Account) -> str:
        return _money(account.balance_cents, account.currency)


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ["account", "amount_cents", "currency"]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return has_role(request.user, *READERS)


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "posted_at",
        "kind",
        "reference",
        "posted_by",
        "approved_by",
        "source",
        "reverses",
    ]
    list_filter = ["kind", ("posted_at", admin.DateFieldListFilter)]
    date_hierarchy = "posted_at"
    search_fields = ["reference", "memo", "external_id"]
    list_select_related = ["posted_by", "approved_by"]
    inlines = [EntryInline]


# --- The cage -------------------------------------------------------------------------


@admin.register(Player)
class PlayerAdmin(RoleAdmin):
    """Players are registered here; what identifies them changes only through
    the protection screen or the API, each change with who, when and why (PP7),
    and a document's number is shown only by its recorded look-up (PP7)."""

    editors = (Role.MANAGER, Role.CASHIER)
    readers = (Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)
    list_display = [
        "code",
        "name",
        "nickname",
        "birth_date",
        "id_verified",
        "registered_at",
    ]
    list_filter = ["id_verified"]
    search_fields = ["code", "name", "nickname"]
    fields = [
        "code",
        "name",
        "nickname",
        "birth_date",
        "id_verified",
        "id_document_type",
        "id_verified_at",
        "id_verified_by",
        "registered_at",
        "registered_by",
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        checked = [
            "id_verified",
            "id_document_type",
            "id_verified_at",
            "id_verified_by",
        ]
        fixed = [*checked, "registered_at", "registered_by"]
        if obj is None:
            return fixed
        # PP7: corrections are records with a reason (the player's page).
        return [*fixed, "code", "name", "nickname", "birth_date"]

    def save_model(
        self, request: HttpRequest, obj: Player, form: Any, change: bool
    ) -> None:
        if not change:
            obj.registered_by = staff(request)
        super().save_model(request, obj, form, change)


class ProtectionAdmin(ReadOnlyAdmin):
    """Player protection's records (PP1-PP7): read by managers and auditors."""

    readers = (Role.MANAGER, Role.AUDITOR)


@admin.register(Restriction)
class RestrictionAdmin(ProtectionAdmin):
    list_display = ["id", "player", "kind", "scope", "starts", "until", "set_by"]
    list_filter = ["kind", "scope"]
    search_fields = ["player__code", "player__name"]
    list_select_related = ["player", "set_by"]


@admin.register(RestrictionEnd)
class RestrictionEndAdmin(ProtectionAdmin):
    list_display = ["restriction", "kind", "at", "effective", "by"]
    list_select_related = ["restriction", "by"]


@admin.register(IdentityDocument)
class IdentityDocumentAdmin(ProtectionAdmin):
    # The number only through its recorded look-up (PP7).
    fields = ("player", "kind", "expires", "checked_at", "checked_by")
    list_display = ["player", "kind", "expires", "checked_at", "checked_by"]
    search_fields = ["player__code"]
    list_select_related = ["player", "checked_by"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return ["player", "kind", "expires", "checked_at", "checked_by"]


@admin.register(DocumentLookup)
class DocumentLookupAdmin(ProtectionAdmin):
    list_display = ["at", "by", "document", "purpose"]
    list_select_related = ["by", "document"]


@admin.register(PlayerChange)
class PlayerChangeAdmin(ProtectionAdmin):
    list_display = ["at", "player", "field", "old", "new", "by", "reason"]
    search_fields = ["player__code"]
    list_select_related = ["player", "by"]


@admin.register(ProtectionRules)
class ProtectionRulesAdmin(ProtectionAdmin):
    list_display = [
        "version",
        "min_age",
        "min_self_exclusion_days",
        "cooling_off_hours",
        "created_at",
        "created_by",
    ]


@admin.register(AwardDecision)
class AwardDecisionAdmin(ProtectionAdmin):
    list_display = ["payable", "decision", "held_by", "at", "by", "booking"]
    list_select_related = ["payable", "by"]


@admin.register(DoorRefusal)
class DoorRefusalAdmin(ProtectionAdmin):
    list_display = ["at", "gaming_day", "player", "door", "rule", "code"]
    list_filter = ["gaming_day", "rule", "door"]
    list_select_related = ["player"]


@admin.register(Cage)
class CageAdmin(RoleAdmin):
    editors = (Role.MANAGER,)
    list_display = [
        "code",
        "name",
        "currency",
        "next_receipt_no",
        "over_short_signoff",
        "identity_threshold",
    ]
    readonly_fields = ["next_receipt_no", "created_at"]
    over_short_signoff = money_column(
        "over_short_signoff_cents", _("over/short needing sign-off")
    )
    identity_threshold = money_column(
        "identity_threshold_cents", _("identity threshold")
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fixed = list(self.readonly_fields)
        return [*fixed, "code", "currency"] if obj is not None else fixed

    def save_model(
        self, request: HttpRequest, obj: Cage, form: Any, change: bool
    ) -> None:
        if change:
            # Only what the form changed: the receipt counter moves with receipts,
            # and the database refuses any other change of it (CA2).
            if form.changed_data:
                obj.save(update_fields=form.changed_data)
            return
        super().save_model(request, obj, form, change)


class ReceiptInline(admin.TabularInline):
    model = Receipt
    fields = ["printable", "kind", "player", "amount", "issued_at"]
    readonly_fields = fields  # type: ignore[assignment]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return has_role(request.user, *READERS)

    @admin.display(description=_("receipt"))
    def printable(self, receipt: Receipt) -> SafeString:
        return _receipt_link(receipt)

    @admin.display(description=_("amount"))
    def amount(self, receipt: Receipt) -> str:
        return _money(receipt.amount_cents, receipt.cage.currency)


def _receipt_link(receipt: Receipt) -> SafeString:
    url = reverse("admin:accounting_receipt_print", args=[receipt.pk])
    return format_html('<a href="{}" target="_blank">{}</a>', url, receipt.no)


@admin.register(Shift)
class ShiftAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "cage",
        "cashier",
        "status",
        "gaming_day",
        "opened_at",
        "closed_at",
        "needs_sign_off",
        "signed_off_by",
    ]
    list_filter = ["status", "cage", "gaming_day", "needs_sign_off"]
    list_select_related = ["cage", "cashier", "signed_off_by"]
    readonly_fields = ["report_link", "drawer"]
    inlines = [ReceiptInline]

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:shift_id>/report/",
                self.admin_site.admin_view(self.report_view),
                name="accounting_shift_report",
            ),
            *super().get_urls(),
        ]

    def report_view(self, request: HttpRequest, shift_id: int) -> HttpResponse:
        """The printable end-of-shift report (CA1)."""
        shift = get_object_or_404(
            Shift.objects.select_related("cage", "cashier"), pk=shift_id
        )
        if not self.has_view_permission(request, shift):
            raise PermissionDenied
        return render(
            request,
            "accounting/shift_report.html",
            {"report": shift_report(shift=shift), "currency": shift.cage.currency},
        )

    @admin.display(description=_("end-of-shift report"))
    def report_link(self, shift: Shift) -> SafeString:
        url = reverse("admin:accounting_shift_report", args=[shift.pk])
        return format_html(
            '<a href="{}" target="_blank">{}</a>', url, _("printable report")
        )

    @admin.display(description=_("drawer, with its running balance"))
    def drawer(self, shift: Shift) -> SafeString:
        return SafeString(
            render_to_string(
                "accounting/drawer.html",
                {
                    "rows": drawer_running_balance(shift=shift),
                    "currency": shift.cage.currency,
                },
            )
        )


@admin.register(Receipt)
class ReceiptAdmin(ReadOnlyAdmin):
    list_display = [
        "printable",
        "kind",
        "player",
        "amount",
        "issued_at",
        "issued_by",
        "player_signed",
    ]
    list_filter = ["kind", "cage", "player_signed"]
    search_fields = ["player__code", "player__name", "number"]
    list_select_related = ["cage", "player", "issued_by"]
    readonly_fields = ["printable"]

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:receipt_id>/print/",
                self.admin_site.admin_view(self.print_view),
                name="accounting_receipt_print",
            ),
            *super().get_urls(),
        ]

    def print_view(self, request: HttpRequest, receipt_id: int) -> HttpResponse:
        """The printable receipt (CA2, CA6)."""
        receipt = get_object_or_404(
            Receipt.objects.select_related(
                "cage", "player", "issued_by", "payable", "shift"
            ),
            pk=receipt_id,
        )
        if not self.has_view_permission(request, receipt):
            raise PermissionDenied
        return render(request, "accounting/receipt.html", {"receipt": receipt})

    @admin.display(description=_("receipt"), ordering="number")
    def printable(self, receipt: Receipt) -> SafeString:
        return _receipt_link(receipt)

    @admin.display(description=_("amount"), ordering="amount_cents")
    def amount(self, receipt: Receipt) -> str:
        return _money(receipt.amount_cents, receipt.cage.currency)


@admin.register(TableSlip)
class TableSlipAdmin(ReadOnlyAdmin):
    readers = (Role.CASHIER, Role.FLOOR, Role.MANAGER, Role.AUDITOR)
    list_display = [
        "id",
        "kind",
        "status",
        "table",
        "amount",
        "requested_by",
        "issued_by",
        "issued_at",
    ]
    amount = money_column("amount_cents", _("amount"), currency="cage.currency")
    list_filter = ["kind", "status", "cage", "table"]
    list_select_related = ["requested_by", "issued_by", "cage"]


@admin.register(BoxCount)
class BoxCountAdmin(ReadOnlyAdmin):
    list_display = [
        "gaming_day",
        "table",
        "box",
        "recorded",
        "counted",
        "variance",
        "counted_by",
    ]
    recorded = money_column("recorded_cents", _("recorded"), currency="cage.currency")
    counted = money_column("counted_cents", _("counted"), currency="cage.currency")
    variance = money_column("variance_cents", _("variance"), currency="cage.currency")
    list_filter = ["gaming_day", "box", "table"]
    date_hierarchy = "gaming_day"


@admin.register(Payable)
class PayableAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "player",
        "amount",
        "reference",
        "status",
        "approved_by",
        "paid_at",
    ]
    amount = money_column("amount_cents", _("amount"))
    list_filter = ["status"]
    search_fields = ["player__code", "reference"]
    list_select_related = ["player", "approved_by"]


@admin.register(CashTransaction)
class CashTransactionAdmin(ReadOnlyAdmin):
    list_display = ["at", "gaming_day", "player", "kind", "amount", "reference"]
    amount = money_column("amount_cents", _("amount"), currency="cage.currency")
    list_filter = ["gaming_day", "kind"]
    search_fields = ["player__code"]
    list_select_related = ["player", "cage"]
