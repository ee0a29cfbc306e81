"""The `papers` command: a thin skin over the catalog library."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from catalog.commands import app, reading

# Options of the top-level command that take a value (skipped to find the command name).
_VALUE_OPTIONS = ("--catalog", "--db")


def command_name(argv: list[str]) -> str | None:
    """The sub-command named on a command line, if any ('papers --db x search q' -> 'search')."""
    args = iter(argv)
    for arg in args:
        if arg in _VALUE_OPTIONS:
            next(args, None)
        elif not arg.startswith("-"):
            return arg
    return None


def load_commands(name: str | None = None) -> None:
    """Register the command modules; for a reading command, only its own module.

    typer builds every registered command before it runs one, so `papers search` skips
    building the two dozen curation, BibTeX and site commands (~20 ms of start-up), and an
    edit (`papers tag`) the BibTeX, inbox and site ones.
    """
    if "_PAPERS_COMPLETE" not in os.environ:
        if name in reading.COMMANDS:
            return
        from catalog.commands import curate

        if name in curate.COMMANDS:
            return
    from catalog.commands import bib, curate, inbox, site  # noqa: F401 (they register commands)


def keep_only(name: str | None) -> None:
    """Leave the named command alone registered, when it is one: typer builds every
    registered command (its options, their types) before it runs one (~15 ms for the
    seventeen an edit would otherwise build)."""
    if name is None or "_PAPERS_COMPLETE" in os.environ:
        return
    named = [info for info in app.registered_commands
             if (info.name or getattr(info.callback, "__name__", "").replace("_", "-")) == name]
    if named:
        app.registered_commands[:] = named


def main() -> None:
    from catalog import gcpause

    gcpause.freeze_on_resume = True  # this process ends with its command
    name = command_name(sys.argv[1:])
    load_commands(name)
    keep_only(name)
    try:
        app()
    except SystemExit as done:
        leave(done.code)
    leave(0)


def leave(code: int | str | None) -> NoReturn:
    """End the process without tearing the interpreter down: Python's own exit frees every
    object one at a time (after a 12k-paper rename at 100k papers, 400 MB of them: half a
    second), which the operating system does at once. What that exit would do for the
    user first is done here: a message exit printed, logging's handlers and the standard
    streams flushed. Every file papers writes is closed (and synced) before this."""
    if isinstance(code, str):  # sys.exit("message"): printed, status 1
        print(code, file=sys.stderr)
        code = 1
    try:
        if "logging" in sys.modules:
            sys.modules["logging"].shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # the reader went away (`papers search | head`)
        pass
    os._exit(code or 0)


if __name__ == "__main__":
    main()
