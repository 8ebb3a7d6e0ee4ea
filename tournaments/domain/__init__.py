"""The tournament rules as plain Python (no Django): payouts, places, chips, deals,
bounties. Tested by the thousand with Hypothesis, without a database."""
