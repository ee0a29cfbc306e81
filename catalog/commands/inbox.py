"""papers inbox: the list entries waiting for their metadata (data/inbox.yaml)."""

from __future__ import annotations

from typing import Annotated

import typer

from catalog.commands import JsonOpt, command, echo_json, state


@command("inbox")
def inbox_(
    words: Annotated[
        list[str] | None,
        typer.Argument(
            help="Words to search titles, names, venues, years and sources for; or 'drop ID...' to "
            "discard candidates.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List or search the inbox: papers named in imported lists that lack metadata.

    A list entry with no authors is filed here by `papers import` (never guessed into a
    paper). Promote one with `papers add --doi/--arxiv/--bibtex` or `papers import
    --fetch`: the added paper leaves the inbox. `papers inbox drop ID...` discards
    candidates (an id's unique prefix will do). The site does not show the inbox.

    \b
    Examples:
      papers inbox embedding
      papers inbox drop 3f9a01c2
    """
    from catalog.edit import writer
    from catalog.ingest import inbox

    args = list(words or [])
    if args[:1] == ["drop"]:
        if len(args) == 1:
            from catalog.errors import UsageError

            raise UsageError("give the ids to drop: papers inbox drop ID...")
        with writer.edit(state.paths) as session:
            dropped = session.inbox.drop(args[1:])
        if as_json:
            echo_json({"dropped": [c.to_dict() for c in dropped]})
            return
        for c in dropped:
            typer.echo(f"dropped {c.id}: {c.label}")
        return
    candidates = inbox.load(state.paths)
    found = inbox.search(candidates, args)
    if as_json:
        echo_json([c.to_dict() for c in found])
        return
    for c in found:
        where = " ".join(str(v) for v in (c.venue, c.year) if v) or "no venue or year"
        link = (c.arxiv and f"arXiv:{c.arxiv}") or c.doi or c.url or ""
        typer.echo(
            f"{c.id}  {c.label} [{where}]" + (f" {link}" if link else "") + f"  ({c.source})"
        )
    shown = f"{len(found)} of {len(candidates)}" if args else f"{len(candidates)}"
    typer.echo(
        f"{shown} in the inbox ({state.paths.display(inbox.inbox_path(state.paths))})", err=True
    )
