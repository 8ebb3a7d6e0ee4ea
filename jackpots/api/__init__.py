"""The jackpots' REST endpoints (serializers, views, urls)."""
