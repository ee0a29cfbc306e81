"""The three import doors (.bib, Markdown lists, web replies) keep a DOI or a link by one
rule (model.kept_doi / kept_url) and say the same of the same bad value."""

from __future__ import annotations

import pytest

from catalog.bib.parser import read_bib
from catalog.data.registry import Venue
from catalog.ingest import lists, services
from catalog.model import DOI_HINT, Dropped, kept_doi, kept_url

BAD_DOI = "10.1234/\\input{x}"
# Looks like a link (a list reads it as the paper's) but would break out of an attribute.
BAD_URL = 'https://example.org/"><b>x'
DOI_NOTE = f"{BAD_DOI!r} is not a DOI: left out ({DOI_HINT})"
URL_NOTE = f"{BAD_URL!r} is not an http(s) link: left out (only http(s) links are kept)"
VENUES = {
    "OSDI": Venue(
        "OSDI", "conference", "USENIX Symposium on Operating Systems Design and Implementation"
    )
}


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("10.1145/3575693.3575718", "10.1145/3575693.3575718"),
        ("https://doi.org/10.1145/3575693.3575718", "10.1145/3575693.3575718"),
        ("http://dx.doi.org/10.1145/3575693.3575718", "10.1145/3575693.3575718"),
        ("doi: 10.1145/3575693.3575718", "10.1145/3575693.3575718"),
        (" 10.1145/35756\u202e93.3575718 ", "10.1145/3575693.3575718"),  # controls go first
        ("", None),
        (None, None),
    ],
)
def test_kept_doi_keeps_a_doi(given: str | None, kept: str | None) -> None:
    assert kept_doi(given) == (kept, None)


def test_kept_doi_and_url_say_why_a_value_is_left_out() -> None:
    doi, dropped = kept_doi(BAD_DOI, "Crossref's doi")
    assert doi is None and dropped == Dropped(
        f"Crossref's doi {BAD_DOI!r} is not a DOI: left out", DOI_HINT
    )
    assert str(dropped) == f"Crossref's doi {DOI_NOTE}"
    assert kept_url("https://example.org/a b") == (
        None,
        Dropped(
            "url 'https://example.org/a b' is not an http(s) link: left out",
            "only http(s) links are kept",
        ),
    )
    assert kept_url(" https://example.org/a ") == ("https://example.org/a", None)
    assert kept_url(None) == (None, None)


def test_every_door_words_the_same_bad_values_the_same() -> None:
    (record,) = read_bib(
        f"@inproceedings{{a2020x, title = {{T}}, author = {{Ann Bee}}, "
        f"year = 2020, booktitle = {{OSDI}}, doi = {{{BAD_DOI}}}, "
        f"url = {{{BAD_URL}}}}}",
        "d.bib",
        VENUES,
    )
    assert record.paper is not None and (record.paper.doi, record.paper.url) == (None, None)
    bib = [f"{p.message} ({p.hint})" for p in record.problems]
    assert bib == [f"doi {DOI_NOTE}", f"url {URL_NOTE}"]

    reply = services.crossref_record({"title": ["T"], "DOI": BAD_DOI, "URL": BAD_URL})
    assert (reply.doi, reply.url) == (None, None)
    assert reply.notes == [f"Crossref's doi {DOI_NOTE}", f"Crossref's url {URL_NOTE}"]

    listed = lists.parse(
        f"- [OSDI'23] [Title One]({BAD_URL})\n"
        f"- [OSDI'23] [Title Two](https://doi.org/{BAD_DOI})\n"
        "- [OSDI'23] [Title Three](papers/three.pdf)\n"
    ).entries
    assert [(e.url, e.doi) for e in listed] == [(None, None)] * 3
    assert listed[0].notes == [f"link {URL_NOTE}"]
    doi_link = f"https://doi.org/{BAD_DOI}"  # neither a link nor its DOI is kept
    assert listed[1].notes == [
        f"link {doi_link!r} is not an http(s) link: left out (only http(s) links are kept)",
        f"link's doi {DOI_NOTE}",
    ]
    assert listed[2].notes == []  # a relative link is not the paper's: dropped silently
