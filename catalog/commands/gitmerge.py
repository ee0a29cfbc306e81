"""`papers merge-driver` (git's merge driver for a catalog) and `papers git setup`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from catalog.commands import Group, JsonOpt, app, command, echo, echo_json, for_terminal, state

git_app = typer.Typer(name="git", cls=Group, rich_markup_mode=None, no_args_is_help=True)
git_app.info.help = (
    "Set up git for a catalog kept by several curators.\n\n\b\nExamples:\n  papers git setup"
)
app.add_typer(git_app)


@command("merge-driver")
def merge_driver(
    base: Annotated[Path, typer.Argument(metavar="BASE", help="The ancestor's version (%O).")],
    ours: Annotated[
        Path, typer.Argument(metavar="OURS", help="Ours (%A): the merged file is written here.")
    ],
    theirs: Annotated[Path, typer.Argument(metavar="THEIRS", help="Theirs' version (%B).")],
    name: Annotated[str, typer.Argument(metavar="PATH", help="The file's path in the repo (%P).")],
) -> None:
    """Merge three versions of a catalog file for git, paper by paper, field by field.

    git runs it for the files `papers git setup` names in .gitattributes. Exits 1 when
    a paper (or an entry) was changed two ways: its block alone carries git's markers.

    \b
    Examples:
      papers git setup      # once per clone: git then calls
      papers merge-driver %O %A %B %P
    """
    from catalog.merge.driver import merge_file

    outcome = merge_file(base, ours, theirs, name)
    shown = for_terminal(name)
    if outcome.fallback:
        echo(f"{shown}: merged line by line by git ({for_terminal(outcome.fallback)})", err=True)
    for key in outcome.conflicts:
        echo(f"{shown}: conflict in {for_terminal(key)}", err=True)
    for problem in outcome.problems:
        echo(f"{shown}: {for_terminal(problem)}", err=True)
    if not outcome.clean:
        raise typer.Exit(1)


@command("setup", group=git_app)
def setup(as_json: JsonOpt = False) -> None:
    """Name papers' merge driver to git: .gitattributes and the repository's git config.

    Run it once in each clone (git config is not committed). Running it again writes
    nothing that is already there.

    \b
    Examples:
      papers git setup
    """
    from catalog.merge.driver import setup as set_up

    written = set_up(state.paths)
    if as_json:
        echo_json({"written": written})
        return
    for line in written:
        echo(f"wrote {line}")
    if not written:
        echo("git is set up already: nothing written")
