"""Commands that change the catalog: tag, untag, tags, note, add, import, rm, edit.

Each goes through catalog.edit.writer, the one door for writes.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from catalog.commands import (
    DryRunOpt,
    JsonOpt,
    command,
    complete_key,
    connect,
    echo,
    echo_json,
    state,
)
from catalog.errors import CatalogError, UsageError
from catalog.paths import file_stem_key

# The commands this module registers (catalog.cli builds only these for one of them).
KeyArg = Annotated[
    str, typer.Argument(help="Citation key.", autocompletion=complete_key, show_default=False)
]
KeysArg = Annotated[
    list[str],
    typer.Argument(help="Citation keys.", autocompletion=complete_key, show_default=False),
]
TagsOpt = Annotated[
    list[str], typer.Option("--tag", "-t", help="A tag (repeat for more).", show_default=False)
]


def _on_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _show_diff(diff: str) -> None:
    echo(diff.rstrip("\n") if diff else "no change")


def _warn(result: Any) -> None:
    for problem in result.warnings:
        echo(f"warning: {problem}", err=True)


def _editor() -> list[str] | None:
    value = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    return shlex.split(value) if value else None


def _run_editor(editor: list[str], path: Path, line: int | None = None) -> None:
    args = [*editor, *([f"+{line}"] if line else []), str(path)]
    try:
        code = subprocess.call(args)
    except OSError as err:
        raise CatalogError(
            f"cannot run the editor {editor[0]!r}: {err.strerror} "
            "(set $EDITOR to your editor's command)"
        ) from None
    if code != 0:
        raise CatalogError(f"the editor {editor[0]!r} exited with status {code}")


# ---------------------------------------------------------------- tags


@command("tag")
def tag(
    keys: KeysArg,
    tags: TagsOpt,
    new: Annotated[
        bool,
        typer.Option(
            "--new",
            help="Add tags missing from the vocabulary (data/tags.yaml) instead of refusing them.",
        ),
    ] = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add tags to papers.

    Example: papers tag sima2022ekko xie2022fleche -t caching -t inference
    """
    from catalog.edit import writer

    if not tags:
        raise UsageError("give at least one tag with -t TAG")
    changed: dict[str, list[str]] = {}
    with writer.edit(state.paths, dry_run=dry_run) as session:
        known = set(session.vocabulary)
        for key in keys:
            changed[key] = session.add_tags(key, tags, new=new)
        added_vocabulary = [t for t in session.vocabulary if t not in known]
    result = session.result
    _warn(result)
    if as_json:
        echo_json(
            {
                "tagged": [{"key": k, "added": v} for k, v in changed.items()],
                "vocabulary_added": added_vocabulary,
                "dry_run": dry_run,
            }
        )
        return
    if dry_run:
        _show_diff(result.diff)
        return
    for tag_name in added_vocabulary:
        echo(
            f"added tag '{tag_name}' to {state.paths.display(state.paths.tags)} "
            "(give it a description there)"
        )
    for key, added in changed.items():
        echo(f"{key}: " + (" ".join(f"+{t}" for t in added) if added else "already tagged"))


@command("untag")
def untag(
    keys: KeysArg, tags: TagsOpt, dry_run: DryRunOpt = False, as_json: JsonOpt = False
) -> None:
    """Remove tags from papers.

    Example: papers untag sima2022ekko -t scheduling
    """
    from catalog.edit import writer

    if not tags:
        raise UsageError("give at least one tag with -t TAG")
    changed: dict[str, list[str]] = {}
    with writer.edit(state.paths, dry_run=dry_run) as session:
        for key in keys:
            changed[key] = session.remove_tags(key, tags)
    if as_json:
        echo_json(
            {"untagged": [{"key": k, "removed": v} for k, v in changed.items()], "dry_run": dry_run}
        )
    elif dry_run:
        _show_diff(session.result.diff)
    else:
        for key, gone in changed.items():
            echo(
                f"{key}: "
                + (" ".join(f"-{t}" for t in gone) if gone else "had none of " + ", ".join(tags))
            )


@command("tags")
def tags_(
    rename: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--rename",
            metavar="OLD NEW",
            help="Rename a tag in the vocabulary and on every "
            "paper (merging into NEW if it exists).",
            show_default=False,
        ),
    ] = None,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """List every tag with its paper count, or rename one across the catalog.

    Example: papers tags --rename caching cache
    """
    if rename:
        from catalog.edit import writer

        old, new = rename
        with writer.edit(state.paths, dry_run=dry_run) as session:
            changed = session.rename_tag(old, new)
        if as_json:
            echo_json({"renamed": old, "to": new, "papers": changed, "dry_run": dry_run})
        elif dry_run:
            _show_diff(session.result.diff)
        else:
            echo(
                f"renamed tag '{old}' to '{new}' on {len(changed)} paper{'s' * (len(changed) != 1)}"
            )
        return
    from catalog.data.registry import load_tags
    from catalog.index import query

    counts = query.stats(connect())["tag"]
    vocabulary = load_tags(state.paths.tags)
    rows: list[dict[str, Any]] = [
        {"tag": t, "count": counts.get(t, 0), "description": d, "in_vocabulary": True}
        for t, d in vocabulary.items()
    ]
    rows += [
        {"tag": t, "count": n, "description": "", "in_vocabulary": False}
        for t, n in counts.items()
        if t not in vocabulary
    ]
    rows.sort(key=lambda r: (-r["count"], r["tag"]))
    if as_json:
        echo_json(rows)
        return
    width = max((len(r["tag"]) for r in rows), default=0)
    for r in rows:
        note = "" if r["in_vocabulary"] else "  (not in the vocabulary)"
        echo(f"{r['tag']:{width}}  {r['count']:4}  {r['description']}{note}".rstrip())


# ---------------------------------------------------------------- reading


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
    from catalog.edit import writer
    from catalog.index import query

    paper = query.get(connect(), key)
    path, created = writer.create_note(state.paths, paper)
    if as_json:
        echo_json({"key": key, "path": str(path), "created": created})
        return
    if created:
        echo(f"created {state.paths.display(path)}", err=True)
    editor = _editor()
    if editor is None:
        echo(str(path))
        echo("set $EDITOR to open notes in your editor", err=True)
        return
    _run_editor(editor, path)


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
        if not _on_terminal():
            raise UsageError("papers rm asks before removing; pass --yes when not on a terminal")
        for paper in papers:
            echo(f"{paper.key}: {paper.title} ({paper.venue} {paper.year})")
        if not typer.confirm(f"remove {len(papers)} paper{'s' * (len(papers) != 1)}?"):
            raise typer.Exit(1)
    with writer.edit(state.paths, dry_run=dry_run) as session:
        for paper in papers:
            session.remove(paper.key)
    kept = {file_stem_key(p.stem) for p in state.paths.readings.glob("*.md")}
    notes = [k for k in keys if k in kept]
    if as_json:
        echo_json({"removed": keys, "notes_kept": notes, "dry_run": dry_run})
        return
    if dry_run:
        _show_diff(session.result.diff)
        return
    for key in keys:
        echo(f"removed {key}")
    for key in notes:
        note = writer.note_path(state.paths, key)
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
    import tempfile

    from catalog.check import rules
    from catalog.data import reader
    from catalog.edit import writer

    editor = _editor()
    if editor is None:
        raise UsageError("set $EDITOR (or $VISUAL) to the command of your editor")
    paths = state.paths
    original = paths.catalog.read_text(encoding="utf-8")
    papers = reader.load(paths.catalog, paths.display())
    by_key = {p.key: p for p in papers}
    if key not in by_key:
        from catalog.errors import PaperNotFound
        from catalog.hints import hint_for

        hint = hint_for(key, by_key)
        raise PaperNotFound(f"no paper with key '{key}'" + (f"; {hint}" if hint else ""))
    folder = Path(tempfile.mkdtemp(prefix="papers-edit-"))
    copy = folder / paths.catalog.name
    copy.write_text(original, encoding="utf-8")
    line = by_key[key].line
    while True:
        _run_editor(editor, copy, line)
        edited = copy.read_text(encoding="utf-8")
        if edited == original:
            copy.unlink()
            folder.rmdir()
            if as_json:
                echo_json({"key": key, "changed": False, "problems": []})
            else:
                echo("no change")
            return
        try:
            with writer.edit(paths) as session:
                if session.text != original:
                    raise CatalogError(
                        f"{paths.display()} changed while you were editing; "
                        f"your version is kept at {copy} (merge it by hand)"
                    )
                session.replace_text(edited)
            break
        except writer.InvalidEditError as err:
            if not _on_terminal():
                raise CatalogError(f"{err}\nyour version is kept at {copy}") from None
            echo(str(err), err=True)
            if not typer.confirm("edit again?", default=True):
                raise CatalogError(f"not saved; your version is kept at {copy}") from None
            line = err.problems[0].line or line
    copy.unlink()
    folder.rmdir()
    problems = rules.check(paths)
    if as_json:
        echo_json({"key": key, "changed": True, "problems": [p.__dict__ for p in problems]})
        return
    echo(f"saved {paths.display()}")
    for problem in problems:
        echo(str(problem))
    if problems:
        echo(
            f"{len(problems)} problem{'s' * (len(problems) != 1)} were already there "
            "(papers check)",
            err=True,
        )


# ---------------------------------------------------------------- add and import

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
    _warn(report)
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
        Path, typer.Argument(help="A .bib file or a Markdown list (.md).", show_default=False)
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
            help="Refuse .bib entries that cannot be read and import the "
            "rest (by default any such entry stops the import).",
        ),
    ] = False,
    tags: TagsOpt = (),  # type: ignore[assignment]
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Import papers from a .bib file or a Markdown list.

    Every record is accounted for: added, merged (--merge), skipped as a duplicate of a
    paper already in the catalog, or refused with its reason and line. An entry that
    cannot be read stops the import with every such entry's line, and nothing is written,
    unless --skip-broken refuses it alone and imports the others. A .bib entry keeps its own
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
            skip_broken=skip_broken,
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


def _prompt_venue() -> str:
    """Ask for a venue until it is one the registry knows (a typo loses no other answer)."""
    from catalog.data.registry import load_venues
    from catalog.hints import did_you_mean

    venues = load_venues(state.paths.venues)
    by_fold = {short.casefold(): short for short in venues}
    while True:
        answer = typer.prompt("Venue (short name, e.g. OSDI)").strip()
        if answer.casefold() in by_fold:
            return by_fold[answer.casefold()]
        hint = did_you_mean(answer, venues)
        echo(
            f"'{answer}' is not in {state.paths.display(state.paths.venues)}"
            + (f"; did you mean '{hint}'?" if hint else ""),
            err=True,
        )


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
    from catalog.ingest import importer
    from catalog.model import Paper

    authors = split_authors(list(authors))
    if year is not None and not 1000 <= year <= 9999:
        raise UsageError(f"--year {year} is not a year: write all four digits, e.g. --year 2023")
    if bibtex is not None:
        if bibtex == "-":
            text, name = sys.stdin.read(), "<stdin>"
        else:
            from catalog.data.textfile import read_text

            path = Path(bibtex)
            name = state.paths.display(path)
            text = read_text(path, name)
        report = importer.import_bib(
            state.paths, text, name, merge=merge, dry_run=dry_run, tags=list(tags)
        )
        _report(report, as_json)
        if not as_json and not (report.count("added") or report.count("merged")):
            raise typer.Exit(1)
        return
    from catalog.model import DOI_HINT, DOI_RE

    if doi and not DOI_RE.match(doi):
        raise UsageError(
            f"--doi {doi[:60]!r} is not a DOI: write the bare DOI, e.g. "
            f"10.1145/3575693.3575718 ({DOI_HINT})"
        )
    fetched = None
    needs = not (title and authors and year and venue)
    if needs and (doi or arxiv) and not merge:
        known = importer.known_by_id(state.paths, doi, arxiv)
        if known is not None:
            raise CatalogError(
                f"not added: already in the catalog as {known.describe()} "
                "(use --merge to fill the fields it lacks)"
            )
    if needs and (doi or arxiv):
        from catalog.data.registry import load_venues
        from catalog.ingest import services

        fetched = services.lookup_doi(doi) if doi else services.lookup_arxiv(arxiv or "")
        if venue is None:
            venue = services.resolve_venue(fetched, load_venues(state.paths.venues))
            if venue is None:
                names = "; ".join(fetched.venue_names) or "no venue"
                raise CatalogError(
                    f"{fetched.source} names the venue '{names}', which is not "
                    f"in {state.paths.display(state.paths.venues)}; pass --venue "
                    "SHORT (add the venue to the registry first if needed)"
                )
    if _on_terminal():
        title = title or typer.prompt("Title")
        if not authors and not (fetched and fetched.authors):
            authors = split_authors([typer.prompt("Authors (separated by ';')")])
        year = year or (fetched.year if fetched else None) or typer.prompt("Year", type=int)
        venue = venue or _prompt_venue()
    for note in fetched.notes if fetched else []:
        typer.echo(f"warning: {note}", err=True)
    base = fetched.fields() if fetched else {}
    given = {
        "title": title,
        "authors": list(authors) or None,
        "year": year,
        "venue": venue,
        "doi": doi,
        "arxiv": arxiv,
        "url": url,
    }
    fields = {**base, **{k: v for k, v in given.items() if v}}
    missing = [
        f"--{n}" if n != "authors" else "--author"
        for n in ("title", "authors", "year", "venue")
        if not fields.get(n)
    ]
    if missing:
        raise UsageError(
            "missing " + ", ".join(missing) + " (or give --doi / --arxiv to "
            "fetch them, or --bibtex FILE)"
        )
    paper = Paper(key="", tags=list(tags), **fields)
    report = importer.add_paper(state.paths, paper, key=key, merge=merge, dry_run=dry_run)
    outcome = report.outcomes[0]
    if as_json:
        echo_json(report.to_dict())
    elif outcome.action in ("added", "merged"):
        verb = "would add" if dry_run else "added"
        echo(
            f"{verb} {outcome.key}: {paper.title} [{paper.venue} {paper.year}]"
            if outcome.action == "added"
            else f"merged into {outcome.key}: {outcome.reason}"
        )
        if dry_run and report.diff:
            echo(report.diff.rstrip("\n"))
        _warn(report)
    if outcome.action == "duplicate":
        raise CatalogError(f"not added: {outcome.reason} (use --merge to fill the fields it lacks)")
    if outcome.action == "refused":
        raise CatalogError(f"not added: {outcome.reason}")


def split_authors(values: list[str]) -> list[str]:
    """Author names from --author values: each value one name, or several names joined
    by ';', ' and ', or ',' where every part is a whole name ('Jane Doe, John Roe').
    'Doe, Jane' (family, given) stays one name; anything else is refused."""
    import re

    names: list[str] = []
    for value in values:
        parts = [p.strip() for p in re.split(r";| and ", value) if p.strip()]
        for part in parts:
            names.extend(_comma_names(part))
    return names


def _comma_names(value: str) -> list[str]:
    """One name, or the names of a comma-separated list of whole names."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) == 1:
        return parts
    if all(" " in p for p in parts):
        return parts
    if len(parts) == 2 and all(p and " " not in p for p in parts):
        return [value.strip()]  # 'Doe, Jane': family name first, one person
    raise UsageError(
        f"--author {value[:80]!r}: cannot tell the names apart; give one --author per "
        "name ('-a \"Jane Doe\" -a \"John Roe\"') or separate them with ';'"
    )


def _shown(text: str, width: int = 160) -> str:
    """A value from the data as a line of a report shows it: cut to width."""
    return text if len(text) <= width else text[: width - 3] + "..."
