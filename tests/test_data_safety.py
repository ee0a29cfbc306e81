"""Nothing lost when a person, a kill or another program gets in the way (issue 20, 1-3).

One notion of a line; every step of a multi-file edit leaves the files agreeing; a file
another program changed while papers was writing it is left as that program wrote it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from catalog import files
from catalog.data import reader
from catalog.edit import writer
from catalog.errors import ConcurrentEditError, InvalidCatalogError
from catalog.paths import Paths
from tests.conftest import REPO


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"])
def test_a_raw_line_break_yaml_1_1_reads_is_refused_with_its_line(paths: Paths, char: str) -> None:
    text = paths.catalog.read_text(encoding="utf-8")
    at = text.index("title: ") + len("title: ") + 1
    paths.catalog.write_text(text[:at] + char + text[at:], encoding="utf-8")
    line = text.count("\n", 0, at) + 1
    with pytest.raises(InvalidCatalogError) as raised:
        reader.load(paths.catalog)
    problem = raised.value.problems[0]
    assert problem.line == line and f"U+{ord(char):04X}" in problem.message
    before = paths.catalog.read_bytes()
    with pytest.raises(InvalidCatalogError), writer.edit(paths) as session:
        session.update(next(iter(session.papers)), added="2024-01-02")
    assert paths.catalog.read_bytes() == before


def test_a_line_separator_written_as_an_escape_is_a_control_check_reports(
    paths: Paths,
) -> None:
    from catalog.check import rules

    text = paths.catalog.read_text(encoding="utf-8")
    at = text.index('title: "') + len('title: "')
    paths.catalog.write_text(text[:at] + "A\\u2028B " + text[at:], encoding="utf-8")
    found = [p.message for p in rules.check(paths)]
    assert "control character in title" in found


def test_a_rename_writes_the_vocabulary_with_both_names_first(
    paths: Paths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file written leaves the files agreeing: the vocabulary gains the new name
    (keeping the old), then the papers change, then the old name goes."""
    seen: list[tuple[str, str]] = []
    real = files.atomic_write

    def record(path: Path, text: str, newline: str = "\n", expected: bytes | None = None) -> None:
        real(path, text, newline, expected)
        seen.append((path.name, text))

    monkeypatch.setattr(files, "atomic_write", record)
    with writer.edit(paths) as session:
        session.rename_tag("moe", "mixture-of-experts")
    names = [name for name, _ in seen]
    assert names == ["tags.yaml", "papers.yaml", "tags.yaml"]
    first, last = seen[0][1], seen[2][1]
    assert "\nmoe:" in "\n" + first and "mixture-of-experts:" in first
    assert "\nmoe:" not in "\n" + last and "mixture-of-experts:" in last


@pytest.mark.slow
def test_a_kill_after_each_file_leaves_a_catalog_check_accepts(paths: Paths) -> None:
    """`papers tags --rename` killed after its first, then its second file: each time
    check finds no problem, and the rename run again finishes it."""
    from catalog.check import rules

    for point in ("after-rename:1", "after-rename:2"):
        env = {**os.environ, files.CRASH_ENV: point, "PYTHONPATH": str(REPO)}
        args = ["--catalog", str(paths.catalog), "--db", str(paths.db)]
        killed = subprocess.run(
            [sys.executable, "-m", "catalog.cli", *args, "tags", "--rename", "moe", "mixed"],
            env=env,
            capture_output=True,
            timeout=120,
        )
        assert killed.returncode == -signal.SIGKILL
        assert rules.check(paths) == []
        with writer.edit(paths) as session:
            session.rename_tag("moe", "mixed")
        assert "moe" not in {t for p in reader.load(paths.catalog) for t in p.tags}
        assert rules.check(paths) == []
        with writer.edit(paths) as session:  # back, for the next kill
            session.rename_tag("mixed", "moe")


def test_a_file_changed_while_papers_writes_is_left_as_the_other_program_wrote_it(
    paths: Paths,
) -> None:
    key = next(iter(reader.load(paths.catalog))).key
    hand = paths.catalog.read_text(encoding="utf-8") + "# a hand edit, saved meanwhile\n"
    changed = pytest.raises(ConcurrentEditError, match="changed by another program")
    with changed, writer.edit(paths) as session:
        session.update(key, added="2024-01-02", checked="2024-01-03")
        paths.catalog.write_text(hand, encoding="utf-8")  # the editor saves
    assert paths.catalog.read_text(encoding="utf-8") == hand


# ---------------------------------------------------------------- bounds (issue 20, 4-8)


def test_special_files_are_refused_before_anything_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for special in (Path("/dev/zero"), fifo):
        with pytest.raises(files.NotAFileError, match="not a regular file"):
            files.read_file(special)
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(files.NotAFileError, match="larger than"):
        files.read_file(big, limit=1000)
    assert files.read_file(big) == b"x" * 2000


def test_keys_tags_and_titles_too_long_are_reported(paths: Paths) -> None:
    from dataclasses import replace

    from catalog.check import rules
    from catalog.ingest.citekeys import suggest_key

    paper = next(iter(reader.load(paths.catalog)))
    long = replace(paper, key="k" * 65, tags=["t" * 41], title="T " * 300)
    found = " | ".join(p.message for p in rules.paper_problems([long], "x", {}, {}))
    assert "key longer than 64" in found and "tag longer than 40" in found
    assert "title longer than 500" in found
    assert len(suggest_key(["Ann " + "Q" * 300], 2023, "W" * 300, set())) <= 64


def test_output_inside_the_sites_inputs_is_refused(paths: Paths) -> None:
    from catalog.site.links import SiteError
    from catalog.site.outdir import check_site_dir

    for inside in (paths.data_dir / "x", paths.notes.parent / "gen", paths.readings / "x"):
        with pytest.raises(SiteError, match="inside"):
            check_site_dir(inside, paths)
    check_site_dir(paths.root / "build" / "site", paths)  # the usual place is fine


def test_inbox_writes_keep_comments_and_a_bad_year_is_a_message(paths: Paths) -> None:
    from catalog.edit import writer
    from catalog.ingest import inbox

    one = inbox.Candidate(id="a1", title="A Made-Up Store", venue="OSDI", year=2023)
    two = inbox.Candidate(id="b2", title="Another Made-Up Cache", venue="SOSP", year=2023)
    with writer.edit(paths) as session:
        session.inbox.file_candidate(one)
    path = inbox.inbox_path(paths)
    path.write_text(path.read_text(encoding="utf-8") + "# kept by hand\n", encoding="utf-8")
    with writer.edit(paths) as session:
        session.inbox.file_candidate(two)
        session.inbox.drop(["a1"])
    text = path.read_text(encoding="utf-8")
    assert "# kept by hand" in text and "b2:" in text and "\na1:" not in text
    assert [c.id for c in inbox.load(paths)] == ["b2"]
    path.write_text(text.replace("year: 2023", "year: ²⁰²³"), encoding="utf-8")
    with pytest.raises(inbox.InboxError, match="not a year"):
        inbox.load(paths)


def test_a_service_that_drips_its_reply_is_cut_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each read returns quickly (a byte at a time), so only a deadline for the whole
    exchange ends it."""
    import http.server
    import threading
    import time

    from catalog.ingest import services, webclient

    class Drip(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            for _ in range(40):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.1)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Drip)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("PAPERS_CROSSREF_URL", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setattr(webclient, "DEADLINE", 1.0)
    started = time.monotonic()
    try:
        with pytest.raises(webclient.FetchError, match="took longer than"):
            services.crossref("10.9999/drip")
    finally:
        server.shutdown()
    assert time.monotonic() - started < 3
