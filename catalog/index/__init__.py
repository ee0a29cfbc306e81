"""The SQLite index and the queries over it."""
