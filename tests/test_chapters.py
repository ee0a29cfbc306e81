"""Book chapters (@incollection, @inbook): read, checked, written, indexed, shown, exported
and put on the site, from tests/data/chapters.bib (made-up books of our own writing)."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import pytest

from catalog.bib import bibtex
from catalog.bib.bibtex import read_bib
from catalog.bib.options import ExportOptions
from catalog.check import duplicates
from catalog.check.rules import check, check_papers
from catalog.data import reader
from catalog.data.registry import Venue, load_venues
from catalog.edit import writer
from catalog.index import database, query
from catalog.model import CHAPTER_FIELDS, FIELDS, Paper
from catalog.paths import Paths
from catalog.site import listpages, render, sitedata
from tests.conftest import REPO, VENUES, write_catalog

CHAPTERS_BIB = REPO / "tests" / "data" / "chapters.bib"
SHIPPED = load_venues(REPO / "data" / "venues.yaml")
HANDBOOK = """\
Handbook:
  kind: collection
  name: Handbook of Made-Up Recommenders
  publisher: Example Press
"""
CHAPTER = "Chapter:\n  kind: collection\n  name: Book chapter\n"


def records() -> dict[str, bibtex.BibRecord]:
    text = CHAPTERS_BIB.read_text(encoding="utf-8")
    return {r.key: r for r in read_bib(text, "chapters.bib", SHIPPED)}


def chapter(**changes: object) -> Paper:
    base = Paper(
        key="example2015neighbourhood",
        title="Neighbourhood Methods, Revisited",
        authors=["Ann Example", "Bo Sample"],
        year=2015,
        venue="Chapter",
        booktitle="Handbook of Made-Up Recommenders",
        editors=["Carla Editor", "Jörg Müller"],
        publisher="Example Press",
        chapter="3",
        pages="45-78",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------- reading .bib


def test_chapters_are_read_with_their_book() -> None:
    found = records()
    first = found["example2015neighbourhood"].paper
    assert first is not None and not found["example2015neighbourhood"].problems
    assert (first.venue, first.booktitle, first.publisher, first.chapter, first.pages) == (
        "Chapter",
        "Handbook of Made-Up Recommenders",
        "Example Press",
        "3",
        "45-78",
    )
    # Editors are names as authors are: accents decoded, 'van der' kept with the last name.
    assert first.editors == ["Carla Editor", "Jörg Müller", "Dirk van der Sample"]
    second = found["sample2022ranking"].paper
    assert second is not None and second.et_al
    assert (second.booktitle, second.publisher, second.editors) == (
        "Search & Recommendation: 50% Theory, 50% Practice",
        "Sample & Sons",
        ["Dora Editor"],
    )
    inbook = found["example2019sessions"].paper  # @inbook with a booktitle: a chapter too
    assert inbook is not None and (inbook.venue, inbook.chapter) == ("Chapter", "7")


def test_a_chapter_without_its_book_or_publisher_is_refused_with_a_hint() -> None:
    found = records()
    nobook = found["example2020nobook"]
    assert nobook.paper is None
    assert [(p.message, p.hint) for p in nobook.problems] == [
        (
            "a book chapter without booktitle",
            "add booktitle = {...}, the title of the book it is in",
        )
    ]
    nopublisher = found["example2021nopublisher"]
    assert nopublisher.paper is None
    assert [p.message for p in nopublisher.problems if p.blocking] == [
        "book chapter without publisher"
    ]


def test_a_book_with_a_registry_entry_is_the_chapters_venue(tmp_path: Path) -> None:
    venues = {**SHIPPED, **_venues(tmp_path, HANDBOOK)}
    found = {
        r.key: r for r in read_bib(CHAPTERS_BIB.read_text(encoding="utf-8"), "chapters.bib", venues)
    }
    assert found["example2015neighbourhood"].paper.venue == "Handbook"
    assert found["example2019sessions"].paper.venue == "Handbook"
    assert found["sample2022ranking"].paper.venue == "Chapter"  # another book
    # The venue's publisher is enough: the chapter need not repeat it.
    lone = read_bib(
        "@incollection{a2021b, author = {Ann Example}, title = {T}, year = 2021,"
        " booktitle = {Handbook of Made-Up Recommenders}}",
        "x.bib",
        venues,
    )
    assert lone[0].paper is not None and lone[0].paper.venue == "Handbook"


def test_a_chapter_of_proceedings_stays_a_conference_paper() -> None:
    (record,) = read_bib(
        "@incollection{x, title = {T}, author = {A B}, year = 2023,"
        " publisher = {Springer}, editor = {C D}, booktitle = {17th USENIX "
        "Symposium on Operating Systems Design and Implementation}}",
        "x.bib",
        SHIPPED,
    )
    assert record.paper is not None and record.paper.venue == "OSDI"
    assert all(not getattr(record.paper, name) for name in CHAPTER_FIELDS)


def _venues(tmp_path: Path, text: str) -> dict[str, Venue]:
    path = tmp_path / "extra-venues.yaml"
    path.write_text(text, encoding="utf-8")
    return load_venues(path)


# ---------------------------------------------------------------- import and bib-check


def test_bib_check_and_import_agree_and_the_catalog_keeps_every_field(cli, paths: Paths) -> None:
    checked = cli("bib-check", str(CHAPTERS_BIB), "--json")
    importable = {r["key"] for r in json.loads(checked.stdout) if r["paper"]}
    result = cli("import", str(CHAPTERS_BIB), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    added = {o["source_key"] for o in report["outcomes"] if o["action"] == "added"}
    assert (
        added
        == importable
        == {"example2015neighbourhood", "sample2022ranking", "example2019sessions"}
    )
    refused = {o["source_key"]: o["reason"] for o in report["outcomes"] if o["action"] == "refused"}
    assert "a book chapter without booktitle" in refused["example2020nobook"]
    assert "book chapter without publisher" in refused["example2021nopublisher"]
    # The tiny catalog had no Chapter venue: the import added it.
    assert [v["short"] for v in report["venues_added"]] == ["Chapter"]
    assert load_venues(paths.venues)["Chapter"].kind == "collection"
    text = paths.catalog.read_text(encoding="utf-8")
    assert (
        '      booktitle: "Handbook of Made-Up Recommenders"\n'
        "      editors: [Carla Editor, Jörg Müller, Dirk van der Sample]\n"
        "      publisher: Example Press\n"
        '      chapter: "3"\n'
        '      pages: "45-78"\n'
    ) in text
    (paper,) = [p for p in reader.load(paths.catalog) if p.key == "example2015neighbourhood"]
    assert paper.editors == ["Carla Editor", "Jörg Müller", "Dirk van der Sample"]
    assert cli("check").exit_code == 0


def test_show_prints_the_book(cli) -> None:
    assert cli("import", str(CHAPTERS_BIB)).exit_code == 0
    shown = cli("show", "example2015neighbourhood")
    assert shown.exit_code == 0, shown.output
    assert (
        "  Chapter 2015\n  In: Handbook of Made-Up Recommenders, eds. Carla Editor, "
        "Jörg Müller, Dirk van der Sample, Example Press\n  chapter: 3\n"
    ) in shown.stdout
    one = cli("show", "sample2022ranking")
    assert (
        "In: Search & Recommendation: 50% Theory, 50% Practice, ed. Dora Editor, Sample & Sons\n"
    ) in one.stdout


# ---------------------------------------------------------------- check


def test_check_wants_a_chapters_book_and_keeps_book_fields_to_chapters() -> None:
    venues = {**SHIPPED}
    assert check_papers([chapter()], "c.yaml", venues, {}) == []
    (nobook,) = check_papers([chapter(booktitle=None)], "c.yaml", venues, {})
    assert (nobook.message, nobook.hint) == (
        "book chapter without booktitle",
        "add booktitle: the title of the book the chapter is in",
    )
    (nopub,) = check_papers([chapter(publisher=None)], "c.yaml", venues, {})
    assert nopub.message == "book chapter without publisher"
    (misfiled,) = check_papers([chapter(venue="OSDI")], "c.yaml", venues, {})
    assert misfiled.message == (
        "booktitle, editors, publisher, chapter given, but OSDI is a conference, not a book"
    )


def test_check_reports_a_chapter_without_booktitle_with_its_line(tmp_path: Path) -> None:
    paths = write_catalog(
        tmp_path,
        "2015:\n  Chapter:\n    - key: a2015b\n      title: T\n"
        "      authors: [Ann Example]\n      publisher: Example Press\n",
        VENUES + CHAPTER,
    )
    (problem,) = check(paths)
    assert str(problem) == (
        f"{paths.display()}:3: 2015 › Chapter › a2015b: book chapter "
        "without booktitle (add booktitle: the title of the book the "
        "chapter is in)"
    )


def test_old_catalogs_stay_valid() -> None:
    """The seed catalog (no chapter fields, no Chapter venue in use) reads and checks as before."""
    papers = reader.load(REPO / "tests" / "data" / "seed-papers.yaml")
    assert papers and all(not p.booktitle and not p.editors for p in papers)
    assert [p for p in check_papers(papers, "seed", SHIPPED, {}) if "book" in p.message] == []


# ---------------------------------------------------------------- writer and index


def test_writer_updates_book_fields_in_order_and_keeps_comments(tmp_path: Path) -> None:
    papers = (
        "# chapters\n2015:\n  Chapter:\n    # the handbook's first edition\n"
        '    - key: a2015b\n      title: "T"\n      authors: [Ann Example]\n'
        '      booktitle: "Handbook of Made-Up Recommenders"  # as printed\n'
        '      publisher: Example Press\n      pages: "1-10"\n'
    )
    paths = write_catalog(tmp_path, papers, VENUES + CHAPTER)
    with writer.edit(paths) as session:
        session.update("a2015b", editors=["Carla Editor", "Eve Editor"], chapter="2")
    text = paths.catalog.read_text(encoding="utf-8")
    assert text == papers.replace(
        "      publisher: Example Press\n",
        "      editors: [Carla Editor, Eve Editor]\n      publisher: Example Press\n"
        '      chapter: "2"\n',
    )
    (paper,) = reader.load(paths.catalog)
    assert (paper.editors, paper.chapter) == (["Carla Editor", "Eve Editor"], "2")


def test_the_index_keeps_every_field_of_a_paper(tmp_path: Path) -> None:
    """Export and the site read papers back from the index: no field may stay behind."""
    full = chapter(
        key="a2015b",
        doi="10.1000/x1",
        url="https://example.org/x",
        volume="2",
        number="1",
        articleno="12",
        numpages="7",
        sources=["https://example.org/s"],
        tags=["caching"],
        distinct=["kurniawan2023evstore"],
        code="https://example.org/code",
        added="2024-01-01",
        checked="2024-01-02",
        summary="S",
        abstract="A",
        et_al=True,
        arxiv="1501.00001",
        arxiv_class="cs.IR",
    )
    assert all(getattr(full, name) not in (None, [], False) for name in FIELDS)
    paths = write_catalog(tmp_path, venues=VENUES + CHAPTER)
    with writer.edit(paths) as session:
        session.add(full)
    got = query.get(database.connect(paths), "a2015b")
    assert replace(got, line=0) == replace(full, line=0)
    assert {f.name for f in fields(Paper)} - {"year", "venue", "line"} == set(FIELDS)


def test_merge_fills_a_chapters_missing_editors_only_from_the_same_chapter() -> None:
    have = chapter(editors=[], chapter=None)
    plan = duplicates.plan_merge(have, chapter(), SHIPPED)
    assert plan.fields == {"editors": ["Carla Editor", "Jörg Müller"], "chapter": "3"}
    conference = replace(have, venue="OSDI", booktitle=None, publisher=None)
    assert "editors" not in duplicates.plan_merge(conference, chapter(), SHIPPED).fields


# ---------------------------------------------------------------- export


def test_export_writes_incollection_with_the_book_escaped() -> None:
    paper = chapter(
        booktitle="Search & Recommendation: 50% \\input{x}",
        publisher="Sample & Sons",
        editors=["Jörg Müller", "Dirk van der Sample"],
    )
    assert bibtex.entry(paper, SHIPPED) == (
        "@incollection{example2015neighbourhood,\n"
        "  author    = {Example, Ann and Sample, Bo},\n"
        "  title     = {Neighbourhood Methods, Revisited},\n"
        "  booktitle = {Search \\& Recommendation: 50\\% \\textbackslash{}input"
        "\\textbraceleft{}x\\textbraceright{}},\n"
        "  editor    = {Müller, Jörg and van der Sample, Dirk},\n"
        "  chapter   = {3},\n"
        "  pages     = {45--78},\n"
        "  year      = {2015},\n"
        "  publisher = {Sample \\& Sons}\n"
        "}\n"
    )
    ascii = bibtex.entry(paper, SHIPPED, ExportOptions(ascii=True))
    assert 'editor    = {M{\\"u}ller, J{\\"o}rg and van der Sample, Dirk}' in ascii


def test_export_takes_the_venues_publisher_and_refuses_a_chapter_without_its_book() -> None:
    venues = {
        **SHIPPED,
        "Handbook": Venue(
            "Handbook", "collection", "Handbook of Made-Up Recommenders", "Example Press"
        ),
    }
    entry = bibtex.entry(chapter(venue="Handbook", publisher=None), venues)
    assert "  publisher = {Example Press}\n" in entry and entry.startswith("@incollection{")
    with pytest.raises(bibtex.ExportError, match="needs its book's title"):
        bibtex.entry(chapter(booktitle=None), SHIPPED)
    with pytest.raises(bibtex.ExportError, match="needs its book's publisher"):
        bibtex.entry(chapter(publisher=None), SHIPPED)


def test_exported_chapters_read_back_as_the_same_chapters() -> None:
    papers = [r.paper for r in records().values() if r.paper is not None]
    text = bibtex.export(papers, SHIPPED)
    back = {r.key: r.paper for r in read_bib(text, "back.bib", SHIPPED)}
    for paper in papers:
        assert replace(back[paper.key], line=0) == replace(paper, line=0)


# ---------------------------------------------------------------- site


def test_site_shows_the_book_on_the_paper_page_and_in_lists(cli, paths: Paths) -> None:
    assert cli("import", str(CHAPTERS_BIB)).exit_code == 0
    data, problems = sitedata.load(paths, None, with_charts=False)
    assert problems == []
    page = render.paper_page(data.by_key["example2015neighbourhood"], data)
    book = (
        "In <em>Handbook of Made-Up Recommenders</em>, edited by Carla Editor, "
        "Jörg Müller and Dirk van der Sample, Example Press, chapter 3"
    )
    assert f"<li><strong>Book:</strong> {book}</li>" in page
    year = listpages.year_page(2015, [data.by_key["example2015neighbourhood"]], data)
    assert f'<div class="pp-book">{book}</div>' in year
    other = render.paper_page(data.by_key["sample2022ranking"], data)
    assert (
        "In <em>Search &amp; Recommendation: 50% Theory, 50% Practice</em>, edited by "
        "Dora Editor, Sample &amp; Sons"
    ) in other
    script = listpages.papers_data(data)
    value = json.loads(json.loads(script[len("window.PAPERS_DATA=JSON.parse(") : -3]))
    assert {r.get("c") for r in value["papers"]} >= {
        "In Handbook of Made-Up Recommenders, edited by Carla Editor, Jörg Müller "
        "and Dirk van der Sample, Example Press, chapter 3"
    }
    plain = render.paper_page(data.by_key["kurniawan2023evstore"], data)
    assert "<strong>Book:</strong>" not in plain and "pp-book" not in plain
