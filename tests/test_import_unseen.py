"""Issue 33, lists not seen before: each cause from a shape written here (after public
lists of CTR models, GNN systems, MoE and LLM-for-recommendation papers)."""

from __future__ import annotations

from catalog.data.registry import load_venues
from catalog.ingest import listfields, lists
from tests.conftest import REPO

REGISTRY = load_venues(REPO / "data" / "venues.yaml")


def parse(text: str) -> listfields.Parsed:
    return lists.parse(text, REGISTRY)


def fields(text: str) -> list[tuple[str, str | None, int | None]]:
    return [(e.title, e.venue, e.year) for e in parse(text).entries]


def test_tags_that_open_a_links_text_are_its_fields() -> None:
    # '[[NICK][VENUE YY][ORG] Title](url)': the tags are fields, the rest the title
    text = (
        "## CTR\n\n"
        "* [[DMN][KDD 18][Example Corp] A Made-Up Deep Memory Network for Clicks]"
        "(https://example.org/dmn.pdf)\n"
        "* [[WSDM 19][Example Lab] A Made-Up Correction for Slate Ranking]"
        "(https://example.org/slate.pdf)\n"
        "* [[MTR][arxiv 19] A Made-Up Multi-Task Ranker](https://example.org/mtr.pdf)\n"
        "* [[OLD][DLRS 98] A Made-Up Ranker of the Last Century](https://example.org/old.pdf)\n"
    )
    assert fields(text) == [
        ("A Made-Up Deep Memory Network for Clicks", "KDD", 2018),
        ("A Made-Up Correction for Slate Ranking", "WSDM", 2019),
        ("A Made-Up Multi-Task Ranker", "arXiv", 2019),
        ("A Made-Up Ranker of the Last Century", "DLRS", 1998),
    ]


def test_a_venue_and_two_digit_year_is_a_tag_only_in_brackets() -> None:
    # a title may end in a number: 'Made-Up Benchmark 21' is no venue and year
    assert fields("- [A Made-Up Ranking Benchmark 21](https://example.org/b.pdf)\n") == [
        ("A Made-Up Ranking Benchmark 21", None, None)
    ]
    assert listfields.bracket_tag("[made up words 21]", set()) is None
    assert listfields.bracket_tag("[DLP-KDD 19]", set()) == ("DLP-KDD", 2019, None)


def test_a_colon_written_as_a_file_name_writes_it_is_a_colon() -> None:
    # titles copied from PDF file names, where a colon cannot stand
    text = (
        "- [KDD'18] [DeepMade_A Made-Up Network for Click Prediction](https://example.org/1.pdf)\n"
        "- [KDD'14] [MadeWalk- Online Learning of Made-Up Walks](https://example.org/2.pdf)\n"
        "- [KDD'17] [A Made-Up Study of tf_data Pipelines](https://example.org/3.pdf)\n"
    )
    assert [t for t, _v, _y in fields(text)] == [
        "DeepMade: A Made-Up Network for Click Prediction",
        "MadeWalk: Online Learning of Made-Up Walks",
        "A Made-Up Study of tf_data Pipelines",
    ]


def test_a_paper_on_a_library_is_a_paper_but_the_library_is_not() -> None:
    # '### GNN Libraries' under '## Papers': rows with their own venue and year are papers
    text = (
        "## Open Source Libraries\n\n"
        "- [MadeGraph: A Made-Up Graph Library](https://github.com/example/madegraph)\n\n"
        "## Papers\n\n### GNN Libraries\n\n"
        "| Venue | Title | Affiliation | Link |\n|---|---|---|---|\n"
        "|JMLR 2021|MadeGraph: A Made-Up Library for Graph Learning|Example U| "
        "[[paper]](https://arxiv.org/abs/2399.00001)|\n\n"
        "## Tools\n\n- [MadeTool: A Made-Up Profiler](https://example.org/madetool)\n"
    )
    parsed = parse(text)
    assert [(e.title, e.venue, e.year) for e in parsed.entries] == [
        ("MadeGraph: A Made-Up Library for Graph Learning", "JMLR", 2021)
    ]
    reasons = {n.line: n.reason for n in parsed.not_papers if n.listed}
    assert reasons[3] == "a GitHub repository, not a paper"
    assert "a section that is not papers" in reasons[15]


def test_a_venue_cell_gives_its_year() -> None:
    text = (
        "| Venue | Title | Link |\n|---|---|---|\n"
        "|Proceedings of the Example Society 2023|A Made-Up Survey of Graph Training|"
        " [[paper]](https://example.org/s.pdf)|\n"
        "|CSUR 2022|A Made-Up Survey of Graph Accelerators| [[paper]](https://example.org/t.pdf)|\n"
    )
    assert fields(text) == [
        ("A Made-Up Survey of Graph Training", "Proceedings of the Example Society", 2023),
        ("A Made-Up Survey of Graph Accelerators", "CSUR", 2022),
    ]


def test_a_link_to_a_doi_is_the_papers_link_whatever_its_text() -> None:
    # '[[Journal Name]](doi link)': no venue tag, no year, but the link names the paper
    entry = parse(
        "- Mixtures of Made-Up Experts: A Survey [[Made-Up Review]]"
        "(https://link.springer.com/article/10.1007/s99999-012-0000-y)\n"
    ).entries[0]
    assert entry.title == "Mixtures of Made-Up Experts: A Survey"
    assert entry.doi == "10.1007/s99999-012-0000-y"


def test_a_title_cell_with_a_series_of_capitalised_words_is_whole() -> None:
    # 'Provider Fairness, Temporal Stability, and Recency': no name cuts a title cell
    text = (
        "| Name | Paper | Venue |\n|---|---|---|\n"
        "| MADE | Made-Up Biases in Rankers: Provider Fairness, Temporal Stability, and "
        "Recency | Arxiv 2024 |\n"
    )
    assert fields(text) == [
        (
            "Made-Up Biases in Rankers: Provider Fairness, Temporal Stability, and Recency",
            "arXiv",
            2024,
        )
    ]
