"""Renaming a tag across the catalog (`papers tags --rename`): exactly the tag lines
change, and the index ends as a fresh build of the new files would."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from catalog import files
from catalog.edit import writer
from catalog.edit.session import Session
from catalog.index import database
from catalog.paths import Paths
from tests.test_edit_layouts import assert_index_is_a_full_build, synthetic, tables

_TAGS_LINE = re.compile(r"^(?P<lead> +tags: )\[(?P<tags>[^\]]*)\]$", re.MULTILINE)


def renamed_text(text: str, old: str, new: str) -> str:
    """The catalog text a rename should write, made without the writer: each flow list
    of tags with old replaced by new (a tag the list already has is not repeated)."""

    def one(m: re.Match[str]) -> str:
        tags = [new if t == old else t for t in m["tags"].split(", ")]
        return f"{m['lead']}[{', '.join(dict.fromkeys(tags))}]"

    return _TAGS_LINE.sub(one, text)


def rename(paths: Paths, old: str, new: str) -> Session:
    with writer.edit(paths) as session:
        session.rename_tag(old, new)
    return session


def carriers(text: str, tag: str) -> int:
    return sum(tag in m["tags"].split(", ") for m in _TAGS_LINE.finditer(text))


@pytest.mark.slow
@pytest.mark.parametrize("new", ["cache-x", "zz-caching"])
def test_a_rename_changes_only_the_tag_lines_and_the_index_is_a_full_build(
    tmp_path: Path, new: str
) -> None:
    paths = synthetic(tmp_path / "cat", size=300)
    database.refresh(paths)
    text = paths.catalog.read_text(encoding="utf-8")
    vocabulary = paths.tags.read_text(encoding="utf-8")
    assert carriers(text, "caching") > 30
    rename(paths, "caching", new)
    assert paths.catalog.read_text(encoding="utf-8") == renamed_text(text, "caching", new)
    # The vocabulary entry keeps its description, under its new name in sorted place.
    entry = next(line for line in vocabulary.splitlines() if line.startswith("caching:"))
    lines = [line for line in vocabulary.splitlines() if line != entry]
    lines.insert(
        next(
            (
                i
                for i, line in enumerate(lines)
                if line and line[0].isalpha() and line.split(":")[0] > new
            ),
            len(lines),
        ),
        entry.replace("caching:", f"{new}:", 1),
    )
    assert paths.tags.read_text(encoding="utf-8").splitlines() == lines
    assert_index_is_a_full_build(paths, tmp_path / "fresh")
    rename(paths, new, "caching")  # and back: the bytes it started from
    assert paths.catalog.read_text(encoding="utf-8") == text
    assert_index_is_a_full_build(paths, tmp_path / "fresh-back")


@pytest.mark.slow
def test_a_rename_into_a_tag_a_paper_has_leaves_it_once(tmp_path: Path) -> None:
    paths = synthetic(tmp_path / "cat", size=300)
    database.refresh(paths)
    text = paths.catalog.read_text(encoding="utf-8")
    both = [
        m
        for m in _TAGS_LINE.finditer(text)
        if {"caching", "embedding"} <= set(m["tags"].split(", "))
    ]
    assert both  # papers that carry both: the merged tag once
    rename(paths, "caching", "embedding")
    assert paths.catalog.read_text(encoding="utf-8") == renamed_text(text, "caching", "embedding")
    assert "\ncaching:" not in paths.tags.read_text(encoding="utf-8")
    assert_index_is_a_full_build(paths, tmp_path / "fresh")


@pytest.mark.slow
def test_a_rename_that_cannot_write_leaves_the_index_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = synthetic(tmp_path / "cat", size=300)
    database.refresh(paths)
    before = tables(paths)
    text = paths.catalog.read_bytes()

    def full_disk(path: Path, text: object, newline: str = "\n", expected: object = None) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "atomic_write", full_disk)
    with pytest.raises(OSError):
        rename(paths, "caching", "cache-x")
    assert paths.catalog.read_bytes() == text
    assert tables(paths) == before
    conn = sqlite3.connect(paths.db)
    assert conn.execute("select value from meta where key = 'digest'").fetchone()[
        0
    ] == database.file_digest(text)
    conn.close()


NAMES = [
    'Ann O"Brien \\ "x"',
    "Ann \\u00e9 Back\\slash",
    "Zoë Ångström",
    "Émile 𝔘nicode",
    "Name null",
    "Bo [1, 2]",
]
SUMMARIES = ["[1, 2]", "null", 'two\nlines "quoted" \\ and \\n', "tab\tnext", '{"a": 1}']


def test_many_papers_edited_at_once_with_hostile_strings_index_as_a_build_would(
    tmp_path: Path,
) -> None:
    """What the index reads back after an edit of many papers must be the strings
    themselves, as a fresh build stores them."""
    paths = synthetic(tmp_path / "cat", size=120)
    database.refresh(paths)
    keys = [
        line.split()[-1]
        for line in paths.catalog.read_text().splitlines()
        if line.lstrip().startswith("- key: ")
    ][:40]
    with writer.edit(paths) as session:
        for i, key in enumerate(keys):
            session.update(
                key,
                authors=[NAMES[i % len(NAMES)], NAMES[(i + 3) % len(NAMES)]],
                summary=SUMMARIES[i % len(SUMMARIES)],
                added=("2024-01-02", "2024-01-03")[i % 2],
            )
    assert_index_is_a_full_build(paths, tmp_path / "fresh")
    conn = sqlite3.connect(paths.db)
    authors = dict(conn.execute("select paper, name from authors where position = 0"))
    summaries = dict(conn.execute("select key, summary from papers"))
    assert [authors[k] for k in keys[: len(NAMES)]] == NAMES
    assert [summaries[k] for k in keys[: len(SUMMARIES)]] == SUMMARIES
