"""BibTeX out and in: entries, names, LaTeX text."""
