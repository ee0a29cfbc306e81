"""The one door for writes: round trips, minimal diffs, validation, atomicity, the lock."""

from __future__ import annotations

import difflib
import io
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from catalog import files
from catalog.data import reader
from catalog.data.registry import Venue
from catalog.edit import document, writer
from catalog.errors import InvalidCatalogError, PaperNotFound
from catalog.model import Paper
from catalog.paths import Paths
from tests.conftest import REPO, SEED_CATALOG, write_catalog

SHIPPED = REPO / "data"


def changed_lines(before: str, after: str) -> list[int]:
    """1-based numbers of the old lines that a change replaced or removed."""
    out = []
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag != "equal":
            out.extend(range(i1 + 1, i2 + 1) if i2 > i1 else [i1])
    return out


# ---------------------------------------------------------------- round trips


@pytest.mark.slow
def test_ruamel_round_trip_of_shipped_catalog_is_byte_identical() -> None:
    text = (SHIPPED / "papers.yaml").read_text(encoding="utf-8")
    yaml = document.yaml_rt()
    buf = io.StringIO()
    yaml.dump(yaml.load(text), buf)
    assert buf.getvalue() == text


@pytest.mark.parametrize("name", ["venues.yaml", "tags.yaml"])
def test_ruamel_round_trip_of_shipped_registries_is_byte_identical(name: str) -> None:
    text = (SHIPPED / name).read_text(encoding="utf-8")
    yaml = document.yaml_rt()
    buf = io.StringIO()
    yaml.dump(yaml.load(text), buf)
    assert buf.getvalue() == text
    assert document.parse_registry(text, name).render() == text


@pytest.mark.slow
def test_blocks_render_back_byte_identical_and_each_paper_round_trips() -> None:
    text = (SHIPPED / "papers.yaml").read_text(encoding="utf-8")
    doc = document.parse_catalog(text, "papers.yaml")
    assert doc.render() == text
    yaml = document.yaml_rt()
    papers = [p for y in doc.blocks for v in y.children for p in v.children]
    assert len(papers) == len(reader.parse(text, "papers.yaml")[0])
    for block in papers:
        head = list(block.head)
        document.load_paper(yaml, block)
        block.dirty = True
        document.render_paper(yaml, block)
        assert block.head == head, block.key


def test_unusual_layouts_render_back_identically() -> None:
    text = textwrap.dedent("""\
        # header

        2023:   # a year comment
          OSDI:
          - key: zero2023indent
            title: "Zero-indented list"
            authors: [A B]
            abstract: |
              Two lines
              of abstract.

          # trailing comment of OSDI, before SOSP
          SOSP:
            -
              key: dash2023alone
              title: "Dash on its own line"
              authors: [A B]
        2022: {}
        # the end""")
    doc = document.parse_catalog(text, "x.yaml")
    assert doc.render() == text
    assert not doc.final_newline


# ---------------------------------------------------------------- minimal edits


def test_tag_changes_only_that_papers_lines(shipped: Paths) -> None:
    before = shipped.catalog.read_text(encoding="utf-8")
    paper = next(p for p in reader.load(shipped.catalog) if p.key == "sima2022ekko")
    with writer.edit(shipped) as session:
        session.update("sima2022ekko", tags=[*paper.tags, "caching"])
    after = shipped.catalog.read_text(encoding="utf-8")
    lines = changed_lines(before, after)
    assert lines == [paper.line + 4]  # the tags line, nothing else
    assert "tags: [model-update, inference, communication, scheduling, caching]" in after


def test_new_fields_go_in_field_order(shipped: Paths) -> None:
    with writer.edit(shipped) as session:
        session.update(
            "he2021fastmoe", code="https://github.com/laekov/fastmoe", checked="2024-05-02"
        )
    paper = next(p for p in reader.load(shipped.catalog) if p.key == "he2021fastmoe")
    lines = shipped.catalog.read_text(encoding="utf-8").splitlines()[
        paper.line - 1 : paper.line + 7
    ]
    names = [ln.strip().lstrip("- ").split(":")[0] for ln in lines]
    assert names == ["key", "title", "authors", "arxiv", "code", "tags", "checked", "summary"]
    assert "      checked: 2024-05-02" in lines  # a bare date, as a person writes it
    assert (paper.code, paper.checked) == ("https://github.com/laekov/fastmoe", "2024-05-02")


def test_setting_a_field_to_nothing_removes_its_line(paths: Paths) -> None:
    with writer.edit(paths) as session:
        session.update("lai2023adaembed", url=None)
    assert "url:" not in paths.catalog.read_text(encoding="utf-8")


def test_new_papers_go_in_sorted_places_with_new_year_and_venue_blocks(shipped: Paths) -> None:
    def paper(key: str, year: int, venue: str) -> Paper:
        return Paper(
            key=key, title=f"Title of {key}", authors=["Ann Author"], year=year, venue=venue
        )

    with writer.edit(shipped) as session:
        session.add(paper("new2024first", 2024, "OSDI"))
        session.add(paper("new2010last", 2010, "SOSP"))
        session.add(paper("new2018middle", 2018, "ISCA"))
        session.add(paper("aaa2022first", 2022, "JMLR"))
        session.add(paper("zzz2023last", 2023, "arXiv"))
        session.add(paper("new2023venue", 2023, "ISCA"))
    text = shipped.catalog.read_text(encoding="utf-8")
    assert text.startswith(SEED_CATALOG.read_text(encoding="utf-8")[:200])
    papers = reader.load(shipped.catalog)
    years = [p.year for p in papers]
    assert years == sorted(years, reverse=True)
    for year in set(years):
        venues = list(dict.fromkeys(p.venue for p in papers if p.year == year))
        assert venues == sorted(venues), year
        for venue in venues:
            keys = [p.key for p in papers if (p.year, p.venue) == (year, venue)]
            assert keys == sorted(keys), (year, venue)
    # the comment that leads into fedus2022switch stays right above it
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if "key: fedus2022switch" in ln)
    assert lines[at - 1].lstrip().startswith('#         and "vol. 23')
    assert "- key: aaa2022first" in lines[at - 7]  # 3 lines of paper, 4 of comment
    assert shipped.catalog.read_text(encoding="utf-8").count("\n2024:\n") == 1


def test_new_paper_is_written_in_the_files_style(paths: Paths) -> None:
    with writer.edit(paths) as session:
        session.add(
            Paper(
                key="doe2023alpha",
                title="Alpha: One, Two",
                year=2023,
                venue="OSDI",
                authors=["Jane Doe", "Smith, John", "Ngô Bảo Châu"],
                arxiv="2301.00001",
                volume="7",
                tags=["embedding", "caching"],
                added="2024-05-01",
            )
        )
    text = paths.catalog.read_text(encoding="utf-8")
    block = text[text.index("    - key: doe2023alpha") : text.index("    - key: lai2023adaembed")]
    assert block == (
        "    - key: doe2023alpha\n"
        '      title: "Alpha: One, Two"\n'
        '      authors: [Jane Doe, "Smith, John", Ngô Bảo Châu]\n'
        '      arxiv: "2301.00001"\n'
        '      volume: "7"\n'
        "      tags: [embedding, caching]\n"
        "      added: 2024-05-01\n"
    )


def test_remove_drops_the_papers_comments_and_empty_blocks(paths: Paths) -> None:
    with writer.edit(paths) as session:
        session.remove("he2021fastmoe")
    text = paths.catalog.read_text(encoding="utf-8")
    assert "2021:" not in text and "# MoE" not in text and "fastmoe" not in text
    assert text.startswith("# A tiny catalog for tests.\n2023:\n")


def test_move_keeps_the_papers_lines_and_comments(paths: Paths) -> None:
    with writer.edit(paths) as session:
        session.move("he2021fastmoe", 2022, "PVLDB")
    text = paths.catalog.read_text(encoding="utf-8")
    assert "2022:\n  PVLDB:\n    # MoE\n    - key: he2021fastmoe\n" in text
    assert "2021:" not in text


def test_rename_tag_rewrites_vocabulary_and_papers(paths: Paths) -> None:
    with writer.edit(paths) as session:
        changed = session.rename_tag("training", "train")
    assert sorted(changed) == ["he2021fastmoe", "lai2023adaembed"]
    tags = paths.tags.read_text(encoding="utf-8")
    assert "train: Training systems\n" in tags and "training:" not in tags
    assert "tags: [embedding, train]" in paths.catalog.read_text(encoding="utf-8")


def test_new_venue_follows_the_registrys_blank_line_style(shipped_used: Paths) -> None:
    # A registry without KDD, one blank line between entries as in the shipped one.
    with writer.edit(shipped_used) as session:
        session.add_venue(
            Venue(
                "KDD",
                "conference",
                "ACM SIGKDD Conference on Knowledge Discovery and Data Mining",
                "Association for Computing Machinery",
            )
        )
        session.add(Paper(key="x2020kdd", title="T", authors=["A B"], year=2020, venue="KDD"))
    text = shipped_used.venues.read_text(encoding="utf-8")
    assert (
        "\n\nKDD:\n  kind: conference\n  name: ACM SIGKDD Conference on Knowledge Discovery "
        "and Data Mining\n  publisher: Association for Computing Machinery\n\nMICRO:"
    ) in text


# ---------------------------------------------------------------- validation


def test_invalid_edit_is_refused_and_file_untouched(paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    stat = paths.catalog.stat()
    with pytest.raises(writer.InvalidEditError) as err, writer.edit(paths) as session:
        session.update("lai2023adaembed", tags=["embedding", "emebdding"])
    assert "unknown tag 'emebdding'" in str(err.value)
    assert "did you mean 'embedding'?" in str(err.value)
    assert "nothing was written" in str(err.value)
    assert paths.catalog.read_bytes() == before
    assert paths.catalog.stat().st_mtime_ns == stat.st_mtime_ns


def test_unknown_venue_and_bad_key_are_refused(paths: Paths) -> None:
    with (
        pytest.raises(writer.InvalidEditError, match="unknown venue 'NOPE'"),
        writer.edit(paths) as session,
    ):
        session.add(Paper(key="a2023b", title="T", authors=["A B"], year=2023, venue="NOPE"))
    with (
        pytest.raises(writer.InvalidEditError, match="malformed key"),
        writer.edit(paths) as session,
    ):
        session.add(Paper(key="Bad Key", title="T", authors=["A B"], year=2023, venue="OSDI"))


def test_problems_already_in_the_file_do_not_block_other_edits(tmp_path: Path) -> None:
    paths = write_catalog(
        tmp_path,
        papers="""\
        2023:
          OSDI:
            - key: a2023old
              title: "Old"
              authors: [A B]
              tags: [not-in-vocabulary]
            - key: b2023other
              title: "Other"
              authors: [C D]
        """,
    )
    with writer.edit(paths) as session:
        session.update("b2023other", added="2024-01-02")
    assert "added: 2024-01-02" in paths.catalog.read_text(encoding="utf-8")


def test_unreadable_catalog_is_not_edited(tmp_path: Path) -> None:
    paths = write_catalog(tmp_path, papers="2023:\n  OSDI:\n    - key: [\n")
    before = paths.catalog.read_bytes()
    with pytest.raises(InvalidCatalogError, match="YAML syntax error"), writer.edit(paths):
        pass
    assert paths.catalog.read_bytes() == before


def test_unknown_key_suggests_the_closest(paths: Paths) -> None:
    with (
        pytest.raises(PaperNotFound, match="did you mean 'lai2023adaembed'"),
        writer.edit(paths) as session,
    ):
        session.update("lai2023adaembd", added="2024-01-02")


def test_an_exception_inside_the_session_writes_nothing(paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    with pytest.raises(RuntimeError), writer.edit(paths) as session:
        session.update("lai2023adaembed", url="https://example.org/lai")
        raise RuntimeError("stop")
    assert paths.catalog.read_bytes() == before


def test_dry_run_returns_a_diff_and_writes_nothing(paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    with writer.edit(paths, dry_run=True) as session:
        session.update("lai2023adaembed", url="https://example.org/lai")
    assert paths.catalog.read_bytes() == before
    assert (
        "-      url: https://www.usenix.org/conference/osdi23/presentation/lai\n"
        "+      url: https://example.org/lai\n"
    ) in session.result.diff


def test_write_refreshes_the_index(paths: Paths) -> None:
    from catalog.index import database, query

    database.refresh(paths)
    with writer.edit(paths) as session:
        session.update("he2021fastmoe", tags=["moe", "training", "caching"])
    conn = database.connect(paths)
    assert query.get(conn, "he2021fastmoe").tags == ["moe", "training", "caching"]
    meta = dict(conn.execute("select key, value from meta").fetchall())
    assert meta["digest"] == database.file_digest(paths.catalog.read_bytes())


# ---------------------------------------------------------------- atomicity and the lock

EDIT_SCRIPT = """
import sys
from pathlib import Path
from catalog import files
from catalog.edit import writer
from catalog.paths import Paths
paths = Paths(Path(sys.argv[1]), Path(sys.argv[2]))
with writer.edit(paths) as session:
    session.update("lai2023adaembed", url="https://example.org/lai")
"""


def test_a_process_killed_mid_write_leaves_the_previous_file(paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    env = {**os.environ, files.CRASH_ENV: "before-rename"}
    proc = subprocess.run(
        [sys.executable, "-c", EDIT_SCRIPT, str(paths.catalog), str(paths.db)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -9, proc.stderr  # SIGKILL
    assert paths.catalog.read_bytes() == before
    leftovers = list(paths.data_dir.glob(".papers.yaml.*.tmp"))
    assert len(leftovers) == 1 and "url: https://example.org/lai" in leftovers[0].read_text()
    # the next writer cleans up what the killed one left, and its edit lands
    with writer.edit(paths) as session:
        session.update("lai2023adaembed", added="2024-01-02")
    assert not list(paths.data_dir.glob(".papers.yaml.*.tmp"))


def test_a_held_lock_makes_a_second_writer_wait_then_give_up(
    paths: Paths, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writer, "LOCK_TIMEOUT", 0.2)
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with writer.locked(paths, timeout=5):
            held.set()
            release.wait(5)

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(5)
    try:
        with (
            pytest.raises(writer.LockTimeoutError, match="another papers process"),
            writer.edit(paths),
        ):
            pass
    finally:
        release.set()
        thread.join()


@pytest.mark.slow
def test_concurrent_writer_processes_both_land(paths: Paths) -> None:
    script = """
import sys
from pathlib import Path
from catalog.edit import writer
from catalog.paths import Paths
paths = Paths(Path(sys.argv[1]), Path(sys.argv[2]))
for tag in sys.argv[4].split(","):
    with writer.edit(paths) as session:
        paper = session.paper(sys.argv[3])
        session.update(paper.key, tags=[*paper.tags, tag])
"""
    jobs = {
        "kurniawan2023evstore": "inference,moe,training",
        "he2021fastmoe": "inference,caching,embedding",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(paths.catalog), str(paths.db), key, tags],
            cwd=REPO,
            stderr=subprocess.PIPE,
            text=True,
        )
        for key, tags in jobs.items()
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    papers = {p.key: p for p in reader.load(paths.catalog)}
    assert papers["kurniawan2023evstore"].tags == [
        "embedding",
        "caching",
        "inference",
        "moe",
        "training",
    ]
    assert papers["he2021fastmoe"].tags == ["moe", "training", "inference", "caching", "embedding"]


def test_years_read_lazily_render_back_and_keep_blank_line_spacing(tmp_path: Path) -> None:
    from catalog.edit.rewrite import rewrite
    from catalog.edit.source import Source
    from catalog.files import OpenFile
    from catalog.index.freshness import layout

    data = (SHIPPED / "papers.yaml").read_bytes()
    with OpenFile(SHIPPED / "papers.yaml") as file:
        source = Source(file, layout(data), "papers.yaml")
        doc = source.document()
        assert all(block.lazy for block in doc.blocks)
        new = rewrite(doc.pieces(), source, "\n", doc.final_newline)
        assert new.layout.digest == layout(data).digest and not new.papers
        assert source.text(new) == data.decode("utf-8")
    paths = write_catalog(
        tmp_path,
        papers="""\
        # spaced years
        2023:
          OSDI:
            - key: a2023x
              title: "X"
              authors: [A B]

        2021:
          OSDI:
            - key: b2021y
              title: "Y"
              authors: [C D]
        """,
    )
    with writer.edit(paths) as session:
        session.add(Paper(key="c2022z", title="Z", authors=["E F"], year=2022, venue="OSDI"))
        session.add(Paper(key="d2020w", title="W", authors=["G H"], year=2020, venue="OSDI"))
    assert paths.catalog.read_text(encoding="utf-8") == textwrap.dedent("""\
        # spaced years
        2023:
          OSDI:
            - key: a2023x
              title: "X"
              authors: [A B]

        2022:
          OSDI:
            - key: c2022z
              title: "Z"
              authors: [E F]

        2021:
          OSDI:
            - key: b2021y
              title: "Y"
              authors: [C D]

        2020:
          OSDI:
            - key: d2020w
              title: "W"
              authors: [G H]
        """)
