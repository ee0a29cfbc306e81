"""Starting a catalog: `papers init` and what the package ships for it."""
