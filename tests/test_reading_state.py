"""The reader's state (issue 22, 1-2): data/reading.yaml, apart from the curated catalog."""

from __future__ import annotations

import datetime as dt
import json
import threading
import time

import pytest

from catalog.data import readingstate
from catalog.edit import writer
from catalog.errors import PaperNotFound
from catalog.paths import Paths
from catalog.site import sitedata
from catalog.site.home import home_counts
from catalog.site.render import paper_page

TODAY = dt.date.today().isoformat()


def keys(cli, query: str) -> list[str]:
    return cli("search", query, "--keys").stdout.split()


def test_status_leaves_the_catalog_byte_identical_and_the_index_follows(cli, paths: Paths):
    before = paths.catalog.read_bytes()
    result = cli("status", "he2021fastmoe", "read")
    assert result.exit_code == 0, result.output
    assert result.output == f"he2021fastmoe: read (read on {TODAY})\n"
    assert paths.catalog.read_bytes() == before
    text = paths.reading.read_text(encoding="utf-8")
    assert text.startswith("# Your reading state")
    assert f"  he2021fastmoe: {{status: read, read_on: {TODAY}}}\n" in text
    assert keys(cli, "status:read") == ["lai2023adaembed", "he2021fastmoe"]
    assert "he2021fastmoe" not in keys(cli, "status:to-read")
    shown = json.loads(cli("show", "he2021fastmoe", "--json").stdout)
    assert (shown["status"], shown["read_on"]) == ("read", TODAY)
    assert json.loads(cli("stats", "--json").stdout)["status"] == {"read": 2, "to-read": 1}
    # Read again on another day: the date given wins; a second 'read' keeps the date.
    cli("status", "he2021fastmoe", "read", "--on", "2024-01-02")
    cli("status", "he2021fastmoe", "read")
    assert readingstate.load(paths).entries["he2021fastmoe"].read_on == "2024-01-02"
    cli("status", "he2021fastmoe", "reading")
    entry = readingstate.load(paths).entries["he2021fastmoe"]
    assert (entry.status, entry.started_on, entry.read_on) == ("reading", TODAY, None)
    shown = cli("show", "he2021fastmoe").stdout
    assert f"  status:  reading\n  started: {TODAY}\n" in shown
    assert "  pdf:     none (papers pdf he2021fastmoe, or papers attach" in shown
    assert "  note:    none (papers note he2021fastmoe writes one)" in shown
    cli("status", "he2021fastmoe", "to-read")  # back to the queue: the entry goes
    assert "he2021fastmoe" not in readingstate.load(paths).entries
    assert paths.catalog.read_bytes() == before


def test_the_reading_file_keeps_comments_order_and_line_endings(cli, paths: Paths):
    hand = (
        "# mine\r\n"
        "papers:\r\n"
        "  # the big one\r\n"
        "  lai2023adaembed: {status: read, read_on: 2023-05-01}   # loved it\r\n"
        "  kurniawan2023evstore: {status: reading}\r\n"
    )
    paths.reading.write_bytes(hand.encode())
    assert cli("status", "he2021fastmoe", "reading", "--on", "2024-02-02").exit_code == 0
    assert (
        paths.reading.read_bytes()
        == (hand + "  he2021fastmoe: {status: reading, started_on: 2024-02-02}\r\n").encode()
    )
    assert keys(cli, "status:reading") == ["kurniawan2023evstore", "he2021fastmoe"]


def test_a_status_the_catalog_still_holds_is_a_check_problem_not_a_state(cli, paths: Paths):
    text = paths.catalog.read_text(encoding="utf-8").replace(
        '      summary: "A PyTorch', "      status: read\n" + '      summary: "A PyTorch'
    )
    paths.catalog.write_text(text, encoding="utf-8")
    line = text.splitlines().index("      status: read") + 1
    assert keys(cli, "status:read") == ["lai2023adaembed"]  # the reader's file alone says
    result = cli("check")
    assert result.exit_code == 1
    assert (
        f"papers.yaml:{line}: 2021 › arXiv › he2021fastmoe: status: is reading state, kept "
        "in data/reading.yaml now (run papers status --migrate to move it there; nothing is "
        "lost)"
    ) in result.stdout
    shown = json.loads(cli("show", "he2021fastmoe", "--json").stdout)
    assert shown["status"] == "to-read" and "read_on" in shown


def test_migrate_moves_the_catalogs_reading_state_once_losing_nothing(cli, paths: Paths):
    text = paths.catalog.read_text(encoding="utf-8").replace(
        "      tags: [embedding, training]\n",
        "      tags: [embedding, training]\n      status: read\n      read_on: 2023-07-08\n",
    )
    text = text.replace(
        '      summary: "A PyTorch', "      status: reading\n" + '      summary: "A PyTorch'
    )
    paths.catalog.write_text(text, encoding="utf-8")
    paths.reading.write_text("papers:\n  he2021fastmoe: {status: read}\n", encoding="utf-8")
    result = cli("status", "--migrate")
    assert result.exit_code == 0, result.output
    assert result.stdout == "lai2023adaembed: read\n"  # he2021fastmoe's own entry wins
    assert "moved 1 into " in result.stderr
    assert "removed the reading state of 1 more from " in result.stderr
    after = paths.catalog.read_text(encoding="utf-8")
    assert "status:" not in after and "read_on:" not in after
    removed = {"      status: read\n", "      read_on: 2023-07-08\n", "      status: reading\n"}
    assert [ln for ln in text.splitlines(keepends=True) if ln not in removed] == (
        after.splitlines(keepends=True)
    )
    entries = readingstate.load(paths).entries
    assert entries["lai2023adaembed"].read_on == "2023-07-08"
    assert entries["he2021fastmoe"].status == "read"
    assert keys(cli, "status:read") == ["lai2023adaembed", "he2021fastmoe"]
    assert cli("check").exit_code == 0
    again = cli("status", "--migrate", "--json")
    assert json.loads(again.stdout) == {"moved": [], "cleared": [], "left": []}
    assert "nothing to move" in cli("status", "--migrate").stderr
    # Killed between its two writes: the reader's file has the entries, the catalog its
    # lines still. The next run removes them, and says so.
    paths.catalog.write_text(text, encoding="utf-8")
    rerun = cli("status", "--migrate")
    assert rerun.exit_code == 0 and rerun.stdout == ""
    assert "nothing to move" not in rerun.stderr
    assert "removed the reading state of 2 more from " in rerun.stderr
    assert paths.catalog.read_text(encoding="utf-8") == after
    assert cli("status", "--migrate", "he2021fastmoe").exit_code == 2
    assert cli("status", "he2021fastmoe").exit_code == 2


def test_migrate_leaves_a_status_no_reader_takes_and_says_so(cli, paths: Paths):
    text = paths.catalog.read_text(encoding="utf-8").replace(
        '      summary: "A PyTorch', "      status: redd\n" + '      summary: "A PyTorch'
    )
    paths.catalog.write_text(text, encoding="utf-8")
    found = cli("check").stdout
    assert "he2021fastmoe: unknown status 'redd' (did you mean 'read'?; then papers status" in (
        found
    )
    result = cli("status", "--migrate")
    assert result.exit_code == 0 and "left he2021fastmoe in " in result.stderr
    assert paths.catalog.read_text(encoding="utf-8") == text


def test_rm_of_a_paper_you_read_drops_its_reading_state_first(cli, paths: Paths):
    cli("status", "he2021fastmoe", "to-read")
    assert cli("queue", "--top", "he2021fastmoe").exit_code == 0
    assert "he2021fastmoe" in paths.reading.read_text(encoding="utf-8")
    result = cli("rm", "lai2023adaembed", "he2021fastmoe", "--yes")
    assert result.exit_code == 0, result.output
    reading = paths.reading.read_text(encoding="utf-8")
    assert "lai2023adaembed" not in reading and "he2021fastmoe" not in reading
    assert reading.startswith("# Your reading state")  # its comments stay
    assert cli("check").exit_code == 0, cli("check").output


def test_an_rm_that_fails_leaves_the_reading_file_as_it_was(paths: Paths):
    before = (paths.reading.read_bytes(), paths.catalog.read_bytes())
    with pytest.raises(PaperNotFound), writer.edit(paths) as session:
        for key in ("lai2023adaembed", "nosuch2020paper"):
            session.delete(key)
    assert (paths.reading.read_bytes(), paths.catalog.read_bytes()) == before


def test_queue_shows_reading_first_then_the_queue_in_the_readers_order(cli, paths: Paths):
    cli("status", "lai2023adaembed", "to-read")
    cli("status", "kurniawan2023evstore", "reading")
    rows = json.loads(cli("queue", "--json").stdout)
    assert [r["key"] for r in rows["reading"]] == ["kurniawan2023evstore"]
    assert [r["key"] for r in rows["to_read"]] == ["he2021fastmoe", "lai2023adaembed"]
    moved = cli("queue", "--top", "lai2023adaembed")
    assert moved.exit_code == 0, moved.output
    lines = moved.stdout.splitlines()
    assert lines[0] == "reading" and "kurniawan2023evstore" in lines[1]
    assert lines[2] == "to read" and "lai2023adaembed" in lines[3] and "he2021fastmoe" in lines[4]
    assert "1 reading, 2 to read" in moved.stderr
    assert paths.reading.read_text().endswith("queue:\n  - lai2023adaembed\n")
    # Started: it leaves the queue; the emptied list keeps its 'queue:' line (and so the
    # reader's comments around it).
    cli("status", "lai2023adaembed", "reading")
    assert paths.reading.read_text().endswith("queue:\n")
    refused = cli("queue", "--top", "kurniawan2023evstore")
    assert refused.exit_code == 1 and "is reading, not in the to-read queue" in refused.output
    assert cli("queue", "--top", "nosuch2020key").exit_code == 1


def test_a_hand_edit_of_the_reading_file_is_seen_by_the_next_command(cli, paths: Paths):
    assert keys(cli, "status:reading") == []
    paths.reading.write_text("papers:\n  he2021fastmoe: reading\n", encoding="utf-8")
    assert keys(cli, "status:reading") == ["he2021fastmoe"]


def test_check_reports_the_reading_files_problems_with_their_lines(cli, paths: Paths):
    paths.reading.write_text(
        "papers:\n"
        "  he2021fastmoe: {status: red}\n"
        "  nosuch2021paper: {status: read}\n"
        "  lai2023adaembed: {status: read, read_on: someday, mood: happy}\n"
        "queue:\n"
        "  - he2021fastmo\n",
        encoding="utf-8",
    )
    result = cli("check")
    assert result.exit_code == 1
    out = result.stdout
    assert "data/reading.yaml:2: he2021fastmoe: unknown status 'red' (did you mean 'read'?)" in out
    assert "reading.yaml:3: nosuch2021paper: no paper with this key" in out
    assert "reading.yaml:4: lai2023adaembed: read_on 'someday' is not a date" in out
    assert "reading.yaml:4: lai2023adaembed: unknown field 'mood'" in out
    assert "reading.yaml:6: he2021fastmo: no paper with this key (did you mean" in out


def test_an_unreadable_reading_file_stops_with_its_line_and_loses_nothing(cli, paths: Paths):
    bad = "papers:\n  he2021fastmoe: {status: read\n"
    paths.reading.write_text(bad, encoding="utf-8")
    result = cli("status", "lai2023adaembed", "read")
    assert result.exit_code == 1
    assert "reading.yaml:" in result.output and "YAML syntax error" in result.output
    assert paths.reading.read_text(encoding="utf-8") == bad
    paths.reading.write_text("papers: [a, b]\n", encoding="utf-8")
    listed = cli("search", "embedding")
    assert listed.exit_code == 1 and "papers: is not a mapping" in listed.output


def test_an_error_inside_a_session_writes_nothing(paths: Paths):
    before = paths.reading.read_bytes()
    with pytest.raises(RuntimeError), writer.edit_reading(paths) as session:
        session.set_status("he2021fastmoe", "read")
        raise RuntimeError("interrupted")
    assert paths.reading.read_bytes() == before
    assert not list(paths.data_dir.glob(".*.tmp"))


def test_the_site_shows_the_readers_status_only_when_asked(cli, paths: Paths):
    cli("status", "he2021fastmoe", "reading")
    data, _ = sitedata.load(paths, with_charts=False)
    page = paper_page(data.by_key["he2021fastmoe"], data)
    assert "Reading status" not in page and "reading status" not in home_counts(data)
    data.show_status = True
    page = paper_page(data.by_key["he2021fastmoe"], data)
    assert "<strong>Reading status:</strong> reading" in page
    assert "1 read, 1 reading, 1 to read" in home_counts(data)


def test_reading_notes_stay_off_the_site_unless_asked(paths: Paths):
    paths.readings.mkdir(parents=True)
    (paths.readings / "he2021fastmoe.md").write_text("Private thoughts.\n", encoding="utf-8")
    hidden, _ = sitedata.load(paths, with_charts=False, readings=False)
    assert "Private thoughts" not in paper_page(hidden.by_key["he2021fastmoe"], hidden)
    shown, _ = sitedata.load(paths, with_charts=False, readings=True)
    assert "Private thoughts" in paper_page(shown.by_key["he2021fastmoe"], shown)
    assert sitedata.flag("true") and sitedata.flag(True) and not sitedata.flag("false")
    assert not sitedata.flag(None) and not sitedata.flag("")


def test_two_writers_of_the_reading_file_lose_no_change(paths: Paths):
    """A session holds the file's lock until it has written: the second waits and reads
    what the first wrote (no lost update)."""
    started = threading.Event()

    def first() -> None:
        with writer.edit_reading(paths) as session:
            session.set_status("he2021fastmoe", "read", "2024-01-01")
            started.set()
            time.sleep(0.5)

    thread = threading.Thread(target=first)
    thread.start()
    started.wait(5)
    with writer.edit_reading(paths) as session:
        session.set_status("kurniawan2023evstore", "reading", "2024-01-02")
    thread.join()
    entries = readingstate.load(paths).entries
    assert set(entries) == {"lai2023adaembed", "he2021fastmoe", "kurniawan2023evstore"}


def test_to_read_drops_an_entry_check_refuses_and_a_same_state_keeps_its_line(cli, paths):
    paths.reading.write_text(
        "papers:\n  he2021fastmoe: {status: red}\n"
        "  lai2023adaembed: {read_on: 2023-01-01, status: read}  # as I wrote it\n",
        encoding="utf-8",
    )
    assert cli("status", "he2021fastmoe", "to-read").exit_code == 0
    assert cli("status", "lai2023adaembed", "read").exit_code == 0  # the same state
    assert paths.reading.read_text(encoding="utf-8") == (
        "papers:\n  lai2023adaembed: {read_on: 2023-01-01, status: read}  # as I wrote it\n"
    )


@pytest.mark.slow
def test_a_real_site_build_shows_the_readers_state_only_when_asked(
    cli, paths: Paths, tmp_path, monkeypatch: pytest.MonkeyPatch
):
    """mkdocs.yml's show_status and show_readings (from the environment through !ENV)
    on a real build: off by default, the reader's file and notes when asked."""
    cli("status", "he2021fastmoe", "reading", "--on", "2024-05-06")
    paths.readings.mkdir(parents=True)
    (paths.readings / "he2021fastmoe.md").write_text("Private thoughts.\n", encoding="utf-8")

    def page(out_name: str) -> str:
        out = tmp_path / out_name
        result = cli("site", "build", "-o", str(out))
        assert result.exit_code == 0, result.output
        return (out / "papers" / "he2021fastmoe" / "index.html").read_text(encoding="utf-8")

    hidden = page("hidden")
    assert "Reading status" not in hidden and "Private thoughts" not in hidden
    monkeypatch.setenv("PAPERS_SHOW_STATUS", "true")
    monkeypatch.setenv("PAPERS_SHOW_READINGS", "true")
    shown = page("shown")
    assert "<strong>Reading status:</strong> reading" in shown
    assert "Private thoughts." in shown
