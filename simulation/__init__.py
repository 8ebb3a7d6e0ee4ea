"""A night in the room, simulated end to end: ``manage.py simulate_night``."""
