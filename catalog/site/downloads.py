"""The site's citation downloads: BibTeX, biblatex, RIS and CSL-JSON of each paper, of
each year's, venue's, tag's and author's papers, and of All papers' filtered set.

Every text is written by `papers export`'s writers (catalog.bib.formats): each paper's
piece once per format, and a list's file those pieces joined as formats.join joins them,
so a download is byte for byte what `papers export` writes for its papers. Each
format's pieces and joint are one data script; a paper's page, a list (a year's, a
venue's, a tag's, an author's) and All papers' filtered set name their papers' keys,
and papers.js joins their pieces from it in the browser, one join for all: the site
ships no file of its own per paper or list, and writes no format of its own. A paper
page shows its BibTeX entry as text too, for a reader without JavaScript.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from catalog.bib import csljson, formats, ris
from catalog.model import Paper
from catalog.site.links import plural
from catalog.site.sitedata import SiteData
from catalog.site.templates import render


@dataclass(frozen=True)
class Download:
    """A format the site offers: its name for papers export, label, file ending, type."""

    fmt: str
    label: str
    ending: str
    mime: str


DOWNLOADS = (
    Download("bibtex", "BibTeX", ".bib", "application/x-bibtex"),
    Download("biblatex", "biblatex", ".biblatex.bib", "application/x-bibtex"),
    Download("ris", "RIS", ".ris", "application/x-research-info-systems"),
    Download("csl-json", "CSL-JSON", ".json", "application/vnd.citationstyles.csl+json"),
)
DATA_DIR = "assets/cite-data"  # each format's pieces of every paper, joined by papers.js


def pieces(data: SiteData) -> dict[str, dict[str, str]]:
    """Each format's piece of every paper that has its BibTeX entry (a paper whose venue
    the registry lacks has none, and the build reports it), by key in key order; made
    once a build, each paper's texts once: the BibTeX piece is the entry the build made
    (SiteData.bibtex, which the page shows), and RIS and CSL-JSON are written from one
    CSL-JSON item (as `papers export` writes them), which the citation tags read too."""
    if not data.citations:
        papers = sorted((p for p in data.papers if p.key in data.bibtex), key=lambda p: p.key)
        items = csljson.items(papers, data.venues, data.export_options)  # in key order
        by_key = dict(zip((p.key for p in papers), items, strict=True))
        data.citations = {
            "bibtex": {key: data.bibtex[key] for key in by_key},
            "biblatex": formats.pieces("biblatex", papers, data.venues, data.export_options),
            "ris": {key: ris.text(item) for key, item in by_key.items()},
            "csl-json": {key: csljson.line(item) for key, item in by_key.items()},
        }
    return data.citations


def offered() -> list[list[str]]:
    """[format, label, file ending] of each format, for All papers' format menu."""
    return [[d.fmt, d.label, d.ending] for d in DOWNLOADS]


def list_name(page_uri: str) -> str:
    """The name a list page's files are saved under, before a format's ending:
    'tags/moe.md' -> 'tags-moe'."""
    return page_uri.removesuffix(".md").replace("/", "-")


def data_file(download: Download) -> str:
    """The data script of a format's pieces, which All papers joins for its filtered set."""
    return f"{DATA_DIR}/{download.fmt}.js"


def files(data: SiteData) -> dict[str, str]:
    """Each format's data script: every paper's piece and the format's joint, from which
    papers.js joins any list's or filtered set's file (a paper's own are in its page)."""
    from catalog.site.listpages import _js_literal

    made = pieces(data)
    out: dict[str, str] = {}
    for download in DOWNLOADS:
        value = {
            "joint": formats.joint(download.fmt),
            "label": download.label,
            "ending": download.ending,
            "mime": download.mime,
            "pieces": made[download.fmt],
        }
        out[data_file(download)] = (
            f"(window.PAPERS_CITE=window.PAPERS_CITE||{{}})[{_js_literal(download.fmt)}]="
            f"{_js_literal(value)};\n"
        )
    return out


def list_links(
    page_uri: str, papers: Sequence[Paper], data: SiteData, file: str | None = None
) -> str:
    """A list's or a paper's buttons for its papers' files, one per format, saved as file
    (default: the page's list_name): the page names the papers' keys, and papers.js
    joins their pieces from the format's data script ('' when none has an entry)."""
    keys = sorted(p.key for p in papers if p.key in data.bibtex)
    label = "Cite this paper" if len(papers) == 1 else f"Cite these {plural(len(papers), 'paper')}"
    return render(
        "downloads.html",
        data.template_dir,
        label=label,
        keys=" ".join(keys),
        file=file or list_name(page_uri),
        buttons=[{"fmt": d.fmt, "name": d.label} for d in DOWNLOADS],
    )
