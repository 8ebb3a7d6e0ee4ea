"""accounting's edge in Django's request cycle: the door refusals kept (PP2–PP4).

A door's refusal rolls back with the request it refuses; the cage's protection
service (:mod:`accounting.services.cage.protection`) remembers it for the request,
and this middleware writes it once the request is answered, outside it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from accounting.services.cage.protection import refusals_remember, refusals_write


class RefusalLogMiddleware:
    """Keeps the door refusals of a request for the daily audit (PP2–PP4).

    The refused request rolls back; its refusal is written after the answer,
    in a transaction of its own."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        token = refusals_remember()
        try:
            return self.get_response(request)
        finally:
            refusals_write(token)
