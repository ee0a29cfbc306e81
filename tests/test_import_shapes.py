"""The list shapes of real awesome lists and bibliographies, in the example files we ship
(examples/, our own writing): every line accounted for, nothing guessed."""

from __future__ import annotations

import pytest

from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.ingest import importer, inbox, listfields, listimport, lists
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog
from tests.test_import_hostile import hang_guard

EXAMPLES = REPO / "examples"
REGISTRY = load_venues(REPO / "data" / "venues.yaml")


def tiny(folder) -> Paths:
    """A tiny catalog with the shipped registry: the examples' papers are all new to it."""
    return write_catalog(folder, venues=(REPO / "data" / "venues.yaml").read_text(encoding="utf-8"))


def parse(name: str) -> listfields.Parsed:
    return lists.parse((EXAMPLES / name).read_text(encoding="utf-8"), REGISTRY)


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
        (
            "Matrix Factorization Techniques for Recommender Systems",
            2009,
            ["Y. Koren", "R. Bell", "C. Volinsky"],
            False,
            "https://example.org/mf.pdf",
        ),
        ("Factorization Machines", 2010, ["S. Rendle"], False, "https://example.org/fm.pdf"),
        (
            "A Made-Up Paper on Two-Tower Retrieval",
            2021,
            ["A. Example", "B. Sample"],
            True,
            "https://example.org/two-tower.pdf",
        ),
    ]


def test_table_list_takes_venue_and_year_from_headings_and_the_authors_column() -> None:
    parsed = parse("table-list.md")
    got = [(e.title, e.venue, e.year, e.authors, e.et_al, e.url) for e in parsed.entries]
    assert got == [
        (
            "Deep Neural Networks for YouTube Recommendations",
            "RecSys",
            2016,
            ["Paul Covington", "Jay Adams", "Emre Sargin"],
            False,
            "https://example.org/youtube.pdf",
        ),
        (
            "A Made-Up Paper on Slate Ranking",
            "RecSys",
            2016,
            ["Ann Example", "Bo Sample"],
            True,
            None,
        ),
        (
            "A Made-Up Paper on Dense Retrieval for Recommendation",
            "SIGIR",
            2022,
            ["Cy Placeholder"],
            False,
            None,
        ),
    ]


def test_every_example_line_is_accounted_for(tmp_path) -> None:
    shipped = tiny(tmp_path)
    for name in ("awesome-list.md", "authored-list.md", "table-list.md"):
        path = EXAMPLES / name
        report = importer.import_file(shipped, path)
        text = path.read_text(encoding="utf-8").splitlines()
        parts = lists.parse(path.read_text(encoding="utf-8"), REGISTRY).parts
        accounted = {o.line for o in report.outcomes} | set(report.skipped_lines) | set(parts)
        content = {
            i
            for i, line in enumerate(text, 1)
            if line.strip() and not line.startswith("#") and not set(line.strip()) <= set("|-: ")
        }
        header_rows = {i for i, line in enumerate(text, 1) if line.startswith("| Title")}
        assert content - header_rows <= accounted, (name, sorted(content - accounted))
    assert len(inbox.load(shipped)) == 9  # the entries without authors, venue or year
    keys = {p.key for p in reader.load(shipped.catalog)}
    assert {"covington2016deep", "placeholder2022made"} <= keys


def test_example_bib_imports_with_notes_and_one_refusal(tmp_path) -> None:
    shipped = tiny(tmp_path)
    report = importer.import_file(shipped, EXAMPLES / "recsys.bib")
    by_key = {o.source_key: o for o in report.outcomes}
    assert by_key["noauthor2020"].action == "refused"
    assert report.count("added") + report.count("duplicate") == 8
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    ranking = papers["example2018ranking"]
    assert (ranking.venue, ranking.year, ranking.articleno, ranking.numpages) == (
        "TKDE",
        2018,
        "12",
        "9",
    )
    assert papers["zhou2018deep"].venue == "KDD" and papers["zhou2018deep"].et_al
    assert papers["he2017neural"].venue == "WWW"
    serving = papers["example2019serving"]
    assert serving.doi is None and serving.url is None
    assert papers["sample2023made"].arxiv_class == "cs"
    chapter = papers["example2016neighbours"]  # a book chapter, with its book
    assert (
        chapter.venue,
        chapter.booktitle,
        chapter.editors,
        chapter.publisher,
        chapter.chapter,
    ) == (
        "Chapter",
        "A Made-Up Handbook of Recommender Systems",
        ["Cy Placeholder", "Di Example"],
        "Example Press",
        "4",
    )


# ---------------------------------------------------------------- shapes from trials on real
# lists (issue 9): each fixture is our own writing in the shape a real list used.

REGISTRY_SHORTS = list(REGISTRY)


def entries(text: str) -> list[listfields.Entry]:
    return lists.parse(text, REGISTRY_SHORTS).entries


# A numbered list whose items give bold venue tags, the authors, then the linked title and the
# venue and year again, with organisations in brackets after; a setext '----' year heading.
CITED = """\
### 2019

1. [**RecSys'19**] Ann Example, Bo Sample. [A Made-Up Ranker for Sparse Feeds](https://example.org/ranker.pdf), *RecSys*, 2019. [**Example Lab**, **Sample Inc**]

1. [**CoRR**] Cy Placeholder, Di Example. [A Made-Up Study of Click Logs](https://arxiv.org/abs/1901.00001), *arXiv:1901.00001*, 2019.
   > 一个说明，不是论文。

2014
----

+ [**ABCD'14**] A Made-Up Paper Whose Authors the List Leaves Out, *ABCD*, 2014.
"""


def test_authors_before_a_linked_title_and_venue_fields_after_it() -> None:
    got = [(e.line, e.title, e.venue, e.year, e.authors, e.arxiv) for e in entries(CITED)]
    assert got == [
        (
            3,
            "A Made-Up Ranker for Sparse Feeds",
            "RecSys",
            2019,
            ["Ann Example", "Bo Sample"],
            None,
        ),
        (
            5,
            "A Made-Up Study of Click Logs",
            "arXiv",
            2019,
            ["Cy Placeholder", "Di Example"],
            "1901.00001",
        ),
        # a '2014 / ----' heading; the restated ', *ABCD*, 2014.' is not part of the title
        (11, "A Made-Up Paper Whose Authors the List Leaves Out", "ABCD", 2014, [], None),
    ]


def test_list_authors_add_the_paper_and_an_unknown_venue_is_refused_with_its_reason(
    tmp_path,
) -> None:
    catalog = tiny(tmp_path)
    path = tmp_path / "cited.md"
    path.write_text(CITED, encoding="utf-8")
    report = importer.import_file(catalog, path)
    by_line = {o.line: o for o in report.outcomes}
    assert by_line[3].action == "added"
    assert by_line[5].action == "added"  # arXiv, from the '*arXiv:ID*' field
    assert by_line[11].action == "inbox"  # no authors: filed, not dropped
    paper = next(p for p in reader.load(catalog.catalog) if p.key == by_line[3].key)
    assert (paper.venue, paper.authors) == ("RecSys", ["Ann Example", "Bo Sample"])
    quoted = CITED.replace("[**RecSys'19**]", "[**WXYZ'19**]").replace("*RecSys*", "*WXYZ*")
    path.write_text(quoted, encoding="utf-8")
    # a whole entry but for its venue: kept in the inbox with why, never lost (issue 21)
    kept = importer.import_file(tiny(tmp_path / "again"), path).outcomes[0]
    assert kept.action == "inbox" and "venue 'WXYZ' is not in" in kept.reason


# Bold, escaped venue tags before a linked title with a full stop, an affiliation after;
# badges, a contents list and a '<span id>' heading around them.
ESCAPED_TAGS = """\
[![Stars](https://img.shields.io/github/stars/example/list)](https://github.com/example/list)

## Contents
1. [Scheduling](#scheduling)

### <span id="scheduling">1. Scheduling</span>

- **\\[Arxiv'24\\]** [A Made-Up Scheduler for Token Streams.](https://arxiv.org/abs/2401.00002) *Example University & Sample Labs*
- **\\[OSDI'23\\]** [Another Made-Up Scheduler: With a Subtitle?](https://example.org/osdi.pdf)  *Placeholder Institute*
"""


def test_bold_escaped_venue_tags_before_a_linked_title() -> None:
    parsed = lists.parse(ESCAPED_TAGS, REGISTRY_SHORTS)
    assert [(e.line, e.title, e.venue, e.year) for e in parsed.entries] == [
        (8, "A Made-Up Scheduler for Token Streams", "arXiv", 2024),
        (9, "Another Made-Up Scheduler: With a Subtitle?", "OSDI", 2023),
    ]
    assert {n.line for n in parsed.not_papers} == {1, 4}


# '## OSDI 25' headings; '[Name](url): the rest of the title | VENUE’ YY'; a venue left at
# the end of the title; a stray '**' inside a link.
NAMED_LINKS = """\
## OSDI 25

* [Gizmo: A Made-Up Kernel Profiler**](https://arxiv.org/abs/2501.00003)

## Older

- [Widget](https://example.org/widget): A Made-Up Autoscaler for Model Serving | ATC’ 21
- [Sprocket](https://example.org/sprocket) : Made-Up Parallelism for Very Large Models | OSDI' 22
- [Gadget](https://example.org/gadget): Made-Up Experts at a Made-Up Scale ICML' 2022.
- [Doohickey](https://example.org/doohickey): A Made-Up Title the List Gives No Venue
"""


def test_venue_year_headings_and_names_whose_title_goes_on_after_the_link() -> None:
    got = [(e.title, e.venue, e.year) for e in entries(NAMED_LINKS)]
    assert got == [
        ("Gizmo: A Made-Up Kernel Profiler", "OSDI", 2025),
        ("Widget: A Made-Up Autoscaler for Model Serving", "ATC", 2021),
        ("Sprocket: Made-Up Parallelism for Very Large Models", "OSDI", 2022),
        ("Gadget: Made-Up Experts at a Made-Up Scale", "ICML", 2022),
        ("Doohickey: A Made-Up Title the List Gives No Venue", None, None),
    ]
    # '## Top 25' is not a venue: only registry venues take a two-digit year in a heading
    [entry] = entries("## Top 25\n\n* [A Made-Up Paper Under a Count](https://example.org/x)\n")
    assert (entry.venue, entry.year) == (None, None)


# '[VENUE 'YY] **Name**: rest of the title [[link]](url)', a '(**Name**)' note after a
# title, arXiv's own DOI and an arXiv 'ftp' link as the paper's link.
SPACED_TAGS = """\
- [OSDI '18] **Whirl**: A Made-Up Framework for Actors [[link]](https://example.org/whirl)
  - A note under the paper, not a paper.
- [SOSP '23] A Made-Up Memory Manager for Serving (**mm**) [[link]](https://doi.org/10.48550/arXiv.2309.00004)
- [A Made-Up Survey of Playlists](https://arxiv.org/ftp/arxiv/papers/1712/1712.00005.pdf)
"""


def test_bold_names_with_their_titles_notes_and_arxiv_dois() -> None:
    got = [(e.title, e.venue, e.year, e.arxiv) for e in entries(SPACED_TAGS)]
    assert got == [
        ("Whirl: A Made-Up Framework for Actors", "OSDI", 2018, None),
        ("A Made-Up Memory Manager for Serving", "SOSP", 2023, "2309.00004"),
        ("A Made-Up Survey of Playlists", None, None, "1712.00005"),
    ]


# Records of hard-broken lines: bold title, italic authors, venue with links, a date; a note
# before one title and an emphasised label before another; a course and a book that are not
# papers; the same record written on one list item with '<br>'.
RECORDS = """\
# Course
**A Made-Up Course on Sparse Models**\\
_Ann Example, Bo Sample_\\
[[Link](https://example.org/course)]\\
Winter 2022

# Books
**A Made-Up Book on Routing**\\
*Cy Placeholder*\\
Sample Press, [[Link](https://example.org/book)]\\
March 2024

# Papers
_**A note about the papers below.**_\\
**_Top-2 Gating_ - A Made-Up Router for Experts**\\
_Di Example, Ed Sample, Flo Placeholder_\\
arXiv, [[Paper](https://arxiv.org/abs/2402.00006)] [[Code](https://github.com/example/router)]\\
8 Feb 2024

**A Made-Up Mixture Paper in a Journal**\\
_Gus Example, Hal Sample_\\
Journal of Made-Up Research, [[Paper](https://example.org/journal.pdf)]\\
1995

- **A Made-Up Paper on One Line** <br> *Ivy Example, Jo Sample, et al.* <br> KDD 2021
"""


def test_records_of_hard_broken_lines_give_title_authors_venue_and_year() -> None:
    parsed = lists.parse(RECORDS, REGISTRY_SHORTS)
    got = [
        (e.line, e.title, e.venue, e.year, e.authors, e.et_al, e.url, e.arxiv)
        for e in parsed.entries
    ]
    assert got == [
        # the record begins with the note's line, the title's line below it
        (
            14,
            "A Made-Up Router for Experts",
            "arXiv",
            2024,
            ["Di Example", "Ed Sample", "Flo Placeholder"],
            False,
            "https://arxiv.org/abs/2402.00006",
            "2402.00006",
        ),
        (
            20,
            "A Made-Up Mixture Paper in a Journal",
            "Journal of Made-Up Research",
            1995,
            ["Gus Example", "Hal Sample"],
            False,
            "https://example.org/journal.pdf",
            None,
        ),
        (
            25,
            "A Made-Up Paper on One Line",
            "KDD",
            2021,
            ["Ivy Example", "Jo Sample"],
            True,
            None,
            None,
        ),
    ]
    listed = {n.line: n.reason for n in parsed.not_papers if n.listed}
    assert listed == {
        2: "listed under 'Course', a section that is not papers",
        8: "listed under 'Books', a section that is not papers",
    }


# A table with Chinese headers ('模型' model, '会议' venue, '论文' paper, '年份' year), titles in
# '《》' and rows that leave off their closing '|'.
CHINESE_TABLE = """\
| ** 模型 ** | 会议 | 论文 | 年份 |
| :--- | :--- | :--- | :--- |
| ** 分组 ** | | | |
| MadeRank | KDD |《A Made-Up Ranking Model for Feeds.》| 2019
| Nothing | - | - | -
"""


def test_a_table_with_chinese_headers_and_rows_without_a_closing_bar() -> None:
    parsed = lists.parse(CHINESE_TABLE, REGISTRY_SHORTS)
    assert [(e.line, e.title, e.venue, e.year) for e in parsed.entries] == [
        (4, "A Made-Up Ranking Model for Feeds", "KDD", 2019)
    ]
    assert [(n.line, n.listed) for n in parsed.not_papers] == [(3, True), (5, True)]


# Entries written as paragraphs: '[Title](url), Org, VENUE, YEAR. - [Video](url)', a year
# alone, HTML anchors between them, prose that is not an entry; a datasets section.
PARAGRAPHS = """\
## Surveys
<a name="surveys"></a>
[A Made-Up Survey of Feeds](https://arxiv.org/pdf/2001.00007.pdf), 2020.

[A Made-Up Survey of Sessions](https://example.org/sessions.pdf), 2018. - [Slides](https://example.org/s), [Code](https://github.com/example/s)

## Industry
[A Made-Up Feed Ranker at Scale](https://dl.acm.org/doi/pdf/10.1145/0000000.0000008), Example Corp, Inc., KDD, 2020. - [Video](https://vimeo.com/000000)

[A Made-Up Recommender Without a Known Venue](https://example.org/x.pdf), Sample Labs, 2019.

[Our lab's page](https://example.org/lab) has more.

## 4. Dataset List
- [A Made-Up Click Dataset](https://example.org/data)
"""


def test_paragraph_entries_and_sections_that_are_not_papers() -> None:
    parsed = lists.parse(PARAGRAPHS, REGISTRY_SHORTS)
    got = [(e.line, e.title, e.venue, e.year, e.doi) for e in parsed.entries]
    assert got == [
        (3, "A Made-Up Survey of Feeds", None, 2020, None),
        (5, "A Made-Up Survey of Sessions", None, 2018, None),
        (8, "A Made-Up Feed Ranker at Scale", "KDD", 2020, "10.1145/0000000.0000008"),
        # 'Sample Labs' is an organisation, not a venue: the year alone is read
        (10, "A Made-Up Recommender Without a Known Venue", None, 2019, None),
    ]
    reasons = {n.line: n.reason for n in parsed.not_papers}
    assert reasons[12] == "not a list item, table row or year list"
    assert reasons[15] == "listed under '4. Dataset List', a section that is not papers"


def test_list_venues_resolve_to_registry_aliases_and_short_names_in_parentheses() -> None:
    assert listimport.resolve_list_venue("SIGKDD", REGISTRY) == "KDD"
    assert listimport.resolve_list_venue("The Web Conference", REGISTRY) == "WWW"
    assert (
        listimport.resolve_list_venue("Journal of Machine Learning Research (JMLR)", REGISTRY)
        == "JMLR"
    )
    assert listimport.resolve_list_venue("Made-Up Venue (MUV)", REGISTRY) == "Made-Up Venue (MUV)"


def test_every_line_of_the_trial_shapes_is_accounted_for(tmp_path) -> None:
    catalog = tiny(tmp_path)
    for n, text in enumerate(
        (CITED, ESCAPED_TAGS, NAMED_LINKS, SPACED_TAGS, RECORDS, CHINESE_TABLE, PARAGRAPHS)
    ):
        path = tmp_path / f"shape{n}.md"
        path.write_text(text, encoding="utf-8")
        report = importer.import_file(catalog, path)
        lines = text.splitlines()
        # a record's later lines belong to its first
        parts = lists.parse(text, REGISTRY_SHORTS).parts
        accounted = {o.line for o in report.outcomes} | set(report.skipped_lines)
        covered = accounted | {line for line, first in parts.items() if first in accounted}
        content = {
            i
            for i, line in enumerate(lines, 1)
            if line.strip()
            and not line.lstrip().startswith("#")
            and not set(line.strip()) <= set("|-: ")
            and not (i < len(lines) and set(lines[i].strip()) <= set("|-: ") and lines[i].strip())
        }  # header rows and setext headings
        assert content <= covered, (n, sorted(content - covered))


# The new shapes on 100 KB lines: each reader stays linear (see test_import_hostile.py).
HOSTILE_N = 50_000
HOSTILE_SHAPES = {
    "br-records": "**T**" + " <br> a" * (HOSTILE_N // 4),
    "paragraph-links": "[a](https://x.org), " * (HOSTILE_N // 8) + "2020.",
    "paragraph-spaces": "[A Title Here](https://x.org)" + " " * HOSTILE_N + ", KDD, 2020",
    "names-then-link": "- Ann Example" + " " * HOSTILE_N + "Bo, [A Title](https://x.org)",
    "et-al-spaces": "*Ann Example," + " " * HOSTILE_N + "et al*",
    "note-prefix": "**_" + "a_ " * (HOSTILE_N // 3) + "x**\\",
    "apostrophes": "- [N](https://x.org): " + "a' " * (HOSTILE_N // 3) + "b",
    "commas": "- [OSDI'23] Title" + "," * HOSTILE_N + " 2020",
    "bold-tags": "- " + "**[a]**" * (HOSTILE_N // 7) + " x",
    "hard-breaks": "**T**\\\n" * 2000,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE_SHAPES))
def test_the_new_shapes_parse_in_linear_time(name: str) -> None:
    with hang_guard():
        parsed = lists.parse(HOSTILE_SHAPES[name] + "\n\n- [OSDI'23] [A Real Title](https://x.org)")
    assert parsed.entries[-1].title == "A Real Title"
