"""Commands that read the catalog: search, show, list, stats, check, index."""

from __future__ import annotations

import sys
import time
from typing import Annotated, Any

import typer

from catalog.commands import (
    JsonOpt,
    QueryCommand,
    command,
    complete_key,
    connect,
    echo,
    echo_json,
    for_terminal,
    state,
)
from catalog.errors import UsageError

# The commands this module registers (catalog.cli loads only this module for them).

QueryArg = Annotated[
    list[str],
    typer.Argument(
        help='Words, "phrases", prefix*, OR, AND, NOT or -exclude, (groups), and filters '
        "such as year:2020..2022 (or just 2020..2022) venue:OSDI tag:caching author:gupta "
        "status:to-read (quote the query or not).",
        show_default=False,
    ),
]
KeysOpt = Annotated[bool, typer.Option("--keys", help="Print only keys, one a line.")]
LimitOpt = Annotated[
    int | None, typer.Option("--limit", "-n", min=1, help="Show at most this many papers.")
]


def _console():  # rich is imported only by the commands that draw tables
    from rich.console import Console

    console = Console(highlight=False, soft_wrap=False)
    if not console.is_terminal:  # pipes and files get long lines, not an 80-column wrap
        console.width = 200
    return console


def _marked(title: str, on_terminal: bool) -> str:
    """The title, made safe for the terminal, with FTS match markers turned into rich
    markup (balanced, even if the title itself holds a marker character) or dropped."""
    import re

    from catalog.index.query import MARK_END, MARK_START

    escape = _rich_escape() if on_terminal else (lambda text: text)
    out: list[str] = []
    bold = False
    for piece in re.split(f"([{MARK_START}{MARK_END}])", title):
        if piece in (MARK_START, MARK_END):
            if on_terminal and bold != (piece == MARK_START):
                bold = not bold
                out.append("[bold yellow]" if bold else "[/]")
        else:
            out.append(escape(for_terminal(piece)))
    return "".join(out) + ("[/]" if bold else "")


def _rich_escape():
    from rich.markup import escape

    return escape


@command("search", cls=QueryCommand)
def search(
    query: QueryArg, limit: LimitOpt = 20, as_json: JsonOpt = False, keys: KeysOpt = False
) -> None:
    """Search the catalog, best matches first.

    Example: papers search 'embedding cach* year:2021..2023 -tag:inference'
    """
    from catalog.index import query as q

    _one_output(as_json, keys)
    text = " ".join(query)
    conn = connect()
    hits = q.search(conn, text, limit)
    wider = q.prefix_query(text) if not hits else None
    # A word cut short ('embed') matches no whole word: its prefix may.
    wider_hits = q.search(conn, wider, limit) if wider else q.Hits()
    if (as_json or keys) and wider_hits:  # scripts get what they asked for, and a hint
        echo(f"no papers match {text!r}; did you mean {wider!r}?", err=True)
    if as_json:
        echo_json([hit.paper.to_dict() for hit in hits])
    elif keys:
        for hit in hits:
            echo(hit.paper.key)
    elif hits or wider_hits:
        if wider_hits:
            echo(f"no papers match {text!r}; showing {wider!r}", err=True)
        _table([(h.paper, h.marked_title) for h in hits or wider_hits])
    else:
        echo(f"no papers match {text!r}", err=True)
        raise typer.Exit(1)
    shown = hits if as_json or keys else hits or wider_hits
    _say_if_cut(len(shown), shown.total)


def _one_output(as_json: bool, keys: bool) -> None:
    """--json and --keys are two answers to one question: refuse both at once."""
    if as_json and keys:
        raise UsageError(
            "give --json or --keys, not both (--json prints every field, --keys only the keys)"
        )


def _say_if_cut(shown: int, total: int) -> None:
    """'20 of 84 papers (use --limit)' on stderr when a limit left papers out."""
    if shown < total:
        echo(f"{shown} of {total} papers (use --limit)", err=True)


def _cell(text: str | None) -> str:
    """A table cell from the data: no control characters, no rich markup."""
    from rich.markup import escape

    return escape(for_terminal(text or ""))


def _table(rows: list) -> None:
    """A rich table on a terminal; plain aligned columns in a pipe (and no rich import)."""
    if not sys.stdout.isatty():
        width = max(len(p.key) for p, _ in rows)
        venue = max(len(p.venue) for p, _ in rows)
        for paper, title in rows:
            echo(
                f"{paper.key:{width}}  {paper.year}  {paper.venue:{venue}}  "
                f"{_marked(title, False)}  [{' '.join(paper.tags)}]"
            )
        return
    from rich.table import Table

    console = _console()
    table = Table(box=None, pad_edge=False, header_style="bold")
    for name in ("key", "year", "venue", "title", "tags"):
        table.add_column(name, overflow="fold", no_wrap=name in ("key", "year", "venue"))
    for paper, title in rows:
        table.add_row(
            _cell(paper.key),
            str(paper.year),
            _cell(paper.venue),
            _marked(title, True),
            _cell(" ".join(paper.tags)),
        )
    console.print(table)


@command("show")
def show(
    key: Annotated[str, typer.Argument(help="Citation key.", autocompletion=complete_key)],
    as_json: JsonOpt = False,
) -> None:
    """Show every field of one paper, your reading state, whether a PDF and a reading
    note are kept, and the notes that discuss it.

    \b
    Examples:
      papers show xie2022fleche
      papers show he2021fastmoe --json
    """
    from catalog.data import notes
    from catalog.index import query
    from catalog.model import book_credit

    conn = connect()
    paper = query.get(conn, key)
    discussed = [n for n in notes.backlinks(notes.load_notes(state.paths)).get(key, [])]
    yours = _yours(conn, paper.key)
    if as_json:
        echo_json(
            {
                **paper.to_dict(),
                **{name: value and str(value) for name, value in yours.items()},
                "discussed_in": [{"note": n.slug, "title": n.title} for n in discussed],
            }
        )
        return
    echo(f"{paper.key}\n  {paper.title}")
    echo(f"  {', '.join(paper.authors)}{' and others' if paper.et_al else ''}")
    echo(f"  {paper.venue} {paper.year}")
    if paper.booktitle:  # a book chapter: its book
        venue = query.venue(conn, paper.venue) or {}
        echo(f"  In: {book_credit(paper, venue.get('publisher'))}")
    shown = {name: getattr(paper, name) for name in _SHOWN}
    shown |= {"status": yours["status"], "started": yours["started_on"]}
    shown |= {"read_on": yours["read_on"], "added": paper.added, "checked": paper.checked}
    for name, value in shown.items():
        if value:
            echo(f"  {name + ':':9}{value}")
    if paper.tags:
        echo(f"  {'tags:':9}{', '.join(paper.tags)}")
    for name in ("summary", "abstract"):
        value = getattr(paper, name)
        if value:
            echo(f"  {name + ':':9}{value}")
    for name in _HOW:
        value = yours[name]
        kept = state.paths.display(value) if value else f"none ({_HOW[name].format(key=key)})"
        echo(f"  {name + ':':9}{kept}")
    if paper.sources:
        echo("  metadata from: " + ", ".join(paper.sources))
    echo(f"  {'source:':9}{state.paths.display()}:{paper.line}")
    if discussed:
        echo(
            "  discussed in: "
            + ", ".join(f"{n.title} ({state.paths.display(n.path)})" for n in discussed)
        )


# The fields show prints on a line each before the reader's state (then added, checked).
_SHOWN = ("doi", "arxiv", "url", "code", "chapter", "pages", "volume", "number")
_HOW = {
    "pdf": "papers pdf {key}, or papers attach {key} FILE",
    "note": "papers note {key} writes one",
}


def _yours(conn: Any, key: str) -> dict[str, Any]:
    """What is the reader's own about the paper: its status, the days they started and
    finished reading it, its kept PDF and its reading note (None when there is none)."""
    from catalog.edit.notes import note_path
    from catalog.index.query import reading_of
    from catalog.ingest.pdfs import local_pdf

    note = note_path(state.paths, key)
    return {
        **reading_of(conn, key),
        "pdf": local_pdf(state.paths, key),
        "note": note if note.is_file() else None,
    }


@command("list", cls=QueryCommand)
def list_(
    words: Annotated[
        list[str] | None,
        typer.Argument(help="Optional filters or words, as for search.", show_default=False),
    ] = None,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
    keys: KeysOpt = False,
) -> None:
    """List papers grouped by year and venue (all, or those a query selects).

    \b
    Examples:
      papers list venue:OSDI
      papers list 'tag:moe year:2021..' --json
    """
    from catalog.index import query as q

    _one_output(as_json, keys)
    query = " ".join(words or [])
    conn = connect()
    papers = [h.paper for h in q.search(conn, query)] if query.strip() else q.all_papers(conn)
    papers.sort(key=lambda p: (-p.year, p.venue.lower(), p.key))
    total = len(papers)
    papers = papers[:limit] if limit else papers
    if as_json or keys:
        if as_json:
            echo_json([p.to_dict() for p in papers])
        else:
            echo("\n".join(p.key for p in papers))
        _say_if_cut(len(papers), total)
        return
    year = venue = None
    for paper in papers:
        if paper.year != year:
            year, venue = paper.year, None
            echo(str(year), bold=True)
        if paper.venue != venue:
            venue = paper.venue
            echo(f"  {venue}")
        echo(f"    {paper.key:28} {paper.title}")
    if len(papers) < total:
        _say_if_cut(len(papers), total)
    else:
        echo(f"{len(papers)} papers", err=True)


@command("stats")
def stats(as_json: JsonOpt = False) -> None:
    """Counts per year, venue, tag and reading status, with bars.

    \b
    Examples:
      papers stats
      papers stats --json
    """
    from catalog.index import query

    counts = query.stats(connect())
    if as_json:
        echo_json(counts)
        return
    for group, values in counts.items():
        echo(f"by {group}", bold=True)
        top = max(values.values(), default=1)
        width = min(24, max((len(k) for k in values), default=0))
        for name, n in values.items():
            bar = "█" * max(1, round(30 * n / top))
            label = name if len(name) <= width else name[: width - 1] + "…"
            echo(f"  {label:{width}}  {n:4}  {bar}")


@command("check")
def check(
    as_json: JsonOpt = False,
    require_sources: Annotated[
        bool,
        typer.Option(
            "--require-sources",
            help="Also report papers whose metadata name no public record (sources).",
        ),
    ] = False,
    completeness: Annotated[
        bool,
        typer.Option(
            "--completeness",
            help="Report instead what the records lack (DOI, pages, volume, number, "
            "abstract), by publisher; exit 0.",
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="With --completeness: list the papers lacking each."),
    ] = False,
) -> None:
    """Report every problem in the catalog, its registries and notes; exit 1 if any.

    \b
    Examples:
      papers check
      papers check --require-sources --json
      papers check --completeness -v
    """
    if completeness:
        if require_sources:
            raise UsageError(
                "--completeness is a report of its own: give it without --require-sources"
            )
        _completeness(as_json, verbose)
        return
    if verbose:
        raise UsageError("-v lists the papers of --completeness: give both, or neither")
    from catalog.check.rules import findings
    from catalog.errors import Problem, describe

    problems = findings(state.paths, require_sources=require_sources)
    if as_json:
        echo_json([{**Problem(*p).__dict__} for p in problems])
    else:  # each sanitized on its own, written a thousand at a time (400k lines at 100k)
        for start in range(0, len(problems), 1000):
            typer.echo(
                "\n".join([for_terminal(describe(*p)) for p in problems[start : start + 1000]])
            )
    if problems:
        blocking = sum(p[-1] for p in problems)
        echo(
            f"{len(problems)} problem{'s' * (len(problems) != 1)}"
            + (f" ({blocking} make the catalog unreadable)" if blocking else ""),
            err=True,
        )
        raise typer.Exit(1)
    if not as_json:
        echo(f"{state.paths.display()}: no problems", err=True)


def _completeness(as_json: bool, verbose: bool) -> None:
    """`check --completeness`: the table of what is missing (with -v, the papers), or JSON."""
    from catalog.check.completeness import completeness

    report = completeness(state.paths)
    if as_json:
        echo_json(report.to_dict())
        return
    rows = [
        (
            group,
            [f"{len(g.missing)}/{g.expected}" if g.expected else "-" for g in group.gaps.values()],
        )
        for group in [*report.groups, report.total]
    ]
    width = min(40, max(len(group.publisher) for group, _ in rows))
    widths = [
        max(len(name), *(len(cells[i]) for _, cells in rows))
        for i, name in enumerate(report.fields)
    ]
    echo("missing / expected, by publisher (-v lists the papers)")
    head = "  ".join(f"{n:>{w}}" for n, w in zip(report.fields, widths, strict=True))
    echo(f"{'publisher':{width}}  papers  {head}")
    for group, cells in rows:
        name = group.publisher
        label = name if len(name) <= width else name[: width - 1] + "…"
        line = "  ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
        echo(f"{label:{width}}  {group.papers:6}  {line}")
    if verbose:
        for name in report.fields:
            missing = report.total.gaps[name].missing
            echo(f"\nmissing {name} ({len(missing)}):")
            for group in report.groups:
                if group.gaps[name].missing:
                    echo(f"  {group.publisher}: {' '.join(group.gaps[name].missing)}")


@command("index")
def index_(as_json: JsonOpt = False) -> None:
    """Rebuild the SQLite index from scratch (commands refresh it on their own).

    \b
    Examples:
      papers index
      papers --db /tmp/catalog.db index
    """
    from catalog.index import database

    started = time.perf_counter()
    if sys.stderr.isatty():  # a spinner: a big catalog takes a while
        from rich.console import Console

        with Console(stderr=True).status(f"indexing {state.paths.display()}"):
            result = database.rebuild(state.paths)
    else:
        result = database.rebuild(state.paths)
    seconds = time.perf_counter() - started
    if as_json:
        echo_json({"papers": result.papers, "db": str(state.paths.db), "seconds": seconds})
    else:
        echo(
            f"indexed {result.papers} papers into {state.paths.display(state.paths.db)} "
            f"in {seconds:.2f} s"
        )
