"""Hostile input through the import doors (issue 8): .bib files, Markdown lists and
metadata replies. Bounded time, a message instead of a traceback, nothing injected."""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalog.bib.parser import read_bib
from catalog.data import reader
from catalog.ingest import importer, lists, services, webclient
from catalog.model import CONTROL_OR_NEWLINE_RE, DOI_RE, is_http_url
from catalog.paths import Paths
from tests.test_fetch import Online, online  # noqa: F401 (fixture)

N = 50_000  # the reproducer: '#', 50,000 spaces, 50,000 '#', 'x' took 54 s


@contextlib.contextmanager
def hang_guard(seconds: int = 30) -> Iterator[None]:
    """Fail instead of hanging: a quadratic parser needs minutes on these 100 KB inputs, a
    linear one well under a second. Not a speed test (tools/ benchmarks measure speed)."""

    def expired(*_: object) -> None:
        raise AssertionError(f"still parsing after {seconds} s: a parser is not linear")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# Lines that made a backtracking regex quadratic (each found by a search over pairs of long
# runs of one character); every one is 100 KB.
MARKDOWN_LINES = {
    "heading": "#" + " " * N + "#" * N + "x",
    "paren-spaces": "1. " + "(" * N + " " * N + "]",
    "spaces-pipes": " " * N + "|" * N,
    "table-cells": "| " + "|" * N + "`" * N + "|",
    "tags": "- " + "[a]" * (N // 2) + " x",
    "trailing-notes": "- [OSDI'23] A Title " + "[a] " * (N // 2),
    "code-notes": "- [OSDI'23] A Title " + "(`a`) " * (N // 3),
    "anchors": "- " + "<a href='x'>" * (N // 6),
    "separator": "|" + " " * N + "|" * N,
    "item-spaces": "- " + " " * N + "\t" * N,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MARKDOWN_LINES))
def test_every_markdown_line_parses_in_linear_time(name: str) -> None:
    with hang_guard():
        parsed = lists.parse(MARKDOWN_LINES[name] + "\n- [OSDI'23] [A Real Title](https://x.org)")
    assert parsed.entries[-1].title == "A Real Title"


BIB_VALUES = {
    "booktitle-spaces": "Proceedings of (ABC" + " " * N + "x",
    "capitals": "Proceedings of " + "A" * N + " 1",
    "capitals-year": "B" + "C" * N + "'x",
    "separators": "Conf" + " " * N + "x, Symposium on",
    "arxiv-spaces": "arXiv" + " " * N + ":x",
    "noise": "Conf " + "Ab" * N + "-x",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BIB_VALUES))
def test_every_bib_field_reads_in_linear_time(name: str) -> None:
    value = BIB_VALUES[name]
    text = (
        "@inproceedings{a2020x, title = {T}, author = {A B and"
        + " " * N
        + f"and C D}}, year = 2020, booktitle = {{{value}}}, note = {{{value}}}}}\n"
        + "\n" * N
        + "@article{"
        + " " * N
        + "b, title = {T}}\n"
    )
    with hang_guard():
        records = read_bib(text, "x.bib", {})
    assert records[0].key == "a2020x"


def test_deep_braces_are_a_message_not_a_recursion_error() -> None:
    nested = "{" * 300 + "x" + "}" * 300
    records = read_bib(
        f"@article{{a2020x, title = {{{nested}}}, author = {{A B}}, year = 2020, journal = {{J}}}}",
        "deep.bib",
        {},
    )
    assert records[0].paper is None
    assert "braces nested 300 deep" in str(records[0].problems[0])


def test_import_cli_reports_deep_braces(cli, paths: Paths, tmp_path: Path) -> None:
    bib = tmp_path / "deep.bib"
    nested = "{" * 300 + "x" + "}" * 300
    bib.write_text(
        f"@article{{a2020x, title = {{{nested}}}, author = {{A B}}, year = 2020,"
        " journal = {PVLDB}}\n",
        encoding="utf-8",
    )
    result = cli("import", str(bib))
    assert result.exit_code == 0, result.output  # refused alone, with its reason
    assert "braces nested 300 deep" in result.output
    assert "Traceback" not in result.output


# -------------------------------------------------------------- control characters

EVIL = "Evil\x1b]8;;http://x\x07 title\x00 with \u202eoverride\x1b[31m"


def test_control_characters_in_a_bib_are_stripped(paths: Paths, tmp_path: Path) -> None:
    text = (
        f"@inproceedings{{a2020x, title = {{{EVIL}}}, author = {{Ann\x1b[2J Bee}},"
        " year = 2020, booktitle = {OSDI}, abstract = {Line one\x00\nline two}}"
    )
    report = importer.import_bib(paths, text, "evil.bib")
    assert report.counts["added"] == 1
    paper = next(p for p in reader.load(paths.catalog) if p.key == "a2020x")
    for value in (paper.title, *paper.authors):
        assert not CONTROL_OR_NEWLINE_RE.search(value), value
    assert paper.title == "Evil]8;;http://x title with override[31m"
    assert paper.authors == ["Ann[2J Bee"]
    assert "\x00" not in (paper.abstract or "")


def test_control_characters_in_a_list_are_stripped() -> None:
    parsed = lists.parse(
        "- [OSDI'23] [Evil\x1b title\x00 with \u202eoverride\x07](https://x.org/a)\n"
    )
    [entry] = parsed.entries
    assert entry.title == "Evil title with override"


def test_control_characters_in_replies_are_stripped() -> None:
    record = services.crossref_record(
        {
            "title": [EVIL],
            "author": [{"given": "A\x1b[1m", "family": "B\x00"}],
            "container-title": ["Conf\u202e"],
            "DOI": "10.1/x",
        }
    )
    for value in (record.title, *record.authors, *record.venue_names):
        assert not CONTROL_OR_NEWLINE_RE.search(value), value


# -------------------------------------------------------------- links and DOIs

BAD_URLS = [
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "vbscript:msgbox",
]
BAD_DOIS = ["10.1234/\\input{/etc/passwd}", "10.1/a b", "10.1/{x}", '10.1/x"onload']


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_non_http_url_in_a_bib_is_left_out_with_a_note(paths: Paths, url: str) -> None:
    text = (
        f"@inproceedings{{a2020x, title = {{A Title}}, author = {{Ann Bee}}, year = 2020,"
        f" booktitle = {{OSDI}}, url = {{{url}}}}}"
    )
    report = importer.import_bib(paths, text, "u.bib")
    assert report.counts["added"] == 1
    paper = next(p for p in reader.load(paths.catalog) if p.key == "a2020x")
    assert paper.url is None
    assert any("is not an http(s) link: left out" in str(w) for w in report.warnings)


@pytest.mark.parametrize("doi", BAD_DOIS)
def test_a_malformed_doi_in_a_bib_is_never_stored(paths: Paths, doi: str) -> None:
    text = (
        f"@inproceedings{{a2020x, title = {{A Title}}, author = {{Ann Bee}}, year = 2020,"
        f" booktitle = {{OSDI}}, doi = {{{doi}}}}}"
    )
    report = importer.import_bib(paths, text, "d.bib")
    assert report.counts["added"] == 1
    assert all(DOI_RE.match(p.doi) for p in reader.load(paths.catalog) if p.doi)
    assert any("is not a DOI: left out" in str(w) for w in report.warnings)


def test_a_list_never_gives_a_non_http_link_or_bad_doi() -> None:
    text = (
        "- [OSDI'23] [Title One](javascript:alert`1`)\n"
        "- [OSDI'23] [Title Two](https://doi.org/10.1234/\\input{x})\n"
        "- [Title Three](data:text/html,x) OSDI 2023\n"
    )
    entries = lists.parse(text).entries
    assert [e.title for e in entries] == ["Title One", "Title Two", "Title Three"]
    for entry in entries:
        assert entry.url is None or is_http_url(entry.url)
        assert entry.doi is None or DOI_RE.match(entry.doi)


def test_replies_never_give_a_non_http_url_or_bad_doi() -> None:
    record = services.crossref_record(
        {"title": ["T"], "DOI": "10.1234/\\input{/x}", "URL": "javascript:alert(1)"}
    )
    assert record.doi is None and record.url is None
    assert len(record.notes) == 2
    hit = services.dblp_record(
        {
            "title": "T.",
            "ee": "data:text/html,x",
            "doi": "10.1/{x}",
            "type": "Conference and Workshop Papers",
            "year": "2020",
        }
    )
    assert hit.doi is None and hit.url is None


def test_add_refuses_a_malformed_doi_before_any_network_call(cli) -> None:
    result = cli("add", "--doi", "10.1234/\\input{/etc/passwd}")
    assert result.exit_code == 2
    assert "is not a DOI" in result.output


def test_add_refuses_a_javascript_url(cli) -> None:
    result = cli(
        "add",
        "--title",
        "A Title",
        "--author",
        "Ann Bee",
        "--year",
        "2020",
        "--venue",
        "OSDI",
        "--url",
        "javascript:alert(1)",
    )
    assert result.exit_code == 1
    assert "not an http(s) link" in result.output


# -------------------------------------------------------------- malformed replies

MALFORMED_JSON = [
    "[]",
    '{"message": []}',
    '{"message": {"author": [1, 2]}}',
    '{"message": {"title": 5, "author": {"given": 1}}}',
    '{"message": {"issued": {"date-parts": [["x"]]}}}',
    '{"message": {"event": ["a"]}}',
    "not json",
]


@pytest.mark.parametrize("body", MALFORMED_JSON)
def test_a_malformed_crossref_reply_is_a_fetch_error(
    online: Online,
    body: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Online, "reply", lambda self, path, query: (200, "application/json", body))
    with pytest.raises(webclient.FetchError, match="Crossref sent a reply"):
        services.crossref("10.1/x")


@pytest.mark.parametrize(
    "body",
    [
        "[]",
        '{"result": []}',
        '{"result": {"hits": {"hit": [1]}}}',
        '{"result": {"hits": {"hit": [{"info": {"authors": {"author": 5}}}]}}}',
    ],
)
def test_a_malformed_dblp_reply_is_a_fetch_error(
    online: Online,
    body: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Online, "reply", lambda self, path, query: (200, "application/json", body))
    with pytest.raises(webclient.FetchError, match="DBLP sent a reply"):
        services.dblp_search("a title")


@pytest.mark.parametrize(
    "body",
    [
        "<feed",
        "<feed xmlns='http://www.w3.org/2005/Atom'><entry>"
        "<id>http://arxiv.org/abs/1</id><published>20x</published>"
        "</entry></feed>",
        json.dumps({"a": 1}),
    ],
)
def test_a_malformed_arxiv_reply_is_a_message(
    online: Online,
    body: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Online, "reply", lambda self, path, query: (200, "application/xml", body))
    try:
        record = services.arxiv("2101.00001")
    except webclient.FetchError as err:
        assert "arXiv" in str(err)
    else:
        assert record.year is None and record.arxiv is None


def test_add_with_a_malformed_reply_prints_a_message(
    cli,
    online: Online,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        Online,
        "reply",
        lambda self, path, query: (200, "application/json", '{"message": {"author": [1]}}'),
    )
    result = cli("add", "--doi", "10.1234/abc")
    assert result.exit_code == 1
    assert "Crossref sent a reply for DOI 10.1234/abc" in result.output
    assert "Traceback" not in result.output
