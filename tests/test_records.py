"""The records registry (data/records.yaml): how its entries match links, and how `check`
reports its own bad entries, each with its line."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from catalog.check import sources
from catalog.check.rules import check
from catalog.data.records import KINDS, load_records
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog

SHIPPED = REPO / "data" / "records.yaml"

ENTRIES = """\
acm.org: {kind: publisher, note: the ACM}
arxiv.org: {kind: preprint, note: arXiv, subdomains: false}
export.arxiv.org: {kind: preprint, note: arXiv's programs' host}
researchr.org/publication: {kind: bibliography, note: a made-up entry for tests}
microsoft.com/en-us/research: {kind: institution, note: Microsoft Research}
luomai.github.io: {kind: author, note: Luo Mai's own page}
"""


def records_of(tmp_path: Path, text: str):
    path = tmp_path / "records.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_records(path, "records.yaml")


def primary(records, url: str) -> bool:
    return sources.unlisted(url, records) is None


@pytest.mark.parametrize(
    "url",
    [
        "https://acm.org/publications",
        "https://dl.acm.org/doi/10.1145/3575693.3575718",
        "http://delivery.acm.org/10.1145/3360000/3358284/p740-Kwon.pdf",
        "https://www.acm.org/media-center",
        "https://DL.ACM.ORG/doi/10.1145/1",
        "https://arxiv.org/abs/2104.05158",
        "https://export.arxiv.org/abs/2104.05158",
        "https://researchr.org/publication",
        "https://researchr.org/publication/Tester22",
        "https://www.microsoft.com/en-us/research/publication/x/",
        "https://microsoft.com/en-us/research/?p=677652",
        "https://luomai.github.io/publication/2022-osdi-ekko/",
    ],
)
def test_a_listed_host_its_subdomains_and_its_paths_are_primary(tmp_path, url):
    assert primary(records_of(tmp_path, ENTRIES), url)


@pytest.mark.parametrize(
    "url",
    [
        "https://web3.arxiv.org/abs/2104.05158",  # subdomains: false
        "https://notacm.org/x",  # a host that only ends like one
        "https://acm.org.proxy25.life/x",
        "https://researchr.org/",  # outside the listed path
        "https://researchr.org/publicationx/1",
        "https://conf.researchr.org/home/icse-2024",
        "https://www.microsoft.com/en-us/store/b/home",
        "https://microsoft.com/research/x",
        "https://github.io/x",  # a personal page covers no other
        "https://someone.github.io/x",
    ],
)
def test_anything_else_is_not(tmp_path, url):
    assert not primary(records_of(tmp_path, ENTRIES), url)


def test_a_host_listed_only_under_paths_says_which(tmp_path):
    message = sources.unlisted("https://researchr.org/profile/x", records_of(tmp_path, ENTRIES))
    assert message == (
        "source on researchr.org is not a primary record (the records list it only under "
        "/publication): https://researchr.org/profile/x"
    )


BAD = """\
# a comment
good.org: {kind: publisher, note: fine}
WWW.Example.org: {kind: publisher, note: upper case}
www.example.org: {kind: publisher, note: with www}
example.org/: {kind: publisher, note: a trailing slash}
https://example.org: {kind: publisher, note: a scheme}
example.org/a/../b: {kind: publisher, note: a dot-dot path}
"javascript:alert(1)": {kind: publisher, note: not a host}
"exa\\u001bmple.org": {kind: publisher, note: an escape in the host}
127.0.0.1: {kind: publisher, note: an address}
kind.org: {kind: aggregator, note: not a kind}
nonote.org: {kind: publisher}
control.org: {kind: publisher, note: "a \\u202e bidi override"}
typo.org: {kind: publisher, note: fine, subdomain: false}
flag.org: {kind: publisher, note: fine, subdomains: "no"}
list.org: [publisher]
good.org: {kind: publisher, note: twice}
"""


def test_bad_entries_are_reported_with_their_line_and_left_out(tmp_path):
    records = records_of(tmp_path, BAD)
    found = {(p.line, p.message) for p in records.problems}
    assert found == {
        (3, "not a host: 'WWW.Example.org'"),
        (4, "a host written with www."),
        (5, "not a host: 'example.org/'"),
        (6, "not a host: 'https://example.org'"),
        (7, "not a host: 'example.org/a/../b'"),
        (8, "not a host: 'javascript:alert(1)'"),
        (9, "control character in the host"),
        (10, "not a host: '127.0.0.1'"),
        (11, "unknown kind 'aggregator'"),
        (12, "no note"),
        (13, "control character in the note"),
        (14, "unknown field 'subdomain'"),
        (15, "subdomains is not true or false"),
        (16, "entry is not a mapping"),
        (17, "listed twice (also line 2)"),
    }
    assert all(p.hint and not p.blocking and p.file == "records.yaml" for p in records.problems)
    assert list(records.by_host) == ["good.org"]
    assert not primary(records, "https://kind.org/x")


def test_check_reports_the_registry_s_problems_as_warnings(tmp_path):
    paths = write_catalog(tmp_path)
    paths.records.write_text(BAD, encoding="utf-8")
    found = [p for p in check(paths) if p.file == paths.display(paths.records)]
    assert len(found) == 15
    assert not any(p.blocking for p in found)


def test_a_registry_yaml_cannot_read_is_reported_and_no_source_is_judged(tmp_path):
    paths = write_catalog(tmp_path)
    paths.records.write_text("acm.org: {kind: publisher\n", encoding="utf-8")
    (found,) = check(paths)
    assert found.file == paths.display(paths.records)
    assert found.message.startswith("YAML syntax error")
    assert not found.blocking  # the catalog itself reads: only check reads the registry


def test_the_shipped_registry_has_no_problem_and_a_note_for_every_entry():
    records = load_records(SHIPPED, "data/records.yaml")
    assert records.problems == []
    entries = [r for rs in records.by_host.values() for r in rs]
    assert len(entries) >= 100
    assert {r.kind for r in entries} == set(KINDS)
    assert all(len(r.note.split()) >= 2 for r in entries)


@pytest.mark.parametrize(
    "host",
    [
        "s.bingheai.cn",
        "proxy25.life",
        "web3.arxiv.org",
        "thelatestinai.com",
        "researchtrend.ai",
        "summarizepaper.com",
        "arxiver.lazybrains.com",
        "bohrium.dp.tech",
        "pdfslide.net",
        "mendeley.com",
        "aminer.org",
        "paperswithcode.com",
        "scribd.com",
        "vdocuments.site",
        "wikiwand.com",
        "researchr.org",
    ],
)
def test_the_shipped_registry_lists_no_aggregator_mirror_or_proxy(host):
    records = load_records(SHIPPED, "data/records.yaml")
    assert not primary(records, f"https://{host}/paper/1")


def test_the_shipped_catalog_s_papers_name_primary_records_or_are_reported(shipped: Paths):
    """The seed catalog, checked with the shipped registry: every source it names is on a
    listed host (its papers predate the hosts the lead replaces)."""
    assert [p for p in check(shipped) if "not a primary record" in p.message] == []


def test_demo_carries_the_registry(tmp_path, run):
    result = run("demo", str(tmp_path / "tour"))
    assert result.exit_code == 0, result.output
    copied = tmp_path / "tour" / "data" / "records.yaml"
    assert copied.read_bytes() == (SHIPPED).read_bytes()


def test_a_catalog_records_file_is_its_own(tmp_path):
    """A catalog's own records.yaml decides, not the one shipped with papers."""
    paths = write_catalog(
        tmp_path,
        """\
        2022:
          ASPLOS:
            - key: tester2022tiles
              title: "Tiles"
              authors: [Ada Tester]
              sources: [https://arxiv.org/abs/2104.05158, https://lab.example.org/tiles]
        """,
    )
    shutil.copy(SHIPPED, paths.records)
    assert [p.message.split(":")[0] for p in check(paths)] == [
        "source on lab.example.org is not a primary record"
    ]
    with paths.records.open("a", encoding="utf-8") as out:
        out.write("example.org: {kind: institution, note: Ada Tester's lab}\n")
    assert check(paths) == []
