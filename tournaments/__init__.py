"""Tournaments: events, entries, prize pools, payouts and chips (RULES.md TO1–TO12)."""
