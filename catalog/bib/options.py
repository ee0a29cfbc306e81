"""How papers are written out: the options of `papers export` and `papers cite`, as one
object every exporter takes."""

from __future__ import annotations

from dataclasses import dataclass

from catalog.errors import UsageError

VENUE_STYLES: tuple[str, ...] = ("full", "short")
ARXIV_STYLES: tuple[str, ...] = ("eprint", "journal")
GROUPS: tuple[str, ...] = ("year", "venue", "tag")  # the sections of a Markdown list


@dataclass(frozen=True)
class ExportOptions:
    """One export's options; UsageError for a style no exporter knows."""

    ascii: bool = False  # LaTeX escapes for every non-ASCII character (BibTeX, biblatex)
    venue_style: str = "full"  # full: a venue's name; short: its abbreviation
    # eprint: @misc with eprint and archivePrefix; journal: journal = {arXiv preprint
    # arXiv:ID}, for natbib styles that ignore eprint (BibTeX, biblatex)
    arxiv_style: str = "eprint"
    protected: tuple[str, ...] = ()  # terms whose capitals a title keeps (data/protected-terms)
    abstracts: bool = False  # each paper's abstract too
    group: str | None = None  # a Markdown list's sections: year, venue or tag (Markdown)

    def __post_init__(self) -> None:
        if self.venue_style not in VENUE_STYLES:
            raise UsageError(f"unknown venue style '{self.venue_style}' (use full or short)")
        if self.arxiv_style not in ARXIV_STYLES:
            raise UsageError(f"unknown arXiv style '{self.arxiv_style}' (use eprint or journal)")
        if self.group is not None and self.group not in GROUPS:
            raise UsageError(f"unknown grouping '{self.group}' (use {', '.join(GROUPS)})")
        object.__setattr__(self, "protected", tuple(self.protected))

    @property
    def latex_only(self) -> list[str]:
        """The options given that only the LaTeX formats take, as the command line names
        them."""
        given = [("--ascii", self.ascii), ("--arxiv-style", self.arxiv_style != "eprint")]
        return [option for option, on in given if on]
