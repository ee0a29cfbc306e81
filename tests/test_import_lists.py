"""papers import of awesome-list Markdown in the forms found on real lists (excerpts inline)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from catalog.data import reader
from catalog.ingest import importer, listfields, lists
from catalog.paths import Paths
from tests.test_fetch import Online, atom_entry, online  # noqa: F401 (fixture)


def write(tmp_path: Path, text: str, name: str = "list.md") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# From codecaution/Awesome-Mixture-of-Experts-Papers: '+<TAB>**Title** [[pdf]](url) VENUE YEAR'
# with the authors in italics below. The 'Scaling Vision' entry links Switch Transformers'
# arXiv id (a mistake of the list).
MOE_AWESOME = (
    "## Algorithm\n"
    "\n"
    "### 2022\n"
    "+\t**Unified Scaling Laws for Routed Language Models** [[pdf]](https://arxiv.org/abs/"
    "2202.01169) arXiv 2022\n"
    "\n"
    "\t*Aidan Clark, Diego de las Casas, Aurelia Guy, Arthur Mensch, Michela Paganini, Jordan "
    "Hoffmann, Bogdan Damoc*\n"
    "\n"
    "+\t**Taming Sparsely Activated Transformer with Stochastic Experts** [[pdf]](https://arxiv"
    ".org/abs/2110.04260) ICLR 2022\n"
    "\n"
    "\t*Simiao Zuo, Xiaodong Liu, Jian Jiao, Young Jin Kim, Hany Hassan, Ruofei Zhang, Tuo Zhao,"
    " Jianfeng Gao*\n"
    "\t \n"
    "### 2021\n"
    "\n"
    "+ **Switch Transformers: Scaling to Trillion Parameter Models with Simple and Efficient "
    "Sparsity** [[pdf]](https://arxiv.org/abs/2101.03961) arXiv 2021\n"
    "\n"
    "\t*William Fedus, Barret Zoph, Noam Shazeer*\n"
    "\n"
    "+\t**Scaling Vision with Sparse Mixture of Experts.** [[pdf](https://arxiv.org/abs/2101."
    "03961)] NeurIPS 2021\n"
    "\n"
    "\t*Carlos Riquelme, Joan Puigcerver, Basil Mustafa, Maxim Neumann, Rodolphe Jenatton, "
    "André Susano Pinto, Daniel Keysers, Neil Houlsby*\n"
    "\n"
    "+\t**Sparse MoEs meet Efficient Ensembles** [[pdf]](https://arxiv.org/abs/2110.03360) "
    "arXiv 2021\n"
    "\n"
    "1. **Hash Layers For Large Sparse Models** [[pdf](https://openreview.net/pdf?id=lMgDDWb1ULW)"
    "] NeurIPS 2021\n"
    "\n"
    "\t*Stephen Roller, Sainbayar Sukhbaatar, et al.*\n"
)


def test_bold_titles_with_pdf_links_venue_after_and_author_lines() -> None:
    parsed = lists.parse(MOE_AWESOME)
    got = [(e.line, e.title, e.venue, e.year, e.arxiv) for e in parsed.entries]
    assert got == [
        (4, "Unified Scaling Laws for Routed Language Models", "arXiv", 2022, "2202.01169"),
        (
            8,
            "Taming Sparsely Activated Transformer with Stochastic Experts",
            "ICLR",
            2022,
            "2110.04260",
        ),
        (
            14,
            "Switch Transformers: Scaling to Trillion Parameter Models with Simple and "
            "Efficient Sparsity",
            "arXiv",
            2021,
            "2101.03961",
        ),
        (18, "Scaling Vision with Sparse Mixture of Experts", "NeurIPS", 2021, "2101.03961"),
        (22, "Sparse MoEs meet Efficient Ensembles", "arXiv", 2021, "2110.03360"),
        (24, "Hash Layers For Large Sparse Models", "NeurIPS", 2021, None),
    ]
    by_line = {e.line: e for e in parsed.entries}
    assert by_line[4].url == "https://arxiv.org/abs/2202.01169"
    assert by_line[24].url == "https://openreview.net/pdf?id=lMgDDWb1ULW"
    # The italic line under an entry is its authors, as written, when plainly names
    assert by_line[4].authors[:2] == ["Aidan Clark", "Diego de las Casas"]
    assert len(by_line[4].authors) == 7
    assert by_line[18].authors[5] == "André Susano Pinto"
    assert by_line[22].authors == []  # no author line: none made up
    # names then 'et al.': the names as written, and the list's 'et al.' kept (issue 21)
    assert (by_line[24].authors, by_line[24].et_al) == (
        ["Stephen Roller", "Sainbayar Sukhbaatar"],
        True,
    )
    reasons = {n.line: n for n in parsed.not_papers}
    assert "authors of the entry on line 4" in reasons[6].reason and not reasons[6].listed
    assert "authors of the entry on line 24" in reasons[26].reason
    assert set(reasons) == {6, 10, 16, 20, 26}  # author lines are never paper lines


def test_list_authors_let_an_entry_in_others_need_metadata_or_are_mislinked(
    shipped: Paths, tmp_path: Path
) -> None:
    report = importer.import_file(shipped, write(tmp_path, MOE_AWESOME))
    outcomes = {o.line: o for o in report.outcomes}
    assert len(outcomes) == 6  # every entry accounted for
    assert (outcomes[4].action, outcomes[4].key) == ("added", "clark2022unified")
    assert (outcomes[8].action, outcomes[8].key) == ("added", "zuo2022taming")
    assert (outcomes[14].action, outcomes[14].key) == ("duplicate", "fedus2022switch")
    # Its link gives Switch Transformers' arXiv id: refused, not merged into that paper
    assert outcomes[18].action == "refused"
    assert "2101.03961 is fedus2022switch" in outcomes[18].reason
    assert outcomes[22].action == "inbox" and "the list gives no authors" in outcomes[22].reason
    assert (outcomes[24].action, outcomes[24].key) == ("added", "roller2021hash")
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    clark = papers["clark2022unified"]
    assert (clark.venue, clark.year, clark.arxiv) == ("arXiv", 2022, "2202.01169")
    assert clark.authors[1] == "Diego de las Casas" and len(clark.authors) == 7
    assert papers["zuo2022taming"].venue == "ICLR"


@pytest.mark.parametrize(
    "line",
    [
        "Aidan Clark, Diego de las Casas, Jack Rae",
        "Nan Du, Andrew M. Dai, Quoc V Le, Ed H. Chi",
        "George van den Driessche, Marc'Aurelio Ranzato and Ze-Feng Gao",
        "Tianxiao Shen",
    ],
)
def test_plain_names(line: str) -> None:
    assert listfields.plain_names(line) == [
        n.strip() for n in line.replace(" and ", ", ").split(",")
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Stephen Roller, Sainbayar Sukhbaatar, et al.",
        "Meta AI, UChicago",  # one-word part, all-capitals word
        "UW-Madison & UChicago",
        "Tencent",
        "Proposed by Google in 2021",
        "Jiaao He, Jiezhong Qiu, 2021",
        "A caching layer optimized for embedding access patterns",
    ],
)
def test_not_plain_names(line: str) -> None:
    assert listfields.plain_names(line) is None


# min/m1.md .. m10.md: the same paper in each form the lists use
@pytest.mark.parametrize(
    ("text", "venue", "year"),
    [
        (
            "+ **FastMoE: A Fast Mixture-of-Expert Training System** [[pdf](https://arxiv.org/abs/"
            "2103.13262)] arXiv 2021\n",
            "arXiv",
            2021,
        ),
        (
            "- **FastMoE: A Fast Mixture-of-Expert Training System** [[pdf]](https://arxiv.org/abs/"
            "2103.13262) arXiv 2021\n",
            "arXiv",
            2021,
        ),
        (
            "+\t[FastMoE: A Fast Mixture-of-Expert Training System](https://arxiv.org/abs/2103.13262)"
            " arXiv 2021\n",
            "arXiv",
            2021,
        ),
        (
            "- [FastMoE: A Fast Mixture-of-Expert Training System](https://arxiv.org/abs/2103.13262)\n",
            None,
            None,
        ),
        (
            "## 2021\n\n- [FastMoE: A Fast Mixture-of-Expert Training System](https://arxiv.org/abs/"
            "2103.13262)\n",
            None,
            2021,
        ),
        (
            "### 2021\n+ **FastMoE: A Fast Mixture-of-Expert Training System** [[pdf](https://arxiv."
            "org/abs/2103.13262)] arXiv 2021\n",
            "arXiv",
            2021,
        ),
    ],
)
def test_each_form_of_one_entry(
    shipped: Paths, tmp_path: Path, text: str, venue: str | None, year: int | None
) -> None:
    [entry] = lists.parse(text).entries
    assert entry.title == "FastMoE: A Fast Mixture-of-Expert Training System"
    assert (entry.venue, entry.year, entry.arxiv) == (venue, year, "2103.13262")
    [outcome] = importer.import_file(shipped, write(tmp_path, text)).outcomes
    assert (outcome.action, outcome.key) == ("duplicate", "he2021fastmoe")


def test_a_linked_title_alone_is_a_candidate_filed_with_what_it_lacks(run, tmp_path: Path) -> None:
    lst = write(
        tmp_path,
        """\
        - [Paper List for Machine Learning Systems](#paper-list-for-machine-learning-systems)
        - [Quokka: Sharding Tables Nobody Has Heard Of](https://example.org/quokka.pdf)
        - **Not a title, a bold category**
        * DLRM: Deep Learning Recommendation Model
        """,
    )
    data = json.loads(run("import", str(lst), "--json").stdout)
    [outcome] = data["outcomes"]
    assert outcome["line"] == 2 and outcome["action"] == "inbox"
    assert "the list gives no authors, venue or year" in outcome["reason"]
    assert [(n["line"], n["reason"]) for n in data["not_papers"]] == [
        (1, "a link within the site, not to a paper"),
        (3, "no venue, year or link to a paper"),
        (4, "no venue, year or link to a paper"),
    ]
    shown = run("import", str(lst)).output
    assert "list.md:1: not a paper: - [Paper List for Machine" in shown
    assert "list.md:2: inbox: Quokka" in shown


# byungsoo-oh/ml-systems-papers: tags before the title, a link over two lines, notes after
MLSYS = """\
#### 1.1.4 Specific workloads (GNN, DLRM)
- [RecSys'23] [InTune: Reinforcement Learning-based Data Pipeline Optimization for Deep Recommendation Models
](https://arxiv.org/abs/2308.08500)
- [arxiv'23] MTrainS: Improving DLRM training efficiency using heterogeneous memories

- [Survey :mag:] [ACM CSUR'23] [Deep Learning Workload Scheduling in GPU Datacenters: A Survey](https://dl.acm.org/doi/10.1145/3638757)
- [EuroSys'23] SiloD: A Co-design of Caching and Scheduling for Deep Learning Clusters [also in [2.1](#21-dl-scheduling)]
- [Survey :mag:] [arxiv, 2022] [Deep Learning Workload Scheduling in GPU Datacenters: Taxonomy, Challenges and Vision](https://arxiv.org/abs/2205.11913)
- [SIGCOMM'22] Multi-resource interleaving for deep learning training (`Muri`)
- [SC'21] [Characterization and Prediction of Deep Learning
"""


def test_tagged_bullets_with_several_bracket_groups_and_a_split_link() -> None:
    parsed = lists.parse(MLSYS)
    got = [(e.line, e.venue, e.year, e.title) for e in parsed.entries]
    assert got == [
        (
            2,
            "RecSys",
            2023,
            "InTune: Reinforcement Learning-based Data Pipeline Optimization "
            "for Deep Recommendation Models",
        ),
        (
            4,
            "arXiv",
            2023,
            "MTrainS: Improving DLRM training efficiency using heterogeneous memories",
        ),
        (6, "ACM CSUR", 2023, "Deep Learning Workload Scheduling in GPU Datacenters: A Survey"),
        (
            7,
            "EuroSys",
            2023,
            "SiloD: A Co-design of Caching and Scheduling for Deep Learning Clusters",
        ),
        (
            8,
            "arXiv",
            2022,
            "Deep Learning Workload Scheduling in GPU Datacenters: Taxonomy, Challenges and Vision",
        ),
        (9, "SIGCOMM", 2022, "Multi-resource interleaving for deep learning training"),
    ]
    assert parsed.entries[0].url == "https://arxiv.org/abs/2308.08500"
    assert parsed.entries[2].doi == "10.1145/3638757"
    assert parsed.entries[4].arxiv == "2205.11913"
    # line 3 is part of line 2's entry; the link never closed on line 10 is not guessed at
    assert [(n.line, n.reason) for n in parsed.not_papers] == [(10, "a link that is never closed")]


def test_json_lists_the_lines_that_are_not_papers(run, tmp_path: Path) -> None:
    data = json.loads(run("import", str(write(tmp_path, MLSYS)), "--json").stdout)
    assert [o["line"] for o in data["outcomes"]] == [2, 4, 6, 7, 8, 9]
    assert data["skipped_lines"] == 1
    assert data["not_papers"] == [
        {
            "line": 10,
            "text": "- [SC'21] [Characterization and Prediction of Deep Learning",
            "reason": "a link that is never closed",
        }
    ]


# A '| **Title** | **Key Words** |' table (MoE papers, venue tags in the title cell), and a
# Name | Conference table with links in HTML (a deep-learning recommender systems list).
MOE_TABLE = """\
### MoE Related

| **Title**                                                                                 | **Key Words**               |
|-------------------------------------------------------------------------------------------|-----------------------------|
| Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer [ICLR'17] | RNN-based 137B model        |
| GLaM: Efficient Scaling of Language Models with Mixture-of-Experts                        |                             |
| Switch Transformers: Scaling to Trillion Parameter Models with Simple and Efficient Sparsity[JMLR'22] | Top-1 gating |
| Optimizing Dynamic Neural Networks with Brainstorm [OSDI'23]                              |                             |
|                                                                                           | a row with no title         |
"""
DLRS_TABLE = """\
## Optimizing Embedding Tables

|      Name     | Conference                                                 | Links  | Remarks  |
| :-----------: | ---------------------------------------------------------- | ------ | -------- |
|  **EVStore**  | [ASPLOS 2023](../../reading-notes/conference/asplos-2023/) | <ul><li><a href="../../reading-notes/conference/asplos-2023/evstore.md">Personal Notes</a></li><li><a href="https://dl.acm.org/doi/10.1145/3575693.3575718">Paper</a></li></ul> | A _caching_ layer. |
| **DisaggRec** | arXiv 2212.00939                                           | <ul><li><a href="https://arxiv.org/abs/2212.00939">Paper</a></li></ul> | _Disaggregated_ system. |
|     **x**     | [ASPLOS 2023](../asplos-2023/)                             |        |          |
"""


def test_tables_with_venue_tags_in_the_title_cell_and_name_columns() -> None:
    parsed = lists.parse(MOE_TABLE)
    assert [(e.line, e.title.split(":")[0], e.venue, e.year) for e in parsed.entries] == [
        (5, "Outrageously Large Neural Networks", "ICLR", 2017),
        (6, "GLaM", None, None),
        (7, "Switch Transformers", "JMLR", 2022),
        (8, "Optimizing Dynamic Neural Networks with Brainstorm", "OSDI", 2023),
    ]
    assert [(n.line, n.reason, n.listed) for n in parsed.not_papers] == [
        (9, "a table row with no title", True)
    ]
    parsed = lists.parse(DLRS_TABLE)
    assert [(e.title, e.venue, e.year, e.doi, e.arxiv, e.url) for e in parsed.entries] == [
        (
            "EVStore",
            "ASPLOS",
            2023,
            "10.1145/3575693.3575718",
            None,
            "https://dl.acm.org/doi/10.1145/3575693.3575718",
        ),
        ("DisaggRec", "arXiv", 2022, None, "2212.00939", "https://arxiv.org/abs/2212.00939"),
    ]
    assert [(n.line, n.listed) for n in parsed.not_papers] == [(7, True)]
    assert "'x' does not look like a paper's title" in parsed.not_papers[0].reason


def test_table_rows_find_papers_by_their_links_and_dropped_rows_are_shown(
    run, shipped: Paths, tmp_path: Path
) -> None:
    before = shipped.catalog.read_bytes()
    result = run("import", str(write(tmp_path, DLRS_TABLE, "dlrs.md")))
    assert result.exit_code == 0, result.output
    # found by its DOI link only: the DOI is not written anywhere
    assert (
        "dlrs.md:5: duplicate: EVStore — already in the catalog as kurniawan2023evstore "
        "(same DOI)" in result.output
    )
    assert "dlrs.md:6: inbox: DisaggRec — filed in the inbox as " in result.output
    assert (
        "dlrs.md:7: not a paper: |     **x**     | [ASPLOS 2023](../asplos-2023/)" in result.output
        and "'x' does not look like a paper's title" in result.output
    )
    assert shipped.catalog.read_bytes() == before
    result = run("import", str(write(tmp_path, MOE_TABLE, "moe.md")), "--json")
    data = json.loads(result.stdout)
    assert [(o["line"], o["action"]) for o in data["outcomes"]] == [
        (5, "duplicate"),
        (6, "inbox"),
        (7, "duplicate"),
        (8, "inbox"),
    ]
    assert data["not_papers"][0]["line"] == 9


def test_links_give_ids_and_bold_lines_under_a_venue_heading_are_not_papers() -> None:
    text = (
        "## ASPLOS 2023\n"
        "* EVStore: Storage and Caching Capabilities for Scaling Embedding Tables in Deep "
        "Recommendation Systems ([ASPLOS 2023](../../reading-notes/conference/asplos-2023/)) "
        "\\[[Paper](https://dl.acm.org/doi/10.1145/3575693.3575718)] "
        "\\[[Code](https://github.com/ucare-uchicago/ev-store-dlrm)]\n"
        "- [GRACE: A Scalable Graph-Based Approach](../notes/grace.md)\n"
        "- **Papers we liked**\n"
    )
    parsed = lists.parse(text)
    assert [(e.line, e.venue, e.year, e.doi) for e in parsed.entries] == [
        (2, "ASPLOS", 2023, "10.1145/3575693.3575718"),
        (3, "ASPLOS", 2023, None),
    ]
    assert [(n.line, n.listed) for n in parsed.not_papers] == [(4, True)]


def test_fetch_gives_a_title_alone_its_authors_venue_and_year(
    shipped: Paths, tmp_path: Path, online: Online
) -> None:
    online.arxiv["2399.00002"] = atom_entry(
        "2399.00002",
        "Numbat: Sharding Tables Across Many Small Machines",
        ["Cy Sample", "Di Placeholder"],
        "2023-09-03T10:00:00Z",
    )
    lst = write(
        tmp_path,
        "- [Numbat: Sharding Tables Across Many Small Machines]"
        "(https://arxiv.org/abs/2399.00002)\n",
    )
    [outcome] = importer.import_file(shipped, lst, fetch=True).outcomes
    assert outcome.action == "added", outcome.reason
    paper = next(p for p in reader.load(shipped.catalog) if p.key == outcome.key)
    assert (paper.venue, paper.year, paper.authors) == (
        "arXiv",
        2023,
        ["Cy Sample", "Di Placeholder"],
    )


# From hegongshan/Recommender-Systems-Paper: an empty link '[[PDF]()]' after a bold title.
EMPTY_LINK = (
    "* [2016] **Ranking-Oriented Collaborative Filtering: A Listwise Approach**. [[PDF]()]\n"
    "* [2020 RecSys] **Neural Collaborative Filtering vs. Matrix Factorization Revisited**. "
    "[[PDF](https://arxiv.org/pdf/2005.09683.pdf)] [[Codes](https://github.com/google-research/"
    "google-research/tree/master/dot_vs_learned_similarity)]\n"
)


def test_an_empty_link_is_no_link_not_a_crash() -> None:
    parsed = lists.parse(EMPTY_LINK)
    lines = {e.line: e for e in parsed.entries} | {n.line: n for n in parsed.not_papers}
    assert set(lines) == {1, 2}
    assert all(getattr(e, "url", None) != "" for e in parsed.entries)
    second = lines[2]
    assert isinstance(second, listfields.Entry) and second.arxiv == "2005.09683"
