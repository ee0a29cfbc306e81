"""The mistakes a newcomer makes get a hint that says how to write it (issue 22, 7-8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalog.cli import app
from catalog.paths import Paths


def _bare(paths: Paths, *args: str):
    """papers ARGS with no --catalog before them, run inside the catalog's project folder."""
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def inside(paths: Paths, monkeypatch: pytest.MonkeyPatch) -> Paths:
    monkeypatch.chdir(paths.root)
    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.delenv("PAPERS_DB", raising=False)
    return paths


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["-n", "3", "search", "x"], "papers search -n 3 x"),
        (["--json", "search", "embedding"], "papers search --json embedding"),
        (["site", "-o", "out", "build"], "papers site build -o out"),
        (["-o", "out", "site", "build"], "papers site build -o out"),
    ],
)
def test_an_option_before_its_command_says_where_it_goes(inside: Paths, args, line):
    result = _bare(inside, *args)
    assert result.exit_code == 2
    assert "goes after the command" in result.output
    assert line in result.output


def test_an_option_no_command_has_is_still_unknown(inside: Paths):
    result = _bare(inside, "--bogus", "search", "x")
    assert result.exit_code == 2
    assert "No such option: --bogus" in result.output


def test_catalog_may_name_the_project_folder(inside: Paths, tmp_path: Path):
    for folder in (inside.root, inside.data_dir):
        result = CliRunner().invoke(
            app, ["--catalog", str(folder), "--db", str(tmp_path / "i.db"), "list", "--keys"]
        )
        assert result.exit_code == 0, result.output
        assert "kurniawan2023evstore" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(app, ["--catalog", str(empty), "list"])
    assert result.exit_code == 1
    assert "no data/papers.yaml in it" in result.output


def test_site_build_into_data_says_why_not(inside: Paths):
    result = _bare(inside, "site", "build", "-o", "data")
    assert result.exit_code == 1
    assert "the catalog's data folder" in result.output
    assert "deletes everything in its output folder" in result.output


def test_authors_joined_by_commas_are_split_when_each_is_a_name(cli, paths: Paths):
    args = ["add", "--title", "A Study of Things", "--year", "2023", "--venue", "OSDI"]
    result = cli(*args, "-a", "Jane Doe, John Roe", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "authors: [Jane Doe, John Roe]" in result.output
    result = cli(*args, "-a", "Doe, Jane", "--dry-run")
    assert 'authors: ["Doe, Jane"]' in result.output
    result = cli(*args, "-a", "Doe, J, Roe", "--dry-run")
    assert result.exit_code == 2
    assert "give one --author per name" in result.output


def test_a_two_digit_year_is_refused_before_any_file_is_named(cli, paths: Paths):
    before = paths.catalog.read_bytes()
    args = ["add", "--title", "A Study", "-a", "Jane Doe", "--venue", "OSDI", "--year", "23"]
    result = cli(*args)
    assert result.exit_code == 2
    assert "--year 23 is not a year" in result.output
    assert "papers.yaml:" not in result.output
    assert paths.catalog.read_bytes() == before


def test_venues_add_writes_a_registry_entry(cli, paths: Paths):
    result = cli(
        "venues",
        "add",
        "DLRS",
        "--kind",
        "workshop",
        "--name",
        "Workshop on Deep Learning for Recommender Systems",
        "--source",
        "https://example.org/dlrs",
        "--alias",
        "DLRS workshop",
    )
    assert result.exit_code == 0, result.output
    text = paths.venues.read_text(encoding="utf-8")
    assert "DLRS:\n  kind: workshop\n" in text
    assert 'sources: ["https://example.org/dlrs"]' in text
    assert text.index("DLRS:") < text.index("OSDI:")  # in sorted place
    listed = cli("venues", "--json")
    assert any(v["short"] == "DLRS" for v in __import__("json").loads(listed.output))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["OSDI", "--kind", "conference", "--name", "Another"], "already in the registry"),
        (["osdi", "--kind", "conference", "--name", "Another"], "already in the registry"),
        (
            ["PVLDB2", "--kind", "journal", "--name", "Proceedings of the VLDB Endowment"],
            "same venue as PVLDB",
        ),
        (["NEW", "--kind", "talk", "--name", "A Venue"], "is not a kind"),
        (["NEW", "--kind", "workshop", "--name", "A Venue 2024"], "holds a year"),
        (["1BAD", "--kind", "workshop", "--name", "A Venue"], "not a venue short name"),
        (["NEW", "--kind", "workshop", "--name", "A\x1b[31mVenue"], "one line of text"),
        (["NEW", "--kind", "workshop", "--name", "A", "--alias", "A\x1b[31mV"], "one line of text"),
        (["NEW", "--kind", "workshop", "--name", "A", "--publisher", "A \u202eB"], "one line"),
        (["NEW", "--kind", "workshop", "--name", "A", "--source", "javascript:alert(1)"], "http"),
        (["EVIL\n", "--kind", "workshop", "--name", "A Venue"], "not a venue short name"),
        (["Index", "--kind", "workshop", "--name", "A Venue"], "name of a list page"),
    ],
)
def test_venues_add_refuses_what_the_registry_would_not_hold(cli, paths: Paths, args, message):
    before = paths.venues.read_bytes()
    result = cli("venues", "add", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert paths.venues.read_bytes() == before


def test_demo_copies_the_catalog_and_leaves_the_original(inside: Paths, tmp_path: Path):
    copy = tmp_path / "tour"
    before = inside.catalog.read_bytes()
    result = _bare(inside, "demo", str(copy))
    assert result.exit_code == 0, result.output
    assert "copied the catalog (3 papers)" in result.output
    assert (copy / "data" / "papers.yaml").read_bytes() == before
    result = CliRunner().invoke(
        app, ["--catalog", str(copy), "status", "kurniawan2023evstore", "reading"]
    )
    assert result.exit_code == 0, result.output
    assert inside.catalog.read_bytes() == before
    again = _bare(inside, "demo", str(copy))
    assert again.exit_code == 2
    assert "not a new or empty folder" in again.output
