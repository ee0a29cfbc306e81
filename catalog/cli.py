"""The `papers` command: a thin skin over the catalog library."""

from __future__ import annotations

from catalog.commands import MODULES, app, load_commands

__all__ = ["MODULES", "app", "load_commands", "main"]


def main() -> None:
    """Run the `papers` command line."""
    app()


if __name__ == "__main__":
    main()
