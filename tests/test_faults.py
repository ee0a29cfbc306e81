"""Faults, hostile files and concurrency at the storage layer (issue 8): each test is a
reproducer of one class of failure that must not come back."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from catalog import files
from catalog.data import reader
from catalog.data.registry import load_tags, load_venues
from catalog.edit import notes, writer
from catalog.errors import CatalogError, IndexPathError, InvalidCatalogError
from catalog.index import database, query
from catalog.model import Paper
from catalog.paths import Paths
from tests.conftest import REPO, TAGS, VENUES, write_catalog

PYTHON = [sys.executable, "-c"]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
for _name in ("PAPERS_CATALOG", "PAPERS_DB", files.CRASH_ENV):
    ENV.pop(_name, None)


def papers_cli(
    paths: Paths, *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`papers ARGS` as a separate process, as a user runs it."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "catalog.cli",
            "--catalog",
            str(paths.catalog),
            "--db",
            str(paths.db),
            *args,
        ],
        env=env or ENV,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr


# ---------------------------------------------------------------- 1. --db names a foreign file


@pytest.mark.parametrize("victim", ["papers.yaml", "venues.yaml", "thesis.tex"])
def test_db_never_replaces_a_file_papers_did_not_make(cli, paths: Paths, victim: str) -> None:
    target = paths.data_dir / victim
    if not target.exists():
        target.write_text("\\documentclass{article}\n", encoding="utf-8")
    before = target.read_bytes()
    from typer.testing import CliRunner

    from catalog.cli import app

    for args in (["search", "embedding"], ["list"], ["index"]):
        result = CliRunner().invoke(
            app, ["--catalog", str(paths.catalog), "--db", str(target), *args]
        )
        assert result.exit_code == 1, result.output
        assert "not an index papers built" in result.output and str(target) in result.output
        assert "--db" in result.output  # the fix
        assert target.read_bytes() == before
    assert not list(paths.data_dir.glob(".*.tmp"))


def test_db_refuses_an_sqlite_database_of_someone_else(paths: Paths) -> None:
    other = paths.db.with_name("theirs.db")
    other.parent.mkdir(parents=True)
    conn = sqlite3.connect(other)
    conn.execute("create table meta (key text, value text)")
    conn.execute("insert into meta values ('owner', 'me')")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(IndexPathError, match="SQLite database papers did not build"):
        database.refresh(Paths(paths.catalog, other))
    assert other.read_bytes() == before


def test_an_index_built_before_the_header_carried_our_id_is_still_ours(paths: Paths) -> None:
    database.refresh(paths)
    conn = sqlite3.connect(paths.db)
    conn.execute("pragma application_id = 0")
    conn.commit()
    conn.close()
    assert database.probe(paths) == "ours"
    assert database.rebuild(paths).action == "built"
    assert database.probe(paths) == "ours"


def test_db_a_folder_or_an_unwritable_place_is_a_message(paths: Paths, tmp_path: Path) -> None:
    folder = tmp_path / "somewhere"
    folder.mkdir()
    proc = papers_cli(Paths(paths.catalog, folder), "search", "embedding")
    assert proc.returncode == 1 and "is a folder" in proc.stderr, proc.stderr
    no_traceback(proc)
    blocker = tmp_path / "plain-file"
    blocker.write_text("x", encoding="utf-8")
    proc = papers_cli(Paths(paths.catalog, blocker / "catalog.db"), "search", "embedding")
    assert proc.returncode == 1 and "point --db" in proc.stderr, proc.stderr
    no_traceback(proc)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.name.endswith(".tmp")) == []


# ---------------------------------------------------------------- 3. symbolic links


def test_a_symlinked_catalog_and_registry_are_written_through(tmp_path: Path) -> None:
    store = write_catalog(tmp_path / "store")
    data = tmp_path / "work" / "data"
    data.mkdir(parents=True)
    for name in ("papers.yaml", "tags.yaml"):
        (data / name).symlink_to(store.data_dir / name)
    shutil.copy(store.venues, data / "venues.yaml")
    paths = Paths(data / "papers.yaml", tmp_path / "work" / "build" / "catalog.db")
    with writer.edit(paths) as session:
        session.add_tags("he2021fastmoe", ["sharding"], new=True)
    for name in ("papers.yaml", "tags.yaml"):
        assert (data / name).is_symlink(), name
    assert "sharding" in load_tags(store.tags)
    paper = next(p for p in reader.load(store.catalog) if p.key == "he2021fastmoe")
    assert paper.tags == ["moe", "training", "sharding"]
    assert not list(store.data_dir.glob(".*.tmp")) and not list(data.glob(".*.tmp"))


# ---------------------------------------------------------------- 4. two catalogs, one folder

NEW_TAGS_SCRIPT = """
import sys
from pathlib import Path
from catalog.edit import writer
from catalog.paths import Paths
paths = Paths(Path(sys.argv[1]), Path(sys.argv[2]))
for tag in sys.argv[4].split(","):
    with writer.edit(paths) as session:
        session.add_tags(sys.argv[3], [tag], new=True)
"""


@pytest.mark.slow
def test_two_catalogs_in_one_folder_share_registries_without_losing_a_tag(tmp_path: Path) -> None:
    first = write_catalog(tmp_path)
    second = Paths(first.data_dir / "other.yaml", tmp_path / "build" / "other.db")
    shutil.copy(first.catalog, second.catalog)
    jobs = [
        (first, "he2021fastmoe", [f"first-{i}" for i in range(6)]),
        (second, "lai2023adaembed", [f"second-{i}" for i in range(6)]),
    ]
    procs = [
        subprocess.Popen(
            [*PYTHON, NEW_TAGS_SCRIPT, str(p.catalog), str(p.db), key, ",".join(tags)],
            env=ENV,
            cwd=REPO,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p, key, tags in jobs
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    vocabulary = load_tags(first.tags)
    for paths, key, tags in jobs:
        assert set(tags) <= set(vocabulary)
        paper = next(p for p in reader.load(paths.catalog) if p.key == key)
        assert set(tags) <= set(paper.tags)


def test_a_live_writers_temporary_is_kept_and_a_dead_ones_removed(paths: Paths) -> None:
    sleeper = subprocess.Popen(["sleep", "30"])
    dead = subprocess.Popen(["true"])
    dead.wait()
    try:
        live_tmp = paths.data_dir / f".tags.yaml.{sleeper.pid}.tmp"
        dead_tmp = paths.data_dir / f".tags.yaml.{dead.pid}.tmp"
        live_tmp.write_text("being written", encoding="utf-8")
        dead_tmp.write_text("left behind", encoding="utf-8")
        with writer.edit(paths) as session:
            session.add_tags("he2021fastmoe", ["new-tag"], new=True)
        assert live_tmp.exists() and not dead_tmp.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


# ---------------------------------------------------------------- 5. + 16. a damaged index


def damage_pages(db: Path) -> None:
    """Overwrite every page after the first with garbage: the header stays intact."""
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    rng = random.Random(8)
    for at in range(page, len(data)):
        data[at] = rng.randrange(256)
    db.write_bytes(bytes(data))


def test_tag_reports_success_with_a_damaged_index_and_repairs_it(cli, paths: Paths) -> None:
    assert cli("search", "embedding").exit_code == 0
    damage_pages(paths.db)
    result = cli("tag", "he2021fastmoe", "-t", "caching")
    assert result.exit_code == 0, result.output
    assert "+caching" in result.output
    paper = next(p for p in reader.load(paths.catalog) if p.key == "he2021fastmoe")
    assert "caching" in paper.tags
    conn = sqlite3.connect(paths.db)
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert "caching" in query.get(database.connect(paths), "he2021fastmoe").tags


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [["search", "embedding"], ["show", "he2021fastmoe"], ["list"], ["export"], ["tags"], ["queue"]],
)
def test_a_partly_damaged_index_is_rebuilt(cli, paths: Paths, args: list[str]) -> None:
    assert cli("search", "embedding").exit_code == 0
    damage_pages(paths.db)
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    conn = sqlite3.connect(paths.db)
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"


# ---------------------------------------------------------------- 12. alias bombs

BOMB = "".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]\n"]
    + [
        f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
)


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["tags.yaml", "venues.yaml", "papers.yaml"])
def test_an_alias_bomb_in_any_data_file_is_refused_at_once(paths: Paths, victim: str) -> None:
    target = paths.data_dir / victim
    if victim == "papers.yaml":
        target.write_text(BOMB.replace("a: &a", "2020: &a"), encoding="utf-8")
    else:
        target.write_text(target.read_text(encoding="utf-8") + BOMB, encoding="utf-8")
    started = time.monotonic()
    for args in (["search", "x"], ["check"], ["tag", "he2021fastmoe", "-t", "moe"]):
        proc = papers_cli(paths, *args, timeout=30)
        said = proc.stdout + proc.stderr  # check lists problems on stdout
        assert proc.returncode == 1, (args, said)
        assert "anchors and aliases" in said and victim in said, said
        no_traceback(proc)
    assert time.monotonic() - started < 30


def test_an_ampersand_in_a_title_is_not_an_anchor(tmp_path: Path) -> None:
    paths = write_catalog(tmp_path, tags=TAGS + 'r-and-d: "R &D, Q & A"\n')
    assert "r-and-d" in load_tags(paths.tags)


# ---------------------------------------------------------------- 14. unreadable files


def test_invalid_utf8_in_a_registry_names_file_and_line(paths: Paths) -> None:
    paths.tags.write_bytes(TAGS.encode() + b"caf\xe9: Latin-1\n")
    proc = papers_cli(paths, "search", "embedding")
    assert proc.returncode == 1, proc.stderr
    assert f"tags.yaml:{TAGS.count(chr(10)) + 1}: not valid UTF-8" in proc.stderr
    no_traceback(proc)
    paths.tags.write_text(TAGS, encoding="utf-8")
    paths.venues.write_bytes(b"\xff\xfe" + VENUES.encode("utf-16-le"))
    with pytest.raises(InvalidCatalogError, match=r"venues.yaml:1: UTF-16 text"):
        load_venues(paths.venues)


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_tag_on_a_catalog_that_is_not_utf8_is_refused_untouched(
    paths: Paths, encoding: str
) -> None:
    text = paths.catalog.read_text(encoding="utf-8").replace("FastMoE:", "FästMoE:")
    paths.catalog.write_bytes(text.encode(encoding))
    before = paths.catalog.read_bytes()
    proc = papers_cli(paths, "tag", "he2021fastmoe", "-t", "caching")
    assert proc.returncode == 1, proc.stderr
    assert "papers.yaml" in proc.stderr and "UTF" in proc.stderr and "save" in proc.stderr
    no_traceback(proc)
    assert paths.catalog.read_bytes() == before


@pytest.mark.slow
def test_the_catalog_path_a_folder_is_a_message(paths: Paths, tmp_path: Path) -> None:
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    for args in (["search", "x"], ["tag", "he2021fastmoe", "-t", "moe"], ["check"]):
        proc = papers_cli(Paths(folder, paths.db), *args)
        said = proc.stdout + proc.stderr
        assert proc.returncode == 1 and "is a folder" in said, (args, said)
        no_traceback(proc)


# ---------------------------------------------------------------- 17. line endings


def test_a_crlf_catalog_and_registries_keep_crlf(tmp_path: Path) -> None:
    paths = write_catalog(tmp_path)
    for path in (paths.catalog, paths.tags, paths.venues):
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    before = paths.catalog.read_bytes()
    with writer.edit(paths) as session:
        session.add_tags("he2021fastmoe", ["sharding"], new=True)
        session.add_venue(load_venues(REPO / "data" / "venues.yaml")["SOSP"])
        session.add(Paper(key="new2024x", title="New", authors=["A B"], year=2024, venue="SOSP"))
    for path in (paths.catalog, paths.tags, paths.venues):
        data = path.read_bytes()
        assert data.count(b"\n") == data.count(b"\r\n"), path.name
    old, new = before.split(b"\r\n"), paths.catalog.read_bytes().split(b"\r\n")
    assert len(new) - len(old) == 5  # the new paper's lines, its year and venue; no others
    assert database.refresh(paths).action == "fresh"


# ---------------------------------------------------------------- 11. reading notes


def test_a_note_is_written_only_for_a_valid_key_inside_readings(
    paths: Paths, tmp_path: Path
) -> None:
    for key in ("../../../x", "/tmp/x", "a/../../b", "ok2020x\n"):
        with pytest.raises(CatalogError, match="not a valid key"):
            notes.create_note(
                paths, Paper(key=key, title="T", authors=["A"], year=2020, venue="OSDI")
            )
    assert not (tmp_path / "x.md").exists() and not list(tmp_path.rglob("*.md"))


def test_a_hostile_title_stays_text_in_a_new_note(paths: Paths) -> None:
    import markdown

    title = 'x --> <script>alert(1)</script><!-- [a](javascript:alert(2)) {: onclick="y"}'
    path, created = notes.create_note(
        paths, Paper(key="evil2020x", title=title, authors=["A <b>B</b>"], year=2020, venue="OSDI")
    )
    assert created
    html = markdown.Markdown(extensions=["attr_list", "md_in_html"]).convert(
        path.read_text(encoding="utf-8")
    )
    from html.parser import HTMLParser

    class Elements(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[tuple[str, list]] = []
            self.comments: list[str] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            self.found.append((tag, attrs))

        def handle_comment(self, data: str) -> None:
            self.comments.append(data)

    parser = Elements()
    parser.feed(html)
    assert {tag for tag, _ in parser.found} <= {"p", "em", "strong"}
    assert all(attrs == [] for _, attrs in parser.found)
    assert len(parser.comments) == 1 and "evil2020x" in parser.comments[0]
    assert "alert" not in parser.comments[0]


# ---------------------------------------------------------------- 15. readers and a first build


@pytest.mark.slow
def test_readers_and_writers_together_on_a_fresh_index(tmp_path: Path) -> None:
    paths = write_catalog(tmp_path)
    (paths.db.parent).mkdir(parents=True)
    stale = paths.db.with_name(f".{paths.db.name}.999999.tmp")  # a killed build's leftover
    stale.write_bytes(b"half an index")
    procs = []
    for i in range(3):
        procs.append(
            subprocess.Popen(
                [
                    *PYTHON,
                    NEW_TAGS_SCRIPT,
                    str(paths.catalog),
                    str(paths.db),
                    "he2021fastmoe",
                    f"w{i}-a,w{i}-b",
                ],
                env=ENV,
                cwd=REPO,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for i in range(8):
        args = ["search", "embedding"] if i % 2 else ["list", "--json"]
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "catalog.cli",
                    "--catalog",
                    str(paths.catalog),
                    "--db",
                    str(paths.db),
                    *args,
                ],
                env=ENV,
                cwd=REPO,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for proc in procs:
        code = proc.wait(timeout=120)
        err = proc.stderr.read() if proc.stderr else ""
        assert code == 0 and "Traceback" not in err, err
    assert not stale.exists()
    assert not list(paths.db.parent.glob(".*.tmp"))
    paper = query.get(database.connect(paths), "he2021fastmoe")
    assert {f"w{i}-{s}" for i in range(3) for s in "ab"} <= set(paper.tags)


# ---------------------------------------------------------------- the kill loop

TOGGLE_SCRIPT = """
import sys
from pathlib import Path
from catalog.edit import writer
from catalog.paths import Paths
paths = Paths(Path(sys.argv[1]), Path(sys.argv[2]))
while True:
    with writer.edit(paths) as session:
        if "caching" in session.paper("he2021fastmoe").tags:
            session.remove_tags("he2021fastmoe", ["caching"])
        else:
            session.add_tags("he2021fastmoe", ["caching"])
"""


@pytest.mark.slow
def test_sigkill_at_random_points_never_tears_the_catalog(tmp_path: Path) -> None:
    paths = write_catalog(tmp_path)
    without = paths.catalog.read_bytes()
    with writer.edit(paths) as session:
        session.add_tags("he2021fastmoe", ["caching"])
    with_tag = paths.catalog.read_bytes()
    registries = (paths.tags.read_bytes(), paths.venues.read_bytes())
    rng = random.Random(15)
    deadline = time.monotonic() + 15
    kills = 0
    while kills < 30 and time.monotonic() < deadline:
        proc = subprocess.Popen(
            [*PYTHON, TOGGLE_SCRIPT, str(paths.catalog), str(paths.db)],
            env=ENV,
            cwd=REPO,
            stderr=subprocess.PIPE,
        )
        time.sleep(rng.uniform(0.05, 0.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if proc.returncode != -signal.SIGKILL:
            raise AssertionError(proc.stderr.read() if proc.stderr else proc.returncode)
        kills += 1
        assert paths.catalog.read_bytes() in (without, with_tag)
        assert (paths.tags.read_bytes(), paths.venues.read_bytes()) == registries
        reader.load(paths.catalog)
    assert kills >= 15
    # whatever state the index was killed in, the next reader sees the catalog as it is
    tags = next(p for p in reader.load(paths.catalog) if p.key == "he2021fastmoe").tags
    assert query.get(database.connect(paths), "he2021fastmoe").tags == tags
    with writer.edit(paths) as session:  # and the next writer cleans up after the dead
        session.update("he2021fastmoe", added="2024-01-02")
    assert not list(paths.data_dir.glob(".*.tmp"))


def test_unusual_text_survives_a_round_trip_through_the_guarded_reader(tmp_path: Path) -> None:
    text = textwrap.dedent("""\
        # a UTF-8 file with a byte-order mark and an ampersand title
        2021:
          arXiv:
            - key: he2021fastmoe
              title: "R&D at &scale"
              authors: [Jiaao He]
        """)
    paths = write_catalog(tmp_path, papers="")
    paths.catalog.write_bytes(b"\xef\xbb\xbf" + text.encode())
    with writer.edit(paths) as session:
        session.update("he2021fastmoe", added="2024-01-02")
    data = paths.catalog.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# a UTF-8") and b"added: 2024-01-02" in data
