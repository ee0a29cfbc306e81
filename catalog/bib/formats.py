"""The citation formats `papers export` writes, each imported only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from pathlib import Path

from catalog.bib.options import ExportOptions
from catalog.data.registry import Venue
from catalog.errors import UsageError
from catalog.model import Paper

# Each format: its module in catalog.bib, and the file names it is written to.
FORMATS: dict[str, tuple[str, tuple[str, ...]]] = {
    "bibtex": ("bibtex", (".bib", ".bibtex")),
    "biblatex": ("biblatex", (".bib", ".biblatex")),
    "csl-json": ("csljson", (".json",)),
    "ris": ("ris", (".ris",)),
    "markdown": ("markdown", (".md", ".markdown")),
}
LATEX_FORMATS = ("bibtex", "biblatex")


def export(
    fmt: str,
    papers: Iterable[Paper],
    venues: dict[str, Venue],
    options: ExportOptions = ExportOptions(),
) -> str:
    """The papers in one format, sorted by key; UsageError for an option the format lacks."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}' (use one of {', '.join(FORMATS)})")
    if options.group is not None and fmt != "markdown":
        raise UsageError(f"--by is for the markdown format (a list's sections); {fmt} has none")
    module = importlib.import_module(f"catalog.bib.{FORMATS[fmt][0]}")
    if fmt in LATEX_FORMATS:  # one exporter; biblatex differs only in its entry writer
        from catalog.bib import bibtex

        return bibtex.export(papers, venues, options, writer=module.Writer)
    for option in options.latex_only:
        raise UsageError(
            f"{option} is for the LaTeX formats (bibtex, biblatex); {fmt} is plain text"
        )
    return str(module.export(papers, venues, options))


def check_output(path: Path, fmt: str) -> None:
    """Refuse to replace an existing file that no export of this format would be written
    to (a .tex, .aux or .yaml named by mistake): papers replaces only its own kind."""
    suffixes = FORMATS[fmt][1]
    if path.is_file() and path.suffix.lower() not in suffixes:
        raise UsageError(
            f"refusing to replace {path}: papers writes {fmt} to a new file or to a "
            f"{' or '.join(suffixes)} file (name one, or remove {path} first)"
        )
