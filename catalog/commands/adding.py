"""Commands that bring papers in: add (one paper) and import (a .bib file or a list).

The work is the library's (catalog.ingest.adding, catalog.ingest.importer); these
commands read the arguments and print the report.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from catalog.commands import (
    DryRunOpt,
    JsonOpt,
    TagsOpt,
    command,
    echo,
    echo_json,
    on_terminal,
    state,
    warn,
)
from catalog.errors import CatalogError, UsageError

MergeOpt = Annotated[
    bool,
    typer.Option(
        "--merge",
        help="When the paper is already in the catalog, fill the fields it lacks "
        "(never overwrites) instead of skipping it.",
    ),
]


def _report(report: Any, as_json: bool, verbose: bool = True) -> None:
    """Print an import or add report: JSON, or one line per record and a summary."""
    if as_json:
        echo_json(report.to_dict())
        return
    warn(report)
    for venue in report.venues_added:
        verb = "would add" if report.dry_run else "added"
        echo(
            f"{verb} venue {venue.short} ({venue.kind}: {venue.name}) to "
            f"{state.paths.display(state.paths.venues)}; please review it"
        )
    if verbose:
        lines: list[tuple[int, str]] = []
        for o in report.outcomes:
            place = f"{report.file}:{o.line}: " if o.line else ""
            where = f"{o.venue or ''} {o.year or ''}".strip()
            title = _shown(o.title)
            if o.action == "added":
                was = f" (was {o.source_key})" if o.source_key and o.source_key != o.key else ""
                note = f" — {o.reason}" if o.reason else ""
                lines.append((o.line, f"{place}added {o.key}{was}: {title} [{where}]{note}"))
            else:
                lines.append((o.line, f"{place}{o.action}: {title} — {_shown(o.reason)}"))
        # List lines that look like entries but are not papers: shown, never dropped silently.
        for n in report.not_papers:
            if n.listed:
                text = _shown(n.text, 80)
                lines.append((n.line, f"{report.file}:{n.line}: not a paper: {text} — {n.reason}"))
        for _, line in sorted(lines, key=lambda item: item[0]):
            echo(line)
    if report.dry_run and report.diff:
        echo(report.diff.rstrip("\n"))
    echo(report.summary(), err=True)


def _progress() -> Any:
    """A rich progress bar on stderr when it is a terminal; None otherwise."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("import", total=None)

    def update(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, update


@command("import")
def import_(
    file: Annotated[
        Path,
        typer.Argument(
            help="A .bib file or a list in Markdown or HTML (.md, .html).", show_default=False
        ),
    ],
    dry_run: DryRunOpt = False,
    merge: MergeOpt = False,
    no_new_venues: Annotated[
        bool,
        typer.Option(
            "--no-new-venues",
            help="Refuse .bib entries whose venue is not in the registry "
            "instead of adding the venue from the entry's own data.",
        ),
    ] = False,
    fetch: Annotated[
        bool,
        typer.Option(
            "--fetch",
            help="For list entries not in the catalog, fetch their authors (and "
            "venue and year, when the list gives none) from arXiv or DBLP.",
        ),
    ] = False,
    skip_broken: Annotated[
        bool,
        typer.Option(
            "--skip-broken",
            help="Accepted for old scripts: an entry that cannot be read is always "
            "refused alone, with its line and fix.",
            hidden=True,
        ),
    ] = False,
    tags: TagsOpt = (),  # type: ignore[assignment]
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Import papers from a .bib file or a Markdown list.

    Every record is accounted for: added, merged (--merge), skipped as a duplicate of a
    paper already in the catalog, or refused with its reason and line. A .bib entry that
    cannot be read is refused alone, with its line and the fix; the others are imported,
    so a re-run after the fix adds just that one. A .bib entry keeps its own
    key when that is a valid catalog key not yet taken; otherwise a key is made and the
    old one shown as "(was KEY)". A .bib entry from a venue not in data/venues.yaml files
    it under a new registry entry made from its own data (listed for review); spellings
    that differ only in case, spacing or punctuation are one venue. A list entry
    merges into the paper the catalog has (same DOI, arXiv id or title); one that lacks
    authors or a venue goes to the inbox with every field its line gives (`papers
    inbox`), unless --fetch completes it from Crossref, arXiv or DBLP. List lines that
    are not papers are counted (listed with --json), and table rows and items among them
    are shown with their line.

    \b
    Examples:
      papers import refs.bib --dry-run
      papers import awesome-list.md --fetch
    """
    from catalog.ingest import importer

    bar, update = _progress()
    try:
        if bar is not None:
            bar.start()
        report = importer.import_file(
            state.paths,
            file,
            merge=merge,
            new_venues=not no_new_venues,
            fetch=fetch,
            dry_run=dry_run,
            tags=list(tags),
            progress=update,
            display=state.paths.display(file),
        )
    except CatalogError as err:
        if not as_json:
            raise
        # A script reading --json gets an object on failure too, never an empty stdout.
        code = 2 if isinstance(err, UsageError) else 1
        echo_json({"error": str(err), "file": state.paths.display(file), "exit_code": code})
        raise typer.Exit(code) from None
    finally:
        if bar is not None:
            bar.stop()
    _report(report, as_json, verbose=not quiet)


@command("add")
def add(
    title: Annotated[str | None, typer.Option("--title", help="The exact title.")] = None,
    authors: Annotated[
        list[str],
        typer.Option(
            "--author", "-a", help="An author, 'First Last' (repeat, in order).", show_default=False
        ),
    ] = (),  # type: ignore[assignment]
    year: Annotated[
        int | None, typer.Option("--year", help="Year of the version described.")
    ] = None,
    venue: Annotated[
        str | None, typer.Option("--venue", help="Venue short name from data/venues.yaml.")
    ] = None,
    doi: Annotated[
        str | None, typer.Option("--doi", help="DOI; alone, fetches the metadata from Crossref.")
    ] = None,
    arxiv: Annotated[
        str | None,
        typer.Option("--arxiv", help="arXiv id; alone, fetches the metadata from arXiv and DBLP."),
    ] = None,
    url: Annotated[str | None, typer.Option("--url", help="Landing page.")] = None,
    tags: TagsOpt = (),  # type: ignore[assignment]
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="Citation key [default: suggested from author, year, title].",
            show_default=False,
        ),
    ] = None,
    bibtex: Annotated[
        str | None,
        typer.Option(
            "--bibtex",
            metavar="FILE",
            help="Add from a BibTeX file ('-' reads stdin).",
            show_default=False,
        ),
    ] = None,
    merge: MergeOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add a paper: from flags, from its DOI or arXiv id (fetched), or from BibTeX.

    On a terminal, asks for what is missing. The key is suggested from the first author,
    year and first title word. A paper already in the catalog (same DOI, arXiv id or
    title) is not added again; --merge fills the fields it lacks.

    \b
    Examples:
      papers add --doi 10.1145/3600006.3613142 -t training
      papers add --arxiv 2301.02959
      papers add --bibtex entry.bib
    """
    from catalog.ingest import adding

    if bibtex is not None:
        report = adding.add_bibtex(
            state.paths, bibtex, merge=merge, dry_run=dry_run, tags=list(tags)
        )
        _report(report, as_json)
        if not as_json and not (report.count("added") or report.count("merged")):
            raise typer.Exit(1)
        return
    wanted = adding.Wanted(
        title, adding.split_authors(list(authors)), year, venue, doi, arxiv, url, list(tags), key
    )
    added = adding.add(
        state.paths, wanted, merge=merge, dry_run=dry_run, ask=_ask if on_terminal() else None
    )
    for note in added.notes:
        echo(f"warning: {note}", err=True)
    report, paper, outcome = added.report, added.paper, added.report.outcomes[0]
    if as_json:
        echo_json(report.to_dict())
    elif outcome.action == "added":
        echo(
            f"{'would add' if dry_run else 'added'} {outcome.key}: {paper.title} "
            f"[{paper.venue} {paper.year}]"
        )
    elif outcome.action == "merged":
        echo(f"merged into {outcome.key}: {outcome.reason}")
    if not as_json and outcome.action in ("added", "merged"):
        if dry_run and report.diff:
            echo(report.diff.rstrip("\n"))
        warn(report)
    if added.refusal:
        raise CatalogError(added.refusal)


def _ask(question: str, read: Callable[[str], Any]) -> Any:
    """Ask until read() takes the answer; a refused answer is said and asked again."""
    while True:
        try:
            return read(typer.prompt(question))
        except CatalogError as err:
            echo(str(err), err=True)


def _shown(text: str, width: int = 160) -> str:
    """A value from the data as a line of a report shows it: cut to width."""
    return text if len(text) <= width else text[: width - 3] + "..."
