"""The two ways an entry is written agree: by its shape's template (plain, most papers)
and field by field (full), for hostile text in every field; and a paper given as a tuple
of ROW_FIELDS (as `papers export` reads them) gives the entry its Paper gives."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog import bibtex
from catalog.errors import CatalogError
from catalog.model import Paper
from catalog.venues import load_venues
from tests.conftest import REPO

VENUES = load_venues(REPO / "data" / "venues.yaml")
TERMS = bibtex.load_protected_terms(REPO / "data" / "protected-terms.txt")
# Pieces that LaTeX, BibTeX or the templates' % could take for their own.
PIECES = ["%", "%s", "%%", "%(x)s", "{", "}", "\\", "#", "&", "~", "^", "$", "_", "\"",
          ",", "--", "``", "''", ",,", "!`", "?`", "\n", "\t", "\x00", "\x1b", "\u202e",
          "\u00a0", "é", "Ø", "and", "others", "GPU", "Ekko", "Monte Carlo", " ", ".", "1-2",
          "3--4", "5, 6-7", "https://x.org/a b", "10.1/x{y}"]
hostile = st.lists(st.one_of(st.sampled_from(PIECES), st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=5)),
    max_size=5).map("".join)
maybe = st.one_of(st.none(), st.just(""), hostile)
# Every venue the shipped registry has, and one it lacks (an error either way).
venue = st.sampled_from([*sorted(VENUES), "NoSuchVenue"])


@st.composite
def papers(draw) -> Paper:
    return Paper(
        key=draw(st.from_regex(r"\A[a-z]{1,6}[0-9]{4}[a-z]{1,6}\Z")),
        title=draw(hostile), authors=draw(st.lists(hostile, max_size=4)),
        year=draw(st.integers(1900, 2100)), venue=draw(venue), et_al=draw(st.booleans()),
        doi=draw(maybe), arxiv=draw(maybe), arxiv_class=draw(maybe), url=draw(maybe),
        volume=draw(maybe), number=draw(maybe), pages=draw(maybe), articleno=draw(maybe),
        numpages=draw(maybe), abstract=draw(maybe), booktitle=draw(maybe),
        editors=draw(st.lists(hostile, max_size=2)), publisher=draw(maybe),
        chapter=draw(maybe), line=draw(st.integers(0, 99)))


options = st.fixed_dictionaries({
    "ascii": st.booleans(), "venue_style": st.sampled_from(bibtex.VENUE_STYLES),
    "arxiv_style": st.sampled_from(bibtex.ARXIV_STYLES), "abstracts": st.booleans()})


def writer(opts: dict) -> bibtex._Writer:
    return bibtex._Writer(VENUES, opts["ascii"], opts["venue_style"], opts["arxiv_style"],
                          TERMS, opts["abstracts"])


def outcome(write, paper) -> str:
    try:
        return write(paper)
    except CatalogError as err:  # an unknown venue, a chapter without its book, --ascii
        return f"error: {err}"


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(papers(), options)
def test_the_template_writes_what_field_by_field_writes(paper: Paper, opts: dict) -> None:
    plain = writer(opts).plain(*(getattr(paper, name) for name in bibtex.PLAIN_FIELDS))
    if plain is not None:  # (None: a shape the template leaves to full)
        assert plain == outcome(writer(opts).full, paper)
        assert not opts["ascii"] and paper.venue in VENUES


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(papers(), min_size=1, max_size=6), options)
def test_a_paper_as_a_row_gives_the_entry_its_paper_gives(batch: list[Paper],
                                                          opts: dict) -> None:
    by_paper, by_row = writer(opts), writer(opts)  # (each with the caches a run builds)
    for paper in batch:
        row = tuple(getattr(paper, name) for name in bibtex.ROW_FIELDS)
        assert outcome(by_row.entry_row, row) == outcome(by_paper.entry, paper)


def test_a_usual_paper_goes_by_the_template() -> None:
    paper = Paper("kim2023fast", "Fast {GPU} 50% Lookups", ["Kim, Ada", "Bo Li"], 2023, "OSDI",
                  doi="10.1/x", pages="1-12", abstract="Faster -- and 3% smaller.")
    opts = {"ascii": False, "venue_style": "full", "arxiv_style": "eprint", "abstracts": True}
    plain = writer(opts).plain(*(getattr(paper, name) for name in bibtex.PLAIN_FIELDS))
    assert plain is not None
    assert plain == writer(opts).full(paper)
    assert "  pages     = {1--12},\n" in plain and "3\\% smaller" in plain
