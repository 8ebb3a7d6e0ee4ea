"""The manager's screens: the inbox of what a second person decides, jackpot hits,
the tables' terminal keys and player protection (PP1–PP7), and the approvals of
the tournament floor (TO5, TO9)."""
