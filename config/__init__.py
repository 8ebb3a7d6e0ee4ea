"""The Django project: settings, root URLs, the Celery app, WSGI and ASGI.

The apps (``core``, ``accounting``, ``cardroom`` the floor, ``jackpots``,
``waitlist``, ``tournaments``, ``reports``, ``simulation``, ``staff``) never import
this package; Django and Celery load it by name (``DJANGO_SETTINGS_MODULE``,
``ROOT_URLCONF``, ``celery -A config``).
"""

from .celery import app as celery_app

__all__ = ["celery_app"]
