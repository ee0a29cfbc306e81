"""Edits of existing papers made as patches of the file's bytes, found through the index.

The patch path (catalog.patches.Patch) and the index update it hands over
(catalog.index.apply_edit) are shortcuts: these tests hold them to the slow way.
The same edits made with patches switched off (the file cut into blocks, every field
written by ruamel) must write the same bytes and give the same answers, and after
any number of edits the index must equal a fresh full build, table by table.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog import index, source, writer
from catalog.errors import CatalogError
from catalog.model import Paper
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog
from tests.test_writer import changed_lines

sys.path.insert(0, str(REPO / "tools"))
import synth

Op = Callable[[writer.Session], object]

# Layouts a hand-edited catalog may have, around papers that edits touch.
ODD = '''\
# Odd layouts for the patch path.
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
'''.replace("\n\n    - key: notthere\n", "\n")


def synthetic(folder: Path, size: int = 120) -> Paths:
    venues = ["OSDI", "ASPLOS", "PVLDB", "arXiv"]
    tags = ["embedding", "caching", "training", "inference", "moe"]
    text = synth.to_yaml(synth.make_papers(size, venues, tags, seed=7))
    return write_catalog(folder, text)


def tables(paths: Paths) -> dict[str, object]:
    """Every table of the index, row by row, with the lines as they are in the file."""
    conn = sqlite3.connect(paths.db)
    shifts = index.line_shifts(conn)
    columns = [r[1] for r in conn.execute("pragma table_info(papers)")]
    line, chunk = columns.index("line"), columns.index("chunk")
    out: dict[str, object] = {}
    out["papers"] = [(*r[:line], r[line] + shifts.get(r[chunk], 0), *r[line + 1:])
                     for r in conn.execute("select * from papers order by key")]
    for name, order in (("authors", "paper, position"), ("tags", "paper, tag"),
                        ("venues", "short"), ("vocabulary", "tag"), ("chunks", "label")):
        out[name] = conn.execute(f"select * from {name} order by {order}").fetchall()
    out["fts"] = conn.execute("select p.key, f.* from papers_fts f join papers p "
                              "on p.rowid = f.rowid order by p.key").fetchall()
    out["search"] = [conn.execute("select p.key from papers_fts f join papers p on p.rowid = "
                                  "f.rowid where papers_fts match ? order by p.key",
                                  (q,)).fetchall()
                     for q in ("caching", "tags:moe", "renamed*", "fresh*", "edited")]
    out["meta"] = conn.execute("select * from meta where key in ('digest', 'registry', "
                               "'schema', 'papers') order by key").fetchall()
    out["words"] = {r[0] for r in conn.execute("select word from words")}
    conn.close()
    return out


def assert_index_is_a_full_build(paths: Paths, scratch: Path) -> None:
    fresh = write_catalog(scratch, paths.catalog.read_text(encoding="utf-8"),
                          paths.venues.read_text(encoding="utf-8"),
                          paths.tags.read_text(encoding="utf-8"))
    assert index.refresh(fresh).action == "built"
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
        kind = rng.choice(["tag", "tag", "untag", "status", "status", "new", "two",
                           "summary", "rename", "doi", "untag-all", "add", "remove"])
        day = f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        status = rng.choice(["read", "reading", "to-read"])
        tag = rng.choice(["caching", "moe", "training", "inference", "embedding"])

        def op(s: writer.Session, kind: str = kind, key: str = key, other: str = other,
               day: str = day, status: str = status, tag: str = tag, i: int = i) -> object:
            if kind == "tag":
                return s.add_tags(key, [tag])
            if kind == "untag":
                return s.remove_tags(key, s.paper(key).tags[:1])
            if kind == "untag-all":
                return s.remove_tags(key, s.paper(key).tags)
            if kind == "status":
                return s.set_status(key, status, day if status == "read" else None)
            if kind == "new":
                return s.add_tags(key, [f"fresh-{i}"], new=True)
            if kind == "two":
                return s.add_tags(key, [tag]), s.set_status(other, status, day)
            if kind == "summary":
                return s.update(key, summary=f"Edited summary {i}: shorter lines.")
            if kind == "rename":
                old = rng_tag(s)
                return s.rename_tag(old, f"renamed-{i}") if old else None
            if kind == "add":  # a new paper: the file is cut, and the index reads it
                year = 2012 + i % 14
                return s.add(Paper(key=f"added{year}paper{i}", title=f"Added Paper {i}",
                                   authors=["Ann Added"], year=year, venue="OSDI",
                                   tags=[tag]))
            if kind == "remove":
                return s.remove(key)
            return s.update(key, doi=f"10.9999/edit.{i}")

        ops.append(op)
    return ops


def rng_tag(session: writer.Session) -> str | None:
    """The most used tag of the vocabulary that some paper carries (deterministic)."""
    counts: dict[str, int] = {}
    for key in session.papers:
        for tag in session.paper(key).tags:
            counts[tag] = counts.get(tag, 0) + 1
    return max(sorted(counts), key=lambda t: counts[t]) if counts else None


def run(paths: Paths, op: Op) -> tuple[str, object]:
    """One edit session; what it returned (or the error it raised) and whether the
    index was handed the edit."""
    try:
        with writer.edit(paths) as session:
            answer = op(session)
    except CatalogError as err:
        return "error", str(err).replace(str(paths.data_dir), "DATA")
    warnings = [str(w).replace(str(paths.data_dir), "DATA") for w in session.result.warnings]
    way = ("patched" if session.handover is not None else "cut") if session.result.changed \
        else "unchanged"
    return way, (answer, warnings)


@pytest.fixture
def no_patches(monkeypatch: pytest.MonkeyPatch) -> Callable[[], object]:
    """Switch patches and the line edits off: every field set by ruamel in the cut file,
    as the writer did before them."""
    def switch_off() -> object:
        monkeypatch.setattr(writer.Session, "_patch", lambda self, key: None)
        monkeypatch.setattr(writer, "edit_lines", lambda block, changes: False)
        return None

    return switch_off


@pytest.mark.parametrize("seed", [12, 56, 78])
def test_fifty_random_edits_leave_the_index_a_full_build_would(tmp_path: Path,
                                                              seed: int) -> None:
    paths = synthetic(tmp_path / "cat")
    index.refresh(paths)
    keys = [line.split()[-1] for line in paths.catalog.read_text().splitlines()
            if line.lstrip().startswith("- key: ")]
    ways = []
    for n, op in enumerate(random_ops(random.Random(seed), keys, 50)):
        ways.append(run(paths, op)[0])
        if n % 10 == 9:
            assert_index_is_a_full_build(paths, tmp_path / f"fresh{n}")
    # The shortcut is the one tested: every edit of this plain layout is a patch, but for
    # new and removed papers, which cut the file (and the index reads it: the shifts of
    # the patches before must hold there too).
    assert ways.count("patched") >= 25 and 0 < ways.count("cut") <= 12, ways


def test_patches_write_what_the_cut_file_writes(tmp_path: Path,
                                                no_patches: Callable[[], object]) -> None:
    fast = synthetic(tmp_path / "fast")
    slow = synthetic(tmp_path / "slow")
    for paths in (fast, slow):
        index.refresh(paths)
    keys = [line.split()[-1] for line in fast.catalog.read_text().splitlines()
            if line.lstrip().startswith("- key: ")]
    ops = random_ops(random.Random(34), keys, 40)
    fast_runs = [run(fast, op) for op in ops]
    no_patches()
    slow_runs = [run(slow, op) for op in ops]
    assert [r[1] for r in fast_runs] == [r[1] for r in slow_runs]
    assert "patched" not in {r[0] for r in slow_runs}
    assert [r[0] for r in fast_runs].count("patched") >= 25
    for name in ("catalog", "tags"):
        assert getattr(fast, name).read_bytes() == getattr(slow, name).read_bytes()


ODD_KEYS = ["alpha2024one", "dash2024alone", "quoted2024tags", "flow2024map",
            "zero2024indent", "multi2023line", "last2023paper"]


@pytest.mark.parametrize("key", ODD_KEYS)
@pytest.mark.parametrize("edit", ["tag", "untag", "status", "title", "rename"])
def test_odd_layouts_edit_as_the_cut_file_does(tmp_path: Path, key: str, edit: str,
                                              no_patches: Callable[[], object]) -> None:
    def op(s: writer.Session) -> object:
        if edit == "tag":
            return s.add_tags(key, ["inference", "caching"])
        if edit == "untag":
            return s.remove_tags(key, s.paper(key).tags[:1])
        if edit == "status":
            return s.set_status(key, "read", "2024-02-03")
        if edit == "title":
            return s.update(key, title="A New Title: Longer")
        return s.rename_tag("embedding", "embeddings")

    fast = write_catalog(tmp_path / "fast", ODD)
    slow = write_catalog(tmp_path / "slow", ODD)
    for paths in (fast, slow):
        index.refresh(paths)
    fast_run = run(fast, op)
    assert_index_is_a_full_build(fast, tmp_path / "fresh")
    if (key, edit) != ("last2023paper", "untag"):  # it has no tag to remove
        assert fast_run[0] == "patched"
    no_patches()
    slow_run = run(slow, op)
    assert fast_run[1] == slow_run[1]
    assert_same_edit(ODD, fast, slow)


def assert_same_edit(original: str, fast: Paths, slow: Paths) -> None:
    """The same bytes; or, where ruamel re-wrote more of a paper than the field it set (a
    title over two lines), the same papers with fewer lines changed."""
    mine, theirs = fast.catalog.read_text(), slow.catalog.read_text()
    if mine == theirs:
        return
    assert [replace(p, line=0) for p in source.load(fast.catalog)] == [
        replace(p, line=0) for p in source.load(slow.catalog)]
    assert set(changed_lines(original, mine)) < set(changed_lines(original, theirs))


def test_an_edit_refused_as_a_patch_is_refused_as_the_cut_file_refuses_it(
        tmp_path: Path, no_patches: Callable[[], object]) -> None:
    ops: list[Op] = [lambda s: s.update("alpha2024one", title=""),  # a required field gone
                     lambda s: s.update("alpha2024one", doi="not a DOI"),
                     lambda s: s.update("alpha2024one", arxiv="2103.13262", doi=None),
                     lambda s: s.add_tags("dash2024alone", ["no-such-tag"]),
                     lambda s: s.set_status("dash2024alone", "done")]
    ops.append(lambda s: (s.update("alpha2024one", doi="10.1/x"),
                          s.update("zero2024indent", doi="10.1/X")))  # a duplicate DOI
    fast = write_catalog(tmp_path / "fast", ODD)
    slow = write_catalog(tmp_path / "slow", ODD)
    for paths in (fast, slow):
        index.refresh(paths)
    before = fast.catalog.read_bytes()
    fast_runs = [run(fast, op) for op in ops]
    no_patches()
    slow_runs = [run(slow, op) for op in ops]
    assert [r[1] for r in fast_runs] == [r[1] for r in slow_runs]
    assert [r[0] for r in fast_runs] == ["error", "error", "patched", "error", "error", "error"]
    assert_same_edit(ODD, fast, slow)
    assert b"no-such-tag" not in fast.catalog.read_bytes() and before != b""


def test_a_catalog_changed_behind_the_index_is_not_patched_blindly(tmp_path: Path) -> None:
    paths = write_catalog(tmp_path, ODD)
    index.refresh(paths)
    text = paths.catalog.read_text(encoding="utf-8")
    # Same size, other bytes, and the old stat stamp restored: only the hash can tell.
    changed = text.replace("Alpha: One", "Alpha: Two")
    stat = paths.catalog.stat()
    paths.catalog.write_text(changed, encoding="utf-8")
    import os

    os.utime(paths.catalog, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with writer.edit(paths) as session:
        session.add_tags("alpha2024one", ["moe"])
    assert "Alpha: Two" in paths.catalog.read_text(encoding="utf-8")
    assert_index_is_a_full_build(paths, tmp_path / "fresh")


# A quoted title may go on at any indentation: the entry's lines are not all indented
# below its '- ', and the patch's rule would cut it short.
LOW = ODD + '''\
2022:
  PVLDB:
    - key: low2022cont
      tags: [moe]
      title: "A title whose second line
 sits lower than its key"
      authors: [Ivy Low]
    - key: next2022paper
      title: "Next"
      authors: [Jo Next]
'''


@pytest.mark.parametrize("key", ["low2022cont", "next2022paper", "alpha2024one"])
@pytest.mark.parametrize("edit", ["tag", "status"])
def test_an_entry_the_rule_cuts_short_is_edited_in_the_cut_file(
        tmp_path: Path, key: str, edit: str, no_patches: Callable[[], object]) -> None:
    def op(s: writer.Session) -> object:
        if edit == "tag":
            return s.add_tags(key, ["inference"])
        return s.set_status(key, "read", "2024-02-03")

    fast = write_catalog(tmp_path / "fast", LOW)
    slow = write_catalog(tmp_path / "slow", LOW)
    for paths in (fast, slow):
        index.refresh(paths)
    fast_run = run(fast, op)
    assert fast_run[0] == ("cut" if key == "low2022cont" else "patched")
    assert_index_is_a_full_build(fast, tmp_path / "fresh")
    no_patches()
    slow_run = run(slow, op)
    assert fast_run[1] == slow_run[1]
    assert_same_edit(LOW, fast, slow)


# A quoted title going on at its key's column, in words that look like a field.
TRICK = ODD + '''\
2022:
  PVLDB:
    - key: trick2022title
      title: "A title whose next line
      tags: [looks, like, a, field]"
      authors: [Kay Trick]
      tags: [moe]
'''


@pytest.mark.parametrize("edit", ["tag", "untag", "status"])
def test_a_line_that_only_looks_like_a_field_is_left_alone(
        tmp_path: Path, edit: str, no_patches: Callable[[], object]) -> None:
    def op(s: writer.Session) -> object:
        if edit == "tag":
            return s.add_tags("trick2022title", ["caching"])
        if edit == "untag":
            return s.remove_tags("trick2022title", ["moe"])
        return s.set_status("trick2022title", "read", "2024-02-03")

    fast = write_catalog(tmp_path / "fast", TRICK)
    slow = write_catalog(tmp_path / "slow", TRICK)
    for paths in (fast, slow):
        index.refresh(paths)
    fast_run = run(fast, op)
    paper = next(p for p in source.load(fast.catalog) if p.key == "trick2022title")
    assert paper.title == "A title whose next line tags: [looks, like, a, field]"
    assert_index_is_a_full_build(fast, tmp_path / "fresh")
    no_patches()
    assert fast_run[1] == run(slow, op)[1]
    assert_same_edit(TRICK, fast, slow)


def apply_unified(old: str, diff: str, name: str) -> str:
    """old with a unified diff of it applied (hunks checked against it)."""
    lines = old.splitlines(keepends=True)
    out: list[str] = []
    at = 0
    chunks = diff.split(f"--- {name}\n+++ {name}\n")
    assert len(chunks) == 2, diff
    import re

    hunks = re.split(r"(?m)^(@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@\n)", chunks[1])[1:]
    for header, body in zip(hunks[::2], hunks[1::2], strict=True):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)", header)
        assert m
        start, count = int(m[1]), int(m[2] if m[2] is not None else 1)
        begin = start - 1 if count else start
        out += lines[at:begin]
        at = begin
        assert len(out) + 1 == int(m[3]) or (count == 0 and len(out) == int(m[3]))
        for line in body.splitlines(keepends=True):
            if line.startswith((" ", "-")):
                assert lines[at] == line[1:], (at, line)
                at += 1
            if line.startswith((" ", "+")):
                out.append(line[1:])
    return "".join(out + lines[at:])


@pytest.mark.parametrize("seed", [3, 4])
def test_a_dry_run_diff_of_patches_applies_to_the_file(
        tmp_path: Path, seed: int, no_patches: Callable[[], object]) -> None:
    paths = synthetic(tmp_path / "cat")
    index.refresh(paths)
    text = paths.catalog.read_text(encoding="utf-8")
    keys = [line.split()[-1] for line in text.splitlines()
            if line.lstrip().startswith("- key: ")]
    rng = random.Random(seed)
    picked = sorted(rng.sample(keys, 12))
    with writer.edit(paths, dry_run=True) as session:
        for n, key in enumerate(picked):  # neighbours too, so windows merge
            for k in (key, keys[keys.index(key) - 1]):
                session.set_status(k, ("read", "reading", "to-read")[n % 3], "2024-01-02")
        session.add_tags(picked[0], ["caching", "moe"])
    assert session.handover is None and paths.catalog.read_text(encoding="utf-8") == text
    diff = session.result.diff
    assert diff.count("\n@@ ") >= 2  # several hunks
    with writer.edit(paths) as again:
        for n, key in enumerate(picked):
            for k in (key, keys[keys.index(key) - 1]):
                again.set_status(k, ("read", "reading", "to-read")[n % 3], "2024-01-02")
        again.add_tags(picked[0], ["caching", "moe"])
    name = paths.display()
    assert apply_unified(text, diff, name) == paths.catalog.read_text(encoding="utf-8")
    paths.catalog.write_text(text, encoding="utf-8")
    no_patches()
    with writer.edit(paths, dry_run=True) as whole:  # difflib over the whole file
        for n, key in enumerate(picked):
            for k in (key, keys[keys.index(key) - 1]):
                whole.set_status(k, ("read", "reading", "to-read")[n % 3], "2024-01-02")
        whole.add_tags(picked[0], ["caching", "moe"])
    assert whole.result.diff == diff


def _fields_by_depth(head: list[str]) -> tuple[int, list[list[object]]] | None:
    """patches._fields_of as first written (each line's depth measured): the reference
    its faster form must agree with."""
    import re

    key_re = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?= |\n)")
    first = head[0]
    after = first[first.index("-") + 1:]
    if not after.strip() or any("#" in line for line in head):
        return None
    column = len(first) - len(after.lstrip(" "))
    fields: list[list[object]] = []
    for i, line in enumerate(head):
        depth = column if i == 0 else len(line) - len(line.lstrip(" "))
        if not line.strip() or depth < column:
            return None
        if depth > column:
            fields[-1][2] = i
            continue
        match = key_re.match(line, column)
        if match is None or line[match.end():].lstrip().startswith(("|", ">")):
            return None
        fields.append([match.group(1), i, i])
    if len({f[0] for f in fields}) != len(fields):
        return None
    return column, fields


_LINE_BITS = ["key: a", "title: x", "tags: [a, b]", "  more", "   deeper", "", " ", "\t",
              "\tx", "x", "#c", "a: |", "b: >", "c:", "d: 'q'", "1x: y", "title: dup", " \r",
              "é: v", "tags: [a]  # note"]


@settings(max_examples=3000, deadline=None)
@given(column=st.sampled_from([2, 4, 6]),
       first=st.sampled_from(["key: a", "key: b", "", " ", "x", "key: a # c"]),
       rest=st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(_LINE_BITS)), max_size=7))
def test_the_field_map_of_an_entry_agrees_with_measuring_each_line(column, first, rest):
    from catalog.patches import _fields_of

    head = [" " * (column - 2) + "- " + first + "\n"]
    head += [" " * max(column + shift, 0) + bit + "\n" for shift, bit in rest]
    assert _fields_of(head) == _fields_by_depth(head)
