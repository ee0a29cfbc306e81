"""Keeping the catalog current: `papers update` and the records it asks."""
