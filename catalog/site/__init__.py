"""The static site: pages, charts, the mkdocs hook."""
