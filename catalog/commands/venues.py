"""The venue registry: `papers venues` lists it, `papers venues add` adds an entry."""

from __future__ import annotations

from typing import Annotated

import typer

from catalog.commands import (
    DryRunOpt,
    Group,
    JsonOpt,
    app,
    command,
    connect,
    echo,
    echo_json,
    for_terminal,
    guarded,
    state,
)
from catalog.errors import UsageError

venues_app = typer.Typer(
    name="venues",
    cls=Group,
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(venues_app)


@venues_app.callback()
def venues(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List the venue registry (data/venues.yaml) with paper counts.

    \b
    Examples:
      papers venues
      papers venues --json
      papers venues add DLRS --kind workshop \\
        --name "Workshop on Deep Learning for Recommender Systems"
    """
    if ctx.invoked_subcommand is None:
        guarded(_list)(as_json)


def _list(as_json: bool) -> None:
    """The registry as a table, or JSON."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from catalog.index import query

    rows = query.venues(connect())
    if as_json:
        echo_json(rows)
        return
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name in ("short", "kind", "papers", "name", "publisher"):
        table.add_column(name, overflow="fold")
    for r in rows:
        cells = [escape(for_terminal(r[name] or "")) for name in ("short", "kind", "name")]
        publisher = escape(for_terminal(r["publisher"] or ""))
        table.add_row(cells[0], cells[1], str(r["papers"]), cells[2], publisher)
    Console().print(table)


@command("add", group=venues_app)
def add(
    short: Annotated[
        str, typer.Argument(metavar="SHORT", help="Short name, as papers.yaml will use it.")
    ],
    name: Annotated[str, typer.Option("--name", help="Full name, without year or edition.")],
    kind: Annotated[str, typer.Option("--kind", help="conference, journal, workshop, ...")],
    publisher: Annotated[
        str | None, typer.Option("--publisher", help="Who publishes it (if one fixed publisher).")
    ] = None,
    sources: Annotated[
        list[str],
        typer.Option("--source", help="A public page the entry was checked against (repeat)."),
    ] = (),  # type: ignore[assignment]
    aliases: Annotated[
        list[str],
        typer.Option("--alias", help="Another name or acronym .bib files use (repeat)."),
    ] = (),  # type: ignore[assignment]
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add a venue to the registry, with the checks the registry's own entries pass.

    \b
    Examples:
      papers venues add DLRS --kind workshop \\
        --name "Workshop on Deep Learning for Recommender Systems" \\
        --source https://dlrs-workshop.org/
    """
    from catalog.data.registry import KINDS, Venue, load_venues, registry_problems
    from catalog.edit.writer import edit

    if kind not in KINDS:
        raise UsageError(f"--kind {kind[:40]!r} is not a kind: use one of {', '.join(KINDS)}")
    extra: dict[str, object] = {}
    if aliases:
        extra["aliases"] = list(aliases)
    if sources:
        extra["sources"] = list(sources)
    venue = Venue(short, kind, name.strip(), (publisher or "").strip() or None, extra)
    known = load_venues(state.paths.venues)
    if short in known:
        raise UsageError(f"venue {short} is already in the registry")
    # The rules check reports the registry by, for this entry among the others.
    found = registry_problems({**known, short: venue}, "", only=short)
    if found:
        raise UsageError("\n".join(f"{p.message}: {p.hint}" for p in found))
    with edit(state.paths, dry_run=dry_run) as session:
        session.add_venue(venue)
    result = session.result
    if as_json:
        echo_json({"added": venue.to_dict(), "dry_run": dry_run})
        return
    echo(f"{'would add' if dry_run else 'added'} venue {short}: {venue.name} ({kind})")
    if dry_run and result.diff:
        echo(result.diff.rstrip("\n"))
