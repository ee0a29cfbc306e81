"""An export of every paper to a file (catalog.bibfile): on Linux, a big
catalog's second half is formatted by a child process; the bytes, the count, the errors
and what is left on disk must be those of one process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from catalog import bibfile, index
from catalog.cli import app
from catalog.paths import Paths
from tests.test_edit_patches import synthetic

pytestmark = pytest.mark.skipif(not bibfile.CAN_SPLIT, reason="the export splits on Linux only")


def export(paths: Paths, *args: str) -> Result:
    return CliRunner().invoke(app, ["--catalog", str(paths.catalog), "--db", str(paths.db),
                                    "export", *args])


@pytest.fixture
def catalog(tmp_path: Path) -> Paths:
    paths = synthetic(tmp_path / "cat", size=150)
    index.refresh(paths)
    return paths


@pytest.mark.parametrize("options", [[], ["--abstracts"], ["--ascii", "--abstracts"],
                                     ["--venue-style", "short", "--arxiv-style", "journal"]])
def test_two_halves_write_the_bytes_one_process_writes(
        catalog: Paths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        options: list[str]) -> None:
    one, two = tmp_path / "one.bib", tmp_path / "two.bib"
    monkeypatch.setattr(bibfile, "SPLIT_MIN", 10**9)
    assert export(catalog, *options, "-o", str(one)).exit_code == 0
    forks: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(bibfile, "SPLIT_MIN", 10)
    monkeypatch.setattr(os, "fork", fork)
    result = export(catalog, *options, "-o", str(two))
    assert result.exit_code == 0, result.output
    assert forks == [1] and "wrote 150 entries to" in result.stderr
    assert two.read_bytes() == one.read_bytes()
    assert not list(tmp_path.glob(".*.tmp"))


def _break_venue(paths: Paths, last: bool) -> str:
    """File the first or the last paper (by key) alone under a venue the registry lacks;
    its key."""
    import sqlite3

    keys = [k for (k,) in sqlite3.connect(paths.db).execute("select key from papers order by key")]
    key = keys[-1 if last else 0]
    lines = paths.catalog.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == f"- key: {key}")
    end = next((i for i in range(at + 1, len(lines))
                if lines[i].startswith("    - ") or not lines[i].startswith("   ")), len(lines))
    entry = lines[at:end]
    del lines[at:end]
    year_end = next((i for i in range(at, len(lines)) if lines[i][:1].isdigit()), len(lines))
    lines[year_end:year_end] = ["  NOPE:\n", *entry]  # last venue of its year
    paths.catalog.write_text("".join(lines), encoding="utf-8")
    return key


@pytest.mark.parametrize("last", [True, False])
def test_a_half_that_cannot_be_written_fails_as_one_process_does(
        catalog: Paths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, last: bool) -> None:
    """A paper the export refuses, in the child's half or in the parent's: the error one
    process gives, the old file whole, no temporary left (the child's included)."""
    key = _break_venue(catalog, last)
    out = tmp_path / "refs.bib"
    out.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(bibfile, "SPLIT_MIN", 10)
    result = export(catalog, "-o", str(out))
    assert result.exit_code == 1
    assert f"{key}: venue 'NOPE' is not in the venue registry" in result.stderr
    assert out.read_text(encoding="utf-8") == "old\n"
    assert not list(tmp_path.glob(".*.tmp")) and not list(out.parent.glob(".*.tmp"))


def test_an_index_changed_under_the_child_is_read_again_by_the_parent(
        catalog: Paths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The child reads the index with a connection of its own: when its digest is not
    the one the parent read, the parent formats that half itself, from its own reading."""
    one, two = tmp_path / "one.bib", tmp_path / "two.bib"
    monkeypatch.setattr(bibfile, "SPLIT_MIN", 10**9)
    assert export(catalog, "-o", str(one)).exit_code == 0
    monkeypatch.setattr(bibfile, "SPLIT_MIN", 10)
    real = bibfile._digest
    monkeypatch.setattr(bibfile, "_digest", lambda conn: real(conn) + (
        "-changed" if os.getpid() != parent else ""))
    parent = os.getpid()
    result = export(catalog, "-o", str(two))
    assert result.exit_code == 0 and two.read_bytes() == one.read_bytes()
    assert "wrote 150 entries to" in result.stderr
