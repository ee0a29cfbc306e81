"""Shared fixtures: tiny catalogs in tmp_path, never the real data/papers.yaml."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner, Result

from catalog.cli import load_commands
from catalog.data import reader
from catalog.data.registry import Venue, load_venues
from catalog.edit.readingfile import HEADER
from catalog.paths import Paths

load_commands(None)  # every command module, as `papers --help` has them

REPO = Path(__file__).resolve().parent.parent
# The catalog's first 25 papers, frozen: tests whose expectations (duplicates, rankings,
# counts) were written against the shipped catalog read this, as data/papers.yaml grows.
SEED_CATALOG = REPO / "tests" / "data" / "seed-papers.yaml"
# Real files from public repositories (.bib files, lists) and the seed papers' verified
# metadata, kept in the repository so a fresh clone runs every test (see its README.md).
SHARED = REPO / "tests" / "data" / "shared"

# Plain `pytest` is the quick loop: tests marked `slow` (browser, LaTeX, attack replays,
# whole-site builds, large catalogs) are deselected, and `pytest --all` runs them too, as
# CI and the README's test command do. A `-m` expression chooses for itself.
_SLOW_LEFT_OUT = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all", action="store_true", help="run the slow tests too (as CI does)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--all") or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
        config.stash[_SLOW_LEFT_OUT] = len(slow)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    if left_out := config.stash.get(_SLOW_LEFT_OUT, 0):
        terminalreporter.write_line(
            f"{left_out} slow tests deselected: `pytest --all` runs them too"
        )


VENUES = """\
ASPLOS:
  kind: conference
  name: ACM International Conference on Architectural Support for Programming Languages and Operating Systems
  publisher: Association for Computing Machinery
OSDI:
  kind: conference
  name: USENIX Symposium on Operating Systems Design and Implementation
  publisher: USENIX Association
PVLDB:
  kind: journal
  name: Proceedings of the VLDB Endowment
  publisher: VLDB Endowment
arXiv:
  kind: preprint
  name: arXiv
  publisher: Cornell University
"""

TAGS = """\
embedding: Embedding tables
caching: Caches
training: Training systems
inference: Serving
moe: Mixture of experts
"""

PAPERS = """\
# A tiny catalog for tests.
2023:
  ASPLOS:
    - key: kurniawan2023evstore
      title: "EVStore: Storage and Caching Capabilities for Scaling Embedding Tables in Deep Recommendation Systems"
      authors: [Daniar H. Kurniawan, Ruipu Wang, Haryadi S. Gunawi]
      doi: 10.1145/3575693.3575718
      pages: 281-294
      tags: [embedding, caching]
      summary: "Caches embedding lookups in three layers."
  OSDI:
    - key: lai2023adaembed
      title: "AdaEmbed: Adaptive Embedding for Large-Scale Recommendation Models"
      authors: [Fan Lai, Wei Zhang, Mosharaf Chowdhury]
      url: https://www.usenix.org/conference/osdi23/presentation/lai
      tags: [embedding, training]
2021:
  arXiv:
    # MoE
    - key: he2021fastmoe
      title: "FastMoE: A Fast Mixture-of-Expert Training System"
      authors: [Jiaao He, Jiezhong Qiu, Jie Tang]
      arxiv: "2103.13262"
      tags: [moe, training]
      summary: "A PyTorch system for training mixture-of-experts models on many GPUs."
"""

# The reader's own state beside PAPERS (data/reading.yaml), as papers status writes it:
# one paper read.
READING = HEADER + "papers:\n  lai2023adaembed: {status: read}\n"


@pytest.fixture
def shipped(tmp_path: Path) -> Paths:
    """A copy of the shipped registries (data/*.yaml but the working files: the inbox,
    the reader's state, the key map) with the frozen seed catalog as papers.yaml, in
    tmp_path (never the real files)."""
    data = tmp_path / "data"
    data.mkdir()
    for path in (REPO / "data").glob("*.yaml"):
        if path.name not in ("inbox.yaml", "reading.yaml", "keymap.yaml"):
            shutil.copy(path, data / path.name)
    shutil.copy(SEED_CATALOG, data / "papers.yaml")
    return Paths(data / "papers.yaml", tmp_path / "build" / "catalog.db")


def used_venues() -> dict[str, Venue]:
    """The shipped registry cut to the venues the seed catalog uses, in the registry's order.

    The registry also lists well-known venues with no paper yet, so a .bib naming them
    resolves; tests of how an *unknown* venue is proposed read against this one instead."""
    used = {paper.venue for paper in reader.load(SEED_CATALOG)}
    return {
        short: venue
        for short, venue in load_venues(REPO / "data" / "venues.yaml").items()
        if short in used
    }


def keep_used_venues(paths: Paths) -> None:
    """Rewrite a shipped copy's venues.yaml to used_venues(): one blank line between entries,
    as in the shipped file; its comments are dropped."""
    venues = used_venues()
    entries = []
    for short, venue in venues.items():
        record = {
            "kind": venue.kind,
            "name": venue.name,
            **({"publisher": venue.publisher} if venue.publisher else {}),
            **venue.extra,
        }
        entries.append(
            yaml.safe_dump({short: record}, sort_keys=False, allow_unicode=True, width=10_000)
        )
    paths.venues.write_text(
        "# Only the venues papers.yaml uses.\n\n" + "\n".join(entries), encoding="utf-8"
    )
    assert load_venues(paths.venues) == venues  # the copy reads back as the cut registry


@pytest.fixture
def shipped_used(shipped: Paths) -> Paths:
    """The shipped copy with its registry cut to the venues papers.yaml uses (used_venues())."""
    keep_used_venues(shipped)
    return shipped


@pytest.fixture
def run(shipped: Paths):
    """Run `papers ARGS` on the copy of the shipped catalog."""
    from catalog.cli import app

    def invoke(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(
            app, ["--catalog", str(shipped.catalog), "--db", str(shipped.db), *args], input=input
        )

    return invoke


def write_catalog(
    folder: Path,
    papers: str = PAPERS,
    venues: str = VENUES,
    tags: str = TAGS,
    reading: str | None = None,
) -> Paths:
    """A catalog in folder/data/ with its registries (and the reader's file, if given);
    the index goes to folder/build/."""
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / "papers.yaml").write_text(textwrap.dedent(papers), encoding="utf-8")
    (data / "venues.yaml").write_text(venues, encoding="utf-8")
    (data / "tags.yaml").write_text(tags, encoding="utf-8")
    if reading is not None:
        (data / "reading.yaml").write_text(reading, encoding="utf-8")
    return Paths(data / "papers.yaml", folder / "build" / "catalog.db")


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    """PAPERS with its registries, and the reader's file READING beside them."""
    return write_catalog(tmp_path, reading=READING)


@pytest.fixture
def cli(paths: Paths, monkeypatch: pytest.MonkeyPatch):
    """Run `papers ARGS` on the tmp catalog; returns typer's Result."""
    from catalog.cli import app

    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.delenv("PAPERS_DB", raising=False)
    runner = CliRunner()

    def run(*args: str, input: str | None = None) -> Result:
        return runner.invoke(
            app, ["--catalog", str(paths.catalog), "--db", str(paths.db), *args], input=input
        )

    return run


def require(available: bool, what: str) -> None:
    """Skip when a real outside tool is missing, saying which; in CI (PAPERS_REQUIRE_TOOLS=1)
    a missing tool fails instead, so a green run always used the real tool."""
    if available:
        return
    if os.environ.get("PAPERS_REQUIRE_TOOLS"):
        pytest.fail(f"{what} is required here (PAPERS_REQUIRE_TOOLS is set) but missing")
    pytest.skip(f"{what} is not installed")


def run_node(script: str, payload: object, timeout: float = 120) -> Any:
    """What a node script writes to its standard output as JSON, given the payload as
    JSON on its standard input (the test is skipped without node, as require says)."""
    node = shutil.which("node")
    require(node is not None, "node (apt-get install nodejs)")
    run = subprocess.run(
        [str(node), "-e", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return json.loads(run.stdout)


# ------------------------------------------------------------------ made once per run
# What many slow tests share is made once per session: the shipped catalog's site (the
# real `mkdocs build --strict`, as CI builds it), its server, and one headless Chromium.
# They are read-only: a test that changes a site or catalog builds or copies its own.

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass(frozen=True)
class BuiltSite:
    """A built site: the build's own run (its exit code and messages) and its folder."""

    run: subprocess.CompletedProcess[str]
    out: Path


@pytest.fixture(scope="session")
def shipped_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The shipped catalog's site, built once per run; never to be written to."""
    sys.path.insert(0, str(REPO / "tools"))
    import relevance

    folder = tmp_path_factory.mktemp("shipped-site")
    return BuiltSite(relevance.build_shipped_site(folder), folder / "site")


@pytest.fixture(scope="session")
def site_url(shipped_site: BuiltSite) -> Iterator[str]:
    """The shipped catalog's site served on a free local port, for the browser tests."""
    import relevance  # on the path: shipped_site put tools/ there

    if shipped_site.run.returncode:
        raise RuntimeError(shipped_site.run.stdout + shipped_site.run.stderr)
    with relevance.serve(shipped_site.out) as url:
        yield url


def _playwright() -> Any:
    try:
        from playwright import sync_api
    except ImportError:
        return None
    return sync_api


# One per module, not per run: while it lives, Playwright's sync API keeps an asyncio
# loop running in this thread, and a later test that runs a loop of its own (datasette's
# client in test_index.py) would fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium; where it or playwright is missing, a skip saying so,
    or a failure under PAPERS_REQUIRE_TOOLS=1 (CI)."""
    require(CHROMIUM.exists(), f"{CHROMIUM} (apt-get install chromium)")
    sync_api = _playwright()
    require(sync_api is not None, "playwright for Python (pip install -e '.[test]')")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()
