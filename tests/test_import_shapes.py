"""The list shapes of real awesome lists and bibliographies, in the example files we ship
(examples/, our own writing): every line accounted for, nothing guessed."""

from __future__ import annotations

from catalog import importer, inbox, mdlist, source
from catalog.paths import Paths
from catalog.venues import load_venues
from tests.conftest import REPO, write_catalog

EXAMPLES = REPO / "examples"
REGISTRY = load_venues(REPO / "data" / "venues.yaml")


def tiny(folder) -> Paths:
    """A tiny catalog with the shipped registry: the examples' papers are all new to it."""
    return write_catalog(folder, venues=(REPO / "data" / "venues.yaml").read_text(
        encoding="utf-8"))


def parse(name: str) -> mdlist.Parsed:
    return mdlist.parse((EXAMPLES / name).read_text(encoding="utf-8"), REGISTRY)


def test_awesome_list_shapes() -> None:
    parsed = parse("awesome-list.md")
    got = {e.line: (e.title, e.venue, e.year) for e in parsed.entries}
    assert got == {
        5: ("Deep Interest Network for Click-Through Rate Prediction", "KDD", 2018),
        6: ("Wide & Deep Learning for Recommender Systems", "DLRS", 2016),  # '[EN]' dropped
        7: ("Neural Collaborative Filtering", None, 2017),  # '(2017, He)': the year only
        14: ("Self-Attentive Sequential Recommendation", "ICDM", 2018),  # a sub-bullet
        15: ("A Made-Up Paper on Session Graphs", "SIGIR", 2022),
        16: ("A Made-Up Workshop Paper on Serving Recommenders", "EuroMLSys", 2024),
    }
    assert all(not e.authors for e in parsed.entries)  # a surname alone is not the authors
    reasons = {n.line: n.reason for n in parsed.not_papers if n.listed}
    assert "'201' is not a year" in reasons[8] and "never guessed" in reasons[8]
    assert "no space before the venue" in reasons[9]
    assert reasons[13] == "no venue, year or link to a paper"  # the topic bullet
    assert reasons[20] == "a GitHub repository, not a paper"
    assert reasons[21] == "a video, not a paper"


def test_authored_list_gives_authors_links_and_et_al() -> None:
    parsed = parse("authored-list.md")
    got = [(e.title, e.year, e.authors, e.et_al, e.url) for e in parsed.entries]
    assert got == [
        ("Matrix Factorization Techniques for Recommender Systems", 2009,
         ["Y. Koren", "R. Bell", "C. Volinsky"], False, "https://example.org/mf.pdf"),
        ("Factorization Machines", 2010, ["S. Rendle"], False, "https://example.org/fm.pdf"),
        ("A Made-Up Paper on Two-Tower Retrieval", 2021, ["A. Example", "B. Sample"], True,
         "https://example.org/two-tower.pdf")]


def test_table_list_takes_venue_and_year_from_headings_and_the_authors_column() -> None:
    parsed = parse("table-list.md")
    got = [(e.title, e.venue, e.year, e.authors, e.et_al, e.url) for e in parsed.entries]
    assert got == [
        ("Deep Neural Networks for YouTube Recommendations", "RecSys", 2016,
         ["Paul Covington", "Jay Adams", "Emre Sargin"], False,
         "https://example.org/youtube.pdf"),
        ("A Made-Up Paper on Slate Ranking", "RecSys", 2016, ["Ann Example", "Bo Sample"],
         True, None),
        ("A Made-Up Paper on Dense Retrieval for Recommendation", "SIGIR", 2022,
         ["Cy Placeholder"], False, None)]


def test_every_example_line_is_accounted_for(tmp_path) -> None:
    shipped = tiny(tmp_path)
    for name in ("awesome-list.md", "authored-list.md", "table-list.md"):
        path = EXAMPLES / name
        report = importer.import_file(shipped, path)
        text = path.read_text(encoding="utf-8").splitlines()
        accounted = {o.line for o in report.outcomes} | set(report.skipped_lines)
        content = {i for i, line in enumerate(text, 1)
                   if line.strip() and not line.startswith("#")
                   and not set(line.strip()) <= set("|-: ")}
        header_rows = {i for i, line in enumerate(text, 1) if line.startswith("| Title")}
        assert content - header_rows <= accounted, (name, sorted(content - accounted))
    assert len(inbox.load(shipped)) == 9  # the entries without authors, venue or year
    keys = {p.key for p in source.load(shipped.catalog)}
    assert {"covington2016deep", "placeholder2022made"} <= keys


def test_example_bib_imports_with_notes_and_one_refusal(tmp_path) -> None:
    shipped = tiny(tmp_path)
    report = importer.import_file(shipped, EXAMPLES / "recsys.bib")
    by_key = {o.source_key: o for o in report.outcomes}
    assert by_key["noauthor2020"].action == "refused"
    assert report.count("added") + report.count("duplicate") == 8
    papers = {p.key: p for p in source.load(shipped.catalog)}
    ranking = papers["example2018ranking"]
    assert (ranking.venue, ranking.year, ranking.articleno, ranking.numpages) == (
        "TKDE", 2018, "12", "9")
    assert papers["zhou2018deep"].venue == "KDD" and papers["zhou2018deep"].et_al
    assert papers["he2017neural"].venue == "WWW"
    serving = papers["example2019serving"]
    assert serving.doi is None and serving.url is None
    assert papers["sample2023made"].arxiv_class == "cs"
    chapter = papers["example2016neighbours"]  # a book chapter, with its book
    assert (chapter.venue, chapter.booktitle, chapter.editors, chapter.publisher,
            chapter.chapter) == ("Chapter", "A Made-Up Handbook of Recommender Systems",
                                 ["Cy Placeholder", "Di Example"], "Example Press", "4")
