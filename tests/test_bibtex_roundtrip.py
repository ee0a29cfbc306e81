"""Exported BibTeX read back gives the same papers: the shipped catalog, and hostile ones."""

from __future__ import annotations

import string

import bibtexparser
import pybtex.database
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from catalog.bib import bibtex
from catalog.bib.options import ExportOptions
from catalog.check.rules import names_no_one
from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.errors import CatalogError
from catalog.model import Paper
from tests.conftest import REPO

VENUES = load_venues(REPO / "data" / "venues.yaml")
TERMS = bibtex.load_protected_terms(REPO / "data" / "protected-terms.txt")
COMPARED = (
    "key",
    "title",
    "authors",
    "et_al",
    "year",
    "venue",
    "doi",
    "arxiv",
    "pages",
    "volume",
    "number",
    "booktitle",
    "editors",
    "publisher",
    "chapter",
)
OPTIONS = [
    {},
    {"ascii": True},
    {"venue_style": "short"},
    {"arxiv_style": "journal"},
    {"ascii": True, "venue_style": "short", "arxiv_style": "journal"},
]


def read_back(papers: list[Paper], **options) -> dict[str, Paper]:
    text = bibtex.export(papers, VENUES, ExportOptions(protected=tuple(TERMS), **options))
    records = bibtex.read_bib(text, "export.bib", VENUES)
    for record in records:
        assert not record.problems, (record.key, record.problems, text)
    return {r.key: r.paper for r in records if r.paper is not None}


def assert_same(original: Paper, back: Paper | None) -> None:
    assert back is not None
    for name in COMPARED:
        assert getattr(back, name) == getattr(original, name), name


@pytest.mark.slow
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())) or "default"
)
def test_every_catalog_paper_reads_back_the_same(options: dict) -> None:
    papers = reader.load(REPO / "data" / "papers.yaml")
    back = read_back(papers, **options)
    assert set(back) == {p.key for p in papers}
    for paper in papers:
        assert_same(paper, back[paper.key])


# Hostile text: LaTeX and BibTeX specials, accents, right-to-left scripts, CJK, emoji.
SPECIALS = [*"{}\\%#&$_~^<>|-'`,!?@\".:;()[]/", "--", "``", "''", "\\\\", "{}"]
HOSTILE = [
    "Preußer",
    "Čech",
    "Ødegaard",
    "naïve",
    "Über",
    "עברית",
    "عربى",
    "中文",
    "😀",
    "🚀x",
    "GPU",
    "FastMoE",
    "3D",
    "and",
    "others",
    "von",
    "de",
    "Jr.",
]
chars = st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp"))
word = st.one_of(
    st.text(chars, min_size=1, max_size=8),
    st.sampled_from(SPECIALS),
    st.sampled_from(HOSTILE),
    st.lists(st.sampled_from(SPECIALS + HOSTILE), min_size=2, max_size=4).map("".join),
)
text = st.lists(word, min_size=1, max_size=8).map(" ".join)
name_word = word.filter(lambda w: "," not in w)  # a comma means 'Last, First' in the catalog
# 'others' or 'et al.' is not a person (it means et_al), nor is a name without a letter:
# check refuses both as authors (check.names_no_one).
author = (
    st.lists(name_word, min_size=1, max_size=4)
    .map(" ".join)
    .filter(lambda a: not names_no_one(a) and any(ch.isalpha() for ch in a))
)
# Every DOI the catalog accepts (model.DOI_RE: Crossref's characters and SICI's < >).
doi = st.builds(
    lambda n, s: f"10.{n}/{s}",
    st.integers(1000, 99999),
    st.text(
        st.sampled_from(string.ascii_letters + string.digits + "-._;()/:<>"),
        min_size=1,
        max_size=20,
    ),
)
arxiv = st.from_regex(r"\A[0-9]{4}\.[0-9]{4,5}\Z")
pages = st.one_of(
    st.none(),
    st.integers(1, 9999).map(str),
    st.tuples(st.integers(1, 999), st.integers(1, 999)).map(lambda t: f"{t[0]}-{t[0] + t[1]}"),
)
number = st.one_of(st.none(), st.integers(1, 200).map(str))


@st.composite
def papers(draw) -> Paper:
    venue = draw(st.sampled_from(sorted(VENUES)))
    preprint = VENUES[venue].kind == "preprint"
    arxiv_id = draw(arxiv) if preprint else draw(st.one_of(st.none(), arxiv))
    year = draw(st.integers(1950, 2100))
    if arxiv_id:  # a paper is never older than its preprint (check refuses that)
        year = max(year, 2000 + int(arxiv_id[:2]))
    book = {}
    if VENUES[venue].kind == "collection":  # a book chapter: its book's fields
        book = {
            "booktitle": draw(text),
            "publisher": draw(text),
            "chapter": draw(number),
            "editors": draw(st.lists(author, max_size=3)),
        }
    return Paper(
        key=draw(st.from_regex(r"\A[a-z][a-z0-9]{2,10}[0-9]{4}[a-z]{1,8}\Z")),
        title=draw(text),
        authors=draw(st.lists(author, min_size=1, max_size=5)),
        year=year,
        venue=venue,
        et_al=draw(st.booleans()),
        doi=draw(st.one_of(st.none(), doi)),
        arxiv=arxiv_id,
        pages=draw(pages),
        volume=draw(number),
        number=draw(number),
        url=draw(st.one_of(st.none(), st.just("https://example.org/a_b%20c#x"))),
        **book,
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(papers(), st.sampled_from(OPTIONS))
def test_hostile_papers_read_back_the_same(paper: Paper, options: dict) -> None:
    try:
        back = read_back([paper], **options)
    except CatalogError as err:  # --ascii and a character LaTeX cannot spell: refused, named
        assert options.get("ascii") and "has no LaTeX form" in str(err)
        assume(False)
    assert_same(paper, back.get(paper.key))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(papers(), min_size=1, max_size=4, unique_by=lambda p: p.key))
def test_any_export_parses_in_pybtex_and_bibtexparser(batch: list[Paper]) -> None:
    exported = bibtex.export(batch, VENUES, ExportOptions(protected=tuple(TERMS)))
    data = pybtex.database.parse_string(exported, "bibtex")
    assert sorted(data.entries) == sorted(p.key for p in batch)
    library = bibtexparser.parse_string(exported)
    assert not library.failed_blocks
    assert [e.key for e in library.entries] == sorted(p.key for p in batch)
    for paper in batch:
        persons = data.entries[paper.key].persons["author"]
        assert len(persons) == len(paper.authors) + paper.et_al
