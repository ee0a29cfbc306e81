"""The `papers` command: a thin skin over the catalog library."""

from __future__ import annotations

from catalog.commands import app, bib, curate, reading, site  # noqa: F401 (they register commands)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
