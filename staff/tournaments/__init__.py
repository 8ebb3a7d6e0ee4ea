"""The tournament desk's screens, with the other staff screens: the director's and
the floor's (set-up, clock, seats, busts, counts, races, deals) and the cage's
(entries, rebuys, add-ons, refunds, payouts) (TO1–TO12)."""
