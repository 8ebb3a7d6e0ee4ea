"""Waiting lists, seating, must-move, lockups and the public board."""
