"""The floor's screens: the live table map and the waiting lists, tables and
house moves, corrections, voids and fills asked for (WL1–WL10, DC2, RK8, CA3),
and the tournament director's and floor's screens (TO1–TO12)."""
