"""check's rules on sources: links that name another paper's id, aggregators as the only
record, on small catalogs written into tmp_path."""

from __future__ import annotations

import pytest

from catalog.check import sources
from catalog.check.rules import check
from catalog.edit import writer
from tests.conftest import VENUES, write_catalog

PAPER = """\
2022:
  ASPLOS:
    - key: tester2022tiles
      title: "Tiles: A Made-Up Paper for Tests"
      authors: [Ada Tester]
      doi: 10.5555/3470496.0001
      arxiv: "2104.05158"
      sources: [{sources}]
"""


def problems(tmp_path, links: str, venues: str = VENUES) -> list[str]:
    paths = write_catalog(tmp_path, PAPER.format(sources=links), venues=venues)
    return [p.message for p in check(paths)]


@pytest.mark.parametrize(
    "link",
    [
        "https://arxiv.org/abs/2104.05158",
        "https://arxiv.org/abs/2104.05158v3",
        "http://www.arxiv.org/pdf/2104.05158v1.pdf",
        "https://ar5iv.labs.arxiv.org/html/2104.05158",
        "https://export.arxiv.org/abs/2104.05158",
        "https://doi.org/10.48550/arXiv.2104.05158",
        "https://doi.org/10.5555/3470496.0001",
        "https://dx.doi.org/10.5555/3470496.0001",
        "https://dl.acm.org/doi/abs/10.5555/3470496.0001",
        "https://dl.acm.org/doi/pdf/10.5555/3470496.0001",
        "https://link.springer.com/chapter/10.5555%2F3470496.0001",
        "https://github.com/example/tiles",
        "https://www.usenix.org/conference/osdi22/presentation/tester",
    ],
)
def test_a_link_that_agrees_with_the_paper_is_no_problem(tmp_path, link):
    assert problems(tmp_path, link) == []


@pytest.mark.parametrize(
    ("link", "message"),
    [
        (
            "https://arxiv.org/abs/2401.08895",
            "source https://arxiv.org/abs/2401.08895 is arXiv 2401.08895, "
            "not the paper's arXiv 2104.05158",
        ),
        ("https://arxiv.org/pdf/2401.08895v2", "is arXiv 2401.08895, not the paper's"),
        ("https://doi.org/10.48550/arXiv.2401.08895", "is arXiv 2401.08895"),
        (
            "https://doi.org/10.5555/3470496.9999",
            "is DOI 10.5555/3470496.9999, not the paper's DOI 10.5555/3470496.0001",
        ),
        ("https://dl.acm.org/doi/10.5555/3470496.9999", "is DOI 10.5555/3470496.9999"),
    ],
)
def test_a_link_to_another_paper_is_reported(tmp_path, link, message):
    found = problems(tmp_path, f'"https://example.org/tiles", "{link}"')
    assert len(found) == 1
    assert message in found[0]


def test_a_paper_without_that_kind_of_id_is_not_contradicted(tmp_path):
    body = PAPER.replace("      doi: 10.5555/3470496.0001\n", "").replace(
        '      arxiv: "2104.05158"\n', ""
    )
    paths = write_catalog(tmp_path, body.format(sources='"https://arxiv.org/abs/2401.08895"'))
    assert check(paths) == []


def test_an_aggregator_as_the_only_source_is_reported(tmp_path):
    found = problems(
        tmp_path, '"https://paperswithcode.com/paper/tiles", "https://www.scribd.com/doc/1"'
    )
    assert len(found) == 1
    assert found[0].startswith("only source is an aggregator (paperswithcode.com is a list")
    assert "scribd.com is a site re-hosting documents" in found[0]


def test_an_aggregator_beside_a_primary_record_is_fine(tmp_path):
    links = '"https://paperswithcode.com/paper/tiles", "https://arxiv.org/abs/2104.05158"'
    assert problems(tmp_path, links) == []


def test_researchr_lists_papers_but_hosts_conference_sites():
    assert sources.aggregator("https://researchr.org/publication/Tester22") is not None
    assert sources.aggregator("https://conf.researchr.org/home/icse-2024") is None
    assert sources.aggregator("https://en.wikiwand.com/en/Tiles") is not None
    assert sources.aggregator("https://notfriendlywiki.com/x") is None


def test_every_aggregator_has_a_reason():
    assert sources.AGGREGATORS
    assert all(len(reason.split()) >= 3 for reason in sources.AGGREGATORS.values())


def test_a_venue_whose_only_source_is_an_aggregator_is_reported(tmp_path):
    venues = VENUES + (
        "TOIS:\n  kind: journal\n  name: ACM Transactions on Information Systems\n"
        "  sources: ['https://friendlywiki.com/article/index.php?title=TOIS']\n"
    )
    found = [p for p in check(write_catalog(tmp_path, venues=venues)) if p.where == "TOIS"]
    assert len(found) == 1
    assert "only source is an aggregator (friendlywiki.com is a mirror of Wikipedia" in str(
        found[0]
    )
    assert found[0].file.endswith("venues.yaml")


def test_an_edit_that_adds_a_contradicting_source_is_refused(tmp_path):
    paths = write_catalog(tmp_path, PAPER.format(sources='"https://arxiv.org/abs/2104.05158"'))
    before = paths.catalog.read_bytes()
    with (
        pytest.raises(writer.InvalidEditError, match=r"is arXiv 2401\.08895"),
        writer.edit(paths) as session,
    ):
        session.update(
            "tester2022tiles",
            sources=["https://arxiv.org/abs/2104.05158", "https://arxiv.org/abs/2401.08895"],
        )
    assert paths.catalog.read_bytes() == before


def test_papers_check_reports_it_with_its_line(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from catalog.cli import app

    paths = write_catalog(tmp_path, PAPER.format(sources='"https://arxiv.org/abs/2401.08895"'))
    result = CliRunner().invoke(
        app, ["--catalog", str(paths.catalog), "--db", str(paths.db), "check"]
    )
    assert result.exit_code == 1
    assert ":3: 2022 › ASPLOS › tester2022tiles: source https://arxiv.org/abs/2401.08895" in (
        result.output
    )


@pytest.mark.parametrize(
    "link", ["https://[broken/abs/1", "https://arxiv.org/abs/", "https://doi.org/", "http://x"]
)
def test_odd_links_name_no_id_and_raise_nothing(link):
    assert sources.linked_ids(link) == (None, None)
    assert sources.aggregator(link) is None
