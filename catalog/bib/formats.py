"""The citation formats `papers export` writes, each imported only when asked for."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
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
# Formats written as one document (a list with contents and sections), not joined pieces.
WHOLE_FORMATS = ("markdown",)


# How the LaTeX formats' entries join into a file: (before, between, after, none's file).
LATEX_JOINT = ("", "\n", "", "")


def export(
    fmt: str,
    papers: Iterable[Paper],
    venues: dict[str, Venue],
    options: ExportOptions = ExportOptions(),
) -> str:
    """The papers in one format, sorted by key; UsageError for an option the format lacks."""
    _refuse_options(fmt, options)
    if fmt in WHOLE_FORMATS:
        module = importlib.import_module(f"catalog.bib.{FORMATS[fmt][0]}")
        return str(module.export(papers, venues, options))
    return join(fmt, list(pieces(fmt, papers, venues, options).values()))


def _refuse_options(fmt: str, options: ExportOptions) -> None:
    """UsageError for an unknown format, or an option the format has no use for."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}' (use one of {', '.join(FORMATS)})")
    if options.group is not None and fmt != "markdown":
        raise UsageError(f"--by is for the markdown format (a list's sections); {fmt} has none")
    if fmt not in LATEX_FORMATS:
        for option in options.latex_only:
            raise UsageError(
                f"{option} is for the LaTeX formats (bibtex, biblatex); {fmt} is plain text"
            )


def pieces(
    fmt: str,
    papers: Iterable[Paper],
    venues: dict[str, Venue],
    options: ExportOptions = ExportOptions(),
) -> dict[str, str]:
    """Each paper's text in one format, by key in key order: joined (join), any of them
    make the export of those papers, so a site can offer any set from the same texts."""
    _refuse_options(fmt, options)
    if fmt in WHOLE_FORMATS:
        raise UsageError(f"{fmt} is written as one document, not paper by paper")
    ordered = sorted(papers, key=lambda p: p.key)
    module = importlib.import_module(f"catalog.bib.{FORMATS[fmt][0]}")
    if fmt in LATEX_FORMATS:  # one exporter; biblatex differs only in its entry writer
        from catalog.bib import bibtex

        texts = list(bibtex.entries(ordered, venues, options, writer=module.Writer))
    else:
        texts = module.pieces(ordered, venues, options)
    return {p.key: str(t) for p, t in zip(ordered, texts, strict=True)}


def joint(fmt: str) -> tuple[str, str, str, str]:
    """How a format's pieces join into a file: (before, between, after, the file of none)."""
    if fmt in LATEX_FORMATS:
        return LATEX_JOINT
    module = importlib.import_module(f"catalog.bib.{FORMATS[fmt][0]}")
    before, between, after, empty = module.JOINT
    return before, between, after, empty


def join(fmt: str, texts: Sequence[str]) -> str:
    """Pieces of one format, in the order given, as one file of that format."""
    before, between, after, empty = joint(fmt)
    return before + between.join(texts) + after if texts else empty


def check_output(path: Path, fmt: str) -> None:
    """Refuse to replace an existing file that no export of this format would be written
    to (a .tex, .aux or .yaml named by mistake): papers replaces only its own kind."""
    suffixes = FORMATS[fmt][1]
    if path.is_file() and path.suffix.lower() not in suffixes:
        raise UsageError(
            f"refusing to replace {path}: papers writes {fmt} to a new file or to a "
            f"{' or '.join(suffixes)} file (name one, or remove {path} first)"
        )
