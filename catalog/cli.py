"""The `papers` command: a thin skin over the catalog library."""

from __future__ import annotations

from catalog.commands import app, reading  # noqa: F401  (modules register their commands)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
