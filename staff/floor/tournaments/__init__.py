"""The tournament director's and the floor's screens (TO1–TO12): tonight's
events and their set-up, and a running event's floor: its clock, seats, busts,
counts, colour-ups, deals and payouts."""
