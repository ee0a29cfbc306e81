"""Commands on the reader's own things: status, queue, open, attach, pdf.

What a reader does with the catalog is theirs: status, dates and queue order live in
data/reading.yaml (catalog.edit.writer.edit_reading), PDFs in data/pdfs/
(catalog.ingest.pdfs). None of these commands changes data/papers.yaml, except
`papers status --migrate`, which moves the reading state an older catalog holds out of it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from catalog.commands import JsonOpt, command, complete_key, connect, echo, echo_json, state
from catalog.errors import CatalogError, UsageError

if TYPE_CHECKING:
    import sqlite3

    from catalog.model import Paper

KeyArg = Annotated[
    str, typer.Argument(help="Citation key.", autocompletion=complete_key, show_default=False)
]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Show what would change; write nothing.")
]


# ---------------------------------------------------------------- status and queue


@command("status")
def status(
    key: Annotated[
        str | None,
        typer.Argument(help="Citation key.", autocompletion=complete_key, show_default=False),
    ] = None,
    value: Annotated[
        str | None,
        typer.Argument(
            metavar="to-read|reading|read", help="The new reading status.", show_default=False
        ),
    ] = None,
    on: Annotated[
        str | None,
        typer.Option(
            "--on",
            metavar="YYYY-MM-DD",
            help="Date read (or started, for reading) [default: today].",
            show_default=False,
        ),
    ] = None,
    migrate: Annotated[
        bool,
        typer.Option(
            "--migrate",
            help="Move the status: and read_on: values data/papers.yaml still holds into "
            "data/reading.yaml (once; nothing is lost).",
        ),
    ] = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Set a paper's reading status in your reading file (data/reading.yaml).

    read records the date in read_on, reading the date in started_on; to-read takes the
    paper back to the queue. The curated catalog (data/papers.yaml) is never changed: the
    reading file is yours, to commit or to list in .gitignore.

    \b
    Examples:
      papers status sima2022ekko reading
      papers status sima2022ekko read --on 2024-03-01
      papers status --migrate
    """
    if migrate:
        if key or value:
            raise UsageError("papers status --migrate takes no key or status")
        _migrate(as_json)
        return
    if not key or not value:
        raise UsageError(
            "papers status needs a key and a status: papers status KEY to-read|reading|read"
        )
    on = _date(on)
    from catalog.edit import writer
    from catalog.index import query

    paper = query.get(connect(), key)
    with writer.edit_reading(state.paths, dry_run=dry_run) as session:
        entry = session.set_status(paper.key, value, on)
    if as_json:
        echo_json({"key": key, **entry.to_dict(), "dry_run": dry_run})
        return
    if dry_run:
        echo(session.diff().rstrip("\n") or "no change")
        return
    dates = [f"started {entry.started_on}"] * bool(entry.started_on)
    dates += [f"read on {entry.read_on}"] * bool(entry.read_on)
    echo(f"{key}: {entry.status}" + (f" ({', '.join(dates)})" if dates else ""))


def _date(on: str | None) -> str | None:
    import datetime as dt

    if on is None:
        return None
    try:
        return dt.date.fromisoformat(on).isoformat()
    except ValueError:
        raise UsageError(f"--on {on!r} is not a date; write YYYY-MM-DD") from None


def _migrate(as_json: bool) -> None:
    from catalog.edit import writer

    done = writer.move_reading_state(state.paths)
    if as_json:
        echo_json(
            {
                "moved": [{"key": e.key, **e.to_dict()} for e in done.moved],
                "cleared": done.cleared,
                "left": done.left,
            }
        )
        return
    reading, catalog = state.paths.display(state.paths.reading), state.paths.display()
    if not (done.moved or done.cleared or done.left):
        echo(f"{catalog} holds no reading state: nothing to move", err=True)
        return
    for entry in done.moved:
        echo(f"{entry.key}: {entry.status}")
    if done.moved:
        echo(f"moved {len(done.moved)} into {reading}", err=True)
    already = len(done.cleared) - len(done.moved)
    if already:
        echo(
            f"removed the reading state of {already} more from {catalog} "
            f"({reading} already held it)",
            err=True,
        )
    if done.left:
        echo(
            f"left {', '.join(done.left)} in {catalog}: not a reading status or date "
            "(papers check names each; fix it, then run this again)",
            err=True,
        )


@command("queue")
def queue(
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="Show at most this many.")
    ] = None,
    top: Annotated[
        str | None,
        typer.Option(
            "--top",
            metavar="KEY",
            help="Move this paper to the top of the to-read queue.",
            autocompletion=complete_key,
            show_default=False,
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """What you are reading, then what is left to read, in queue order.

    The queue starts with the papers you moved up (--top), then the rest oldest first
    (by date added, then year). The order is kept in data/reading.yaml.

    \b
    Examples:
      papers queue -n 5
      papers queue --top sima2022ekko
    """
    from catalog.index import query

    conn = connect()
    if top is not None:
        _top(conn, top)
        conn = connect()  # the index now holds the new order
    reading, waiting = query.queue(conn)
    total = len(waiting)
    waiting = waiting[:limit] if limit else waiting
    if as_json:
        echo_json(
            {"reading": [p.to_dict() for p in reading], "to_read": [p.to_dict() for p in waiting]}
        )
        return
    if reading:
        echo("reading", bold=True)
        for paper in reading:
            echo(f"  {paper.year}  {paper.key:28} {paper.title}")
    if reading and waiting:
        echo("to read", bold=True)
    for paper in waiting:
        added = paper.added or "—"
        echo(f"{'  ' if reading else ''}{added:10}  {paper.year}  {paper.key:28} {paper.title}")
    echo(f"{len(reading)} reading, {total} to read", err=True)


def _top(conn: sqlite3.Connection, key: str) -> None:
    """Move a to-read paper to the top of the queue."""
    from catalog.edit import writer
    from catalog.index import query

    paper = query.get(conn, key)
    status = query.reading_of(conn, paper.key)["status"]
    if status != "to-read":
        raise CatalogError(
            f"{key} is {status}, not in the to-read queue (papers status {key} to-read "
            "puts it back)"
        )
    with writer.edit_reading(state.paths) as session:
        session.top(key)
    echo(f"{key}: top of the queue", err=True)


# ---------------------------------------------------------------- PDFs


@command("open")
def open_(
    key: KeyArg,
    print_only: Annotated[
        bool,
        typer.Option("--print", help="Print the PDF's path or the link instead of opening it."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Open a paper: its PDF if one is kept (papers attach, papers pdf), else its best
    public link (a PDF URL, arXiv, DOI, URL), with the system's opener.

    \b
    Examples:
      papers open sima2022ekko
      papers open sima2022ekko --print
    """
    from catalog.index import query
    from catalog.ingest import pdfs

    paper = query.get(connect(), key)
    local = pdfs.local_pdf(state.paths, paper.key)
    target = str(local.resolve()) if local else pdfs.best_link(paper)
    if target is None:
        raise CatalogError(
            f"{key} has no PDF and no web link (no arXiv id, DOI or http(s) URL); keep a PDF with "
            "papers attach KEY FILE"
        )
    if as_json:
        echo_json({"key": key, "target": target, "local": local is not None})
    elif print_only:
        echo(target)
    elif typer.launch(target) != 0:
        raise CatalogError(f"the system could not open {target}; open it yourself")


@command("attach")
def attach(
    key: KeyArg,
    file: Annotated[str, typer.Argument(help="The PDF to keep (it is copied).")],
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace a different PDF kept for the paper.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Keep a PDF for a paper: copied into data/pdfs/KEY.pdf (git-ignored, never published).

    \b
    Examples:
      papers attach sima2022ekko ~/Downloads/ekko.pdf
    """
    from pathlib import Path

    from catalog.index import query
    from catalog.ingest import pdfs

    paper = query.get(connect(), key)
    path, written = pdfs.attach(state.paths, paper.key, Path(file).expanduser(), replace)
    if as_json:
        echo_json({"key": key, "pdf": str(path), "copied": written})
    else:
        shown = state.paths.display(path)
        echo(f"{key}: {'kept' if written else 'already kept as'} {shown}")


@command("pdf")
def pdf(
    keys: Annotated[
        list[str] | None,
        typer.Argument(help="Citation keys.", autocompletion=complete_key, show_default=False),
    ] = None,
    all_: Annotated[
        bool,
        typer.Option("--all", help="Every paper with an open-access PDF not yet kept."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Download open-access PDFs (arXiv first, then a URL ending in .pdf) into data/pdfs/.

    Each download is checked (a PDF's content type and first bytes), capped in size and
    time; a PDF already kept is left alone.

    \b
    Examples:
      papers pdf sima2022ekko xie2022fleche
      papers pdf --all
    """
    from catalog.index import query
    from catalog.ingest import pdfs

    if bool(keys) == all_:
        raise UsageError("name the papers (papers pdf KEY...) or pass --all, not both")
    conn = connect()
    if all_:
        papers = [p for p in query.all_papers(conn) if pdfs.sources(p)]
    else:
        papers = [query.get(conn, k) for k in keys or []]
    wanted = [p for p in papers if pdfs.local_pdf(state.paths, p.key) is None]
    done, failed = _download(wanted)
    kept = [p.key for p in papers if p not in wanted]
    if as_json:
        echo_json({"downloaded": done, "already_kept": kept, "failed": failed})
    else:
        for key in done:
            echo(f"{key}: {state.paths.display(pdfs.pdf_path(state.paths, key))}")
        for key in kept:
            echo(f"{key}: already kept", err=True)
        for why in failed.values():
            echo(f"error: {why}", err=True)
    if failed:
        raise typer.Exit(1)


def _download(papers: list[Paper]) -> tuple[list[str], dict[str, str]]:
    """Download each paper's PDF with a progress bar on a terminal."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TaskID,
        TextColumn,
        TransferSpeedColumn,
    )

    from catalog.commands import for_terminal
    from catalog.ingest import pdfs

    done: list[str] = []
    failed: dict[str, str] = {}
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not sys.stderr.isatty(),
    )
    with bar:
        for number, paper in enumerate(papers, 1):
            label = f"{number}/{len(papers)} {escape(for_terminal(paper.key))}"
            task = bar.add_task(label, total=None)

            def advance(got: int, total: int | None, task: TaskID = task) -> None:
                bar.update(task, completed=got, total=total)

            try:
                pdfs.download(state.paths, paper, advance)
                done.append(paper.key)
            except CatalogError as err:
                failed[paper.key] = str(err)
            bar.remove_task(task)
    return done, failed
