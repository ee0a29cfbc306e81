"""A "Suggest a paper" issue into a pull request's change (tools/suggestion.py, issue 31.3),
against recorded replies of the services served on loopback (tests/test_fetch.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.data import reader
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog
from tests.test_fetch import BAGPIPE_WORK, Online, online  # noqa: F401  (the fixture)

sys.path.insert(0, str(REPO / "tools"))
import suggestion

BAGPIPE_DOI = "10.1145/3600006.3613142"


def issue(paper: str, why: str = "It caches embeddings.", tags: str = "_No response_") -> str:
    """An issue's text as GitHub writes it from the form's answers."""
    return (
        f"### DOI, arXiv id or URL\n\n{paper}\n\n### Why it belongs\n\n{why}\n\n"
        f"### Tags\n\n{tags}\n"
    )


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    """A small catalog with this project's venue registry and tag vocabulary."""
    data = REPO / "data"
    return write_catalog(
        tmp_path,
        venues=(data / "venues.yaml").read_text(encoding="utf-8"),
        tags=(data / "tags.yaml").read_text(encoding="utf-8"),
    )


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTTP cache of the run in tmp_path, never the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


def test_the_form_s_answers_are_read_by_its_labels():
    got = suggestion.read_form(issue(f"https://doi.org/{BAGPIPE_DOI}", tags="Caching, gpu"))
    assert got.paper == f"https://doi.org/{BAGPIPE_DOI}"
    assert got.why == "It caches embeddings."
    assert got.tags == ["caching", "gpu"]
    assert set(suggestion.questions()) == {"paper", "why", "tags"}
    assert suggestion.read_form(issue("2301.02959")).tags == []


@pytest.mark.parametrize(
    ("given", "ids"),
    [
        (BAGPIPE_DOI, (BAGPIPE_DOI, None)),
        (f"doi:{BAGPIPE_DOI}", (BAGPIPE_DOI, None)),
        (f"https://dl.acm.org/doi/{BAGPIPE_DOI}", (BAGPIPE_DOI, None)),
        ("2301.02959v2", (None, "2301.02959")),
        ("arXiv:2301.02959", (None, "2301.02959")),
        ("https://arxiv.org/abs/2301.02959", (None, "2301.02959")),
        ("https://example.org/some-paper", (None, None)),
        (f"DOI: {BAGPIPE_DOI}.", (BAGPIPE_DOI, None)),
        ("see <https://arxiv.org/pdf/2301.02959v1> please", (None, "2301.02959")),
        ("10.48550/arXiv.2301.02959", (None, "2301.02959")),
        ("https://doi.org/10.48550/arXiv.2301.02959", (None, "2301.02959")),
    ],
)
def test_a_doi_or_arxiv_id_is_found_bare_prefixed_or_in_a_link(given, ids):
    assert suggestion.identify(given) == ids


def test_a_suggested_doi_is_added_with_its_known_tags_and_the_diff(paths: Paths, online: Online):
    online.crossref[BAGPIPE_DOI] = BAGPIPE_WORK
    wanted = suggestion.read_form(issue(BAGPIPE_DOI, tags="caching, no-such-tag"))
    outcome = suggestion.add(paths, wanted)
    assert outcome.added, outcome.lines
    assert outcome.lines[0].startswith("added agarwal2023bagpipe: Bagpipe")
    assert "not in tags.yaml, left out: no-such-tag" in outcome.lines
    paper = {p.key: p for p in reader.load(paths.catalog)}["agarwal2023bagpipe"]
    assert paper.tags == ["caching"] and paper.doi == BAGPIPE_DOI
    assert "+++ b/data/papers.yaml" in outcome.diff
    assert "+    - key: agarwal2023bagpipe" in outcome.diff
    assert any(f"/crossref/works/{BAGPIPE_DOI}" in r for r in online.requests)


def test_a_paper_already_there_or_unknown_is_not_added_and_says_why(paths: Paths, online: Online):
    online.crossref[BAGPIPE_DOI] = BAGPIPE_WORK
    assert suggestion.add(paths, suggestion.read_form(issue(BAGPIPE_DOI))).added
    before = paths.catalog.read_bytes()
    again = suggestion.add(paths, suggestion.read_form(issue(BAGPIPE_DOI)))
    assert not again.added and "not added" in again.lines[-1]
    unknown = suggestion.add(paths, suggestion.read_form(issue("10.5555/nothing.here")))
    assert not unknown.added and unknown.lines[-1].startswith("not added:")
    plain = suggestion.add(paths, suggestion.read_form(issue("https://example.org/x")))
    assert not plain.added and "no DOI or arXiv id" in plain.lines[0]
    assert paths.catalog.read_bytes() == before


def test_the_pull_request_text_shows_outside_text_as_code_only(paths: Paths, online: Online):
    online.crossref[BAGPIPE_DOI] = BAGPIPE_WORK
    why = "@someone see [this](javascript:alert(1)) <script>x</script>\n# heading\x1b[31m"
    wanted = suggestion.read_form(issue(BAGPIPE_DOI, why=why))
    text = suggestion.pull_request_text(12, wanted, suggestion.add(paths, wanted))
    assert text.startswith("The paper suggested in #12") and "Closes #12." in text
    outside = text.split("Why it belongs:\n\n", 1)[1].split("\n\nWhat papers add said", 1)[0]
    assert all(line.startswith("    ") for line in outside.split("\n"))
    assert "\x1b" not in text


def test_the_tool_writes_the_text_and_exits_1_when_nothing_is_added(
    paths: Paths, tmp_path: Path, online: Online
):
    body = tmp_path / "issue.md"
    body.write_text("Please add the Bagpipe paper, thanks!\n")
    out = tmp_path / "build" / "pr.md"
    code = suggestion.main(
        [str(body), "--issue", "3", "--body", str(out), "--catalog", str(paths.catalog)]
    )
    assert code == 1
    assert "the issue names no paper" in out.read_text()
    online.crossref[BAGPIPE_DOI] = BAGPIPE_WORK
    body.write_text(issue(f"https://doi.org/{BAGPIPE_DOI}"))
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "suggestion.py"),
            str(body),
            "--issue",
            "3",
            "--body",
            str(out),
            "--catalog",
            str(paths.catalog),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},  # this checkout's catalog, as installed
    )
    assert run.returncode == 0, run.stderr
    assert "added agarwal2023bagpipe" in out.read_text()
