"""Issue 33 (items 7 and 12, after public .bib files): a venue the registry lacks is
proposed under the short name the entry gives, of the kind its name says, never made up;
and one rule says what text names a venue. Shapes written here, none copied."""

from __future__ import annotations

import pytest

from catalog.bib.bibtex import read_bib
from catalog.bib.names import BibRecord
from catalog.bib.venuematch import names_venue
from catalog.bib.venuenames import key_acronym
from catalog.data.registry import Venue, load_venues
from tests.conftest import REPO

REGISTRY = load_venues(REPO / "data" / "venues.yaml")


def records(text: str, registry: dict[str, Venue] | None = None) -> list[BibRecord]:
    return read_bib(text, "t.bib", REGISTRY if registry is None else registry)


def one(entry: str, registry: dict[str, Venue] | None = None) -> BibRecord:
    [record] = records(entry, registry)
    return record


def paper(key: str, field: str, container: str, etype: str = "inproceedings") -> str:
    return (
        f"@{etype}{{{key}, title = {{A Paper}}, author = {{Doe, Jane}}, year = 2020, "
        f"{field} = {{{container}}}}}\n"
    )


def hint(record: BibRecord) -> str:
    return " ".join(p.hint for p in record.problems)


@pytest.mark.parametrize(
    ("key", "booktitle", "short", "checked"),
    [
        # the key spells the acronym; its capitals are a guess, noted for review
        (
            "DBLP:conf/corl/DoeX20",
            "Proceedings of the 2020 Conference on Robot Learning",
            "CoRL",
            True,
        ),
        ("corl/2020/doe", "Conference on Robot Learning", "CoRL", True),
        (
            "conf/pldi/Doe21",
            "Proceedings of the 42nd ACM SIGPLAN International Conference on Programming "
            "Language Design and Implementation",
            "PLDI",
            False,
        ),
        ("sows/2018/doe", "Proceedings of the ACM Symposium on Widget Serving", "SoWS", True),
    ],
)
def test_a_new_venues_short_name_is_the_one_its_key_gives(
    key: str, booktitle: str, short: str, checked: bool
) -> None:
    # 33 left: 'Conference on Robot Learning' was filed as CRL, the field writes CoRL
    record = one(paper(key, "booktitle", booktitle))
    assert record.new_venue and record.venue is not None and record.paper is not None
    assert (record.venue.short, record.paper.venue) == (short, short)
    assert ("check its capitals" in hint(record)) is checked
    assert "initials" not in hint(record)


def test_an_ieee_doi_names_the_journal_in_its_own_capitals() -> None:
    record = one(
        "@article{campos2021, title = {A Paper}, author = {Doe, Jane}, year = 2021, journal = "
        "{IEEE Transactions on Robotics}, doi = {10.1109/TRO.2021.3075644}}\n"
    )
    assert record.venue is not None and record.venue.short == "TRO"
    assert "check" not in hint(record)


@pytest.mark.parametrize("doi", ["10.1016/j.ins.2020.03.010", "10.1371/journal.pone.0093949"])
def test_a_publishers_code_in_a_doi_is_no_acronym(doi: str) -> None:
    assert key_acronym("ruas2020", "Information Sciences", doi) is None
    assert key_acronym("ruas2020", "PLOS ONE", doi) is None


def test_without_an_acronym_anywhere_the_initials_are_flagged() -> None:
    record = one(paper("pmlr-v155-doe21a", "booktitle", "Conference on Robot Learning"))
    assert record.venue is not None and record.venue.short == "CRL"
    assert "made from the initials: check it" in hint(record)


@pytest.mark.parametrize(
    ("key", "name"),
    [
        ("doe2020learning", "Conference on Robot Learning"),  # a word of the title
        ("conf/x/Doe20", "Conference on Robot Learning"),
        ("corl", "Robot"),  # a name of one word has no acronym to spell
    ],
)
def test_a_key_that_spells_no_acronym_gives_none(key: str, name: str) -> None:
    assert key_acronym(key, name) is None


def test_a_capitalised_word_of_the_name_is_the_acronym_the_key_gives() -> None:
    name = "ACM SIGMOD International Conference on Management of Data"
    assert key_acronym("conf/sigmod/Doe20", name) == ("SIGMOD", False)


def test_an_acronym_the_key_gives_is_the_registry_venue_of_that_name() -> None:
    registry = {"SoCC": Venue("SoCC", "conference", "Cloud Systems Meeting")}
    record = one(paper("socc/2018/doe", "booktitle", "Symposium on Cloud Computing"), registry)
    assert not record.new_venue and record.paper is not None and record.paper.venue == "SoCC"


def test_a_conferences_workshops_are_a_workshop_under_its_short_name() -> None:
    # 'IEEE/CVF conference on ... workshops' was proposed under its full name
    record = one(
        paper(
            "wang2020score",
            "booktitle",
            "Proceedings of the IEEE/CVF conference on computer vision and pattern "
            "recognition workshops",
        )
    )
    assert record.new_venue and record.venue is not None
    assert (record.venue.short, record.venue.kind) == ("CVPR Workshop", "workshop")


def test_a_workshop_on_a_subject_is_not_a_conferences_workshop() -> None:
    record = one(
        paper(
            "x",
            "booktitle",
            "Proceedings of the Workshop on Computer Vision and Pattern Recognition",
        )
    )
    assert record.venue is not None and record.venue.kind == "workshop"
    assert not record.venue.short.startswith("CVPR")


def test_a_technical_report_filed_as_a_journal_is_a_report_of_its_institution() -> None:
    record = one(paper("x", "journal", "Technical Report, Example University", "article"))
    assert record.venue is not None and record.paper is not None
    assert (record.venue.kind, record.venue.name) == ("report", "Example University")


def test_a_report_that_names_no_institution_is_refused_with_why() -> None:
    record = one(paper("x", "institution", "Technical Report", "techreport"))
    assert record.paper is None and not record.new_venue
    assert [p.message for p in record.problems if p.blocking] == [
        "'Technical Report' names no institution"
    ]


def test_organisers_are_written_as_they_write_themselves() -> None:
    record = one(paper("x", "journal", "Acm Sigplan Notices", "article"))
    assert record.venue is not None
    assert (record.venue.short, record.venue.name) == ("ACM-SIGPLAN-Notices", "ACM SIGPLAN Notices")


def test_one_journal_spelled_two_ways_is_one_venue_under_its_capitals() -> None:
    # Google Scholar writes 'Neural computation'; another export 'Neural Computation'
    read = records(
        paper("a", "journal", "Neural computation", "article")
        + paper("b", "journal", "Neural Computation", "article")
    )
    assert {(r.venue.short, r.venue.name) for r in read if r.venue} == {
        ("Neural-Computation", "Neural Computation")
    }


@pytest.mark.parametrize(
    ("text", "venue"),
    [
        ("Journal of Open Source Software", True),
        ("IEEE Transactions on Software Engineering", True),
        ("Proc. of the Widget Meeting", True),
        ("Technical Report, Example University", True),
        ("bioRxiv", False),  # a server's name, read by the preprint rule
        ("OpenAI", False),
        ("PyTorch documentation", False),
    ],
)
def test_one_rule_says_what_names_a_venue(text: str, venue: bool) -> None:
    assert names_venue(text) is venue


@pytest.mark.parametrize(
    ("howpublished", "kept"),
    [
        ("Journal of Open Source Software", True),  # software words, but a journal
        ("PyTorch 2.1.0 documentation", False),
    ],
)
def test_a_misc_with_a_link_is_a_paper_only_where_it_names_a_venue(
    howpublished: str, kept: bool
) -> None:
    record = one(
        "@misc{x, title = {A Tool}, author = {Doe, Jane}, year = 2021, "
        f"howpublished = {{{howpublished}}}, url = {{https://example.org/tool}}}}\n"
    )
    assert (record.paper is not None) is kept


def test_a_stray_comma_after_a_name_is_dropped_not_the_entry() -> None:
    # 'Li, Jinyu, and Gu, Guangye' refused a whole entry of eleven authors
    record = one(
        "@article{x, title = {A Paper}, author = {Doe, Jane and Li, Jinyu, and Gu, Guangye},"
        " year = 2022, journal = {Journal of Widget Research}}\n"
    )
    assert record.paper is not None
    assert record.paper.authors == ["Jane Doe", "Jinyu Li", "Guangye Gu"]
    assert not [p for p in record.problems if p.blocking]


def test_one_conference_with_and_without_annual_international_is_one_venue() -> None:
    read = records(
        paper(
            "a",
            "booktitle",
            "Proceedings of the 11th Annual International ACM/IEEE Joint Conference on "
            "Digital Libraries",
        )
        + paper(
            "b",
            "booktitle",
            "Proceedings of the ACM/IEEE-CS Joint Conference on Digital Libraries (JCDL)",
        )
    )
    assert {r.venue.short for r in read if r.venue} == {"JCDL"}


def test_an_article_published_only_by_a_university_is_its_report() -> None:
    record = one(paper("x", "publisher", "Cornell University", "article"))
    assert record.venue is not None and record.paper is not None
    assert (record.venue.kind, record.venue.name) == ("report", "Cornell University")


def test_a_university_press_is_a_publisher_not_an_institution() -> None:
    record = one(paper("x", "publisher", "Cambridge University Press", "article"))
    assert record.venue is not None and record.venue.kind == "book"


def test_a_report_of_a_preprint_server_is_a_preprint() -> None:
    record = one(paper("x", "institution", "Preprints", "techreport"))
    assert record.venue is not None and record.venue.kind == "preprint"


def test_a_journal_named_by_two_capitalised_words_is_named_by_both() -> None:
    record = one(paper("x", "journal", "PLOS ONE", "article"))
    assert record.venue is not None and record.venue.short == "PLOS-ONE"


def test_a_wiki_page_filed_as_an_article_is_not_a_paper() -> None:
    record = one(
        "@article{x, title = {Discounted Cumulative Gain}, author = {{Wiki contributors}}, "
        "year = 2022, journal = {Wikipedia}, url = {https://en.wikipedia.org/w/index.php}}\n"
    )
    assert record.paper is None and not record.new_venue
    assert any("names a wiki" in p.message for p in record.problems)
