"""The jackpot rules as plain Python: no Django, no database, no clock.

- :mod:`~jackpots.domain.rules` — a bad-beat category's configuration (BB2), read and
  checked, with the house defaults for Category 1 (Hold'em) and Category 2 (Omaha);
- :mod:`~jackpots.domain.qualification` — which hands were tabled at a showdown, the
  card-use rules, whether a hand is a bad beat (BB1–BB3) and which hands count for
  the hand of the month (HM1);
- :mod:`~jackpots.domain.shares` — the drop split between pools (JD4) and the award
  shares (BB6, HM2), all by the largest-remainder method;
- :mod:`~jackpots.domain.months` — calendar months in a room's time zone, when a
  month closes (HM3), the standings and the month's best hands (HM2, HM4).
"""
