"""Three-way merges of a catalog's files, for git's merge driver (`papers merge-driver`)."""
