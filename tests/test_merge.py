"""Three-way merges of values, papers and keyed files, called as the library (the real
`git merge` runs are in test_merge_git.py)."""

from __future__ import annotations

from pathlib import Path

from catalog.merge.catalogmerge import merge_catalog
from catalog.merge.keyedmerge import merge_keyed
from catalog.merge.values import Clash, merge_sequence, merge_set, merge_value
from tests.conftest import PAPERS


def test_a_value_changed_on_one_side_takes_that_side():
    assert merge_value("a", "a", "b") == "b"
    assert merge_value("a", "b", "a") == "b"
    assert merge_value("a", "c", "c") == "c"
    assert merge_value("a", "b", "c") == Clash("b", "c")


def test_sets_keep_both_additions_and_both_removals():
    assert merge_set(["x", "y"], ["x", "y", "a"], ["y", "b"]) == ["y", "a", "b"]


def test_an_ordered_list_merges_changes_apart_and_clashes_on_one_item():
    base = ["A", "B", "C", "D"]
    assert merge_sequence(base, ["A2", "B", "C", "D"], ["A", "B", "C", "D", "E"]) == [
        "A2",
        "B",
        "C",
        "D",
        "E",
    ]
    assert isinstance(merge_sequence(base, ["A", "B2", "C", "D"], ["A", "B3", "C", "D"]), Clash)


ADAEMBED_TAGS = "tags: [embedding, training]"


def test_a_clash_is_marked_inside_its_paper_only():
    ours = PAPERS.replace(ADAEMBED_TAGS, "tags: [embedding]")
    theirs = PAPERS.replace(ADAEMBED_TAGS, "tags: [training]")
    base = PAPERS.replace(ADAEMBED_TAGS, "tags: []")
    ours = ours.replace('summary: "A PyTorch', 'summary: "Ours. A PyTorch')
    theirs = theirs.replace('summary: "A PyTorch', 'summary: "Theirs. A PyTorch')
    result = merge_catalog(base, ours, theirs)
    assert [c.key for c in result.conflicts] == ["he2021fastmoe"]
    assert "tags: [embedding, training]" in result.text  # the sets merged
    lines = result.text.splitlines()
    start = lines.index("<<<<<<< ours")
    assert lines[start + 1 : start + 5] == [
        '      summary: "Ours. A PyTorch system for training mixture-of-experts models on many GPUs."',
        "=======",
        '      summary: "Theirs. A PyTorch system for training mixture-of-experts models on many GPUs."',
        ">>>>>>> theirs",
    ]


def test_a_clean_merge_changes_only_the_touched_papers_lines():
    ours = PAPERS.replace("# MoE\n", "# MoE (ours' comment)\n")
    theirs = PAPERS.replace(ADAEMBED_TAGS, "tags: [embedding, training, caching]")
    result = merge_catalog(PAPERS, ours, theirs)
    assert not result.conflicts
    assert result.text == ours.replace(ADAEMBED_TAGS, "tags: [embedding, training, caching]")


def test_keyed_entries_added_on_both_sides_and_a_value_merged(tmp_path: Path):
    base = "# the tags\na: one\nc: three\n"
    ours = tmp_path / "tags.yaml"
    ours.write_text("# the tags\na: one\nb: two\nc: three\n", encoding="utf-8")
    text, conflicts = merge_keyed(
        base, ours, "# the tags\na: one\nc: three\nd: four\n", "tags.yaml"
    )
    assert (text, conflicts) == ("# the tags\na: one\nb: two\nc: three\nd: four\n", [])
    text, conflicts = merge_keyed(base, ours, "# the tags\na: uno\nc: three\n", "tags.yaml")
    assert (text, conflicts) == ("# the tags\na: uno\nb: two\nc: three\n", [])


FASTMOE = "    # MoE\n    - key: he2021fastmoe\n"


def test_theirs_comment_above_a_paper_comes_along():
    theirs = PAPERS.replace(
        FASTMOE, "    # MoE; from the authors' page\n    - key: he2021fastmoe\n"
    )
    ours = PAPERS.replace(ADAEMBED_TAGS, "tags: [embedding, training, caching]")
    result = merge_catalog(PAPERS, ours, theirs)
    assert not result.conflicts
    assert result.text == theirs.replace(ADAEMBED_TAGS, "tags: [embedding, training, caching]")


def test_a_new_paper_of_theirs_keeps_its_comment_and_form():
    block = (
        "    # Verified against the ACM record.\n"
        "    - key: zed2021zeta\n"
        '      title: "Zeta: A Test Paper"\n'
        "      authors: [Zoe Zed]\n"
        "      tags: [moe]   # one tag for now\n"
    )
    theirs = PAPERS + block
    result = merge_catalog(PAPERS, PAPERS.replace("# MoE\n", "# MoE!\n"), theirs)
    assert not result.conflicts and block in result.text and "# MoE!" in result.text


READING_BASE = "# mine\npapers:\n  a2020x: {status: read}\nqueue:\n  - b2020y\n  - c2020z\n"


def test_the_reading_queue_merges_as_an_ordered_list(tmp_path: Path):
    ours = tmp_path / "reading.yaml"
    ours.write_text(READING_BASE.replace("  - c2020z\n", "  - c2020z\n  - d2020w\n"), "utf-8")
    theirs = READING_BASE.replace("queue:\n", "queue:\n  - e2020v\n").replace(
        "a2020x: {status: read}", "a2020x: {status: read, read_on: 2024-01-02}"
    )
    text, conflicts = merge_keyed(READING_BASE, ours, theirs, "data/reading.yaml")
    assert conflicts == []
    assert text == (
        "# mine\npapers:\n  a2020x: {status: read, read_on: 2024-01-02}\n"
        "queue:\n  - e2020v\n  - b2020y\n  - c2020z\n  - d2020w\n"
    )


def test_one_entry_changed_two_ways_is_marked(tmp_path: Path):
    ours = tmp_path / "reading.yaml"
    ours.write_text(READING_BASE.replace("{status: read}", "{status: reading}"), "utf-8")
    theirs = READING_BASE.replace("{status: read}", "{status: to-read}")
    text, conflicts = merge_keyed(READING_BASE, ours, theirs, "data/reading.yaml")
    assert conflicts == ["a2020x"]
    assert (
        "papers:\n<<<<<<< ours\n  a2020x: {status: reading}\n=======\n"
        "  a2020x: {status: to-read}\n>>>>>>> theirs\nqueue:" in text
    )


def test_git_setup_outside_a_repository_says_so(shipped, monkeypatch):
    from typer.testing import CliRunner

    from catalog.cli import app

    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(shipped.root.parent))
    result = CliRunner().invoke(
        app, ["--catalog", str(shipped.catalog), "--db", str(shipped.db), "git", "setup"]
    )
    assert result.exit_code == 1
    assert "papers git setup works in a git repository" in result.output


def _new_year(key: str) -> str:
    return (
        f"2024:\n  OSDI:\n    - key: {key}\n"
        f'      title: "{key.title()}: A Test Paper"\n      authors: [Ann Lee]\n'
    )


def test_a_new_year_on_both_sides_holds_both_papers():
    ours = PAPERS.replace("2023:\n", _new_year("lee2024alpha") + "2023:\n", 1)
    theirs = PAPERS.replace("2023:\n", _new_year("lee2024beta") + "2023:\n", 1)
    result = merge_catalog(PAPERS, ours, theirs)
    assert not result.conflicts and not result.problems
    assert result.text.count("2024:\n  OSDI:\n") == 1
    assert result.text.index("lee2024alpha") < result.text.index("lee2024beta")


def test_theirs_comment_inside_a_registry_entry_comes_along(tmp_path: Path):
    base = "OSDI:\n  kind: conference\n  name: OSDI\nSOSP:\n  kind: conference\n  name: SOSP\n"
    ours = tmp_path / "venues.yaml"
    ours.write_text(base + "ZZZ:\n  kind: workshop\n  name: Z\n", "utf-8")
    theirs = base.replace("  name: OSDI\n", "  name: OSDI  # as USENIX writes it\n")
    text, conflicts = merge_keyed(base, ours, theirs, "data/venues.yaml")
    assert conflicts == [] and text == theirs + "ZZZ:\n  kind: workshop\n  name: Z\n"
