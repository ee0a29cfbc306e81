"""What to read next: one model of the catalog's words, for suggest, its measure and related."""
