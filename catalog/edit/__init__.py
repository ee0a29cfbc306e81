"""The one write path: an edit session, its checks, atomic locked writes."""
