"""Hands booked on the ledger's stacks (HS6, HS7).

The use case and its parts, as a request goes through them:

- :mod:`.record`: ``hands_record`` and ``hand_record``, the use case: a table's
  hands booked under its lock, each checked (its table, game, number and times),
  settled and planned on the stacks the one before it left, all written in one
  statement;
- :mod:`cardroom.domain` (the engine): the settlement and the hand's posting plan;
- :mod:`.sql`: every statement the booking sends, and the rows it reads and
  writes (docs/sql/hand shows each one as PostgreSQL gets it);
- :mod:`.checks`: a record's checks (its table, hash, times, game, number and
  settlement), the booking's and the preview's;
- :mod:`.preview`: ``hand_preview``, the settlement a hand would be booked with,
  booking nothing (``POST hands/preview``);
- :mod:`.exceptions`: a hand's exceptions resolved by the decisions after it.

A booked hand is read back as PHH by ``cardroom.selectors.hand_phh``.
"""

from __future__ import annotations

from cardroom.services.hands.preview import hand_preview
from cardroom.services.hands.record import Booked, hand_record, hands_record

__all__ = ["Booked", "hand_preview", "hand_record", "hands_record"]
