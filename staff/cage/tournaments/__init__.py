"""The tournament desk at the cage (TO1, TO7, TO9, TO10): tonight's events, an
event's desk, what the cashier sells and pays there and its receipts."""
