"""papers update: what public records say has changed about the catalog's papers."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from catalog.commands import JsonOpt, QueryCommand, command, echo, echo_json, state
from catalog.errors import CatalogError


@command("update", cls=QueryCommand)
def update(
    query: Annotated[
        list[str] | None,
        typer.Argument(
            help="Check only the papers this search query matches (as papers search reads "
            "it); every paper when left out.",
            show_default=False,
        ),
    ] = None,
    write: Annotated[
        bool,
        typer.Option("--write", help="Apply the confirmed findings to the catalog."),
    ] = False,
    no_cache: Annotated[
        bool,
        typer.Option("--no-cache", help="Ask every service again (no HTTP cache)."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Ask public records what changed about the papers; report each finding with its
    evidence, and apply the confirmed ones with --write (as a diff to review).

    \b
    Findings: a preprint since published (moved to its venue and year, key and arXiv
    id kept), a DOI that is not registered, a url that is gone or moved for good, a
    DOI, pages or abstract the catalog lacks, an arXiv preprint retitled. A change is
    made only when an identifier agrees (the arXiv id, a DOI arXiv or a Crossref
    relation gives) or title, first author and year agree together; never on a title
    alone. Each change adds the record's URL to the paper's sources.

    \b
    Services asked, each at its own pace, through an HTTP cache kept a day
    ($XDG_CACHE_HOME/papers):
      arXiv API   export.arxiv.org/api/query: titles, abstracts (CC0), DOI, journal ref
      Crossref    api.crossref.org/works: a DOI's record, relations to preprints
      DBLP        dblp.org/search/publ/api: published versions by title
      doi.org     doi.org/api/handles: whether a DOI is registered
      each url    the paper's landing page: gone (404, 410) or moved (301, 308)
    Set PAPERS_CONTACT to an email or URL for the User-Agent (the services ask for it).

    \b
    Examples:
      papers update                      report on every paper
      papers update venue:arXiv --write  move published preprints
      papers update --json               the report for scripts
    """
    from catalog.update import updater

    bar, progress = _progress()
    try:
        report = updater.update(
            state.paths,
            " ".join(query or []),
            write=write,
            cache=None if no_cache else updater.cache_folder(),
            progress=progress,
        )
    except CatalogError as err:
        if as_json:
            echo_json({"error": str(err), "exit_code": 1})
            raise typer.Exit(1) from None
        raise
    finally:
        if bar is not None:
            bar.stop()
    if as_json:
        echo_json(report.to_dict())
        return
    _print(report, write)


def _print(report: Any, write: bool) -> None:
    """The report: each finding, its evidence, its change and whether it was applied."""
    for f in report.findings:
        echo(f"{f.key}: {f.kind}: {f.message}")
        for line in f.evidence:
            echo(f"  evidence: {line}")
        if f.move:
            echo(f"  change: file under {f.move[0]} › {f.move[1]}")
        for name, value in f.changes.items():
            text = str(value)
            echo(f"  change: {name}: {text[:100] + '...' if len(text) > 100 else text}")
        if f.source and (f.changes or f.move):
            echo(f"  change: sources: + {f.source}")
        if f.blocked:
            echo(f"  not applied: {f.blocked}")
        elif f.applied:
            echo("  applied")
        elif f.applicable:
            echo("  to apply: run again with --write")
    for error in report.errors:
        echo(f"not checked: {error}", err=True)
    if report.diff:
        echo(report.diff.rstrip("\n"))
    applicable = sum(f.applicable for f in report.findings)
    summary = (
        f"{len(report.findings)} finding{'s' * (len(report.findings) != 1)} on "
        f"{report.checked} paper{'s' * (report.checked != 1)}, {applicable} confirmed"
    )
    if report.written:
        summary += f"; wrote {state.paths.display()}"
    elif applicable and not write:
        summary += "; papers update --write applies them"
    echo(summary, err=True)


def _progress() -> tuple[Any, Callable[[str, int], Callable[[], None]] | None]:
    """A rich progress bar on stderr when it is a terminal: one task per stage."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    bar.start()

    def stage(name: str, total: int) -> Callable[[], None]:
        task = bar.add_task(f"asking {name}", total=total)
        return lambda: bar.advance(task)

    return bar, stage
