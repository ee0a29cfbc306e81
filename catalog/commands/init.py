"""`papers init [DIR]`: a new catalog, ready for import, search and the site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from catalog.commands import JsonOpt, command, echo, echo_json


@command("init")
def init(
    folder: Annotated[
        Path,
        typer.Argument(metavar="[DIR]", help="The catalog's folder [default: this folder]."),
    ] = Path("."),
    empty: Annotated[
        bool,
        typer.Option(
            "--empty",
            help="Start with empty venue, tag and records lists instead of this project's.",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Start a catalog in DIR: data/ (papers.yaml and its registries), mkdocs.yml, site/.

    The venue registry and tag vocabulary are this project's (--empty: none, only their
    headers). A folder that already holds a catalog is refused; in one that lacks some
    of a catalog's files, only those are added, and nothing there is replaced.

    \b
    Examples:
      papers init mylist && cd mylist
      papers import ~/library.bib && papers site build
      papers init --empty
    """
    from catalog.start import create

    started = create.init(folder, empty)
    root = started.root
    written = [str(p.relative_to(root)) for p in started.written]
    kept = [str(p.relative_to(root)) for p in started.kept]
    if as_json:
        echo_json({"folder": str(root), "written": written, "kept": kept})
        return
    echo(f"started a catalog in {root}: wrote {', '.join(written)}")
    if kept:
        echo(f"kept what was there: {', '.join(kept)}")
    go = "" if root.resolve() == Path.cwd().resolve() else f"cd {root} && "
    echo(f"next: {go}papers import FILE.bib (or papers add --doi DOI), then papers site build")
