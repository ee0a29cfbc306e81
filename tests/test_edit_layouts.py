"""Edits of existing papers in any layout a hand-edited catalog may have.

An edit changes the lines of the papers it edits and no other line; after any number
of edits the index equals a fresh full build, table by table.
"""

from __future__ import annotations

import difflib
import random
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from catalog.data import reader
from catalog.edit import writer
from catalog.edit.session import Session
from catalog.errors import CatalogError
from catalog.index import database
from catalog.model import Paper
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog
from tests.test_writer import changed_lines

sys.path.insert(0, str(REPO / "tools"))
import synth

Op = Callable[[Session], object]

# Layouts a hand-edited catalog may have, around papers that edits touch.
ODD = """\
# Odd layouts for the writer.
2024:
  OSDI:
    # a comment leading into the first paper
    - key: alpha2024one
      title: "Alpha: One"   # a comment after a value
      authors: [Ann Alpha, Bo Beta]
      # a comment between fields
      tags: [caching]
      abstract: |
        A literal block whose lines look like fields:
        tags: [not, a, field]
    -
      key: dash2024alone
      title: "Dash alone on its line"
      authors: [Cy Dash]
      tags: [training]   # tags with a comment
    - key: quoted2024tags
      title: 'Single quoted'
      authors: ["Di Quote"]
      tags: ["inference", 'moe']
    - {key: flow2024map, title: "A flow mapping", authors: [Ed Flow], tags: [moe]}
  arXiv:
  - key: zero2024indent
    title: "Zero-indented list"
    authors: [Fay Zero]
    tags: [embedding]

    - key: notthere
2023:
  PVLDB:
    - key: multi2023line
      title: "A title over
        two lines"
      authors: [Gus Multi]
      tags: [embedding]
    - key: last2023paper
      title: "Last paper, no tags yet"
      authors: [Hal Last]
""".replace("\n\n    - key: notthere\n", "\n")


def synthetic(folder: Path, size: int = 120) -> Paths:
    venues = ["OSDI", "ASPLOS", "PVLDB", "arXiv"]
    tags = ["embedding", "caching", "training", "inference", "moe"]
    text = synth.to_yaml(synth.make_papers(size, venues, tags, seed=7))
    return write_catalog(folder, text)


def tables(paths: Paths) -> dict[str, object]:
    """Every table of the index, row by row, with the lines as they are in the file."""
    conn = sqlite3.connect(paths.db)
    shifts = database.line_shifts(conn)
    columns = [r[1] for r in conn.execute("pragma table_info(papers)")]
    line, chunk = columns.index("line"), columns.index("chunk")
    out: dict[str, object] = {}
    out["papers"] = [
        (*r[:line], r[line] + shifts.get(r[chunk], 0), *r[line + 1 :])
        for r in conn.execute("select * from papers order by key")
    ]
    for name, order in (
        ("authors", "paper, position"),
        ("tags", "paper, tag"),
        ("venues", "short"),
        ("vocabulary", "tag"),
        ("chunks", "label"),
    ):
        out[name] = conn.execute(f"select * from {name} order by {order}").fetchall()
    out["fts"] = conn.execute(
        "select p.key, f.* from papers_fts f join papers p on p.rowid = f.rowid order by p.key"
    ).fetchall()
    out["search"] = [
        conn.execute(
            "select p.key from papers_fts f join papers p on p.rowid = "
            "f.rowid where papers_fts match ? order by p.key",
            (q,),
        ).fetchall()
        for q in ("caching", "tags_stems:moe", "renamed*", "fresh*", "edit")
    ]
    out["meta"] = conn.execute(
        "select * from meta where key in ('digest', 'registry', 'schema', 'papers') order by key"
    ).fetchall()
    out["words"] = {r[0] for r in conn.execute("select word from words")}
    conn.close()
    return out


def assert_index_is_a_full_build(paths: Paths, scratch: Path) -> None:
    fresh = write_catalog(
        scratch,
        paths.catalog.read_text(encoding="utf-8"),
        paths.venues.read_text(encoding="utf-8"),
        paths.tags.read_text(encoding="utf-8"),
    )
    assert database.refresh(fresh).action == "built"
    mine, theirs = tables(paths), tables(fresh)
    # An update adds the words of new text and never drops one (a word no paper holds any
    # more only widens a prefix to nothing): the build's words are a subset.
    assert theirs.pop("words") <= mine.pop("words")  # type: ignore[operator]
    for name in theirs:
        assert mine[name] == theirs[name], name


def random_ops(rng: random.Random, keys: list[str], count: int) -> list[Op]:
    """count edit sessions, each deterministic given the catalog's state."""
    ops: list[Op] = []
    for i in range(count):
        key, other = rng.sample(keys, 2)
        kind = rng.choice(
            [
                "tag",
                "tag",
                "untag",
                "dates",
                "dates",
                "new",
                "two",
                "summary",
                "rename",
                "doi",
                "untag-all",
                "add",
                "remove",
            ]
        )
        day = f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        status = rng.choice(["read", "reading", "to-read"])
        tag = rng.choice(["caching", "moe", "training", "inference", "embedding"])

        def op(
            s: Session,
            kind: str = kind,
            key: str = key,
            other: str = other,
            day: str = day,
            status: str = status,
            tag: str = tag,
            i: int = i,
        ) -> object:
            if kind == "tag":
                return s.add_tags(key, [tag])
            if kind == "untag":
                return s.remove_tags(key, s.paper(key).tags[:1])
            if kind == "untag-all":
                return s.remove_tags(key, s.paper(key).tags)
            if kind == "dates":
                return s.update(key, added=day, checked=day if status == "read" else None)
            if kind == "new":
                return s.add_tags(key, [f"fresh-{i}"], new=True)
            if kind == "two":
                return s.add_tags(key, [tag]), s.update(
                    other, added=day, checked=day if status == "read" else None
                )
            if kind == "summary":
                return s.update(key, summary=f"Edited summary {i}: shorter lines.")
            if kind == "rename":
                old = rng_tag(s)
                return s.rename_tag(old, f"renamed-{i}") if old else None
            if kind == "add":  # a new paper: the file is cut, and the index reads it
                year = 2012 + i % 14
                return s.add(
                    Paper(
                        key=f"added{year}paper{i}",
                        title=f"Added Paper {i}",
                        authors=["Ann Added"],
                        year=year,
                        venue="OSDI",
                        tags=[tag],
                    )
                )
            if kind == "remove":
                return s.remove(key)
            return s.update(key, doi=f"10.9999/edit.{i}")

        ops.append(op)
    return ops


def rng_tag(session: Session) -> str | None:
    """The most used tag of the vocabulary that some paper carries (deterministic)."""
    counts: dict[str, int] = {}
    for key in session.papers:
        for tag in session.paper(key).tags:
            counts[tag] = counts.get(tag, 0) + 1
    return max(sorted(counts), key=lambda t: counts[t]) if counts else None


def run(paths: Paths, op: Op) -> object:
    """One edit session; what it returned, or the error it raised."""
    try:
        with writer.edit(paths) as session:
            return op(session)
    except CatalogError as err:
        return "error", str(err).replace(str(paths.data_dir), "DATA")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [12, 56, 78])
def test_fifty_random_edits_leave_the_index_a_full_build_would(tmp_path: Path, seed: int) -> None:
    paths = synthetic(tmp_path / "cat")
    database.refresh(paths)
    keys = [
        line.split()[-1]
        for line in paths.catalog.read_text().splitlines()
        if line.lstrip().startswith("- key: ")
    ]
    for n, op in enumerate(random_ops(random.Random(seed), keys, 50)):
        run(paths, op)
        if n % 10 == 9:
            assert_index_is_a_full_build(paths, tmp_path / f"fresh{n}")


ODD_KEYS = [
    "alpha2024one",
    "dash2024alone",
    "quoted2024tags",
    "flow2024map",
    "zero2024indent",
    "multi2023line",
    "last2023paper",
]


def _lines_of(text: str, key: str) -> range:
    """The lines (1-based) of the entry of key in text, from its '-' to the next entry,
    and the line before it (where changed_lines places an insertion)."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if key in ln)
    while not lines[start].lstrip().startswith("-"):
        start -= 1
    depth = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and (
        not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > depth
    ):
        end += 1
    return range(start, end + 1)


@pytest.mark.slow
@pytest.mark.parametrize("key", ODD_KEYS)
@pytest.mark.parametrize("edit", ["tag", "untag", "dates", "title"])
def test_odd_layouts_edit_only_the_papers_own_lines(tmp_path: Path, key: str, edit: str) -> None:
    changes = {
        "tag": lambda s: s.add_tags(key, ["inference", "caching"]),
        "untag": lambda s: s.remove_tags(key, s.paper(key).tags[:1]),
        "dates": lambda s: s.update(key, added="2024-02-03", checked="2024-02-04"),
        "title": lambda s: s.update(key, title="A New Title: Longer"),
    }
    paths = write_catalog(tmp_path / "cat", ODD)
    database.refresh(paths)
    before = {p.key: p for p in reader.load(paths.catalog)}
    run(paths, changes[edit])
    text = paths.catalog.read_text(encoding="utf-8")
    after = {p.key: p for p in reader.load(paths.catalog)}
    assert [replace(p, line=0) for k, p in after.items() if k != key] == [
        replace(p, line=0) for k, p in before.items() if k != key
    ]
    own = _lines_of(ODD, key)
    assert [i for i in changed_lines(ODD, text) if i not in own] == [], (key, edit)
    assert_index_is_a_full_build(paths, tmp_path / "fresh")


BLOCK_LISTS = """\
2021:
  arXiv:
  - key: he2021fastmoe
    title: "FastMoE: A Fast Mixture-of-Expert Training System"
    authors:
    - Jiaao He
    - Jiezhong Qiu
    tags:
    - moe
    - training
  - key: wide2021lists
    title: "Lists indented the writer's way"
    authors:
      - Ann Wide
    tags:
      - moe
"""


@pytest.mark.parametrize("key", ["he2021fastmoe", "wide2021lists"])
def test_an_edit_keeps_the_indentation_of_the_papers_block_lists(tmp_path: Path, key: str) -> None:
    """Two new dates add their two lines and re-indent none of the authors or tags."""
    paths = write_catalog(tmp_path / "cat", BLOCK_LISTS)
    with writer.edit(paths) as session:
        session.update(key, added="2024-02-03", checked="2024-02-04")
        session.add_tags(key, ["training"])
    text = paths.catalog.read_text(encoding="utf-8")
    added = [
        ln
        for ln in difflib.ndiff(BLOCK_LISTS.splitlines(), text.splitlines())
        if ln.startswith(("+ ", "- "))
    ]
    assert all(ln.startswith("+ ") for ln in added), added
    assert len(added) <= 3, added


@pytest.mark.parametrize(
    "op",
    [
        lambda s: s.update("alpha2024one", title=""),  # a required field gone
        lambda s: s.update("alpha2024one", doi="not a DOI"),
        lambda s: s.add_tags("dash2024alone", ["no-such-tag"]),
        lambda s: s.update("dash2024alone", checked="someday"),
        lambda s: (
            s.update("alpha2024one", doi="10.1/x"),
            s.update("zero2024indent", doi="10.1/X"),
        ),  # a duplicate DOI
    ],
)
def test_a_refused_edit_writes_nothing(tmp_path: Path, op: Op) -> None:
    paths = write_catalog(tmp_path / "cat", ODD)
    database.refresh(paths)
    before = paths.catalog.read_bytes()
    outcome = run(paths, op)
    assert isinstance(outcome, tuple) and outcome[0] == "error"
    assert paths.catalog.read_bytes() == before
