"""Django's PostgreSQL backend, with a health check that costs no round trip.

With ``CONN_HEALTH_CHECKS`` Django asks a persistent connection ``SELECT 1`` at the
first statement of every request, so a connection the server dropped (a restart,
a terminated backend) is replaced instead of failing the request. On the hand path
that was one round trip in seven (benchmarks/README.md, "One statement a booking").

A server that drops a connection says so on its socket: it sends its error and
closes, and the socket becomes readable. An idle, healthy connection has nothing
to read. So the socket is polled first, without waiting: nothing to read, the
connection is usable; anything to read (the close, an error, a notice), Django's own
``SELECT 1`` decides.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            poll = select.poll()
            poll.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            if not poll.poll(0):
                return True
        except (OSError, ValueError):
            return False
        usable: bool = super().is_usable()
        return usable
