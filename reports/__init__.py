"""Reports: the daily audit, the jackpot report and player activity (issue 8)."""
