"""Reading .bib files from the wild: excerpts of openmlsys-zh's references (public).

Each test holds a small excerpt of a real entry that was read wrongly, as it was written
(fields cut where they do not matter), and what the catalog should make of it.
"""

from __future__ import annotations

import pytest

from catalog.bib import bibtex
from catalog.bib.bibtex import BibRecord, read_bib
from catalog.bib.options import ExportOptions
from catalog.data.registry import Venue, load_venues
from catalog.model import Paper
from tests.conftest import REPO, used_venues

VENUES = load_venues(REPO / "data" / "venues.yaml")
# Without the well-known venues no paper uses yet: for tests of how unknown venues are proposed.
USED = used_venues()
TERMS = bibtex.load_protected_terms(REPO / "data" / "protected-terms.txt")
WEB = "not a paper (web page / software): skipped"


def read(text: str) -> dict[str, BibRecord]:
    return {r.key: r for r in read_bib(text, "refs.bib", VENUES)}


def one(text: str, venues: dict[str, Venue] = VENUES) -> BibRecord:
    (record,) = read_bib(text, "refs.bib", venues)
    return record


def messages(record: BibRecord) -> list[str]:
    return [p.message for p in record.problems]


# ------------------------------------------------------------------ proposed venues

ADKDD = """\
@inproceedings{10.1145/3124749.3124754,
author = {Wang, Ruoxi and Fu, Bin and Fu, Gang and Wang, Mingliang},
title = {Deep \\& Cross Network for Ad Click Predictions},
year = {2017},
publisher = {Association for Computing Machinery},
doi = {10.1145/3124749.3124754},
booktitle = {Proceedings of the ADKDD'17},
series = {ADKDD'17}
}

@inproceedings{10.1145/2648584.2648589,
author = {He, Xinran and Pan, Junfeng and Jin, Ou},
title = {Practical Lessons from Predicting Clicks on Ads at Facebook},
year = {2014},
publisher = {Association for Computing Machinery},
doi = {10.1145/2648584.2648589},
booktitle = {Proceedings of the Eighth International Workshop on Data Mining for Online Advertising},
pages = {1–9},
series = {ADKDD'14}
}
"""


def test_one_series_gets_one_venue_named_without_any_years_wording() -> None:
    """recommender.bib: ADKDD'17 first, the 2014 paper was filed under 'Proceedings of the
    ADKDD'17' and exported with that booktitle."""
    records = read(ADKDD)
    new, old = records["10.1145/3124749.3124754"], records["10.1145/2648584.2648589"]
    assert new.new_venue and old.new_venue
    assert new.venue is old.venue
    assert (old.venue.short, old.venue.kind, old.venue.name) == (
        "ADKDD",
        "workshop",
        "International Workshop on Data Mining for Online Advertising",
    )
    assert new.paper.venue == old.paper.venue == "ADKDD"
    for record in (new, old):
        (problem,) = record.problems
        assert not problem.blocking
        assert problem.message.startswith("unknown venue 'ADKDD' (from 'Proceedings of the")
        assert problem.hint.startswith(
            "add workshop 'ADKDD' (International Workshop on Data "
            "Mining for Online Advertising) to data/venues.yaml"
        )
    venues = {**VENUES, "ADKDD": old.venue}
    for record in (new, old):
        got = bibtex.entry(record.paper, venues)
        assert "booktitle = {International Workshop on Data Mining for Online Advertising}" in got
        assert "17" not in got.split("booktitle")[1].split("\n")[0]


def test_a_lone_acronym_booktitle_gives_the_acronym_not_the_year() -> None:
    record = one(ADKDD.split("\n\n")[0])
    assert (record.venue.short, record.venue.kind, record.venue.name) == (
        "ADKDD",
        "conference",
        "ADKDD",
    )


@pytest.mark.parametrize(
    ("booktitle", "short", "kind", "name"),
    [
        # frontend.bib:7, IEEE's inverted form with the year twice.
        (
            "Code Generation and Optimization, 2004. CGO 2004. International Symposium on",
            "CGO",
            "conference",
            "International Symposium on Code Generation and Optimization",
        ),
        # accelerator.bib:78
        (
            "Proceedings. 13th International Conference on Parallel Architecture and Compilation "
            "Techniques, 2004. PACT 2004.",
            "PACT",
            "conference",
            "International Conference on Parallel Architecture and Compilation Techniques",
        ),
        # backend.bib:9
        (
            "Proceedings of the First International Workshop on Polyhedral Compilation Techniques "
            "(IMPACT)",
            "IMPACT",
            "workshop",
            "International Workshop on Polyhedral Compilation Techniques",
        ),
        # explainable.bib:147: 'DLRS 2016' in series; '1st' is the edition.
        (
            "Proceedings of the 1st Workshop on Deep Learning for Recommender Systems",
            "DLRS",
            "workshop",
            "Workshop on Deep Learning for Recommender Systems",
        ),
        (
            "Proceedings of the 28th International Conference on Machine Learning, ICML 2011, "
            "Bellevue, Washington, USA, June 28 - July 2, 2011",
            "ICML",
            "conference",
            "International Conference on Machine Learning",
        ),
        (
            "Computer Vision and Pattern Recognition, 2006 IEEE Computer Society Conference on",
            "IEEE Computer Society Conference on Computer Vision and Pattern Recognition",
            "conference",
            "IEEE Computer Society Conference on Computer Vision and Pattern Recognition",
        ),
        # explainable.bib:131
        (
            "Proceedings of the IEEE/CVF conference on computer vision and pattern recognition "
            "workshops",
            "IEEE/CVF conference on computer vision and pattern recognition workshops",
            "workshop",
            "IEEE/CVF conference on computer vision and pattern recognition workshops",
        ),
    ],
)
def test_proposed_venue_names_are_normalised(
    booktitle: str, short: str, kind: str, name: str
) -> None:
    series = ", series = {DLRS 2016}" if "Recommender" in booktitle else ""
    # Against the venues the catalog uses: the shipped registry knows DLRS, ICML and CVPR.
    record = one(
        f"@inproceedings{{x, title = {{T}}, author = {{A B}}, year = 2004,"
        f" booktitle = {{{booktitle}}}{series}}}",
        USED,
    )
    assert record.new_venue
    assert (record.venue.short, record.venue.kind, record.venue.name) == (short, kind, name)
    assert ", ." not in record.venue.name and " ." not in record.venue.name


# ------------------------------------------------------------------ chapters and books


def test_a_chapter_is_filed_as_a_chapter_not_as_a_book() -> None:
    """frontend.bib:83: @inbook became @book {Applications of Differentiation Arithmetic};
    it is a chapter, filed under the generic venue Chapter with its book's fields."""
    record = one("""\
@inbook{10.5555/60181.60188,
author = {Corliss, George F.},
title = {Applications of Differentiation Arithmetic},
year = {1988},
isbn = {0125056303},
publisher = {Academic Press Professional, Inc.},
address = {USA},
booktitle = {Reliability in Computing: The Role of Interval Methods in Scientific Computing},
pages = {127–148},
numpages = {22}
}""")
    paper = record.paper
    assert paper is not None and not record.problems
    assert (paper.venue, paper.title, paper.pages) == (
        "Chapter",
        "Applications of Differentiation Arithmetic",
        "127-148",
    )
    assert paper.booktitle == (
        "Reliability in Computing: The Role of Interval Methods in Scientific Computing"
    )
    assert (paper.publisher, paper.editors) == ("Academic Press Professional, Inc.", [])
    incollection = one(
        "@incollection{x, title = {T}, author = {A B}, year = 2020, publisher = {Springer}}"
    )
    assert incollection.paper is None
    assert messages(incollection) == ["a book chapter without booktitle"]


def test_a_paper_in_proceedings_filed_as_incollection_keeps_its_conference() -> None:
    record = one(
        "@incollection{x, title = {T}, author = {A B}, year = 2020,"
        " publisher = {Springer}, booktitle = {17th USENIX Symposium on Operating"
        " Systems Design and Implementation (OSDI 23)}}"
    )
    assert record.paper.venue == "OSDI" and not record.problems


def test_a_book_title_in_publisher_does_not_become_a_venue() -> None:
    """frontend.bib:76: the publisher field holds the book's own title."""
    record = one("""\
@book{2003Computer,
  title={Computer Algebra Handbook: Foundations * Applications * Systems},
  author={ Grabmeier, J.  and  Kaltofen, E.  and  Weispfenning, V. },
  publisher={Computer algebra handbook : foundations, applications, systems},
  year={2003},
}""")
    assert record.paper is None and record.venue is None
    assert messages(record) == [
        "publisher 'Computer algebra handbook : foundations, "
        "applications, systems' is the book's title"
    ]
    # A book under its publisher is fine (collective.bib:49).
    book = one("""\
@BOOK{Sanders2019-cq,
  title     = "Sequential and parallel algorithms and data structures",
  author    = "Sanders, Peter and Mehlhorn, Kurt",
  publisher = "Springer Nature",
  year      =  2019,
}""")
    assert (book.venue.short, book.venue.kind, book.venue.name) == (
        "Springer Nature",
        "book",
        "Springer Nature",
    )


# ------------------------------------------------------------------ not papers


@pytest.mark.parametrize(
    "entry",
    [
        # accelerator.bib:1
        """@misc{2017NVIDIA,
  author={NVIDIA},
  title={NVIDIA Tesla V100 GPU Architecture: The World's Most Advanced Datacenter GPU},
  year={2017},
  howpublished = "Website",
  note = {\\url{http://www.nvidia.com/object/volta-architecture-whitepaper.html}}
}""",
        # collective.bib:85
        """@misc{li2022ddp,
  title={Getting started with distributed data parallel},
  url={https://pytorch.org/tutorials/intermediate/ddp_tutorial.html},
  year={2022},
  journal={Getting Started with Distributed Data Parallel - PyTorch Tutorials 1.11.0+cu102 documentation},
  author={Li, Shen}, editor={Zhu, Joe}
}""",
        # collective.bib:1
        """@misc{nvidia-nccl,
    title={Nvidia Collective Communications Library (NCCL)},
    url={https://developer.nvidia.com/nccl},
    author={NVIDIA},
    year={2022}, month={Feb}
}""",
        "@software{x, title = {HugeCTR}, author = {NVIDIA}, year = 2022, version = {3.0}}",
    ],
)
def test_web_pages_and_software_are_skipped_not_made_venues(entry: str) -> None:
    record = one(entry)
    assert record.paper is None and record.venue is None and not record.new_venue
    assert messages(record) == [WEB]
    assert not record.problems[0].blocking


def test_a_misc_without_any_link_or_venue_is_still_unknown_not_a_web_page() -> None:
    record = one(
        "@misc{2020MLIR, title={MLIR: A Compiler Infrastructure for the End of"
        " Moore's Law}, author={ Lattner, C. }, year={2020}}"
    )
    assert messages(record) == ["cannot tell the venue"]
    manuscript = one(
        "@unpublished{x, title = {T}, author = {A B}, year = 2020,"
        " note = {Manuscript}, url = {https://example.org/t.pdf}}"
    )
    assert messages(manuscript) == ["cannot tell the venue"]  # a manuscript, not a web page
    journal = one(
        "@misc{x, title = {T}, author = {A B}, year = 2020,"
        " journal = {Journal of Open Source Software}, url = {https://joss.org/x}}"
    )
    assert journal.paper is not None and journal.venue.name == "Journal of Open Source Software"


# ------------------------------------------------------------------ markup and fields


def test_html_entities_are_decoded() -> None:
    """explainable.bib:137 (ACM's export): 'Wide &amp; Deep' in title and keywords."""
    record = one("""\
@inproceedings{10.1145/2988450.2988454,
  author = {Cheng, Heng-Tze and Koc, Levent},
  title = {Wide &amp; Deep Learning for Recommender Systems},
  year = {2016},
  booktitle = {Proceedings of the 1st Workshop on Deep Learning for Recommender Systems},
  keywords = {Recommender Systems, Wide &amp; Deep Learning},
  series = {DLRS 2016}
}""")
    assert record.paper.title == "Wide & Deep Learning for Recommender Systems"
    assert record.fields["keywords"] == "Recommender Systems, Wide & Deep Learning"


@pytest.mark.parametrize(
    "title",
    [
        # explainable.bib:50, as written: straight quotes with a space inside
        '{" Why should i trust you?" Explaining the predictions of any classifier}',
        "{``Why should i trust you?'' Explaining the predictions of any classifier}",
        "{`` Why should i trust you? '' Explaining the predictions of any classifier}",
    ],
)
def test_quotes_become_typographic_quotes_without_stray_space(title: str) -> None:
    record = one(
        f"@inproceedings{{ribeiro2016should, title={title},"
        " author={Ribeiro, Marco Tulio and Singh, Sameer and Guestrin, Carlos},"
        " booktitle={Proceedings of the 22nd ACM SIGKDD international conference on"
        " knowledge discovery and data mining}, pages={1135--1144}, year={2016}}"
    )
    assert record.paper.title == (
        "“Why should i trust you?” Explaining the predictions of any classifier"
    )


def test_google_scholars_math_braces_are_dropped() -> None:
    """accelerator.bib:48: $\\{$High-Performance$\\}$ read as '{High-Performance}'."""
    record = one(
        "@inproceedings{zheng2020ansor, title={Ansor: Generating"
        " $\\{$High-Performance$\\}$ Tensor Programs for Deep Learning},"
        " author={Zheng, Lianmin}, booktitle={14th USENIX Symposium on Operating"
        " Systems Design and Implementation (OSDI 20)}, year={2020}}"
    )
    assert (
        record.paper.title == "Ansor: Generating High-Performance Tensor Programs for Deep Learning"
    )


def test_straight_quotes_in_a_catalog_title_survive_export_and_reading() -> None:
    paper = Paper(
        key="a2020b", title='" x" said "the GPU" & “y”', authors=["A B"], year=2020, venue="OSDI"
    )
    text = bibtex.entry(paper, VENUES, ExportOptions(protected=tuple(TERMS)))
    assert '{"} x{"} said {"}the {GPU}{"}' in text
    assert one(text).paper.title == paper.title


def test_a_month_in_number_is_left_out_with_a_problem() -> None:
    """frontend.bib:58: number={February}, which bibtex prints as the issue and warns about."""
    record = one("""\
@article{2015Automatic,
  title={Automatic Differentiation in Machine Learning: a Survey},
  author={ Pearlmutter, B. A. },
  journal={computer science},
  number={February},
  year={2015},
}""")
    assert record.paper is not None and record.paper.number is None
    assert record.paper.volume is None
    assert messages(record)[0] == "number 'February' is a month, not an issue number: left out"
    assert not record.problems[0].blocking
    venues: dict[str, Venue] = {**VENUES, record.venue.short: record.venue}
    assert "number" not in bibtex.entry(record.paper, venues)
    issue = one(
        "@article{x, title = {T}, author = {A B}, year = 2010, journal = {PVLDB},"
        " volume = {75}, number = {9}}"
    )
    assert issue.paper.number == "9" and not issue.problems


# ------------------------------------------------------------------ BibLaTeX (Zotero export)


def test_a_biblatex_date_gives_the_year() -> None:
    """Accord-Project/zotero-bibliography export/better-biblatex.bib: date, never year."""
    record = one("""\
@article{aliFrameworkVisualizingHeterogeneous2018,
  title = {A {{Framework}} for {{Visualizing Heterogeneous Construction Data Using Semantic Web Standards}}},
  author = {Ali, Mostafa and Mohamed, Yasser},
  date = {2018-09-16},
  journaltitle = {Advances in Civil Engineering},
  pages = {1--11},
}""")
    assert record.paper is not None and record.paper.year == 2018, messages(record)
    assert "year" not in record.fields  # read from date, not written into the entry
    assert (
        one(
            "@misc{x, title = {T}, author = {A B}, date = {2021-10/2021-11}, eprint = {2101.00001}}"
        ).paper.year
        == 2021
    )
    undated = one(
        "@misc{x, title = {T}, author = {A B}, date = {Spring 2020}, eprint = {2101.00001}}"
    )
    assert undated.paper is None and messages(undated) == ["missing year"]
    both = one(
        "@misc{x, title = {T}, author = {A B}, year = {2019}, date = {2020-01},"
        " eprint = {1901.00001}}"
    )
    assert both.paper.year == 2019  # year, when given, is the year


# ------------------------------------------------------------------ DBLP exports

DBLP = """\
@inproceedings{DBLP:conf/pldi/PadhiSM16,
  author    = {Saswat Padhi and
               Rahul Sharma and
               Todd D. Millstein},
  title     = {Data-driven precondition inference with learned features},
  booktitle = {Proceedings of the 37th {ACM} {SIGPLAN} Conference on Programming
               Language Design and Implementation, {PLDI} 2016, Santa Barbara, CA,
               USA, June 13-17, 2016},
  pages     = {42--56},
  year      = {2016},
  crossref  = {DBLP:conf/pldi/2016},
  biburl    = {https://dblp.org/rec/bib/conf/pldi/PadhiSM16},
  bibsource = {dblp computer science bibliography, https://dblp.org}
}

@proceedings{DBLP:conf/pldi/2016,
  editor    = {Chandra Krintz and
               Emery Berger},
  title     = {Proceedings of the 37th {ACM} {SIGPLAN} Conference on Programming
               Language Design and Implementation, {PLDI} 2016, Santa Barbara, CA,
               USA, June 13-17, 2016},
  publisher = {{ACM}},
  year      = {2016},
  biburl    = {https://dblp.org/rec/bib/conf/pldi/2016},
  bibsource = {dblp computer science bibliography, https://dblp.org}
}

@article{DBLP:journals/corr/abs-2301-01234,
  author       = {Jane Roe and
                  Hao Zhang 0001},
  title        = {A CoRR Entry},
  journal      = {CoRR},
  volume       = {abs/2301.01234},
  year         = {2023},
  eprinttype    = {arXiv},
  eprint       = {2301.01234},
}
"""


def test_a_dblp_proceedings_parent_is_skipped_as_a_volume_not_refused_for_authors() -> None:
    """DBLP's 'with crossref' export: each paper is followed by its @proceedings volume."""
    records = read(DBLP)
    # a DBLP key is a key BibTeX takes: kept, so documents citing it still work (issue 21)
    assert records["DBLP:conf/pldi/PadhiSM16"].paper.key == "DBLP:conf/pldi/PadhiSM16"
    volume = records["DBLP:conf/pldi/2016"]
    assert volume.paper is None
    assert messages(volume) == ["a proceedings volume, not a paper: skipped"]
    assert not volume.problems[0].blocking


def test_a_dblp_homonym_number_is_not_part_of_the_name() -> None:
    paper = read(DBLP)["DBLP:journals/corr/abs-2301-01234"].paper
    assert paper.authors == ["Jane Roe", "Hao Zhang"]
    assert paper.arxiv == "2301.01234"
    assert paper.volume is None  # 'abs/2301.01234' is the arXiv id again, not a volume
