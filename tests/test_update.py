"""`papers update` against recorded replies of arXiv, Crossref, DBLP and doi.org, served by
a real HTTP server on loopback (tests/data/update/: the services' reply shapes, made-up
papers by made-up people), with malformed, slow, redirecting and wrong-paper replies."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

from catalog.check.rules import check
from catalog.cli import app
from catalog.data import reader
from catalog.ingest import polite, services, webclient
from catalog.paths import Paths
from catalog.update import updater
from tests.conftest import REPO, TAGS, VENUES, write_catalog

DATA = Path(__file__).parent / "data" / "update"
ATOM = "{http://www.w3.org/2005/Atom}"


class Services:
    """Replies by path from the recorded files; `modes` turns a service's replies bad."""

    def __init__(self) -> None:
        self.works = json.loads((DATA / "crossref-works.json").read_text(encoding="utf-8"))
        self.related = json.loads((DATA / "crossref-related.json").read_text(encoding="utf-8"))
        self.dblp = json.loads((DATA / "dblp.json").read_text(encoding="utf-8"))["hits"]
        self.handles = json.loads((DATA / "doi-handles.json").read_text(encoding="utf-8"))
        self.feed = (DATA / "arxiv.xml").read_text(encoding="utf-8")
        self.modes: dict[str, str] = {}  # service -> malformed, slow, 429, redirect, offhost
        self.requests: list[tuple[float, str, str]] = []  # (time, path, user agent)
        self.base = ""

    def arxiv(self, query: dict[str, list[str]]) -> tuple[int, str, str]:
        wanted = query.get("id_list", [""])[0].split(",")
        root = ET.fromstring(self.feed)
        for entry in root.findall(f"{ATOM}entry"):
            ident = entry.findtext(f"{ATOM}id", "").rsplit("/", 1)[-1].split("v")[0]
            # 2399.99999 answers for 2301.00006: the wrong paper
            if ident not in wanted and not (ident == "2399.99999" and "2301.00006" in wanted):
                root.remove(entry)
        return 200, "application/atom+xml", ET.tostring(root, encoding="unicode")

    def crossref(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, str]:
        if path == "/crossref/works":
            wanted = query["filter"][0].removeprefix("relation.object:").lower()
            items = [
                item
                for item in self.related["items"]
                if any(r["id"].lower() == wanted for rel in item["relation"].values() for r in rel)
            ]
            message = {"total-results": len(items), "items": items}
            return 200, "application/json", json.dumps({"status": "ok", "message": message})
        doi = unquote(path.removeprefix("/crossref/works/")).lower()
        if doi not in self.works:
            return 404, "text/plain", "Resource not found."
        body = {"status": "ok", "message-type": "work", "message": self.works[doi]}
        return 200, "application/json", json.dumps(body)

    def dblp_search(self, query: dict[str, list[str]]) -> tuple[int, str, str]:
        words = query["q"][0].lower().split()[:2]
        hits = [h for h in self.dblp if all(w in h["title"].lower() for w in words)]
        result = {
            "query": query["q"][0],
            "status": {"@code": "200", "text": "OK"},
            "hits": {
                "@total": str(len(hits)),
                "@sent": str(len(hits)),
                "hit": [{"@score": "7", "@id": str(i), "info": h} for i, h in enumerate(hits)],
            },
        }
        return 200, "application/json", json.dumps({"result": result})

    def doi(self, path: str) -> tuple[int, str, str]:
        doi = unquote(path.removeprefix("/doi/api/handles/")).lower()
        if doi in self.handles:
            return 200, "application/json", json.dumps(self.handles[doi])
        return 404, "application/json", json.dumps({"responseCode": 100, "handle": doi})

    def reply(self, path: str, query: dict[str, list[str]]) -> tuple[int, str, str]:
        if path.startswith("/arxiv"):
            return self.arxiv(query)
        if path.startswith("/crossref"):
            return self.crossref(path, query)
        if path.startswith("/dblp"):
            return self.dblp_search(query)
        if path.startswith("/doi"):
            return self.doi(path)
        if path == "/web/gone":
            return 404, "text/html", "<p>no such page</p>"
        if path == "/web/moved":
            return 301, self.base + "/web/here", ""
        if path == "/web/here":
            return 200, "text/html", "<p>the paper</p>"
        return 404, "text/plain", "not found"


@pytest.fixture
def online(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Services]:
    """A loopback server playing the services; the env vars point at it, no pace."""
    state = Services()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            state.requests.append((time.monotonic(), self.path, self.headers["User-Agent"]))
            service = parts.path.split("/")[1]
            mode = state.modes.get(service)
            if mode == "429":
                state.modes[service] = "ok"  # once, then a normal reply
                return self.send(429, "text/plain", "slow down", {"Retry-After": "0"})
            if mode == "429-long":
                return self.send(429, "text/plain", "slow down", {"Retry-After": "3600"})
            if mode == "redirect":
                state.modes[service] = "ok"
                return self.send(301, "text/plain", "", {"Location": self.path})
            if mode == "offhost":
                return self.send(302, "text/plain", "", {"Location": "http://elsewhere.test/x"})
            if mode == "malformed":
                return self.send(200, "application/json", "<html>not a record{")
            if mode == "slow":
                return self.slow()
            code, kind, body = state.reply(parts.path, parse_qs(parts.query))
            if code in (301, 302):
                return self.send(code, "text/plain", "", {"Location": kind})
            return self.send(code, kind, body)

        def send(self, code: int, kind: str, body: str, headers: dict | None = None) -> None:
            data = body.encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def slow(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/atom+xml")
            self.end_headers()
            for _ in range(40):  # a byte at a time, never done within the deadline
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.05)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.base = base = f"http://127.0.0.1:{server.server_address[1]}"
    for service, (env, _) in webclient.SERVICES.items():
        monkeypatch.setenv(env, f"{base}/{service}")
    monkeypatch.setattr(webclient, "PACE", dict.fromkeys(webclient.PACE, 0.0))
    monkeypatch.setattr(webclient, "PACE_OTHER", 0.0)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("PAPERS_CONTACT", "curator@example.org")
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def catalog(tmp_path: Path, online: Services) -> Paths:
    """The made-up catalog, with the shipped registry of primary records (update records
    in sources the pages it read: arXiv's and doi.org's)."""
    text = (DATA / "papers.yaml").read_text(encoding="utf-8").replace("{web}", online.base + "/web")
    paths = write_catalog(tmp_path / "catalog", text, VENUES, TAGS)
    shutil.copy(REPO / "data" / "records.yaml", paths.records)
    return paths


def run(paths: Paths, *args: str):
    return CliRunner().invoke(
        app, ["--catalog", str(paths.catalog), "--db", str(paths.db), "update", *args]
    )


def findings(paths: Paths, *args: str) -> dict[tuple[str, str], dict]:
    result = run(paths, "--json", *args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    return {(f["key"], f["kind"]): f for f in report["findings"]}


def test_each_kind_of_finding_with_its_evidence(catalog):
    found = findings(catalog)
    assert set(found) == {
        ("tester2023tiles", "published"),
        ("example2023quokka", "retitled"),
        ("example2023quokka", "missing-abstract"),
        ("sample2023ember", "published"),
        ("probe2023lantern", "published"),
        ("pager2022pager", "missing-pages"),
        ("gone2022gone", "doi-gone"),
        ("filler2023filler", "missing-doi"),
        ("filler2023filler", "url-moved"),
        ("late2023latecomer", "url-gone"),
        ("wrong2023common", "published"),  # arXiv says so; no record agrees: not applied
    }
    tiles = found["tester2023tiles", "published"]
    assert tiles["move"] == {"year": 2024, "venue": "ASPLOS"}
    assert tiles["changes"] == {"doi": "10.5555/tiles.2024", "pages": "101-114"}
    assert tiles["source"] == "https://doi.org/10.5555/tiles.2024"
    assert any("journal reference 'ASPLOS 2024'" in e for e in tiles["evidence"])
    assert any("arXiv 2301.00001 gives DOI 10.5555/tiles.2024" in e for e in tiles["evidence"])
    ember = found["sample2023ember", "published"]
    assert ember["move"] == {"year": 2024, "venue": "PVLDB"}
    assert ember["changes"] == {
        "doi": "10.5555/ember.2024",
        "pages": "1200-1212",
        "volume": "17",
        "number": "5",
    }
    assert any("names 10.48550/arXiv.2301.00003 as its preprint" in e for e in ember["evidence"])
    lantern = found["probe2023lantern", "published"]
    assert lantern["move"] == {"year": 2024, "venue": "OSDI"}
    assert lantern["changes"] == {"pages": "45-60"}  # USENIX: no DOI
    assert lantern["source"] == "https://dblp.org/rec/conf/osdi/Probe24"
    quokka = found["example2023quokka", "retitled"]
    assert quokka["changes"] == {"title": "Quokka: Sharding Embedding Tables Quickly and Evenly"}
    abstract = found["example2023quokka", "missing-abstract"]["changes"]["abstract"]
    assert abstract == "Quokka places embedding tables on devices by their measured cost."
    assert found["pager2022pager", "missing-pages"]["changes"] == {"pages": "20-33"}
    assert found["gone2022gone", "doi-gone"]["blocked"]
    assert found["late2023latecomer", "url-gone"]["evidence"][0].endswith("answers HTTP 404")
    moved = found["filler2023filler", "url-moved"]
    assert moved["changes"]["url"].endswith("/web/here")
    assert found["filler2023filler", "missing-doi"]["changes"] == {
        "doi": "10.5555/filler.2023",
        "pages": "7-19",
    }


def test_a_title_match_alone_changes_nothing(catalog):
    found = findings(catalog)
    # DBLP has "Common Words" by another first author, and "Latecomer" from another year
    common = found["wrong2023common", "published"]
    assert common["blocked"].startswith("no Crossref or DBLP record agrees")
    assert (common["changes"], common["move"], common["applicable"]) == ({}, None, False)
    assert common["evidence"] == [
        "arXiv 2301.00005: journal reference 'OSDI 2024' (https://arxiv.org/abs/2301.00005)"
    ]
    assert ("late2023latecomer", "missing-doi") not in found


def test_without_write_the_catalog_is_left_alone_and_the_diff_shown(catalog):
    before = catalog.catalog.read_bytes()
    result = run(catalog)
    assert result.exit_code == 0, result.output
    assert catalog.catalog.read_bytes() == before
    assert "+      doi: 10.5555/tiles.2024" in result.stdout
    assert "to apply: run again with --write" in result.stdout
    assert "papers update --write applies them" in result.stderr


def test_write_applies_the_confirmed_findings_through_the_writer(catalog):
    result = run(catalog, "--write")
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stderr
    text = catalog.catalog.read_text(encoding="utf-8")
    assert text.startswith("# A catalog of made-up papers")  # comments kept
    assert "    # preprints\n" in text
    papers = {p.key: p for p in reader.load(catalog.catalog)}
    tiles = papers["tester2023tiles"]
    assert (tiles.year, tiles.venue, tiles.doi, tiles.arxiv) == (
        2024,
        "ASPLOS",
        "10.5555/tiles.2024",
        "2301.00001",
    )
    assert tiles.sources == [
        "https://arxiv.org/abs/2301.00001",
        "https://doi.org/10.5555/tiles.2024",
    ]
    assert (papers["sample2023ember"].year, papers["sample2023ember"].venue) == (2024, "PVLDB")
    assert papers["example2023quokka"].title.endswith("Quickly and Evenly")
    assert papers["example2023quokka"].abstract.startswith("Quokka places")
    assert papers["example2023quokka"].sources == ["https://arxiv.org/abs/2301.00002"]
    assert papers["pager2022pager"].pages == "20-33"
    assert papers["filler2023filler"].doi == "10.5555/filler.2023"
    assert papers["filler2023filler"].url.endswith("/web/here")
    assert papers["gone2022gone"].doi == "10.5555/gone.2022"  # a person decides
    assert papers["wrong2023common"].venue == "arXiv"
    assert check(catalog) == []
    again = findings(catalog)  # what was applied is no longer found
    assert set(again) == {
        ("gone2022gone", "doi-gone"),
        ("late2023latecomer", "url-gone"),
        ("wrong2023common", "published"),
    }


def test_a_query_narrows_the_papers_asked_about(catalog, online):
    found = findings(catalog, "venue:ASPLOS")
    assert {k[0] for k in found} == {"pager2022pager", "gone2022gone"}
    assert not any("/arxiv/" in path for _, path, _ in online.requests)


def test_offline_says_so_in_one_line_and_fails(tmp_path, monkeypatch):
    paths = write_catalog(tmp_path, (DATA / "papers.yaml").read_text(encoding="utf-8"))
    for env, _ in webclient.SERVICES.values():
        monkeypatch.setenv(env, "http://127.0.0.1:9")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    result = run(paths)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: offline: cannot reach 127.0.0.1:9")


def test_replies_come_from_the_cache_the_second_time(catalog, online):
    findings(catalog)
    asked = [path for _, path, _ in online.requests if not path.startswith("/web")]
    online.requests.clear()
    findings(catalog)
    # only the 'no record' (404) replies are asked again: the cache keeps what succeeded
    assert sorted(p for _, p, _ in online.requests if not p.startswith("/web")) == [
        "/crossref/works/10.5555/datacite.2022",
        "/crossref/works/10.5555/gone.2022",
        "/doi/api/handles/10.5555/gone.2022",
    ]
    assert len(asked) > 10
    online.requests.clear()
    findings(catalog, "--no-cache")
    assert len([p for _, p, _ in online.requests if not p.startswith("/web")]) == len(asked)


def test_the_user_agent_names_the_contact(catalog, online):
    findings(catalog)
    agents = {agent for _, _, agent in online.requests}
    assert agents == {
        "papers-catalog/0.1 (curated paper catalog; python-httpx; mailto:curator@example.org)"
    }


def test_a_429_is_waited_out_and_asked_again(catalog, online):
    online.modes["arxiv"] = "429"
    found = findings(catalog, "--no-cache")
    assert ("tester2023tiles", "published") in found
    assert len([p for _, p, _ in online.requests if p.startswith("/arxiv")]) == 2


def test_a_long_retry_after_is_not_waited_for(catalog, online):
    online.modes["arxiv"] = "429-long"
    result = run(catalog, "--json", "--no-cache")
    report = json.loads(result.stdout)
    assert any("asks papers to wait 3600 s (HTTP 429)" in e for e in report["errors"])
    kinds = {f["kind"] for f in report["findings"]}
    assert "retitled" not in kinds and "missing-pages" in kinds  # the others went on


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("malformed", "arXiv sent a reply that is not Atom XML"),
        ("offhost", "arXiv sent papers to another host (elsewhere.test)"),
        ("slow", "arXiv took longer than 1 s to answer"),
    ],
)
def test_a_bad_arxiv_reply_is_reported_and_the_rest_goes_on(
    catalog, online, monkeypatch, mode, error
):
    monkeypatch.setattr(webclient, "DEADLINE", 1.0)
    online.modes["arxiv"] = mode
    result = run(catalog, "--json", "--no-cache")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert any(error in e for e in report["errors"]), report["errors"]
    keys = {(f["key"], f["kind"]) for f in report["findings"]}
    assert ("pager2022pager", "missing-pages") in keys


def test_a_redirect_within_the_service_is_followed(catalog, online):
    online.modes["crossref"] = "redirect"
    found = findings(catalog, "--no-cache", "venue:ASPLOS")
    assert ("pager2022pager", "missing-pages") in found


def test_malformed_crossref_json_is_an_error_not_a_finding(catalog, online):
    online.modes["crossref"] = "malformed"
    result = run(catalog, "--json", "--no-cache", "venue:ASPLOS")
    report = json.loads(result.stdout)
    assert any("Crossref sent a reply for DOI 10.5555/pages.2022" in e for e in report["errors"])
    assert not [f for f in report["findings"] if f["kind"] == "missing-pages"]


def test_arxiv_answering_with_another_paper_is_ignored(tmp_path, online):
    text = """\
2023:
  arXiv:
    - key: asked2023paper
      title: "Asked: The Paper That Was Asked About"
      authors: [Oz Asked]
      arxiv: "2301.00006"
"""
    paths = write_catalog(tmp_path / "c", text)
    assert findings(paths) == {}


def test_a_doi_already_on_another_paper_is_not_given(tmp_path, online):
    text = (DATA / "papers.yaml").read_text(encoding="utf-8").replace("{web}", online.base)
    text = text.replace("doi: 10.5555/pages.2022", "doi: 10.5555/tiles.2024")
    paths = write_catalog(tmp_path / "c", text)
    tiles = findings(paths)["tester2023tiles", "published"]
    assert "already on pager2022pager" in tiles["blocked"]


def test_pace_spaces_requests_to_one_host(monkeypatch, online):
    monkeypatch.setattr(webclient, "PACE", {**webclient.PACE, "doi": 0.3})
    polite.last_request.clear()
    with webclient.politely(None, 0):
        services.doi_target("10.5555/datacite.2022")
        services.doi_target("10.5555/datacite.2022")
    times = [t for t, path, _ in online.requests if path.startswith("/doi")]
    assert len(times) == 2 and times[1] - times[0] >= 0.29


def test_retry_after_reads_seconds_and_dates():
    assert webclient.retry_after("7") == 7.0
    assert webclient.retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past
    assert webclient.retry_after("soon") is None
    assert webclient.retry_after(None) is None


def test_cache_folder_is_the_users_not_the_catalogs(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert updater.cache_folder() == tmp_path / "papers"


def test_help_names_the_services_it_asks():
    result = CliRunner().invoke(app, ["update", "--help"])
    assert result.exit_code == 0
    for name in ("arXiv API", "Crossref", "DBLP", "doi.org", "PAPERS_CONTACT", "--write"):
        assert name in result.stdout


def test_the_weekly_workflow_runs_update_and_opens_a_pull_request():
    import yaml

    workflow = Path(__file__).parent.parent / ".github" / "workflows" / "update.yml"
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    triggers = data.get("on", data.get(True))  # (YAML 1.1 reads a bare on as true)
    assert triggers["schedule"][0]["cron"].endswith("* * 1")  # weekly
    steps = data["jobs"]["update"]["steps"]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "papers update --write" in runs
    opener = [s for s in steps if s.get("uses", "").startswith("peter-evans/create-pull-request@")]
    assert opener and opener[0]["with"]["body-path"] == "build/pull-request.md"
    assert "sed 's/^/    /'" in runs  # the report is shown as code, never as markup


def test_a_change_the_writer_refuses_is_blocked_and_the_others_applied(catalog, online):
    # arXiv now gives Quokka a title no paper may have (longer than a title can be)
    online.feed = online.feed.replace(
        "Quokka: Sharding Embedding Tables Quickly and Evenly", "Quokka " + "very " * 120
    )
    result = run(catalog, "--write", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    retitled = next(f for f in report["findings"] if f["kind"] == "retitled")
    assert retitled["blocked"].startswith("the change would make the catalog invalid: title")
    assert not retitled["applied"]
    papers = {p.key: p for p in reader.load(catalog.catalog)}
    assert papers["example2023quokka"].title == "Quokka: Sharding Tables Quickly"
    assert papers["tester2023tiles"].venue == "ASPLOS"  # the rest went in


def test_a_query_that_matches_nothing_is_an_error(catalog, online):
    result = run(catalog, "nonesuchword")
    assert result.exit_code == 1
    assert "no papers match 'nonesuchword'" in result.stderr
    assert online.requests == []


def test_a_url_no_client_can_ask_is_noted_not_a_crash(tmp_path, online):
    text = """\
2023:
  OSDI:
    - key: odd2023link
      title: "Odd: A Paper with a Broken Link"
      authors: [Pat Odd]
      url: "https://[broken/paper"
"""
    paths = write_catalog(tmp_path / "c", text)
    result = run(paths, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["findings"] == []
    assert any(
        e.startswith("odd2023link: cannot ask 'https://[broken/paper'") for e in report["errors"]
    )


def test_a_doi_arxiv_gives_for_another_paper_moves_nothing(catalog, online):
    # arXiv's record names a DOI whose Crossref record has another first author
    online.feed = online.feed.replace(
        "<arxiv:doi>10.5555/tiles.2024</arxiv:doi>", "<arxiv:doi>10.5555/other.2024</arxiv:doi>"
    )
    tiles = findings(catalog, "--no-cache")["tester2023tiles", "published"]
    assert tiles["move"] is None and tiles["changes"] == {} and not tiles["applicable"]
    assert any("its first author is not the paper's" in e for e in tiles["evidence"])
