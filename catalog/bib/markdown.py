"""Paper -> a Markdown reading list, as the field's awesome lists write one.

A title, a table of contents, then one section per year, venue or tag, and one line per
paper: `[Title](paper) - Authors. VENUE'YY. [PDF](pdf) · [Code](code).` (awesome-lint's
form: the linked name, ' - ', a description ending in a full stop). A paper stands once:
under `--by tag`, under the first of its tags (a list links each paper once, and
awesome-lint refuses a link twice). Every field is written Markdown-inert: each
character Markdown or GitHub's autolinks would act on is backslash-escaped, so a title
holding `](javascript:`, `<script>` or `|` stays text. `papers import` reads the list
back (catalog.ingest.listimport).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from catalog.bib.options import ExportOptions
from catalog.data.registry import Venue
from catalog.model import OTHERS, Paper, is_http_url, strip_controls

TITLE = "Papers"
ARXIV_ABS = "https://arxiv.org/abs/"
ARXIV_PDF = "https://arxiv.org/pdf/"
DOI_URL = "https://doi.org/"
# ASCII punctuation that starts Markdown or HTML inline syntax (CommonMark lets any
# ASCII punctuation be backslash-escaped), and what GitHub's autolinks start at.
_SPECIAL_RE = re.compile(r"[\\`*_\[\]<>|#!&~(){}$@]|(?<=\w):(?=//)|(?<=www)\.", re.IGNORECASE)
_SPACES_RE = re.compile(r"\s+")
# A section's anchor as GitHub makes it (github-slugger: lower case, spaces to hyphens,
# other punctuation dropped).
_SLUG_DROP_RE = re.compile(r"[^\w\- ]")


def inert(text: str) -> str:
    """Text that Markdown shows as it is: one line, every special character escaped."""
    line = _SPACES_RE.sub(" ", strip_controls(text)).strip()
    return _SPECIAL_RE.sub(lambda m: "\\" + m.group(), line)


def export(
    papers: Iterable[Paper], venues: dict[str, Venue], options: ExportOptions = ExportOptions()
) -> str:
    """The Markdown list of the papers, grouped by options.group (year by default)."""
    group = options.group or "year"
    chosen = sorted(papers, key=lambda p: (-p.year, p.venue.casefold(), p.key.casefold()))
    sections = _sections(chosen, group)
    out = [f"# {TITLE}", "", _intro(len(chosen), group), "", "## Contents", ""]
    out += [f"- [{inert(name)}](#{_slug(name)})" for name in sections]
    used: set[str] = set()  # the pages linked so far: a list links a page once
    for name, members in sections.items():
        out += ["", f"## {inert(name)}", ""]
        out += [_line(paper, used) for paper in members]
    return "\n".join(out) + "\n"


def _intro(count: int, group: str) -> str:
    noun = "paper" if count == 1 else "papers"
    return f"{count} {noun} by {group}, written from the catalog by papers."


def _sections(papers: list[Paper], group: str) -> dict[str, list[Paper]]:
    """Each section's name and its papers (newest first); a paper under its first tag."""
    sections: dict[str, list[Paper]] = {}
    for paper in papers:
        if group == "year":
            names = [str(paper.year)]
        elif group == "venue":
            names = [paper.venue]
        else:
            names = paper.tags[:1] or ["untagged"]
        sections.setdefault(names[0], []).append(paper)
    if group == "year":
        return sections  # the papers' order: newest first
    return {name: sections[name] for name in sorted(sections, key=str.casefold)}


def _slug(name: str) -> str:
    """The anchor GitHub gives a heading of this (escaped) name."""
    return _SLUG_DROP_RE.sub("", inert(name).lower()).replace(" ", "-")


def _line(paper: Paper, used: set[str]) -> str:
    """One paper's line: its linked title, authors, venue tag, PDF and code links."""
    title = inert(paper.title)
    home = next((url for url in _homes(paper) if url not in used), None)
    if home:
        used.add(home)
        title = f"[{title}]({home})"
    names = [inert(a) for a in paper.authors if a != OTHERS]
    authors = ", ".join(names) + (" et al" if paper.et_al else "")
    line = f"- {title} - {authors}. {inert(paper.venue)}'{paper.year % 100:02d}."
    links = []
    if paper.arxiv:
        links.append(f"[PDF]({ARXIV_PDF}{paper.arxiv})")
    if paper.code and is_http_url(paper.code):
        links.append(f"[Code]({paper.code})")
    return line + (" " + " · ".join(links) + "." if links else "")  # an item ends in '.'


def _homes(paper: Paper) -> list[str]:
    """The paper's own pages, best first: its DOI's, its landing page, its arXiv page."""
    homes = [DOI_URL + paper.doi] if paper.doi else []
    if paper.url and is_http_url(paper.url):
        homes.append(paper.url)
    return homes + ([ARXIV_ABS + paper.arxiv] if paper.arxiv else [])
