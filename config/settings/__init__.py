"""Settings of the cardroom back office, read from the environment, split by use.

Production sets ``DATABASE_URL`` (the app's least-privilege role; the process that
migrates has ``DATABASE_OWNER_URL`` too), ``CELERY_BROKER_URL``, ``SECRET_KEY``,
``ALLOWED_HOSTS`` and leaves ``DEBUG`` off. With no ``DATABASE_URL`` an embedded
PostgreSQL server is started (lazily, at the first connection) in ``.data/postgres``;
with no ``CELERY_BROKER_URL`` Celery uses kombu's filesystem transport in
``.data/broker``. See docs/operations.md, "Configuration".

- :mod:`.environment`: where the project lives, the ``.env`` file, ``DEBUG``;
- :mod:`.room`: the room's defaults and the floor's hooks;
- :mod:`.framework`: apps, middleware, URLs, templates, languages, static files;
- :mod:`.database`, :mod:`.security`, :mod:`.api`, :mod:`.tasks` (Celery),
  :mod:`.logs`, :mod:`.digest` (the day's signed digest of the ledger).
"""

from .api import *  # noqa: F403
from .database import *  # noqa: F403
from .digest import *  # noqa: F403
from .environment import *  # noqa: F403
from .framework import *  # noqa: F403
from .logs import *  # noqa: F403
from .room import *  # noqa: F403
from .security import *  # noqa: F403
from .tasks import *  # noqa: F403
