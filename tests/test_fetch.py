"""Crossref, arXiv and DBLP clients against a real HTTP server on loopback.

The server answers in each service's own format (Crossref works JSON, arXiv Atom
XML, DBLP search JSON); nothing leaves the machine. Metadata of real papers in
these replies is the verified metadata of tests/data/shared/reference/seed-papers.bib;
other replies describe made-up papers with made-up names.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from catalog.data.registry import Venue
from catalog.ingest import services, webclient


class Online:
    """Canned replies by service and identifier; every request is logged."""

    def __init__(self) -> None:
        self.crossref: dict[str, dict] = {}
        self.arxiv: dict[str, str] = {}
        self.dblp: dict[str, list[dict]] = {}
        self.requests: list[str] = []

    def reply(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, str]:
        if path.startswith("/crossref/works/"):
            doi = path.removeprefix("/crossref/works/")
            work = self.crossref.get(doi.lower())
            if work is None:
                return 404, "text/plain", "Resource not found."
            return (
                200,
                "application/json",
                json.dumps(
                    {
                        "status": "ok",
                        "message-type": "work",
                        "message-version": "1.0.0",
                        "message": work,
                    }
                ),
            )
        if path == "/arxiv/api/query":
            ident = query.get("id_list", [""])[0]
            return 200, "application/atom+xml", atom(self.arxiv.get(ident, ""), ident)
        if path == "/dblp/search/publ/api":
            q = query.get("q", [""])[0]
            hits = next((h for t, h in self.dblp.items() if t.lower() in q.lower()), [])
            return 200, "application/json", dblp_result(q, hits)
        return 404, "text/plain", "not found"


def atom(entry: str, ident: str) -> str:
    """An arXiv API feed around one entry (or none)."""
    total = 1 if entry else 0
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?id_list={ident}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: id_list={ident}</title>
  <id>http://arxiv.org/api/query-test</id>
  <updated>2024-05-01T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  {entry}
</feed>"""


def atom_entry(ident: str, title: str, authors: list[str], published: str, doi: str = "") -> str:
    names = "".join(f"<author><name>{a}</name></author>" for a in authors)
    doi_tag = (
        f'<arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">{doi}</arxiv:doi>' if doi else ""
    )
    return f"""<entry>
    <id>http://arxiv.org/abs/{ident}v2</id>
    <updated>{published}</updated>
    <published>{published}</published>
    <title>{title[:30]}
  {title[30:]}</title>
    <summary>  An abstract
  over two lines.</summary>
    {names}{doi_tag}
    <link href="http://arxiv.org/abs/{ident}v2" rel="alternate" type="text/html"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.DC"/>
  </entry>"""


def dblp_result(query: str, hits: list[dict]) -> str:
    return json.dumps(
        {
            "result": {
                "query": query,
                "status": {"@code": "200", "text": "OK"},
                "time": {"@unit": "msecs", "text": "1.00"},
                "completions": {"@total": "0", "@computed": "0", "@sent": "0"},
                "hits": (
                    {
                        "@total": str(len(hits)),
                        "@computed": str(len(hits)),
                        "@sent": str(len(hits)),
                        "@first": "0",
                        "hit": [
                            {"@score": "10", "@id": str(i), "info": h, "url": f"URL#{i}"}
                            for i, h in enumerate(hits)
                        ],
                    }
                    if hits
                    else {"@total": "0", "@computed": "0", "@sent": "0", "@first": "0"}
                ),
            }
        }
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def online(monkeypatch: pytest.MonkeyPatch) -> Iterator[Online]:
    """A loopback server playing Crossref, arXiv and DBLP; the env vars point at it."""
    state = Online()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            state.requests.append(self.path)
            code, kind, body = state.reply(parts.path, parse_qs(parts.query))
            data = body.encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setenv("PAPERS_CROSSREF_URL", base + "/crossref")
    monkeypatch.setenv("PAPERS_ARXIV_URL", base + "/arxiv")
    monkeypatch.setenv("PAPERS_DBLP_URL", base + "/dblp")
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every service at a loopback port where nothing listens."""
    base = f"http://127.0.0.1:{free_port()}"
    for env, _ in webclient.SERVICES.values():
        monkeypatch.setenv(env, base)


# Verified metadata (seed-papers.bib: agarwal2023bagpipe).
BAGPIPE_AUTHORS = ["Saurabh Agarwal", "Chengpo Yan", "Ziyi Zhang", "Shivaram Venkataraman"]
BAGPIPE_WORK = {
    "DOI": "10.1145/3600006.3613142",
    "type": "proceedings-article",
    "title": ["Bagpipe: Accelerating Deep Recommendation Model Training"],
    "author": [
        {"given": n.split()[0], "family": n.split()[1], "sequence": "additional", "affiliation": []}
        for n in BAGPIPE_AUTHORS
    ],
    "container-title": ["Proceedings of the 29th Symposium on Operating Systems Principles"],
    "event": {
        "name": "SOSP '23: 29th Symposium on Operating Systems Principles",
        "acronym": "SOSP '23",
    },
    "publisher": "ACM",
    "issued": {"date-parts": [[2023, 10]]},
    "URL": "https://doi.org/10.1145/3600006.3613142",
}
# Made-up papers by made-up people.
TEST_WORK = {
    "DOI": "10.5555/papers.test.1",
    "type": "proceedings-article",
    "title": ["Tessellate: Caching Embeddings in Tiles"],
    "author": [
        {"given": "Ada", "family": "Tester", "sequence": "first", "affiliation": []},
        {"given": "Bo", "family": "Example", "sequence": "additional", "affiliation": []},
    ],
    "container-title": [
        "Proceedings of the 17th USENIX Symposium on Operating Systems Design and Implementation"
    ],
    "published-print": {"date-parts": [[2023, 7]]},
    "page": "101-117",
    "abstract": "<jats:p>We tile <jats:italic>embeddings</jats:italic>.</jats:p>",
}
TEST_PREPRINT = atom_entry(
    "2399.00001",
    "Quokka: A Test Preprint About Sharding Tables",
    ["Cy Sample", "Di Placeholder"],
    "2023-09-03T10:00:00Z",
)
VENUES = {
    "OSDI": Venue(
        "OSDI", "conference", "USENIX Symposium on Operating Systems Design and Implementation"
    ),
    "SOSP": Venue("SOSP", "conference", "ACM Symposium on Operating Systems Principles"),
    "MICRO": Venue("MICRO", "conference", "IEEE/ACM International Symposium on Microarchitecture"),
    "arXiv": Venue("arXiv", "preprint", "arXiv"),
}


def test_crossref_work(online: Online) -> None:
    online.crossref["10.1145/3600006.3613142"] = BAGPIPE_WORK
    record = services.crossref("10.1145/3600006.3613142")
    assert record.title == "Bagpipe: Accelerating Deep Recommendation Model Training"
    assert record.authors == BAGPIPE_AUTHORS
    assert (record.year, record.kind, record.doi) == (2023, "conference", "10.1145/3600006.3613142")
    assert services.resolve_venue(record, VENUES) == "SOSP"
    assert online.requests == ["/crossref/works/10.1145/3600006.3613142"]


def test_crossref_venue_by_full_name_and_fields(online: Online) -> None:
    online.crossref["10.5555/papers.test.1"] = TEST_WORK
    record = services.crossref("10.5555/papers.test.1")
    assert services.resolve_venue(record, VENUES) == "OSDI"
    assert (record.pages, record.abstract) == ("101-117", "We tile embeddings .")


def test_crossref_unknown_doi(online: Online) -> None:
    with pytest.raises(webclient.FetchError, match=r"Crossref has no record of DOI 10\.1/none"):
        services.crossref("10.1/none")


def test_arxiv_entry_is_parsed_from_atom(online: Online) -> None:
    online.arxiv["2399.00001"] = TEST_PREPRINT
    record = services.arxiv("2399.00001")
    assert record.title == "Quokka: A Test Preprint About Sharding Tables"
    assert record.authors == ["Cy Sample", "Di Placeholder"]
    assert (record.arxiv, record.year, record.kind) == ("2399.00001", 2023, "preprint")
    assert record.abstract == "An abstract over two lines."


def test_arxiv_unknown_id_and_error_entry(online: Online) -> None:
    with pytest.raises(webclient.FetchError, match=r"arXiv has no record of arXiv id 2399\.99999"):
        services.arxiv("2399.99999")
    online.arxiv["bad"] = (
        "<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_bad"
        "</id><title>Error</title><summary>incorrect id format for bad"
        "</summary></entry>"
    )
    with pytest.raises(webclient.FetchError, match="arXiv says: incorrect id format for bad"):
        services.arxiv("bad")


def test_dblp_search_and_published_version(online: Online) -> None:
    online.dblp["Quokka"] = [
        {
            "authors": {
                "author": [
                    {"@pid": "1", "text": "Cy Sample 0001"},
                    {"@pid": "2", "text": "Di Placeholder"},
                ]
            },
            "title": "Quokka: A Test Preprint About Sharding Tables.",
            "venue": "CoRR",
            "volume": "abs/2399.00001",
            "year": "2023",
            "type": "Informal and Other Publications",
            "ee": "https://arxiv.org/abs/2399.00001",
        },
        {
            "authors": {"author": {"@pid": "1", "text": "Cy Sample 0001"}},
            "title": "Quokka: A Test Preprint about Sharding Tables.",
            "venue": "MICRO",
            "pages": "5-17",
            "year": "2024",
            "type": "Conference and Workshop Papers",
            "doi": "10.5555/papers.test.2",
            "ee": "https://doi.org/10.5555/papers.test.2",
        },
    ]
    hits = services.dblp_search("Quokka: A Test Preprint About Sharding Tables")
    assert [h.kind for h in hits] == ["preprint", "conference"]
    assert hits[0].authors == ["Cy Sample", "Di Placeholder"] and hits[0].arxiv == "2399.00001"
    online.arxiv["2399.00001"] = TEST_PREPRINT
    record = services.lookup_arxiv("2399.00001")
    assert (record.year, record.doi, record.pages, record.arxiv) == (
        2024,
        "10.5555/papers.test.2",
        "5-17",
        "2399.00001",
    )
    assert record.authors == ["Cy Sample", "Di Placeholder"]  # the preprint's full list
    assert services.resolve_venue(record, VENUES) == "MICRO"


def test_no_network_says_so_and_suggests_bibtex(offline: None) -> None:
    with pytest.raises(webclient.FetchError) as err:
        services.crossref("10.1145/3600006.3613142")
    assert "cannot reach Crossref" in str(err.value)
    assert "papers add --bibtex FILE" in str(err.value)


def test_resolve_venue_by_bracketed_acronym() -> None:
    record = services.Record(
        "Crossref",
        "T",
        [],
        venue_names=[
            "2021 54th Annual IEEE/ACM International Symposium on Microarchitecture (MICRO)"
        ],
    )
    assert services.resolve_venue(record, VENUES) == "MICRO"
    assert (
        services.resolve_venue(services.Record("x", "T", [], venue_names=["Nowhere"]), VENUES)
        is None
    )


# ---------------------------------------------------------------- papers add, fetched


def test_add_by_doi(cli, paths, online: Online) -> None:
    online.crossref["10.5555/papers.test.1"] = TEST_WORK
    result = cli("add", "--doi", "10.5555/papers.test.1", "-t", "caching")
    assert result.exit_code == 0, result.output
    assert (
        "added tester2023tessellate: Tessellate: Caching Embeddings in Tiles [OSDI 2023]"
        in result.output
    )
    text = paths.catalog.read_text(encoding="utf-8")
    assert "    - key: tester2023tessellate\n" in text
    assert "      doi: 10.5555/papers.test.1\n" in text and '      pages: "101-117"\n' in text


def test_add_by_arxiv_id(cli, paths, online: Online) -> None:
    online.arxiv["2399.00001"] = TEST_PREPRINT
    result = cli("add", "--arxiv", "2399.00001", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["added"] == 1 and data["outcomes"][0]["key"] == "sample2023quokka"
    assert data["outcomes"][0]["venue"] == "arXiv"
    assert any(r.startswith("/dblp/search/publ/api") for r in online.requests)


def test_add_by_arxiv_recognises_a_published_paper(cli, tmp_path: Path, online: Online) -> None:
    import shutil

    from typer.testing import CliRunner

    from catalog.cli import app
    from catalog.paths import Paths
    from tests.test_writer import SHIPPED

    data = tmp_path / "shipped"
    data.mkdir()
    for name in ("papers.yaml", "venues.yaml", "tags.yaml"):
        shutil.copy(SHIPPED / name, data / name)
    paths = Paths(data / "papers.yaml", tmp_path / "db" / "c.db")
    online.arxiv["2202.12429"] = atom_entry(
        "2202.12429",
        "BagPipe: Accelerating Deep Recommendation Model Training",
        BAGPIPE_AUTHORS,
        "2022-02-01T00:00:00Z",
    )  # the day is a placeholder
    before = paths.catalog.read_bytes()
    result = CliRunner().invoke(
        app,
        ["--catalog", str(paths.catalog), "--db", str(paths.db), "add", "--arxiv", "2202.12429"],
    )
    assert result.exit_code == 1
    assert "already in the catalog as agarwal2023bagpipe (same arXiv id)" in result.output
    assert "--merge" in result.output
    assert paths.catalog.read_bytes() == before


def test_add_with_venue_outside_the_registry_needs_venue(cli, paths, online: Online) -> None:
    online.crossref["10.1145/3600006.3613142"] = BAGPIPE_WORK
    before = paths.catalog.read_bytes()
    result = cli("add", "--doi", "10.1145/3600006.3613142")
    assert result.exit_code == 1
    assert "Crossref names the venue 'SOSP '23;" in result.output and "--venue" in result.output
    assert paths.catalog.read_bytes() == before


def test_add_offline(cli, paths, offline: None) -> None:
    before = paths.catalog.read_bytes()
    result = cli("add", "--doi", "10.1145/3600006.3613142")
    assert result.exit_code == 1
    assert "cannot reach Crossref" in result.output and "--bibtex" in result.output
    assert paths.catalog.read_bytes() == before
