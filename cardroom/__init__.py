"""cardroom: the floor app (tables, seats, hands and their settlement).

``cardroom.domain`` is the pure settlement engine: it imports neither Django nor
Celery, so ``python -m cardroom.domain.settle_cli`` and ``manage.py settle_hand``
load no more than it needs.
"""
