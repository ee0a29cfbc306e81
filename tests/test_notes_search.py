"""Reading notes you can find (issue 22, 4): indexed, note:WORD, and checked links."""

from __future__ import annotations

import os
import time

from catalog.index import database, query
from catalog.paths import Paths


def write_note(paths: Paths, key: str, text: str) -> None:
    paths.readings.mkdir(parents=True, exist_ok=True)
    path = paths.readings / f"{key}.md"
    path.write_text(text, encoding="utf-8")
    # A stat a second older, as an editor's save before the next command would be.
    past = time.time() - 5
    os.utime(path, (past, past))


def keys(paths: Paths, text: str, limit: int | None = None) -> list[str]:
    return [h.paper.key for h in query.search(database.connect(paths), text, limit)]


def test_a_word_written_in_a_note_is_found(cli, paths: Paths):
    assert cli("search", "zebrafinch").exit_code == 1
    write_note(paths, "he2021fastmoe", "# FastMoE\n\nReminds me of a zebrafinch song.\n")
    result = cli("search", "zebrafinch", "--keys")
    assert result.exit_code == 0, result.output
    assert result.stdout == "he2021fastmoe\n"
    assert keys(paths, "note:zebrafinch") == ["he2021fastmoe"]
    assert keys(paths, "note:zebrafinch tag:moe") == ["he2021fastmoe"]
    assert keys(paths, "note:zebrafinch tag:caching") == []
    assert keys(paths, "zebrafinch -moe") == []  # excluded by the paper's own fields
    assert keys(paths, "title:zebrafinch") == []  # a column filter: the fields alone
    # The note changes: the index follows; the note goes: so does the word.
    write_note(paths, "he2021fastmoe", "# FastMoE\n\nNow about a nightingale.\n")
    assert keys(paths, "zebrafinch") == [] and keys(paths, "nightingale") == ["he2021fastmoe"]
    (paths.readings / "he2021fastmoe.md").unlink()
    assert keys(paths, "nightingale") == []


def test_note_matches_come_after_every_match_in_the_papers_own_fields(paths: Paths):
    before = keys(paths, "embedding")
    assert set(before) == {"kurniawan2023evstore", "lai2023adaembed"}
    write_note(paths, "he2021fastmoe", "embedding " * 50 + "\n")  # a note all about it
    write_note(paths, "lai2023adaembed", "embedding embedding embedding\n")
    assert keys(paths, "embedding") == [*before, "he2021fastmoe"]  # the fields' order kept
    assert keys(paths, "embedding", limit=2) == before
    assert keys(paths, "embedding", limit=3) == [*before, "he2021fastmoe"]
    assert set(keys(paths, "note:embedding")) == {"he2021fastmoe", "lai2023adaembed"}


def test_note_filter_errors_are_clear(cli):
    result = cli("search", "note:")
    assert result.exit_code == 1 and "note:zebrafinch" in result.output
    assert cli("search", "note:!!").exit_code == 1


def test_check_reports_an_unknown_key_in_a_reading_note(cli, paths: Paths):
    write_note(paths, "he2021fastmoe", "# FastMoE\n\nCompare [[lai2023adaembed]].\n\n[[lai2023]]\n")
    result = cli("check")
    assert result.exit_code == 1
    assert result.stdout == (
        f"{paths.readings / 'he2021fastmoe.md'}:5: he2021fastmoe: link to unknown paper "
        "'lai2023' (did you mean 'lai2023adaembed'?)\n"
    )
    write_note(paths, "he2021fastmoe", "```\n[[lai2023]] in code is no link\n```\n")
    assert cli("check").exit_code == 0
