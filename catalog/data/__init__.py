"""Reading the catalog's data: papers.yaml, the registries, notes."""
