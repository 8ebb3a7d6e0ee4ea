"""cardroom: the Django project and the floor's domain."""

from .celery import app as celery_app

__all__ = ["celery_app"]
