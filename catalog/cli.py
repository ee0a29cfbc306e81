"""The `papers` command: a thin skin over the catalog library."""

from __future__ import annotations

from catalog.commands import app, bib, curate, inbox, reading, site  # noqa: F401 (register)


def main() -> None:
    """Run the `papers` command line."""
    app()


if __name__ == "__main__":
    main()
