"""Duplicates by DOI, arXiv id and fuzzy title; merge plans that never overwrite."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from catalog.check import duplicates
from catalog.check.rules import check
from catalog.data import reader
from catalog.data.registry import Venue
from catalog.model import Paper
from tests.conftest import SEED_CATALOG, write_catalog

VENUES = {
    "arXiv": Venue("arXiv", "preprint", "arXiv"),
    "SOSP": Venue("SOSP", "conference", "ACM Symposium on Operating Systems Principles"),
}


def paper(key: str = "x2023y", title: str = "A Title", **kw) -> Paper:
    kw.setdefault("authors", ["A B"])
    kw.setdefault("year", 2023)
    kw.setdefault("venue", "SOSP")
    return Paper(key=key, title=title, **kw)


def shipped_finder() -> duplicates.Finder:
    return duplicates.Finder.of(reader.load(SEED_CATALOG))


def test_by_doi_case_and_resolver_prefix_ignored() -> None:
    match = shipped_finder().find(paper(doi="https://doi.org/10.1109/sc41405.2020.00025"))
    assert match and match.paper.key == "xie2020kraken" and match.by == "DOI"


def test_by_arxiv_id_with_version_or_arxiv_doi() -> None:
    finder = shipped_finder()
    assert finder.find(paper(arxiv="arXiv:2104.05158v2")).paper.key == "mudigere2022software"
    match = finder.find(paper(doi="10.48550/arXiv.2301.02959"))
    assert match and match.paper.key == "sethi2023flexshard" and match.by == "arXiv id"


def test_preprint_and_published_titles_are_one_paper() -> None:
    finder = shipped_finder()
    match = finder.find(
        paper(
            title="BagPipe: accelerating deep recommendation model training",
            venue="arXiv",
            year=2022,
        )
    )
    assert match and match.paper.key == "agarwal2023bagpipe" and match.by == "title"
    # a small wording change still matches; the score says how alike
    match = finder.find(
        paper(
            title="Ekko: A Large Scale Deep Learning Recommender System "
            "with Low Latency Model Updates"
        )
    )
    assert match and match.paper.key == "sima2022ekko" and 92 <= match.score < 100


def test_different_papers_are_not_matched() -> None:
    finder = shipped_finder()
    assert (
        finder.find(
            paper(
                title="HET-GMP: A Graph-based System Approach to Scaling Large "
                "Embedding Model Training"
            )
        ).paper.key
        == "miao2022hetgmp"
    )
    assert finder.find(paper(title="HET: Scaling out Huge Embedding Model Training")) is None
    assert finder.find(paper(title="Wide & Deep Learning for Recommender Systems")) is None


def test_conflicting_identifiers_veto_a_title_match() -> None:
    finder = duplicates.Finder.of([paper("a2023t", "Same Title Here", doi="10.1000/a")])
    assert finder.find(paper(title="Same Title Here", doi="10.1000/b")) is None
    assert finder.find(paper(title="Same Title Here")).paper.key == "a2023t"


def test_merge_fills_only_missing_fields_and_records_arxiv() -> None:
    existing = paper(
        "agarwal2023bagpipe", "Bagpipe", doi="10.1145/3600006.3613142", tags=["training"]
    )
    incoming = paper(
        title="BagPipe",
        venue="arXiv",
        year=2022,
        arxiv="2202.12429v1",
        doi="10.48550/arXiv.2202.12429",
        url="https://arxiv.org/abs/2202.12429",
        tags=["caching"],
    )
    plan = duplicates.plan_merge(existing, incoming, VENUES)
    assert plan.fields == {"arxiv": "2202.12429", "url": "https://arxiv.org/abs/2202.12429"}
    assert plan.move_to is None


def test_merge_moves_a_preprint_to_its_published_venue() -> None:
    existing = paper("a2022t", "T", venue="arXiv", year=2022, arxiv="2202.00001")
    incoming = paper(title="T", venue="SOSP", year=2023, doi="10.1145/1", pages="1-10")
    plan = duplicates.plan_merge(existing, incoming, VENUES)
    assert plan.fields == {"doi": "10.1145/1", "pages": "1-10"}
    assert plan.move_to == (2023, "SOSP")
    assert "moved to SOSP 2023" in plan.describe()


def test_find_duplicates_within_a_list() -> None:
    papers = [paper("a", "One Title"), paper("b", "Two"), paper("c", "One title.")]
    assert [(p.key, m.paper.key) for p, m in duplicates.find_duplicates(papers)] == [("c", "a")]


def test_check_reports_a_preprint_and_its_published_version(tmp_path: Path) -> None:
    paths = write_catalog(
        tmp_path,
        papers="""\
        2023:
          SOSP:
            - key: agarwal2023bagpipe
              title: "Bagpipe: Accelerating Deep Recommendation Model Training"
              authors: [Saurabh Agarwal]
              arxiv: "2202.12429"
        2022:
          arXiv:
            - key: agarwal2022bagpipe
              title: "BagPipe: Accelerating Deep Recommendation Model Training"
              authors: [Saurabh Agarwal]
              arxiv: "2202.12429"
        """,
        venues=VENUES_YAML,
    )
    messages = [p.message for p in check(paths)]
    assert any(m.startswith("duplicate arXiv id 2202.12429") for m in messages)
    assert any(m.startswith("title nearly the same as agarwal2023bagpipe") for m in messages)


VENUES_YAML = """\
SOSP:
  kind: conference
  name: ACM Symposium on Operating Systems Principles
arXiv:
  kind: preprint
  name: arXiv
"""


def test_a_title_names_a_paper_by_its_words_or_its_system_name() -> None:
    evstore = next(p for p in reader.load(SEED_CATALOG) if p.key == "kurniawan2023evstore")
    assert duplicates.same_paper_title("EVStore", evstore)  # a table's Name column
    assert duplicates.same_paper_title(
        "evstore: storage and caching capabilities for scaling "
        "embedding tables in deep recommendation systems.",
        evstore,
    )
    assert not duplicates.same_paper_title("Scaling Vision with Sparse Mixture of Experts", evstore)
    assert not duplicates.same_paper_title("", evstore)


# ------------------------------------------------ never a duplicate on a title alone (issue 9)


def test_an_alike_title_with_other_year_and_author_is_only_a_possible_duplicate() -> None:
    din = paper(
        "zhou2018deep",
        "Deep Interest Network for Click-Through Rate Prediction",
        authors=["Guorui Zhou"],
        year=2018,
    )
    dmin = paper(
        "xiao2020deep",
        "Deep Multi-Interest Network for Click-through Rate Prediction",
        authors=["Zhibo Xiao"],
        year=2020,
    )
    match = duplicates.Finder.of([dmin]).find(din)
    assert match is not None and match.by == "title" and not match.sure
    # the year (within one) with the same first author, or without authors (a list's
    # entry), or the first author where a year is unknown, makes it one paper
    assert duplicates.Finder.of([dmin]).find(replace(din, year=2021, authors=["Z. Xiao"])).sure
    assert duplicates.Finder.of([dmin]).find(replace(din, year=2021, authors=[])).sure
    # another first author within the year: two papers (issue 21)
    assert not duplicates.Finder.of([dmin]).find(replace(din, year=2021)).sure
    assert duplicates.Finder.of([dmin]).find(replace(din, year=0, authors=["Zhibo Xiao"])).sure
    assert not duplicates.Finder.of([dmin]).find(replace(din, year=0)).sure
    # a conference paper and its journal version two years on are two catalog entries
    assert not duplicates.Finder.of([dmin]).find(replace(din, authors=["Zhibo Xiao"])).sure


def test_one_title_by_other_first_authors_is_two_papers() -> None:
    """'Deep learning' (LeCun et al., Nature 2015) is not the book 'Deep Learning'
    (Goodfellow et al., 2016): a year apart, no author shared (issue 21, 8)."""
    book = paper("goodfellow2016deep", "Deep Learning", authors=["Ian Goodfellow"], year=2016)
    article = paper(
        "lecun2015deep", "Deep learning", authors=["Yann LeCun", "Yoshua Bengio"], year=2015
    )
    match = duplicates.Finder.of([book]).find(article)
    assert match is not None and not match.sure
    same = replace(article, key="lecun2015deepb", authors=["Y. LeCun"])
    assert duplicates.Finder.of([article]).find(same).sure
    # a DOI agreeing is the same paper whoever the list names first
    doi = replace(book, doi="10.1000/x")
    assert duplicates.Finder.of([doi]).find(replace(article, doi="10.1000/x")).by == "DOI"


def test_a_repeat_finds_its_own_copy_among_papers_of_one_title() -> None:
    """d2l's bibliography names Bellman's 1957 book and his 1966 article: importing it again
    finds each one's own copy, the exact match first (issue 21, 4)."""
    book = paper(
        "bellman1957dynamic", "Dynamic Programming", authors=["Richard Bellman"], year=1957
    )
    article = paper(
        "bellman1966dynamic", "Dynamic programming", authors=["Richard Bellman"], year=1966
    )
    for finder in (duplicates.Finder.of([article, book]), duplicates.Finder.of([book, article])):
        assert finder.find(replace(book, key="")).paper.key == "bellman1957dynamic"
        assert finder.find(replace(article, key="")).paper.key == "bellman1966dynamic"
        assert finder.find(replace(book, key="")).sure


def test_one_title_years_apart_is_two_papers_unless_a_preprint() -> None:
    book = paper(
        "bellman1957dynamic", "Dynamic Programming", authors=["Richard Bellman"], year=1957
    )
    article = paper(
        "bellman1966dynamic", "Dynamic programming", authors=["Richard Bellman"], year=1966
    )
    assert not duplicates.Finder.of([book]).find(article).sure
    preprint = replace(article, year=2019, venue="arXiv")
    assert duplicates.Finder.of([preprint]).find(replace(article, year=2022)).sure


def test_a_pair_marked_distinct_is_never_matched() -> None:
    a = paper(
        "a2021survey", "A Survey on Neural Architecture Search", authors=["Ann Bee"], year=2021
    )
    b = paper(
        "c2021survey",
        "A Survey of Neural Architecture Search",
        authors=["Cy Dee"],
        year=2021,
        distinct=["a2021survey"],
    )
    assert duplicates.Finder.of([a]).find(replace(b, key="c2021survey")) is None
    assert duplicates.Finder.of([a]).find(replace(b, distinct=[], authors=["Ann Bee"])).sure
    assert duplicates.Finder.of([a]).find(replace(b, authors=["Ann Bee"])) is None


def test_import_adds_a_possible_duplicate_and_says_so(tmp_path: Path) -> None:
    from catalog.ingest import importer

    paths = write_catalog(tmp_path)
    text = (
        "@inproceedings{zhou2018din, title = {AdaEmbed: Adaptive Embeddings for Large "
        "Scale Recommendation Models}, author = {Guorui Zhou}, year = 2019, booktitle = "
        "{OSDI}}"
    )
    [outcome] = importer.import_bib(paths, text, "x.bib").outcomes
    assert outcome.action == "added"
    assert outcome.reason.startswith("possible duplicate of lai2023adaembed")
    assert "distinct: [lai2023adaembed]" in outcome.reason


def test_check_stops_flagging_a_pair_marked_distinct(tmp_path: Path) -> None:
    entry = """\
2021:
  SOSP:
    - key: a2021survey
      title: "A Survey on Neural Architecture Search"
      authors: [Ann Bee]
    - key: c2021survey
      title: "A Survey of Neural Architecture Search"
      authors: [Cy Dee]
"""
    venues = "SOSP:\n  kind: conference\n  name: Symposium\n"
    paths = write_catalog(tmp_path / "a", entry, venues)
    flagged = [p for p in check(paths) if "nearly the same" in p.message]
    assert len(flagged) == 1 and "distinct: [a2021survey]" in flagged[0].hint
    marked = write_catalog(tmp_path / "b", entry + "      distinct: [a2021survey]\n", venues)
    assert not [p for p in check(marked) if "nearly the same" in p.message]
