"""Import of .bib files and lists, metadata services, the inbox, keys."""
