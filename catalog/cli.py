"""The `papers` command: a thin skin over the catalog library."""

from __future__ import annotations

import importlib
import os
import sys

from catalog.commands import app

# The module that registers each command. Kept because typer builds every registered
# command before it runs one, and a one-paper edit at 1,000 papers misses its 0.3 s
# target building all of them (tools/bench.py); tests/test_docs.py holds it to the
# modules' own commands.
MODULES = {
    **dict.fromkeys(("search", "show", "list", "stats", "check", "index"), "reading"),
    **dict.fromkeys(("tag", "untag", "tags", "note", "rm", "edit", "import", "add"), "curate"),
    **dict.fromkeys(("status", "queue", "open", "attach", "pdf"), "personal"),
    **dict.fromkeys(("export", "cite", "bib-check"), "bib"),
    "inbox": "inbox",
    "venues": "venues",
    "demo": "demo",
    "update": "update",
    **dict.fromkeys(("site", "notes", "related"), "site"),
}
# Options of papers itself that take a value (skipped to find the command's name).
_VALUE_OPTIONS = ("--catalog", "--db")


def command_name(argv: list[str]) -> str | None:
    """The command named on a command line ('papers --db x search q' -> 'search')."""
    args = iter(argv)
    for arg in args:
        if arg in _VALUE_OPTIONS:
            next(args, None)
        elif not arg.startswith("-"):
            return arg
    return None


def load_commands(name: str | None) -> None:
    """Import the module of the named command; every module for help, completion or a
    name that is no command (so that typer can list them or suggest one)."""
    module = MODULES.get(name or "")
    wanted = [module] if module else sorted(set(MODULES.values()))
    for each in wanted:
        importlib.import_module(f"catalog.commands.{each}")


def main() -> None:
    """Run the `papers` command line."""
    completing = "_PAPERS_COMPLETE" in os.environ  # shell completion lists every command
    load_commands(None if completing else command_name(sys.argv[1:]))
    app()


if __name__ == "__main__":
    main()
