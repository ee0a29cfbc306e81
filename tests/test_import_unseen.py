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


CITED_ITEMS = (
    "## Serving\n\n"
    "- Made-Up Serving of Models for Science. [[Paper]](https://example.org/serve.pdf)\n"
    "  - Example, A., Sample, B. and Placeholder, C., 2019, May.\n"
    "  - In 2019 IEEE International Parallel and Distributed Processing Symposium (IPDPS)"
    " (pp. 283-292). IEEE.\n"
    "- Made-Up Autoscaling of Inference Services [[Paper]](https://example.org/auto.pdf)\n"
    "  - Example, Ann, Bo Sample, and Cy Placeholder.\n"
    "  - In Proceedings of the International Conference for High Performance Computing,"
    " Networking, Storage and Analysis, pp. 1-23. 2019.\n"
    "  - Summary: a made-up autoscaler.\n"
    "- Made-Up Prediction Serving on Dataflow [[Paper]](https://example.org/flow.pdf)\n"
    "  - arXiv preprint arXiv:2399.00007 (2023).\n"
    "- Made-Up Cost-Aware Serving [[Paper]](https://example.org/cost.pdf)\n"
    "  - In 2019 {USENIX} Annual Technical Conference ({USENIX}{ATC} 19) (pp. 1-9).\n"
)


def test_the_citation_lines_under_an_entry_are_its_fields() -> None:
    # 'In Proceedings of ..., pp. 1-23. 2019.' and 'Family, I., ..., 2019, May.' under a
    # title: its authors, venue and year, never papers of their own
    parsed = parse(CITED_ITEMS)
    got = [(e.title, e.authors, e.venue, e.year) for e in parsed.entries]
    assert got == [
        (
            "Made-Up Serving of Models for Science",
            ["A. Example", "B. Sample", "C. Placeholder"],
            "IPDPS",
            2019,
        ),
        (
            "Made-Up Autoscaling of Inference Services",
            ["Ann Example", "Bo Sample", "Cy Placeholder"],
            "International Conference for High Performance Computing, Networking, Storage"
            " and Analysis",
            2019,
        ),
        ("Made-Up Prediction Serving on Dataflow", [], "arXiv", 2023),
        ("Made-Up Cost-Aware Serving", [], "ATC", 2019),
    ]
    assert parsed.entries[2].arxiv == "2399.00007"


def test_a_title_alone_is_a_paper_when_the_items_under_it_give_its_fields() -> None:
    parsed = parse(
        "- Made-Up Serverless Tuning of Video Pipelines\n"
        "  - Ann Example, Bo Sample, and Cy Placeholder (*SoCC 2021*)\n"
        "- Made-Up Line With Nothing Under It\n"
    )
    assert [(e.title, e.authors, e.venue, e.year) for e in parsed.entries] == [
        (
            "Made-Up Serverless Tuning of Video Pipelines",
            ["Ann Example", "Bo Sample", "Cy Placeholder"],
            "SoCC",
            2021,
        )
    ]
    assert {n.line for n in parsed.not_papers if n.listed} == {3}


def test_a_note_that_starts_like_a_venue_is_no_venue() -> None:
    parsed = parse(
        "- A Made-Up Float Format for Training [[Paper]](https://example.org/f.pdf)\n"
        "  - IEEE 754 half precision is used throughout\n"
        "  - In this paper the authors propose a made-up format\n"
    )
    assert [(e.title, e.venue, e.year) for e in parsed.entries] == [
        ("A Made-Up Float Format for Training", None, None)
    ]


def test_a_venue_line_under_no_paper_is_no_paper() -> None:
    parsed = parse(
        "- Made. up: a line whose title does not read [[Paper]](https://example.org/p.pdf)\n"
        "  - Proceedings of the VLDB Endowment 11.5 (2018): 607-620.\n"
    )
    assert parsed.entries == []


def test_a_quoted_reference_gives_its_venue_and_names_before_it() -> None:
    parsed = parse(
        '- Example, Ann, et al. "A Made-Up Cache for Mobile Vision." Proceedings of the 24th'
        " Annual International Conference on Mobile Computing and Networking. 2018."
        " [[Paper]](https://example.org/c.pdf)\n"
        '- Ann Example, Bo Sample, et al. "MadeBench: A Made-Up Benchmark Suite".'
        " [[Paper]](https://example.org/b.pdf)\n"
    )
    got = [(e.title, e.authors, e.et_al, e.venue, e.year) for e in parsed.entries]
    assert got == [
        (
            "A Made-Up Cache for Mobile Vision",
            ["Ann Example"],
            True,
            "Annual International Conference on Mobile Computing and Networking",
            2018,
        ),
        ("MadeBench: A Made-Up Benchmark Suite", ["Ann Example", "Bo Sample"], True, None, None),
    ]


def test_an_acronym_spelled_out_before_it_is_no_venue() -> None:
    # 'Tensor Comprehensions (TC)': TC is a registry venue, but here only the words' initials
    parsed = parse(
        "- Made-Up TC: Tensor Comprehensions (TC) is a made-up library."
        " [[GitHub]](https://github.com/example/tc)\n"
        "- A Made-Up Study of Tensor Layouts (TC) [[Paper]](https://example.org/tc.pdf)\n"
    )
    assert [(e.title, e.venue) for e in parsed.entries] == [
        ("A Made-Up Study of Tensor Layouts", "TC")
    ]


def test_one_arxiv_id_under_a_wholly_other_title_is_a_duplicate(paths, tmp_path) -> None:
    # the same arXiv id is the same paper, whichever title: reported, naming the record
    from catalog.ingest import importer, inbox

    source = tmp_path / "mislinked.md"
    source.write_text(
        "# MoE\n\n- A Made-Up Switch of Experts [[11 Jan 2021]](https://arxiv.org/abs/2399.00021)\n"
        "- A Made-Up Router Choosing Tokens [[18 Feb 2022]](https://arxiv.org/abs/2399.00021)\n",
        encoding="utf-8",
    )
    report = importer.import_file(paths, source)
    filed = inbox.load(paths)
    assert [c.title for c in filed] == ["A Made-Up Switch of Experts"]
    second = report.outcomes[1]
    assert second.action == "duplicate" and second.key == filed[0].id
    assert "2399.00021" in second.reason and "A Made-Up Switch of Experts" in second.reason
    again = importer.import_file(paths, source)  # a re-import adds nothing
    assert len(inbox.load(paths)) == 1
    assert [o.action for o in again.outcomes] == ["inbox", "duplicate"]


def test_a_named_workshop_at_a_conference_is_never_the_conference() -> None:
    text = (
        "- [ML for Made-Up Systems workshop @ NeurIPS'24] [MadeFusion: A Made-Up Kernel Fusion]"
        "(https://openreview.net/forum?id=x)\n"
        "- [MadeNLP @ EMNLP'22] [A Made-Up Elephant of a Model](https://example.org/e.pdf)\n"
    )
    assert fields(text) == [
        ("MadeFusion: A Made-Up Kernel Fusion", "NeurIPS Workshop", 2024),
        ("A Made-Up Elephant of a Model", "MadeNLP", 2022),
    ]


def test_a_publisher_is_no_venue() -> None:
    # a venue cell 'ACM' says who published the paper, not where: no venue, never 'ACM'
    text = (
        "| Paper | Venue | Year |\n|---|---|---|\n"
        "| [A Made-Up Paper With a Publisher Cell](https://example.org/p.pdf) | ACM | 2023 |\n"
        "| [A Made-Up Paper With a Venue Cell](https://example.org/q.pdf) | SIGIR | 2023 |\n"
    )
    assert fields(text) == [
        ("A Made-Up Paper With a Publisher Cell", None, 2023),
        ("A Made-Up Paper With a Venue Cell", "SIGIR", 2023),
    ]


def test_a_title_case_venue_before_its_year_is_no_month() -> None:
    # 'Recsys 2023' read as a date ('March 2023') lost the venue
    text = (
        "+ A Made-Up Cold-Start Recommender, Recsys 2023, [[paper]](https://example.org/a.pdf).\n"
        "+ A Made-Up Planner for Long-Term Recommendation, SIGIR 24, "
        "[[paper]](https://example.org/b.pdf).\n"
        "+ A Made-Up Study of Dates, 8 Feb 2024, [[paper]](https://example.org/c.pdf).\n"
        "+ A Made-Up Benchmark of Ranking 21, [[paper]](https://example.org/d.pdf).\n"
    )
    assert fields(text) == [
        ("A Made-Up Cold-Start Recommender", "Recsys", 2023),
        ("A Made-Up Planner for Long-Term Recommendation", "SIGIR", 2024),
        ("A Made-Up Study of Dates", None, 2024),
        ("A Made-Up Benchmark of Ranking 21", None, None),
    ]


def test_a_titles_own_acronym_stays_in_it() -> None:
    text = "+ Made-Up Recommenders in the Era of Large Language Models (LLMs), arxiv 2023.\n"
    assert fields(text) == [
        ("Made-Up Recommenders in the Era of Large Language Models (LLMs)", "arXiv", 2023)
    ]


def test_a_dated_group_ending_a_links_text_gives_the_year_not_a_venue() -> None:
    # '(Stanford 2017)': an organisation and a year; '(KDD 2018)': a registry venue's tag
    text = (
        "* [[DCM] A Made-Up Cross Network for Clicks (Example University 2017)]"
        "(https://example.org/1.pdf)\n"
        "* [[MCF] A Made-Up Collaborative Model (EXU, 2015)](https://example.org/2.pdf)\n"
        "* [A Made-Up Interest Network (KDD 2018)](https://example.org/3.pdf)\n"
        "* [Made-Up Recommender Systems in the Era of LLMs (llms)](https://example.org/4.pdf)\n"
    )
    assert fields(text) == [
        ("A Made-Up Cross Network for Clicks", None, 2017),
        ("A Made-Up Collaborative Model", None, 2015),
        ("A Made-Up Interest Network", "KDD", 2018),
        ("Made-Up Recommender Systems in the Era of LLMs (llms)", None, None),
    ]


def test_slides_and_profiles_are_not_papers() -> None:
    parsed = parse(
        "* [[Made slides] A Made-Up Talk on Ads (Example Corp 2017)](https://example.org/s.pdf)\n"
        "* [A Made-Up Sampling Slides (Example U 2010)](https://example.org/t.pdf)\n"
        "* 知乎私信: [某人的知乎](https://www.zhihu.com/people/example)\n"
        "* [Made-Up Slides Generation for Papers](https://example.org/p.pdf) KDD'19"
        " [[slides]](https://example.org/p-slides.pdf)\n"
    )
    assert [e.title for e in parsed.entries] == ["Made-Up Slides Generation for Papers"]
    reasons = {n.line: n.reason for n in parsed.not_papers if n.listed}
    assert reasons[1] == reasons[2] == "slides, not a paper"
    assert reasons[3] == "a profile, not a paper"


def test_a_paper_column_of_site_named_links_gives_the_link_and_the_name_the_row() -> None:
    # '[mlr.press](url)', '[arxiv](url)', '[ieee](url)': the paper's link, never its title
    # or venue; the row is filed under the system's name, the Year column's venue kept
    text = (
        "| Name | Description | Organization | Paper | Framework | Year | Auto Methods |\n"
        "|---|---|---|---|---|---|---|\n"
        "| MadePlace | made-up placement by a learned policy | Example Lab |"
        " [mlr.press](https://proceedings.example.org/v70/made.pdf) | Tensorflow | PMLR 70, 2017"
        " | Reinforce LSTM search |\n"
        "| MadePipe | no implementation here | Example Corp |"
        " [arxiv](https://arxiv.org/abs/2399.00030) | None | 2018 on arxiv | manual split |\n"
        "| MadeFlow | a made-up framework of strategies | Example U |"
        " [ieee](https://ieeexplore.ieee.org/document/1) | Made | ICLR 2019 | graph search |\n"
    )
    got = [(e.title, e.nickname, e.venue, e.year, e.url) for e in parse(text).entries]
    assert got == [
        ("", "MadePlace", None, 2017, "https://proceedings.example.org/v70/made.pdf"),
        ("", "MadePipe", None, 2018, "https://arxiv.org/abs/2399.00030"),
        ("", "MadeFlow", "ICLR", 2019, "https://ieeexplore.ieee.org/document/1"),
    ]


def test_a_summary_table_of_names_without_links_is_no_papers() -> None:
    # '| Name | Method Type | Year |': names and a year, nothing that finds a paper
    parsed = parse(
        "| Name | Method Type | Parallelism | Year |\n|---|---|---|---|\n"
        "| MadePlace | Reinforcement | MP | 2017 |\n| MadePipe | Search | PP | 2018 |\n"
    )
    assert parsed.entries == []
    assert {n.reason for n in parsed.not_papers if n.listed} == {
        "a row that names a system, with no title or link to a paper"
    }


def test_a_candidate_filed_under_a_clashing_id_is_found_again(paths, tmp_path) -> None:
    # two rows of one name and year but other nicknames: the second is filed under the
    # digest of the first one's id, and a re-import finds it there (never a third record)
    from catalog.ingest import importer, inbox

    source = tmp_path / "clash.md"
    source.write_text(
        "| Name | Paper | Year |\n|---|---|---|\n"
        "| MadeGraph | [arxiv](https://arxiv.org/abs/2399.00041) | 2019 |\n\n"
        "| Paper | System | Year |\n|---|---|---|\n"
        "| MadeGraph | Made Engine | 2019 |\n",
        encoding="utf-8",
    )
    importer.import_file(paths, source)
    first = [(c.id, c.title, c.nickname) for c in inbox.load(paths)]
    assert len(first) == 2 and len({i for i, _t, _n in first}) == 2
    importer.import_file(paths, source)
    assert [(c.id, c.title, c.nickname) for c in inbox.load(paths)] == first


def test_a_link_to_a_publishers_article_page_is_the_papers_link() -> None:
    entry = parse(
        "- Made-Up Cost-Effective Pre-Trained Models [[Made-Up Open]]"
        "(https://www.sciencedirect.com/science/article/pii/S0000000000000001)\n"
    ).entries[0]
    assert entry.title == "Made-Up Cost-Effective Pre-Trained Models"
    assert entry.url == "https://www.sciencedirect.com/science/article/pii/S0000000000000001"
