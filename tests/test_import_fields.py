"""Lists read by their fields, wherever they stand (issue 21): each fixture is our own
writing in a shape real lists use, and each item of the issue has its test here."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.ingest import importer, inbox, lists
from catalog.paths import Paths
from tests.conftest import REPO
from tests.test_fetch import Online, atom_entry, online  # noqa: F401 (fixture)
from tests.test_import_hostile import hang_guard

REGISTRY = list(load_venues(REPO / "data" / "venues.yaml"))


def write(folder: Path, text: str, name: str = "list.md") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def fields(text: str) -> dict[int, tuple[str, str | None, int | None]]:
    return {e.line: (e.title, e.venue, e.year) for e in lists.parse(text, REGISTRY).entries}


# ---------------------------------------------------------------- 1. fields wherever they stand

ANNOTATED = """\
## Ranking

- A Made-Up Ranker for Short Videos. KDD 2019 【一个排序模型】
- A Made-Up Ranker for Long Videos. WWW ２０２１ 【另一个】
- [NAIC @ SIGCOMM'25] [A Made-Up Network for Serving Models](https://example.org/n)
- [ES-FoMO @ ICML'24] [A Made-Up Cache for Foundation Models](https://example.org/f)
- [NeurIPS'25 Spotlight] [A Made-Up Spotlight on Sparse Experts](https://example.org/s)
- [PPoPP'24 poster] [A Made-Up Poster on Parallel Loops](https://example.org/p)
- Spindle: A Made-Up Checkpointer for Embedding Tables (NSDI 2022, Ann Example)
- Bobbin: A Made-Up Trainer for Embeddings, ICPP'22
- OSDI18 - Shuttle: A Made-Up Scheduler for Training Jobs
- \\[Example Lab | NSDI 2022 | GPU sharing] [A Made-Up Trace of a GPU Cluster](https://example.org/t)
- IISWC 2019, [A Made-Up Characterization of Training Jobs](https://example.org/c)
- [A Made-Up Survey of Session Models](https://example.org/s2) (2018, Bo Sample)
- [A Made-Up Neighbourhood Model](https://example.org/nm) (Cy Placeholder, 2008, Proceedings of KDD'08)
- Neural Ranking vs. Matrix Factorization Made Up Again. RecSys 2020
"""


def test_venue_and_year_are_found_in_any_bracket_or_after_the_title() -> None:
    got = fields(ANNOTATED)
    assert got == {
        3: ("A Made-Up Ranker for Short Videos", "KDD", 2019),  # a fullwidth-bracket note
        4: ("A Made-Up Ranker for Long Videos", "WWW", 2021),  # fullwidth digits
        5: ("A Made-Up Network for Serving Models", "NAIC", 2025),  # the workshop is the venue
        6: ("A Made-Up Cache for Foundation Models", "ES-FoMO", 2024),
        7: ("A Made-Up Spotlight on Sparse Experts", "NeurIPS", 2025),
        8: ("A Made-Up Poster on Parallel Loops", "PPoPP", 2024),
        9: ("Spindle: A Made-Up Checkpointer for Embedding Tables", "NSDI", 2022),
        10: ("Bobbin: A Made-Up Trainer for Embeddings", "ICPP", 2022),
        11: ("Shuttle: A Made-Up Scheduler for Training Jobs", "OSDI", 2018),
        12: ("A Made-Up Trace of a GPU Cluster", "NSDI", 2022),
        13: ("A Made-Up Characterization of Training Jobs", "IISWC", 2019),
        14: ("A Made-Up Survey of Session Models", None, 2018),
        15: ("A Made-Up Neighbourhood Model", "KDD", 2008),
        16: ("Neural Ranking vs. Matrix Factorization Made Up Again", "RecSys", 2020),
    }


AUTHORED = """\
- A Made-Up Model of Ratings (2009), Ann Example, Bo Sample, et al.
  [[pdf]](https://example.org/ratings.pdf)
- A Made-Up Model of Clicks. RecSys 2020. Cy Placeholder；Di Example
- A Made-Up Model of Dwell Time. WWW 2021. Ed Example, etc.
- A Made-Up Model of Skips. KDD 2022. Flo Example, Gus Sample and others

1. **A Made-Up Model of Playlists** (2015)
   - Authors: Hal Example, Ivy Sample
   - [pdf](https://example.org/playlists.pdf)
"""


def test_authors_anywhere_with_et_al_etc_others_and_fullwidth_separators() -> None:
    got = {
        e.line: (e.title, e.year, e.authors, e.et_al, e.url)
        for e in lists.parse(AUTHORED, REGISTRY).entries
    }
    assert got == {
        1: (
            "A Made-Up Model of Ratings",
            2009,
            ["Ann Example", "Bo Sample"],
            True,
            "https://example.org/ratings.pdf",
        ),
        3: ("A Made-Up Model of Clicks", 2020, ["Cy Placeholder", "Di Example"], False, None),
        4: ("A Made-Up Model of Dwell Time", 2021, ["Ed Example"], True, None),
        5: ("A Made-Up Model of Skips", 2022, ["Flo Example", "Gus Sample"], True, None),
        7: (
            "A Made-Up Model of Playlists",
            2015,
            ["Hal Example", "Ivy Sample"],
            False,
            "https://example.org/playlists.pdf",
        ),
    }
    parsed = lists.parse(AUTHORED, REGISTRY)
    assert parsed.parts == {2: 1}  # the '[[pdf]]' line is part of the first entry
    reasons = {n.line: n.reason for n in parsed.not_papers}
    assert reasons == {
        8: "the authors of the entry on line 7",
        9: "the links of the entry on line 7",
    }


def test_one_name_alone_is_kept_as_the_first_author_not_as_the_authors(
    shipped: Paths, tmp_path: Path
) -> None:
    [entry] = lists.parse(
        "- [A Made-Up Survey of Tags](https://example.org/t) (2018, Bo Sample)"
    ).entries
    assert (entry.year, entry.authors, entry.first_author) == (2018, [], "Bo Sample")
    report = importer.import_file(
        shipped,
        write(tmp_path, "- [A Made-Up Survey of Tags](https://example.org/t) (2018, Bo Sample)\n"),
    )
    assert report.outcomes[0].action == "inbox"
    [candidate] = inbox.load(shipped)
    assert (candidate.year, candidate.authors) == (2018, ["Bo Sample"])


def test_an_entry_with_a_title_and_a_link_is_never_dropped_for_lacking_a_venue() -> None:
    parsed = lists.parse(
        "- Drum: A Made-Up Store for Features [[pdf]](https://example.org/d.pdf)\n"
    )
    [entry] = parsed.entries
    assert (entry.title, entry.venue, entry.year) == (
        "Drum: A Made-Up Store for Features",
        None,
        None,
    )


# ---------------------------------------------------------------- 2. tables by column role

NICKNAMES = """\
| Name | Paper | Remarks | Publication | Link |
|---|---|---|---|---|
| Sprocket | A Made-Up Storage Layer for Embedding Tables | fast | RecSys 2023 | [Paper](https://arxiv.org/abs/2301.00011) |
| Cog | A Made-Up Sequence Model for Feeds | | Arxiv 2024 | [Paper](https://arxiv.org/abs/2401.00012) |
"""

LINK_COLUMN = """\
| **Scheduler** | **Year** | **Series** | **Paper** | **Code** |
|:---:|:---:|:---:|:---:|:---:|
| Ratchet | 2022 | OSDI | [Paper](https://example.org/ratchet) | - |
| Lever | 2022 | arxiv | [Paper](https://arxiv.org/abs/2202.00013) | [Code](https://github.com/x/y) |
| Pulley | 2021 | INFOCOM | [Paper](https://example.org/pulley) | - |
| Pulley | 2020 | INFOCOM | [Paper](https://example.org/pulley-2) | - |
"""

HTML_TABLE = """\
<table>
<tr><th>Title</th><th>Venue</th><th>Year</th></tr>
<tr><td><a href="https://example.org/w">A Made-Up Widget for Recommenders</a></td><td>RecSys</td><td>2019</td></tr>
<tr><td>A Made-Up Gadget for Search</td><td>SIGIR</td><td>2020</td></tr>
</table>
"""


def test_a_nickname_column_beside_long_titles_is_the_nickname() -> None:
    got = [(e.title, e.nickname, e.venue, e.year, e.arxiv) for e in lists.parse(NICKNAMES).entries]
    assert got == [
        ("A Made-Up Storage Layer for Embedding Tables", "Sprocket", "RecSys", 2023, "2301.00011"),
        ("A Made-Up Sequence Model for Feeds", "Cog", "arXiv", 2024, "2401.00012"),
    ]


def test_a_paper_column_of_links_gives_urls_and_rows_are_filed_by_name(
    shipped: Paths, tmp_path: Path
) -> None:
    entries = lists.parse(LINK_COLUMN).entries
    assert [(e.title, e.nickname, e.venue, e.year, e.url) for e in entries][:2] == [
        ("", "Ratchet", "OSDI", 2022, "https://example.org/ratchet"),
        ("", "Lever", "arXiv", 2022, "https://arxiv.org/abs/2202.00013"),
    ]
    report = importer.import_file(shipped, write(tmp_path, LINK_COLUMN))
    assert [o.action for o in report.outcomes] == ["inbox"] * 4
    assert all(o.title != "Paper" for o in report.outcomes)
    assert "the list gives no title, only the name 'Ratchet'" in report.outcomes[0].reason
    box = inbox.load(shipped)
    assert len(box) == 4  # two Pulley rows with other links and years: two candidates
    ratchet = box[0]
    # a name is no title (issue 33): the candidate has the name as nickname, no title
    assert (ratchet.title, ratchet.nickname, ratchet.venue, ratchet.year, ratchet.url) == (
        None,
        "Ratchet",
        "OSDI",
        2022,
        "https://example.org/ratchet",
    )


def test_html_tables_are_read_like_markdown_ones() -> None:
    got = [(e.line, e.title, e.venue, e.year, e.url) for e in lists.parse(HTML_TABLE).entries]
    assert got == [
        (3, "A Made-Up Widget for Recommenders", "RecSys", 2019, "https://example.org/w"),
        (4, "A Made-Up Gadget for Search", "SIGIR", 2020, None),
    ]


# ---------------------------------------------------------------- 3. the inbox keeps every field


def test_the_inbox_keeps_venue_year_authors_and_links_and_never_merges_on_a_weak_title(
    shipped: Paths, tmp_path: Path
) -> None:
    text = """\
    - A Made-Up Study of Queues. NSDI 2021. Ann Example
    - [A Made-Up Study of Queues](https://example.org/q2) (2023)
    - [A Made-Up Study of Pipes](https://arxiv.org/abs/2101.00014) [SOSP'21]
    - [A Made-Up Study of Pipes Revisited Entirely](https://arxiv.org/abs/2101.00014) [SOSP'21]
    """
    report = importer.import_file(shipped, write(tmp_path, text))
    assert [o.action for o in report.outcomes] == ["inbox"] * 4
    box = inbox.load(shipped)
    # one title, other years: two; one arXiv id under a title that holds the other's
    # words: one, as the catalog's rule for a retitled version has it (issue 33.11)
    assert len(box) == 3
    assert "already in the inbox" in report.outcomes[3].reason
    first = box[0]
    assert (first.venue, first.year, first.authors) == ("NSDI", 2021, ["Ann Example"])
    again = importer.import_file(shipped, write(tmp_path, text))
    assert len(inbox.load(shipped)) == 3 and again.count("inbox") == 4


# ---------------------------------------------------------------- arXiv ids and retitled papers


def test_an_arxiv_id_after_the_venue_year_is_a_warning_and_a_retitled_id_is_the_paper(
    shipped: Paths, tmp_path: Path
) -> None:
    bib = """\
    @inproceedings{example2021late,
      title = {A Made-Up Paper Posted Late},
      author = {Example, Ann and Sample, Bo},
      booktitle = {OSDI},
      year = {2021},
      eprint = {2305.00015},
    }
    """
    report = importer.import_file(shipped, write(tmp_path, bib, "late.bib"))
    assert report.outcomes[0].action == "added", report.outcomes[0].reason
    assert any("posted to arXiv after its venue" in str(w) for w in report.warnings)
    # the same arXiv id under its earlier title: the same paper, not 'not this title'
    entry = "- [OSDI'21] [A Made-Up Paper Posted Late, First Version](https://arxiv.org/abs/2305.00015)\n"
    [outcome] = importer.import_file(shipped, write(tmp_path, entry)).outcomes
    assert outcome.action == "duplicate" and outcome.key == "example2021late"


# ---------------------------------------------------------------- 4 and 8. one title, two works

D2L_STYLE = """\
@book{bellman1957dynamic,
  title = {Dynamic Programming},
  author = {Bellman, Richard},
  publisher = {Princeton University Press},
  year = {1957},
}
@article{bellman1966dynamic,
  title = {Dynamic programming},
  author = {Bellman, Richard},
  journal = {Science},
  volume = {153},
  year = {1966},
}
@article{lecun2015deep,
  title = {Deep learning},
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  journal = {Nature},
  year = {2015},
}
@book{goodfellow2016deep,
  title = {Deep Learning},
  author = {Goodfellow, Ian and Bengio, Yoshua and Courville, Aaron},
  publisher = {MIT Press},
  year = {2016},
}
"""


def test_reimport_adds_nothing_and_one_title_by_other_authors_is_two_papers(
    shipped: Paths, tmp_path: Path
) -> None:
    bib = write(tmp_path, D2L_STYLE, "d2l.bib")
    first = importer.import_file(shipped, bib)
    assert first.count("added") == 4, [(o.action, o.reason) for o in first.outcomes]
    after = shipped.catalog.read_bytes()
    second = importer.import_file(shipped, bib)
    assert second.counts["added"] == 0 and second.counts["duplicate"] == 4
    assert shipped.catalog.read_bytes() == after
    keys = {p.key for p in reader.load(shipped.catalog)}
    assert {"lecun2015deep", "goodfellow2016deep"} <= keys


# ---------------------------------------------------------------- 6 and 7. fields and venues

FIELDS_BIB = """\
@article{williamsRooflineInsightfulVisual2009,
  title = {Roofline},
  subtitle = {An Insightful Visual Performance Model for Made-Up Architectures},
  author = {Williams, Sam and Patterson, Dave},
  journaltitle = {Journal of Made-Up Performance &amp; Practice},
  date = {2009-04},
}
@article{example2010made,
  title = {A Made-Up Model of Caches},
  author = {Example, Ann},
  journal = {Journal of Made-Up Performance \\& Practice},
  year = {2010},
}
@inproceedings{example2019mining,
  title = {A Made-Up Mining Paper},
  author = {Example, Ann},
  booktitle = {Proceedings of MUCSE 2019},
  year = {2019},
}
@inproceedings{sample2020mining,
  title = {A Second Made-Up Mining Paper},
  author = {Sample, Bo},
  booktitle = {Proceedings of the 2020 Conference on Made-Up Computer Science Education},
  year = {2020},
}
@techreport{doe2002report,
  title = {A Made-Up Technical Report},
  author = {Doe, Jane},
  booktitle = {Technical Report SFI-2002-02-010},
  year = {2002},
}
"""


def test_subtitle_date_entities_and_one_venue_per_name(shipped: Paths, tmp_path: Path) -> None:
    report = importer.import_file(shipped, write(tmp_path, FIELDS_BIB, "refs.bib"))
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    roofline = papers["williamsRooflineInsightfulVisual2009"]  # its key kept
    assert roofline.title == (
        "Roofline: An Insightful Visual Performance Model for Made-Up Architectures"
    )
    assert roofline.year == 2009  # from biblatex's date
    # '&amp;', '\\&' and '&': one venue; an acronym and its full name: one venue
    assert papers["example2010made"].venue == roofline.venue
    assert "&amp;" not in roofline.venue
    assert papers["example2019mining"].venue == papers["sample2020mining"].venue == "MUCSE"
    assert [v.short for v in report.venues_added].count("MUCSE") == 1
    names = {v.name for v in report.venues_added}
    assert not any("- -" in n or ("SFI-" in n and "2002" not in n) for n in names), names


def test_a_venue_met_by_its_full_name_in_a_later_import_is_the_registered_one(
    shipped: Paths, tmp_path: Path
) -> None:
    first = "@inproceedings{a1, title = {A Made-Up Paper}, author = {Example, Ann}, booktitle = {MUCSE}, year = 2019}\n"
    importer.import_file(shipped, write(tmp_path, first, "one.bib"))
    second = (
        "@inproceedings{b1, title = {Another Made-Up Paper}, author = {Sample, Bo}, booktitle "
        "= {Conference on Made-Up Computer Science Education}, year = 2020}\n"
    )
    report = importer.import_file(shipped, write(tmp_path, second, "two.bib"))
    assert report.outcomes[0].action == "added" and report.venues_added == []
    assert {p.key: p.venue for p in reader.load(shipped.catalog)}["b1"] == "MUCSE"


# ---------------------------------------------------------------- more shapes of real lists

RECORDS_WITH_FIELDS = (  # lines ended by two spaces: hard line breaks
    "# 工业界论文总结——RecSys 2021\n\n"
    "1. [A Made-Up Explorer for Feeds](https://example.org/e.pdf)  \n"
    "Author(Institute): Ann Example(Example Corp)  \n"
    "KeyWords: Exploration Policy; Serendipity Search  \n\n"
    "2. [A Made-Up Debiaser](https://example.org/d.pdf)  \n"
    "Author(Institute): Bo Sample(Sample Labs二作)  \n"
    "KeyWords: Causal Graph Inference; Popularity Bias  \n"
)


def test_record_lines_that_name_other_fields_are_not_authors_or_venues() -> None:
    entries = lists.parse(RECORDS_WITH_FIELDS, REGISTRY).entries
    got = [(e.line, e.title, e.venue, e.year, e.authors, e.first_author) for e in entries]
    assert got == [
        (3, "A Made-Up Explorer for Feeds", "RecSys", 2021, [], "Ann Example"),
        (7, "A Made-Up Debiaser", "RecSys", 2021, [], "Bo Sample"),
    ]


HEADINGS_AND_PARAGRAPHS = """\
# A Made-Up Workshop 2020

### 1、A Made-Up Interaction Model for Knowledge. Ann Example, Bo Sample and Cy Placeholder
- 重点词：图

### Related

2019 阿里巴巴：

**A Made-Up Distillation of Privileged Features**

CATN: A Made-Up Transfer Network for Cold Users

This paragraph is prose about the list, not a paper.

- OSDI20 - Gizmo: A Made-Up Scaler for Training
-OSDI20 - Widget: A Made-Up Architecture for Training
"""


def test_headings_that_are_papers_title_lines_and_broken_bullets() -> None:
    parsed = lists.parse(HEADINGS_AND_PARAGRAPHS, REGISTRY)
    got = [(e.line, e.title, e.venue, e.year, e.authors) for e in parsed.entries]
    assert got == [
        (
            3,
            "A Made-Up Interaction Model for Knowledge",
            "A Made-Up Workshop",  # from the heading above
            2020,
            ["Ann Example", "Bo Sample", "Cy Placeholder"],
        ),
        # '2019 阿里巴巴:' gives the year below it; the heading's venue still holds
        (10, "A Made-Up Distillation of Privileged Features", "A Made-Up Workshop", 2019, []),
        (12, "CATN: A Made-Up Transfer Network for Cold Users", "A Made-Up Workshop", 2019, []),
        (16, "Gizmo: A Made-Up Scaler for Training", "OSDI", 2020, []),
        (17, "Widget: A Made-Up Architecture for Training", "OSDI", 2020, []),
    ]
    reasons = {n.line: n.reason for n in parsed.not_papers}
    assert reasons[14] == "not a list item, table row or year list"
    assert reasons[8] == "a label over the entries below it"


HTML_LIST = """\
<ul>
  <li>Ann Example, Bo Sample, "<a href="https://example.org/chains.pdf">A Made-Up Model of Behaviour Chains</a>", in RecSys'18. [<a href="https://example.org/bib">bibtex</a>]</li>
</ul>
"""

KOREAN = """\
| 발행일 | 제목 | 링크 | 원문 |
|:---:|:---:|:---:|:---:|
| 2019.08 | A Made-Up Audience Expander for Advertisers | [링크](./notes) | [원문](https://example.org/a.pdf) |

1. **A Made-Up Factorization of Ratings** (2009)
   - 저자: Ann Example, Bo Sample
   - [원문](https://example.org/f.pdf)
"""


def test_html_list_items_and_korean_tables_and_labels() -> None:
    [item] = lists.parse(HTML_LIST, REGISTRY).entries
    assert (item.title, item.venue, item.year, item.authors, item.url) == (
        "A Made-Up Model of Behaviour Chains",
        "RecSys",
        2018,
        ["Ann Example", "Bo Sample"],
        "https://example.org/chains.pdf",
    )
    got = [(e.title, e.year, e.authors, e.url) for e in lists.parse(KOREAN, REGISTRY).entries]
    assert got == [
        ("A Made-Up Audience Expander for Advertisers", 2019, [], "https://example.org/a.pdf"),
        (
            "A Made-Up Factorization of Ratings",
            2009,
            ["Ann Example", "Bo Sample"],
            "https://example.org/f.pdf",
        ),
    ]


def test_the_fields_example_reads_every_line(shipped: Paths) -> None:
    path = REPO / "examples" / "fields-list.md"
    parsed = lists.parse(path.read_text(encoding="utf-8"), REGISTRY)
    got = {e.line: (e.title or e.nickname, e.venue, e.year) for e in parsed.entries}
    assert got == {
        5: ("A Made-Up Ranker for Short Videos", "KDD", 2019),
        6: ("A Made-Up Spotlight on Sparse Experts", "NeurIPS", 2025),
        7: ("A Made-Up Network for Serving Models", "NAIC", 2025),
        8: ("Spindle: A Made-Up Checkpointer for Embedding Tables", "NSDI", 2022),
        9: ("A Made-Up Model of Ratings", None, 2009),
        11: ("A Made-Up Model of Clicks", "RecSys", 2020),
        17: ("A Made-Up Storage Layer for Embedding Tables", "RecSys", 2023),
        21: ("Ratchet", "OSDI", 2022),
        22: ("Lever", "arXiv", 2022),
        25: ("A Made-Up Model of Behaviour Chains", "RecSys", 2018),
    }
    report = importer.import_file(shipped, path)
    assert report.counts == {"added": 2, "merged": 0, "duplicate": 0, "inbox": 8, "refused": 0}
    lines = path.read_text(encoding="utf-8").splitlines()
    accounted = {o.line for o in report.outcomes} | set(report.skipped_lines) | set(parsed.parts)
    content = {
        i
        for i, line in enumerate(lines, 1)
        if line.strip()
        and not line.startswith("#")
        and not set(line.strip()) <= set("|-: ")
        and not line.startswith(("| Name", "| Scheduler", "<ul>", "</ul>"))
    }
    assert content <= accounted, sorted(content - accounted)


# The readers of this issue on 100 KB lines stay linear (see test_import_hostile.py).
N = 50_000
HOSTILE = {
    "heading-word": "# " + "a" * N + " 2020\n",
    "tag-word": "- Title " + "b" * N + "'2\n",
    "field-line": "1. [T T](https://x.org)  \nKey" + "w" * N + ": x\n",
    "pieces": "- " + "(" * N + " 2020\n",
    "brackets": "- " + "[a" * (N // 2) + "\n",
    "note-after-year": "- [KDD'19" + " " * N + "x]\n",
    "names": "- A Title. KDD 2019. " + "Ann Example, " * (N // 13) + "\n",
    "html-items": "<ul>" + "<li>a</li>" * (N // 10) + "</ul>\n",
    "table-cells": "| Title | Year |\n|---|---|\n" + "| A Made-Up Title | 2020 |\n" * (N // 30),
    "link-tags": "- [" + "[a] " * (N // 4) + "](https://x.org)\n",
    "colon-stand-in": "- [KDD'18] [A" + "_" * N + " b](https://x.org)\n",
    "hyphen-stand-in": "- [KDD'18] [A-" + " " * N + "b](https://x.org)\n",
    "cited-venue": "- [A Made-Up Title](https://x.org)\n  - In A" + " (" * N + "\n",
    "cited-acronym": "- [A Made-Up Title](https://x.org)\n  - In (" + "A-" * (N // 2) + "\n",
    "cited-names": "- [A Made-Up Title](https://x.org)\n  - " + "Ab, C., " * (N // 8) + "2019\n",
    "dated-tail": "- [A Made-Up Title" + " (2019" * (N // 6) + "](https://x.org)\n",
    "acronym-after": "- A Made-Up Title" + " (AB)" * (N // 5) + ", KDD'19\n",
    "venue-cell": "| Venue | Title |\n|---|---|\n| A" + " " * N + "2020 | A Made-Up Title |\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_field_readers_stay_linear(name: str) -> None:
    with hang_guard():
        parsed = lists.parse(HOSTILE[name] + "\n\n- [OSDI'23] [A Real Title](https://x.org)\n")
    assert parsed.entries[-1].title == "A Real Title"


def test_fetch_completes_a_row_that_gives_only_a_name_and_an_arxiv_link(
    shipped: Paths, tmp_path: Path, online: Online
) -> None:
    online.arxiv["2399.00031"] = atom_entry(
        "2399.00031",
        "Ratchet: Made-Up Scheduling of Jobs That Never Stop",
        ["Ann Example", "Bo Sample"],
        "2023-03-01T10:00:00Z",
    )
    table = (
        "| Scheduler | Year | Series | Paper |\n|---|---|---|---|\n"
        "| Ratchet | 2023 | arxiv | [Paper](https://arxiv.org/abs/2399.00031) |\n"
    )
    [outcome] = importer.import_file(shipped, write(tmp_path, table), fetch=True).outcomes
    assert outcome.action == "added", outcome.reason
    paper = next(p for p in reader.load(shipped.catalog) if p.key == outcome.key)
    assert (paper.title, paper.venue, paper.year, paper.authors) == (
        "Ratchet: Made-Up Scheduling of Jobs That Never Stop",
        "arXiv",
        2023,
        ["Ann Example", "Bo Sample"],
    )


def test_a_link_label_is_never_a_title() -> None:
    text = (
        "- [Project Page](https://example.org/p) [OSDI'23]\n"
        "- [OSDI'23] [Code](https://example.org/c)\n"
        "- [[pdf]](https://example.org/x.pdf) [KDD'19]\n"
    )
    parsed = lists.parse(text)
    assert parsed.entries == []
    assert all("label" in n.reason or "title" in n.reason for n in parsed.not_papers)


def test_link_notes_years_in_titles_nested_brackets_and_anchors_in_items() -> None:
    text = (
        "- Gizmo: A Made-Up Cache ([SOSP 2023](../notes/sosp.md)) \\[[Personal Notes](n.md)] "
        "\\[[Paper](https://example.org/g.pdf)]\n"
        "- A Made-Up Ranker 1990 for Videos. KDD 2019\n"
        "- [A Made-Up Survey of Schedulers[Translated]](https://example.org/s)\n"
        "- Ann Example, Bo Sample, <a href='https://example.org/w'>A Made-Up Widget</a>, KDD'20\n"
    )
    got = [(e.title, e.venue, e.year, e.url, e.first_author) for e in lists.parse(text).entries]
    assert got == [
        # a link labelled 'Personal Notes' beside a title is a note, not a name
        ("Gizmo: A Made-Up Cache", "SOSP", 2023, "https://example.org/g.pdf", None),
        # a year inside a title is not a venue tag
        ("A Made-Up Ranker 1990 for Videos", "KDD", 2019, None, None),
        # brackets inside a link's text, as CommonMark reads them
        ("A Made-Up Survey of Schedulers[Translated]", None, None, "https://example.org/s", None),
        # an HTML anchor is a link like a Markdown one
        ("A Made-Up Widget", "KDD", 2020, "https://example.org/w", None),
    ]
