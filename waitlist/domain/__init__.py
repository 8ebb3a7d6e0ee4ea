"""Pure rules of waiting lists, seating, time collection and the board (no Django)."""
