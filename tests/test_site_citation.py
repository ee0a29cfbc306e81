"""A paper page's citation_* tags, read as Zotero's embedded-metadata translator reads
them, say what `papers export --format csl-json` says of the paper."""

from __future__ import annotations

import html
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.paths import Paths
from catalog.site import sitedata
from catalog.site.citation import citation_meta
from tests.conftest import REPO
from tests.embedded_metadata import as_csl, fix_case, zotero_item

# CSL fields that no Highwire tag holds: the downloads carry them, the tags cannot.
NO_TAG = ("id", "number-of-pages", "chapter-number")
# Highwire has no preprint: a server's paper is a technical report of its institution.
TAG_TYPES = {"article": "report"}


def expected(item: dict[str, object]) -> dict[str, object]:
    """What a Zotero-style reader can find of a CSL item in citation_* tags."""
    out = {k: v for k, v in item.items() if k not in NO_TAG}
    out["type"] = TAG_TYPES.get(str(item["type"]), item["type"])
    if item["type"] != "article-journal":  # only a journal has an abbreviation tag
        out.pop("container-title-short", None)
    if item["type"] not in ("article", "report"):  # only a report has a number tag
        out.pop("number", None)
    for role in ("author", "editor"):
        names = item.get(role)
        if isinstance(names, list):
            # Zotero recases a name written all in lower (or upper) case, whatever a
            # page says ('khorashadi' of a real ISCA record): the one change it makes.
            out[role] = [
                {
                    "family": fix_case(
                        " ".join(p for p in (n.get("non-dropping-particle"), n.get("family")) if p)
                    ),
                    # Zotero has no suffix: the given names carry it, and cleanAuthor
                    # drops a name's final period ('Jr.' -> 'Jr').
                    "given": fix_case(
                        " ".join(p for p in (n.get("given"), n.get("suffix", "").rstrip(".")) if p)
                    ),
                }
                for n in names
            ]
    return out


def head(meta: dict[str, str | list[str]]) -> str:
    """The <meta> tags overrides/main.html writes of a page's meta values."""
    tags = [
        f'<meta name="{html.escape(name)}" content="{html.escape(one)}">'
        for name, value in meta.items()
        if name.startswith("citation_")
        for one in ([value] if isinstance(value, str) else value)
    ]
    return "<html><head>" + "".join(tags) + "</head><body></body></html>"


def exported(paths: Paths) -> dict[str, dict[str, object]]:
    """`papers export --format csl-json --abstracts` of the whole catalog, by key."""
    env = {**os.environ, "PAPERS_CATALOG": str(paths.catalog), "PAPERS_DB": str(paths.db)}
    out = subprocess.run(
        [sys.executable, "-m", "catalog", "export", "--format", "csl-json", "--abstracts"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {str(i["id"]): i for i in json.loads(out)}


def test_every_papers_tags_read_as_zotero_does_give_its_csl_json(shipped: Paths):
    data, _ = sitedata.load(shipped, with_charts=False)
    items = exported(shipped)
    assert len(items) == len(data.papers)
    for paper in data.papers:
        read = as_csl(zotero_item(head(citation_meta(paper, data))))
        assert read == expected(items[paper.key]), paper.key


def test_each_kind_has_its_container_and_the_pdf_of_its_version(shipped: Paths):
    data, _ = sitedata.load(shipped, with_charts=False)
    kinds = {data.venues[p.venue].kind for p in data.papers}
    assert {"conference", "journal", "preprint"} <= kinds
    for paper in data.papers:
        meta = citation_meta(paper, data)
        kind = data.venues[paper.venue].kind
        if kind == "preprint":
            assert meta["citation_technical_report_institution"] == "arXiv", paper.key
            assert meta["citation_technical_report_number"] == f"arXiv:{paper.arxiv}"
            assert meta["citation_pdf_url"] == f"https://arxiv.org/pdf/{paper.arxiv}"
            assert "citation_publisher" not in meta
        else:  # the tags describe the published version: never the preprint's PDF
            assert "arxiv.org" not in str(meta.get("citation_pdf_url", "")), paper.key
        if kind == "journal":
            assert "citation_journal_title" in meta, paper.key
        if kind == "conference":
            assert "citation_conference_title" in meta, paper.key
        for field, tag in (("volume", "citation_volume"), ("number", "citation_issue")):
            if getattr(paper, field) and kind == "journal":
                assert meta[tag] == getattr(paper, field), paper.key
        if paper.abstract:
            assert meta["citation_abstract"], paper.key


@pytest.mark.slow
def test_every_built_paper_page_reads_as_its_csl_json(shipped: Paths, tmp_path: Path):
    from tests.test_site_build import mkdocs_build

    out = tmp_path / "built"
    run = mkdocs_build(shipped, out)
    assert run.returncode == 0, run.stderr
    items = exported(shipped)
    for key, item in items.items():
        page = (out / "papers" / key / "index.html").read_text(encoding="utf-8")
        assert as_csl(zotero_item(page)) == expected(item), key
        if item.get("abstract"):  # the abstract is on the page, not only in its tags
            body = page[page.index('<h2 id="abstract"') :]
            assert html.escape(str(item["abstract"]), quote=False)[:60] in body, key


def test_every_kind_reads_as_its_csl_json(tmp_path, monkeypatch):
    """A conference paper, a journal article with volume, issue and a suffixed and a
    particled author, a book chapter with editors, and a preprint."""
    from tests.conftest import PAPERS, VENUES, write_catalog
    from tests.test_export_formats import CHAPTER, JOURNAL

    paths = write_catalog(tmp_path, PAPERS + JOURNAL, VENUES + CHAPTER)
    data, _ = sitedata.load(paths, with_charts=False)
    items = exported(paths)
    kinds = set()
    for paper in data.papers:
        meta = citation_meta(paper, data)
        assert as_csl(zotero_item(head(meta))) == expected(items[paper.key]), paper.key
        kinds.add(str(items[paper.key]["type"]))
    assert kinds == {"paper-conference", "article-journal", "chapter", "article"}
    journal = citation_meta(data.by_key["vanderberg2022tables"], data)
    assert (journal["citation_volume"], journal["citation_issue"]) == ("15", "11")
    assert journal["citation_author"][0] == "van der Berg, Jan"
    chapter = citation_meta(data.by_key["smith2022caches"], data)
    assert chapter["citation_book_title"] == "Recommender Systems Handbook"
    assert chapter["citation_editor"] == ["Ricci, Francesco", "Rokach, Lior"]
