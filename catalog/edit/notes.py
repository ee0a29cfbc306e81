"""The reader's notes on a paper (data/readings/KEY.md): made from a template once, then
the reader's own file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from catalog import files
from catalog.errors import CatalogError, ConcurrentEditError
from catalog.model import Paper
from catalog.paths import Paths, key_file_stem

# Characters that Markdown or HTML would read as markup in a line of plain text.
_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in "\\`*_{}[]()#+!"}}


def markdown_text(text: str) -> str:
    """Text that Markdown shows as it is: no HTML, no emphasis, link or attribute."""
    from catalog.model import strip_controls

    return "".join(_MARKUP.get(c, c) for c in strip_controls(text))


def render_note(paper: Paper) -> str:
    """A new reading note for a paper, from catalog/templates/reading-note.md.

    The note is the user's own Markdown and the site renders its HTML as it is, so every
    field from the catalog is written as escaped plain text, outside any HTML comment
    (a title holding '-->' would end a comment and let what follows run as HTML)."""
    from string import Template

    template = (Path(__file__).parent.parent / "templates" / "reading-note.md").read_text(
        encoding="utf-8"
    )
    authors = ", ".join(paper.authors) + (" and others" if paper.et_al else "")
    link = (
        f"https://doi.org/{paper.doi}"
        if paper.doi
        else f"https://arxiv.org/abs/{paper.arxiv}"
        if paper.arxiv
        else paper.url or ""
    )
    fields = {
        "title": paper.title,
        "authors": authors,
        "venue": paper.venue,
        "year": str(paper.year),
        "link": link,
    }
    return Template(template).safe_substitute(
        key=_note_key(paper.key),
        today=dt.date.today().isoformat(),
        **{name: markdown_text(value) for name, value in fields.items()},
    )


def _note_key(key: str) -> str:
    """A key fit for a file name and the note's comment; CatalogError otherwise."""
    from catalog.model import KEY_RE

    if not KEY_RE.fullmatch(key):
        raise CatalogError(
            f"'{key}' is not a valid key (ASCII letters, digits and '-_:.+/', a "
            "letter first): fix it in the catalog (papers check lists it) "
            "before writing its note"
        )
    return key


def note_path(paths: Paths, key: str) -> Path:
    """data/readings/KEY.md for a valid key; never a path outside data/readings/."""
    folder = paths.readings.resolve()
    path = (folder / f"{key_file_stem(_note_key(key))}.md").resolve()
    if path.parent != folder:
        raise CatalogError(
            f"the note of '{key}' would be written outside {paths.display(paths.readings)}; refused"
        )
    return path


def create_note(paths: Paths, paper: Paper) -> tuple[Path, bool]:
    """The paper's reading note file, created from the template on first use."""
    path = note_path(paths, paper.key)
    if path.exists():
        return path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    try:  # through the one door, as a new file only: a note is never clobbered
        files.atomic_write(path, render_note(paper), expected=b"")
    except ConcurrentEditError:
        return path, False
    return path, True
