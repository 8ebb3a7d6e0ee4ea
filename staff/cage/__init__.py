"""The cashier's screens: his shift and drawer, the floor's fills and credits,
players and their chips, awards paid, receipts, box counts (CA1–CA6) and the
tournament desk (TO1, TO7, TO9, TO10)."""
