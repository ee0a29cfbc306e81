"""check's rules on sources: links that name another paper's id, links that are no primary
record (on no host of data/records.yaml), on small catalogs written into tmp_path."""

from __future__ import annotations

import shutil

import pytest

from catalog.check import sources
from catalog.check.rules import check
from catalog.data.records import Records
from catalog.edit import writer
from tests.conftest import REPO, VENUES, write_catalog

RECORDS = REPO / "data" / "records.yaml"

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
    """check's messages on a catalog of PAPER with these sources and the shipped records."""
    paths = write_catalog(tmp_path, PAPER.format(sources=links), venues=venues)
    shutil.copy(RECORDS, paths.records)
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
    found = problems(tmp_path, f'"https://dblp.org/rec/conf/asplos/Tester22", "{link}"')
    assert len(found) == 1
    assert message in found[0]


def test_a_paper_without_that_kind_of_id_is_not_contradicted(tmp_path):
    body = PAPER.replace("      doi: 10.5555/3470496.0001\n", "").replace(
        '      arxiv: "2104.05158"\n', ""
    )
    paths = write_catalog(tmp_path, body.format(sources='"https://arxiv.org/abs/2401.08895"'))
    shutil.copy(RECORDS, paths.records)
    assert check(paths) == []


def test_a_source_on_an_unlisted_host_is_reported_with_its_host(tmp_path):
    found = problems(tmp_path, '"https://arxiv.org/abs/2104.05158", "https://www.mendeley.com/c/1"')
    assert found == ["source on mendeley.com is not a primary record: https://www.mendeley.com/c/1"]


def test_each_unlisted_source_is_reported_even_beside_a_primary_record(tmp_path):
    links = '"https://paperswithcode.com/paper/tiles", "https://s.bingheai.cn/x", "https://doi.org/10.5555/3470496.0001"'
    found = problems(tmp_path, links)
    assert [m.split(" is not")[0] for m in found] == [
        "source on paperswithcode.com",
        "source on s.bingheai.cn",
    ]


def test_the_finding_names_the_rule_and_the_registry(tmp_path):
    paths = write_catalog(tmp_path, PAPER.format(sources='"https://proxy25.life/abs/2104.05158"'))
    shutil.copy(RECORDS, paths.records)
    (finding,) = check(paths)
    assert finding.line == 3 and finding.where == "2022 › ASPLOS › tester2022tiles"
    assert not finding.blocking
    assert "name the publisher, proceedings, arXiv, DBLP, doi.org" in finding.hint
    assert finding.hint.endswith(f"add the host to {paths.display(paths.records)} after review")


@pytest.mark.parametrize(
    "link",
    [
        "https://web3.arxiv.org/abs/2104.05158",  # arxiv.org lists itself alone
        "https://arxiv.org.proxy25.life/abs/2104.05158",
        "https://notgithub.com/example/tiles",
        "https://researchr.org/publication/Tester22",
        "http://127.0.0.1/abs/2104.05158",
    ],
)
def test_look_alike_hosts_are_not_primary(tmp_path, link):
    assert len(problems(tmp_path, f'"{link}"')) == 1


def test_a_venue_naming_a_source_that_is_no_record_is_reported_on_its_line(tmp_path):
    venues = VENUES + (
        "TOIS:\n  kind: journal\n  name: ACM Transactions on Information Systems\n"
        "  sources: ['https://friendlywiki.com/article/index.php?title=TOIS', "
        "'https://tois.acm.org/charter.html']\n"
    )
    paths = write_catalog(tmp_path, venues=venues)
    shutil.copy(RECORDS, paths.records)
    (found,) = check(paths)
    assert found.where == "TOIS"
    assert found.file.endswith("venues.yaml")
    assert found.line == VENUES.count("\n") + 1
    assert found.message.startswith("source on friendlywiki.com is not a primary record")


def test_without_a_records_file_every_source_is_unlisted_and_the_file_is_named(tmp_path):
    paths = write_catalog(tmp_path, PAPER.format(sources='"https://arxiv.org/abs/2104.05158"'))
    found = check(paths)
    assert [p.message for p in found] == [
        "source on arxiv.org is not a primary record: https://arxiv.org/abs/2104.05158",
        "no records file, so no source is a known primary record",
    ]
    assert found[1].file == paths.display(paths.records)


def test_a_catalog_without_sources_needs_no_records_file(paths):
    assert check(paths) == []


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
def test_odd_links_name_no_id_and_are_no_record(link):
    assert sources.linked_ids(link) == (None, None)
    assert sources.unlisted(link, Records()) is not None
