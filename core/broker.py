"""The embedded broker: kombu's filesystem transport, delivering whole messages only.

Kombu's filesystem channel creates a message file under its final name and then
writes into it, so a worker polling the same folder can take the file while it is
still empty or half written, fail to decode it and stop (seen once in CI's
``test_serve``). Here a message is written under a name the channel never takes
(``….msg.part``, the same folder) and renamed into place when it is whole; a rename
within one folder is atomic, so a reader sees the whole message or none of it.

``CELERY_BROKER_TRANSPORT`` names this transport whenever the broker is the
embedded one (``config/settings/``); the URL stays ``filesystem://``.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from time import monotonic_ns
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

PART = ".part"


class Channel(filesystem.Channel):
    """A filesystem channel whose messages appear in their folder only when whole."""

    # kombu's filesystem channel names the argument ``payload``, its base ``message``.
    def _put(  # type: ignore[override]
        self, queue: str, payload: dict[str, Any], **kwargs: Any
    ) -> None:
        """Put ``payload`` onto ``queue``: write it aside, then rename it into place.

        The name has kombu's shape (a time, a UUID, the queue), so ``_get``,
        ``_size`` and ``_purge`` find it as before; the time is the machine's
        monotonic clock in nanoseconds, zero-padded, where kombu's is in
        milliseconds, so that ``_get``'s sorted listing takes messages in the order
        they were put, not in the UUIDs' order within a millisecond.
        """
        name = f"{monotonic_ns():020d}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        part = final + PART
        try:
            with open(part, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(part, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.remove(part)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    """Kombu's filesystem transport with :class:`Channel`."""

    Channel = Channel
