"""Commands that change the catalog by hand: note, rm, edit.

Each change goes through catalog.edit.writer, the one door for writes.
"""

from __future__ import annotations

from typing import Annotated

import typer

from catalog.commands import (
    DryRunOpt,
    JsonOpt,
    KeyArg,
    KeysArg,
    command,
    connect,
    echo,
    echo_json,
    on_terminal,
    show_diff,
    state,
)
from catalog.errors import CatalogError, UsageError
from catalog.paths import file_stem_key


@command("note")
def note(key: KeyArg, as_json: JsonOpt = False) -> None:
    """Open the paper's reading note (data/readings/KEY.md) in $EDITOR, creating it on first use.

    The note is yours, like data/reading.yaml: papers search finds its words (note:WORD
    searches notes alone), and the site shows it only when mkdocs.yml sets show_readings.
    Without $EDITOR (or with --json) the path is printed instead.

    \b
    Examples:
      papers note xie2022fleche
      papers note xie2022fleche --json
    """
    from catalog.edit import handedit, notes
    from catalog.index import query

    paper = query.get(connect(), key)
    path, created = notes.create_note(state.paths, paper)
    if as_json:
        echo_json({"key": key, "path": str(path), "created": created})
        return
    if created:
        echo(f"created {state.paths.display(path)}", err=True)
    editor = handedit.editor_command()
    if editor is None:
        echo(str(path))
        echo("set $EDITOR to open notes in your editor", err=True)
        return
    handedit.run_editor(editor, path)


# ---------------------------------------------------------------- rm and edit


@command("rm")
def rm(
    keys: KeysArg,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask; needed when not on a terminal.")
    ] = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove papers from the catalog (with the comments written above them).

    Keys are never reused, so think twice. Reading notes stay on disk.

    \b
    Examples:
      papers rm smith2024draft --dry-run
      papers rm smith2024draft jones2024copy
    """
    from catalog.edit import writer
    from catalog.index import query

    conn = connect()
    papers = [query.get(conn, key) for key in keys]  # every key must exist first
    if not yes and not dry_run:
        if not on_terminal():
            raise UsageError("papers rm asks before removing; pass --yes when not on a terminal")
        for paper in papers:
            echo(f"{paper.key}: {paper.title} ({paper.venue} {paper.year})")
        if not typer.confirm(f"remove {len(papers)} paper{'s' * (len(papers) != 1)}?"):
            raise typer.Exit(1)
    with writer.edit(state.paths, dry_run=dry_run) as session:
        for paper in papers:
            session.delete(paper.key)
    kept = {file_stem_key(p.stem) for p in state.paths.readings.glob("*.md")}
    notes = [k for k in keys if k in kept]
    if as_json:
        echo_json({"removed": keys, "notes_kept": notes, "dry_run": dry_run})
        return
    if dry_run:
        show_diff(session.result.diff)
        return
    for key in keys:
        echo(f"removed {key}")
    from catalog.edit.notes import note_path

    for key in notes:
        note = note_path(state.paths, key)
        echo(f"kept its reading note {state.paths.display(note)}", err=True)


@command("edit")
def edit(key: KeyArg, as_json: JsonOpt = False) -> None:
    """Edit the catalog in $EDITOR at the paper's line; check it before it is saved.

    You edit a copy; when the editor closes the copy is validated and, if it adds no
    problem, written in place of the catalog (atomically, under the lock). A refused
    copy is kept and its path printed.

    \b
    Examples:
      papers edit xie2022fleche
      EDITOR=nano papers edit
    """
    from catalog.edit import handedit

    done = handedit.hand_edit(state.paths, key, again=_again if on_terminal() else None)
    if as_json:
        echo_json(done.to_dict())
        return
    if not done.changed:
        echo("no change")
        return
    echo(f"saved {state.paths.display()}")
    for problem in done.problems:
        echo(str(problem))
    if done.problems:
        count = len(done.problems)
        echo(f"{count} problem{'s' * (count != 1)} were already there (papers check)", err=True)


def _again(refusal: CatalogError) -> bool:
    """Say why the copy was refused; whether to open it again."""
    echo(str(refusal), err=True)
    return typer.confirm("edit again?", default=True)
