"""Jackpots: pools, drops, bad-beat categories, hits, awards, hand of the month."""
