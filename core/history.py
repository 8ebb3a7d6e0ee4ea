"""pghistory's middleware, minus the requests that write no tracked model."""

from __future__ import annotations

import re
from typing import Any

from pghistory.middleware import HistoryMiddleware as _HistoryMiddleware

# Table terminals only book hands and seats: no model that pghistory tracks. Its
# context costs a set_config() prefixed to every write statement of the request.
UNTRACKED = re.compile(r"^/api/v1/tables/[^/]+/(hands|seats)")


class HistoryMiddleware(_HistoryMiddleware):
    def __call__(self, request: Any) -> Any:
        if UNTRACKED.match(request.path):
            return self.get_response(request)
        return super().__call__(request)
