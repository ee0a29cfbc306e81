"""Commands for BibTeX: export, cite, bib-check."""

from __future__ import annotations

import enum
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from catalog.bib.options import ExportOptions  # light: no heavy library
from catalog.commands import (
    JsonOpt,
    QueryCommand,
    command,
    complete_key,
    connect,
    echo,
    echo_json,
    state,
)
from catalog.errors import CatalogError, PaperNotFound, UsageError

T = TypeVar("T")


class VenueStyle(enum.StrEnum):
    full = "full"
    short = "short"


class ArxivStyle(enum.StrEnum):
    eprint = "eprint"
    journal = "journal"


class Format(enum.StrEnum):
    bibtex = "bibtex"
    biblatex = "biblatex"
    csl_json = "csl-json"
    ris = "ris"
    markdown = "markdown"


class Grouping(enum.StrEnum):
    year = "year"
    venue = "venue"
    tag = "tag"


AsciiOpt = Annotated[
    bool,
    typer.Option(
        "--ascii",
        help="Write non-ASCII letters as LaTeX accents (Preu{\\ss}er) for 8-bit "
        "bibtex, instead of UTF-8.",
    ),
]
VenueStyleOpt = Annotated[
    VenueStyle,
    typer.Option(
        "--venue-style",
        help="full: the registry's proceedings or journal name; short: its "
        "abbreviation (Proc. OSDI).",
    ),
]
ArxivStyleOpt = Annotated[
    ArxivStyle,
    typer.Option(
        "--arxiv-style",
        help="eprint: @misc with eprint/archivePrefix; journal: "
        "journal = {arXiv preprint arXiv:ID}, for natbib styles that ignore "
        "eprint.",
    ),
]


AbstractsOpt = Annotated[
    bool,
    typer.Option(
        "--abstracts",
        help="Include each paper's abstract (an abstract field, which BibTeX "
        "styles ignore and reference managers show).",
    ),
]


def _options(
    ascii: bool,
    venue_style: VenueStyle,
    arxiv_style: ArxivStyle,
    abstracts: bool = False,
    by: Grouping | None = None,
) -> ExportOptions:
    """The export options given, with the protected terms of the chosen catalog."""
    from catalog.bib.bibtex import load_protected_terms

    return ExportOptions(
        ascii=ascii,
        venue_style=venue_style.value,
        arxiv_style=arxiv_style.value,
        protected=tuple(load_protected_terms(state.paths.terms)),
        abstracts=abstracts,
        group=by.value if by is not None else None,
    )


def _located(write: Callable[[], T]) -> T:
    """write(), with an export error placed in the catalog file."""
    from catalog.bib.bibtex import ExportError

    try:
        return write()
    except ExportError as err:
        raise CatalogError(err.located(state.paths.display())) from None


def _wrote(count: int, output: Path) -> None:
    echo(f"wrote {count} entr{'y' if count == 1 else 'ies'} to {output}", err=True)


@command("export", cls=QueryCommand)
def export(
    words: Annotated[
        list[str] | None,
        typer.Argument(
            help="Papers to export, as for search (all when left out).", show_default=False
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write to this file instead of stdout: a new file, or one of the format's "
            "kind (.bib, .json, .ris), replaced whole.",
            show_default=False,
        ),
    ] = None,
    aux: Annotated[
        Path | None,
        typer.Option(
            "--aux",
            help="Export exactly the keys this LaTeX .aux file cites (\\citation{*}: all).",
            show_default=False,
        ),
    ] = None,
    ascii: AsciiOpt = False,
    venue_style: VenueStyleOpt = VenueStyle.full,
    arxiv_style: ArxivStyleOpt = ArxivStyle.eprint,
    abstracts: AbstractsOpt = False,
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            help="bibtex; biblatex (date, journaltitle, eprinttype); csl-json (pandoc, "
            "Zotero, citeproc); ris (reference managers, Word); markdown (a README "
            "list, as awesome lists write one).",
        ),
    ] = Format.bibtex,
    by: Annotated[
        Grouping | None,
        typer.Option(
            "--by",
            help="markdown: one section per year (the default), venue or tag.",
            show_default=False,
        ),
    ] = None,
    query_opt: Annotated[
        str | None,
        typer.Option(
            "--query",
            "-q",
            help="Papers to export, as for search (the same as the words after export).",
            show_default=False,
        ),
    ] = None,
    keymap: Annotated[
        bool,
        typer.Option(
            "--keymap",
            help="Write each paper under the key its imported .bib gave it, where import "
            "had to change it (data/keymap.yaml); --aux then reads those keys.",
        ),
    ] = False,
) -> None:
    """Write BibTeX (or biblatex, CSL-JSON, RIS) for the papers a query matches, sorted by key.

    Example: papers export 'tag:embedding year:2021..2023' -o refs.bib

    Example: papers export --aux paper.aux --format csl-json -o refs.json

    Example: papers export --format markdown --by venue -o README.md
    """
    from catalog.bib import bibtex, formats
    from catalog.data.registry import load_venues
    from catalog.index import query as q

    query = " ".join(words or [])
    if query_opt is not None:
        if query.strip():
            raise UsageError("give the query as words or as --query, not both")
        query = query_opt
    if aux is not None and query.strip():
        raise UsageError("give a query or --aux, not both")
    if output is not None:
        formats.check_output(output, fmt.value)
    options = _options(ascii, venue_style, arxiv_style, abstracts, by)
    conn = connect()
    missing: list[str] = []
    if aux is not None:
        keys = bibtex.cited_keys(aux)
        if not keys:
            raise CatalogError(
                f"{aux}: cites nothing (no \\citation lines; run pdflatex on the document first)"
            )
        if keymap:
            from catalog.ingest.keymap import load

            renamed = load(state.paths)
            keys = [renamed.get(k, k) for k in keys]
        papers, missing = bibtex.select_cited(q.papers_by_key(conn, abstracts), keys)
    elif query.strip():
        papers = [hit.paper for hit in q.search(conn, query)]
        if not papers:
            raise CatalogError(f"no papers match {query!r}")
    else:
        papers = list(q.papers_by_key(conn, abstracts))
    if keymap:
        from catalog.ingest.keymap import with_old_keys

        papers, kept = with_old_keys(list(papers), state.paths)
        for note in kept:
            echo(note, err=True)
    venues = load_venues(state.paths.venues)
    text = _located(lambda: formats.export(fmt.value, papers, venues, options))
    count = len(papers)
    if output is None:
        typer.echo(text, nl=False)
    else:
        from catalog.files import atomic_write

        try:
            atomic_write(output, text)
        except OSError as err:
            raise CatalogError(f"{output}: cannot write ({err.strerror})") from None
        _wrote(count, output)
    if missing:
        from catalog.hints import hint_for

        known = q.keys(conn)
        for key in missing:
            hint = hint_for(key, known)
            echo(
                f"{aux}: cites '{key}', which the catalog lacks" + (f" ({hint})" if hint else ""),
                err=True,
            )
        raise typer.Exit(1)


@command("cite")
def cite(
    keys: Annotated[
        list[str],
        typer.Argument(help="Citation keys.", show_default=False, autocompletion=complete_key),
    ],
    ascii: AsciiOpt = False,
    venue_style: VenueStyleOpt = VenueStyle.full,
    arxiv_style: ArxivStyleOpt = ArxivStyle.eprint,
) -> None:
    """Print the BibTeX entries of the given keys, in the order given.

    \b
    Examples:
      papers cite xie2022fleche
      papers cite he2021fastmoe he2022fastermoe >> refs.bib
    """
    from catalog.bib import bibtex
    from catalog.data.registry import load_venues
    from catalog.index import query as q

    options = _options(ascii, venue_style, arxiv_style)
    conn = connect()
    papers, unknown = [], []
    for key in dict.fromkeys(keys):
        try:
            papers.append(q.get(conn, key))
        except PaperNotFound as err:
            unknown.append(str(err))
    if unknown:  # every unknown key at once, each with its suggestion
        raise PaperNotFound(
            unknown[0] if len(unknown) == 1 else "\n".join(f"error: {u}" for u in unknown)
        )
    venues = load_venues(state.paths.venues)
    writer = bibtex.Writer(venues, options)
    text = _located(lambda: "\n".join(writer.entry(p) for p in papers))
    typer.echo(text, nl=False)


def _registry_anywhere() -> dict:
    """The catalog's venue registry; outside a catalog, the one shipped with papers (or
    none), saying so: bib-check works in any folder."""
    from catalog.data.registry import load_venues
    from catalog.paths import SHIPPED_VENUES

    paths = state.found()
    if paths is not None:
        return load_venues(paths.venues)
    if SHIPPED_VENUES.exists():
        echo(
            f"note: no catalog here; venues are checked against the registry shipped with "
            f"papers ({SHIPPED_VENUES})",
            err=True,
        )
        return load_venues(SHIPPED_VENUES)
    echo(
        "note: no catalog here and no venue registry; every venue shows as new (run it "
        "inside a catalog, or name one with papers --catalog FILE bib-check ...)",
        err=True,
    )
    return {}


@command("bib-check")
def bib_check(
    file: Annotated[Path, typer.Argument(help="A .bib file.", show_default=False)],
    as_json: JsonOpt = False,
) -> None:
    """Read a .bib file as `papers import` would: list its papers and every problem; exit 1 if any.

    Example: papers bib-check refs.bib
    """
    from catalog.bib.bibtex import read_bib_file

    records = read_bib_file(file, _registry_anywhere())
    if not records:  # as papers import says of the same file
        raise CatalogError(
            f"{file}: no BibTeX entries found (entries look like "
            "'@inproceedings{key, title = {...}, ...}')"
        )
    problems = sum(len(r.problems) for r in records)
    if as_json:
        echo_json([r.to_dict() for r in records])
    else:
        for r in records:
            if r.paper is None:
                what = "not readable" if r.unreadable else "not importable"
                echo(f"{file}:{r.line}: {r.key or '?'}: {what}")
            else:
                p = r.paper
                renamed = f" (as {p.key})" if p.key != r.key else ""
                venue = p.venue + (" [new venue]" if r.new_venue else "")
                echo(f"{file}:{r.line}: {r.key}{renamed}: {p.year} {venue}: {p.title}")
            for problem in sorted(r.problems):
                echo(f"  {problem}")
    importable = sum(r.paper is not None for r in records)
    echo(
        f"{len(records)} entries, {importable} importable, {problems} problem"
        f"{'s' * (problems != 1)}",
        err=True,
    )
    if problems:
        raise typer.Exit(1)
