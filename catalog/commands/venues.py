"""The venue registry: `papers venues` lists it, `papers venues add` adds an entry."""

from __future__ import annotations

import re
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

# Short names as the registry writes them: ASPLOS, DLP-KDD, arXiv, ES-FoMO.
_SHORT_RE = re.compile(r"^[A-Za-z][A-Za-z0-9&+.-]{0,31}\Z")
_YEAR_RE = re.compile(r"\b(1[89]|20)\d\d\b")


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
    from catalog.data.registry import KINDS, Venue, load_venues
    from catalog.edit.writer import edit

    _check_entry(short, name, kind, KINDS)
    known = load_venues(state.paths.venues)
    _check_new(short, name, known)
    extra: dict[str, object] = {}
    if aliases:
        extra["aliases"] = list(aliases)
    if sources:
        extra["sources"] = list(sources)
    venue = Venue(short, kind, name.strip(), (publisher or "").strip() or None, extra)
    with edit(state.paths, dry_run=dry_run) as session:
        session.add_venue(venue)
    result = session.result
    if as_json:
        echo_json({"added": venue.to_dict(), "dry_run": dry_run})
        return
    echo(f"{'would add' if dry_run else 'added'} venue {short}: {venue.name} ({kind})")
    if dry_run and result.diff:
        echo(result.diff.rstrip("\n"))


def _check_entry(short: str, name: str, kind: str, kinds: tuple[str, ...]) -> None:
    """Refuse a short name, name or kind the registry would not accept."""
    if not _SHORT_RE.match(short):
        raise UsageError(
            f"{short[:40]!r} is not a venue short name: letters, digits and '-&+.', "
            "starting with a letter, at most 32 (e.g. OSDI, DLP-KDD)"
        )
    if kind not in kinds:
        raise UsageError(f"--kind {kind[:40]!r} is not a kind: use one of {', '.join(kinds)}")
    if not name.strip() or not name.isprintable() or len(name) > 300:
        raise UsageError("--name must be one line of text, at most 300 characters")
    if _YEAR_RE.search(name):
        raise UsageError(
            f"--name {name[:80]!r} holds a year: give the venue's name without year or "
            "edition (the year goes on each paper)"
        )


def _check_new(short: str, name: str, known: dict) -> None:
    """Refuse a venue the registry already has, by short name (any case) or by name."""
    from catalog.model import fold

    for venue in known.values():
        names = [venue.name, *(venue.extra.get("aliases") or [])]
        if venue.short.casefold() == short.casefold():
            raise UsageError(f"venue {short} is already in the registry as {venue.short}")
        if any(fold(str(n)) == fold(name) for n in names):
            raise UsageError(
                f"'{name[:80]}' is already in the registry as {venue.short}; use that short name"
            )
