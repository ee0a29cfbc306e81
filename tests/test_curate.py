"""The curation commands: tag, untag, tags, status, queue, note, rm, edit."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from catalog.data import reader
from catalog.paths import Paths
from tests.conftest import REPO


def paper(paths: Paths, key: str):
    return next(p for p in reader.load(paths.catalog) if p.key == key)


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """$EDITOR set to a script that logs its arguments and runs a Python snippet on the file."""
    log = tmp_path / "editor.log"
    script = tmp_path / "editor.py"

    def use(snippet: str = "") -> Path:
        script.write_text(
            textwrap.dedent(f"""\
            import sys, pathlib
            path = pathlib.Path(sys.argv[-1])
            with open({str(log)!r}, "a") as out:
                out.write(" ".join(sys.argv[1:]) + "\\n")
            text = path.read_text()
            {snippet or "pass"}
            """),
            encoding="utf-8",
        )
        monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
        monkeypatch.delenv("VISUAL", raising=False)
        return log

    return use


# ---------------------------------------------------------------- tags


def test_tag_and_untag(cli, paths: Paths) -> None:
    result = cli("tag", "he2021fastmoe", "kurniawan2023evstore", "-t", "inference", "-t", "moe")
    assert result.exit_code == 0, result.output
    assert result.output == "he2021fastmoe: +inference\nkurniawan2023evstore: +inference +moe\n"
    assert paper(paths, "he2021fastmoe").tags == ["moe", "training", "inference"]
    result = cli("untag", "he2021fastmoe", "-t", "inference", "--json")
    assert json.loads(result.output)["untagged"] == [
        {"key": "he2021fastmoe", "removed": ["inference"]}
    ]
    assert paper(paths, "he2021fastmoe").tags == ["moe", "training"]


def test_tag_changes_only_that_papers_tags_line(cli, paths: Paths) -> None:
    before = paths.catalog.read_text(encoding="utf-8").splitlines()
    assert cli("tag", "lai2023adaembed", "-t", "caching").exit_code == 0
    after = paths.catalog.read_text(encoding="utf-8").splitlines()
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [
        before.index("      tags: [embedding, training]")
    ]


def test_unknown_tag_is_refused_with_a_suggestion(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    result = cli("tag", "lai2023adaembed", "-t", "cachng")
    assert result.exit_code == 1
    assert "unknown tag 'cachng' (did you mean 'caching'?)" in result.output
    assert "--new" in result.output
    assert paths.catalog.read_bytes() == before


def test_new_adds_the_tag_to_the_vocabulary(cli, paths: Paths) -> None:
    result = cli("tag", "lai2023adaembed", "-t", "pruning", "--new")
    assert result.exit_code == 0, result.output
    assert "added tag 'pruning'" in result.output
    assert "pruning:" in paths.tags.read_text(encoding="utf-8")
    assert cli("check").exit_code == 0
    bad = cli("tag", "lai2023adaembed", "-t", "Bad Tag", "--new")
    assert bad.exit_code == 1 and "lower-case words joined by hyphens" in bad.output


def test_tag_unknown_key_fails_with_suggestion(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    result = cli("tag", "lai2023adaembd", "-t", "caching")
    assert result.exit_code == 1
    assert "no paper with key 'lai2023adaembd'; did you mean 'lai2023adaembed'?" in result.output
    assert paths.catalog.read_bytes() == before


def test_tag_without_tags_is_a_usage_error(cli) -> None:
    assert cli("tag", "lai2023adaembed").exit_code == 2


def test_tag_dry_run_shows_the_diff(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    result = cli("tag", "lai2023adaembed", "-t", "caching", "--dry-run")
    assert "+      tags: [embedding, training, caching]" in result.output
    assert paths.catalog.read_bytes() == before


def test_tags_lists_every_tag_with_its_count(cli) -> None:
    rows = json.loads(cli("tags", "--json").output)
    counts = {r["tag"]: r["count"] for r in rows}
    assert counts == {"embedding": 2, "training": 2, "caching": 1, "moe": 1, "inference": 0}
    text = cli("tags").stdout
    assert text.splitlines()[0].split()[:2] == ["embedding", "2"]


def test_tags_rename(cli, paths: Paths) -> None:
    result = cli("tags", "--rename", "training", "train")
    assert result.exit_code == 0, result.output
    assert result.output == "renamed tag 'training' to 'train' on 2 papers\n"
    assert paper(paths, "he2021fastmoe").tags == ["moe", "train"]
    assert "train: Training systems" in paths.tags.read_text(encoding="utf-8")
    assert cli("check").exit_code == 0
    missing = cli("tags", "--rename", "trainin", "x")
    assert missing.exit_code == 1 and "did you mean 'training'" not in missing.output
    assert "no tag 'trainin'" in missing.output


# ---------------------------------------------------------------- reading


def test_status_rejects_unknown_values_and_dates(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    bad = cli("status", "he2021fastmoe", "red")
    assert bad.exit_code == 1 and "did you mean 'read'?" in bad.output
    assert cli("status", "he2021fastmoe", "read", "--on", "yesterday").exit_code == 2
    assert paths.catalog.read_bytes() == before


def test_queue_oldest_first(cli, paths: Paths) -> None:
    cli("status", "lai2023adaembed", "to-read")
    text = (
        paths.catalog.read_text(encoding="utf-8")
        .replace(
            "      tags: [embedding, caching]\n",
            "      tags: [embedding, caching]\n      added: 2024-03-01\n",
        )
        .replace(
            "      tags: [embedding, training]\n",
            "      tags: [embedding, training]\n      added: 2024-01-01\n",
        )
    )
    paths.catalog.write_text(text, encoding="utf-8")
    rows = json.loads(cli("queue", "--json").output)
    assert rows["reading"] == []
    assert [r["key"] for r in rows["to_read"]] == [
        "he2021fastmoe",
        "lai2023adaembed",
        "kurniawan2023evstore",
    ]
    assert len(cli("queue", "-n", "1").stdout.splitlines()) == 1


def test_note_creates_from_template_and_opens_editor(cli, paths: Paths, editor) -> None:
    log = editor()
    result = cli("note", "lai2023adaembed")
    assert result.exit_code == 0, result.output
    note = paths.readings / "lai2023adaembed.md"
    text = note.read_text(encoding="utf-8")
    assert "AdaEmbed: Adaptive Embedding for Large-Scale Recommendation Models" in text
    assert "Fan Lai, Wei Zhang, Mosharaf Chowdhury" in text and "OSDI 2023" in text
    assert log.read_text().split()[-1] == str(note)
    note.write_text("my own words\n", encoding="utf-8")
    assert cli("note", "lai2023adaembed").exit_code == 0
    assert note.read_text(encoding="utf-8") == "my own words\n"  # never overwritten
    data = json.loads(cli("note", "lai2023adaembed", "--json").output)
    assert data == {"key": "lai2023adaembed", "path": str(note), "created": False}


def test_note_without_editor_prints_the_path(
    cli, paths: Paths, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    result = cli("note", "he2021fastmoe")
    assert str(paths.readings / "he2021fastmoe.md") in result.output
    assert cli("note", "nokey2020x").exit_code == 1


# ---------------------------------------------------------------- rm and edit


def test_rm_needs_yes_off_a_terminal(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    result = cli("rm", "he2021fastmoe")
    assert result.exit_code == 2 and "--yes" in result.output
    assert paths.catalog.read_bytes() == before
    result = cli("rm", "he2021fastmoe", "--yes", "--json")
    assert json.loads(result.output) == {
        "removed": ["he2021fastmoe"],
        "notes_kept": [],
        "dry_run": False,
    }
    assert "he2021fastmoe" not in paths.catalog.read_text(encoding="utf-8")
    assert cli("show", "he2021fastmoe").exit_code == 1
    assert cli("rm", "he2021fastmoe", "--yes").exit_code == 1


def test_edit_opens_at_the_papers_line_and_saves(cli, paths: Paths, editor) -> None:
    log = editor("path.write_text(text.replace('tags: [embedding, training]', 'tags: [moe]'))")
    line = paper(paths, "lai2023adaembed").line
    result = cli("edit", "lai2023adaembed")
    assert result.exit_code == 0, result.output
    assert log.read_text().split()[0] == f"+{line}"
    assert paper(paths, "lai2023adaembed").tags == ["moe"]
    assert not list(paths.data_dir.glob(".*.tmp"))
    assert json.loads(cli("show", "lai2023adaembed", "--json").output)["tags"] == ["moe"]


def test_edit_that_breaks_the_catalog_is_refused(cli, paths: Paths, editor) -> None:
    editor("path.write_text(text.replace('venue', 'x').replace('OSDI:', 'NOPE:'))")
    before = paths.catalog.read_bytes()
    result = cli("edit", "lai2023adaembed")
    assert result.exit_code == 1
    assert "unknown venue 'NOPE'" in result.output and "nothing was written" in result.output
    kept = Path(result.output.rsplit("kept at ", 1)[1].split()[0])
    assert "NOPE:" in kept.read_text(encoding="utf-8")
    assert paths.catalog.read_bytes() == before


def test_edit_without_change(cli, editor) -> None:
    editor()
    assert cli("edit", "he2021fastmoe").output == "no change\n"


# ---------------------------------------------------------------- real processes


@pytest.mark.slow
def test_two_tag_processes_at_the_same_moment_both_land(paths: Paths) -> None:
    base = [
        sys.executable,
        "-m",
        "catalog.cli",
        "--catalog",
        str(paths.catalog),
        "--db",
        str(paths.db),
        "tag",
    ]
    procs = [
        subprocess.Popen(
            [*base, key, "-t", tag],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for key, tag in (
            ("he2021fastmoe", "inference"),
            ("lai2023adaembed", "caching"),
            ("kurniawan2023evstore", "moe"),
        )
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert paper(paths, "he2021fastmoe").tags == ["moe", "training", "inference"]
    assert paper(paths, "lai2023adaembed").tags == ["embedding", "training", "caching"]
    assert paper(paths, "kurniawan2023evstore").tags == ["embedding", "caching", "moe"]


@pytest.mark.parametrize(
    "name", ["tag", "untag", "tags", "status", "queue", "note", "rm", "edit", "add", "import"]
)
def test_every_curation_command_has_help(cli, name: str) -> None:
    result = cli(name, "--help")
    assert result.exit_code == 0
    assert "Usage:" in result.output and len(result.output.splitlines()) > 5


def test_status_and_rm_dry_run_show_the_diff_and_write_nothing(cli, paths):
    before = paths.catalog.read_bytes()
    reading = paths.reading.read_bytes()
    status = cli("status", "he2021fastmoe", "reading", "--dry-run")
    assert status.exit_code == 0, status.output
    assert "+  he2021fastmoe: {status: reading, started_on: " in status.output
    assert paths.reading.read_bytes() == reading  # the reader's file, and not yet
    removed = cli("rm", "he2021fastmoe", "--dry-run")
    assert removed.exit_code == 0, removed.output
    assert "-    - key: he2021fastmoe" in removed.output
    assert (paths.catalog.read_bytes(), paths.reading.read_bytes()) == (before, reading)


@pytest.mark.slow
def test_an_edit_as_its_own_process(paths: Paths) -> None:
    """`papers status` as its own process: options, help and errors."""

    def papers(*args: str) -> subprocess.CompletedProcess[str]:
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
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=120,
        )

    done = papers("status", "he2021fastmoe", "read", "--on", "2024-03-04")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "he2021fastmoe: read (read on 2024-03-04)"
    assert "read_on: 2024-03-04" in paths.reading.read_text(encoding="utf-8")
    assert "--dry-run" in papers("status", "--help").stdout
    assert papers("status", "he2021fastmoe", "--bogus").returncode == 2
    assert "did you mean" in papers("statu", "x").stderr.lower()
