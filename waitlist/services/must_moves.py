"""Must-move games feeding a main game (WL7)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounting.services import retry_on_conflict
from cardroom import services as cardroom_services
from core.errors import SharedCode
from waitlist.errors import (
    MUST_MOVE_ENDED,
    NO_SUCH_MUST_MOVE,
    Code,
    conflict,
    missing,
    refuse,
)
from waitlist.models import (
    Event,
    MustMove,
)
from waitlist.services._shared import (
    list_for_game,
    lock_lists,
    record_event,
)
from waitlist.services._steps import (
    end_must_move,
    refresh,
    sync_must_move,
)


@retry_on_conflict()
@transaction.atomic
def must_move_start(
    *,
    table_code: str,
    main_code: str,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> MustMove:
    """Make ``table_code`` a must-move game feeding the main game ``main_code`` (WL7).

    Its players go on the main game's queue in list order and move there, keeping
    their stacks, as seats open. Raises :class:`Refusal` (WL7) unless both
    are open tables of the same game and the main game feeds no other.
    """
    now = now or timezone.now()
    table, main = (
        cardroom_services.table_get_open(table_code, lock=False),
        cardroom_services.table_get_open(main_code, lock=False),
    )
    (wl,) = lock_lists([list_for_game(main.game).pk])
    refresh(wl, now)
    if table.pk == main.pk or table.game_id != main.game_id:
        raise refuse(Code.NOT_SAME_GAME, rule="WL7")
    if MustMove.objects.filter(
        Q(table=main) | Q(main=table) | Q(table=table), ended_at__isnull=True
    ).exists():
        raise refuse(Code.MUST_MOVE_EXISTS, rule="WL7")
    must_move = MustMove.objects.create(
        table=table, main=main, started_at=now, started_by=by
    )
    record_event(
        Event.Kind.MUST_MOVE_STARTED,
        now=now,
        by=by,
        source=source,
        rule="WL7",
        reason=_(
            "A second game of the kind opened: its players move to the main game."
        ),
        details={"table": table.code, "main": main.code},
        waiting_list=wl,
        table=table,
    )
    sync_must_move(wl, main, now, by, source)
    return must_move


@retry_on_conflict()
@transaction.atomic
def must_move_end(
    *,
    must_move_id: int,
    by: User | None = None,
    source: str = "",
    now: datetime | None = None,
) -> MustMove:
    """End a must-move; its players' places in the main game's queue end too (WL7)."""
    now = now or timezone.now()
    must_move = (
        MustMove.objects.select_related("table", "main__game")
        .filter(pk=must_move_id)
        .first()
    )
    if must_move is None:
        raise missing(SharedCode.NOT_FOUND, text=NO_SUCH_MUST_MOVE)
    (wl,) = lock_lists([list_for_game(must_move.main.game).pk])
    must_move = MustMove.objects.select_for_update().get(pk=must_move_id)
    if must_move.ended_at is not None:
        raise conflict(Code.ENDED, text=MUST_MOVE_ENDED)
    end_must_move(must_move, wl, now, by, source)
    return must_move
