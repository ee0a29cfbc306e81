"""papers add: from flags, from BibTeX on stdin; duplicates, merge, refusals."""

from __future__ import annotations

import datetime as dt
import json

from catalog.data import reader
from catalog.paths import Paths


def papers(paths: Paths) -> dict:
    return {p.key: p for p in reader.load(paths.catalog)}


def test_add_from_flags_suggests_the_key(cli, paths: Paths) -> None:
    result = cli(
        "add",
        "--title",
        "Zebra: Striped Embedding Tables",
        "--author",
        "Zoë Ünal",
        "--author",
        "Bo Example",
        "--year",
        "2023",
        "--venue",
        "OSDI",
        "--url",
        "https://example.org/zebra",
        "-t",
        "embedding",
    )
    assert result.exit_code == 0, result.output
    assert result.output == "added unal2023zebra: Zebra: Striped Embedding Tables [OSDI 2023]\n"
    paper = papers(paths)["unal2023zebra"]
    assert paper.authors == ["Zoë Ünal", "Bo Example"] and paper.tags == ["embedding"]
    assert paper.added == dt.date.today().isoformat()
    # same author, year and first word: a suffix
    again = cli(
        "add",
        "--title",
        "Zebra: Second Thoughts",
        "--author",
        "Zoe Unal",
        "--year",
        "2023",
        "--venue",
        "OSDI",
    )
    assert "added unal2023zebraa:" in again.output


def test_add_duplicate_is_refused_and_merge_fills(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    args = [
        "add",
        "--title",
        "FastMoE: a fast mixture-of-expert training system",
        "--author",
        "Jiaao He",
        "--year",
        "2021",
        "--venue",
        "arXiv",
        "--url",
        "https://arxiv.org/abs/2103.13262",
    ]
    result = cli(*args)
    assert result.exit_code == 1
    assert "already in the catalog as he2021fastmoe (same title, 100% alike)" in result.output
    assert paths.catalog.read_bytes() == before
    merged = cli(*args, "--merge")
    assert merged.exit_code == 0, merged.output
    assert merged.output.startswith("merged into he2021fastmoe: same paper")
    paper = papers(paths)["he2021fastmoe"]
    assert paper.url == "https://arxiv.org/abs/2103.13262"
    assert paper.authors == ["Jiaao He", "Jiezhong Qiu", "Jie Tang"]  # never overwritten


def test_add_refuses_unknown_venue_and_bad_key(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    result = cli(
        "add", "--title", "Some Paper", "--author", "A B", "--year", "2023", "--venue", "OSDl"
    )
    assert result.exit_code == 1
    assert "venue 'OSDl' is not in" in result.output and "did you mean 'OSDI'?" in result.output
    bad = cli(
        "add",
        "--title",
        "Some Paper",
        "--author",
        "A B",
        "--year",
        "2023",
        "--venue",
        "OSDI",
        "--key",
        "Some Key",
    )
    assert bad.exit_code == 1 and "malformed key" in bad.output
    taken = cli(
        "add",
        "--title",
        "Some Paper",
        "--author",
        "A B",
        "--year",
        "2023",
        "--venue",
        "OSDI",
        "--key",
        "lai2023adaembed",
    )
    assert taken.exit_code == 1 and "already used" in taken.output
    assert paths.catalog.read_bytes() == before


def test_add_missing_fields_is_a_usage_error(cli) -> None:
    result = cli("add", "--title", "Only a title")
    assert result.exit_code == 2
    assert "missing --author, --year, --venue" in result.output


def test_add_dry_run_and_json(cli, paths: Paths) -> None:
    before = paths.catalog.read_bytes()
    result = cli(
        "add",
        "--title",
        "Dry Run Paper",
        "--author",
        "A B",
        "--year",
        "2023",
        "--venue",
        "OSDI",
        "--dry-run",
    )
    assert "would add b2023dry" in result.output and "+    - key: b2023dry" in result.output
    assert paths.catalog.read_bytes() == before
    data = json.loads(
        cli(
            "add",
            "--title",
            "Json Paper",
            "--author",
            "A B",
            "--year",
            "2023",
            "--venue",
            "OSDI",
            "--json",
        ).output
    )
    assert data["added"] == 1 and data["outcomes"][0]["key"] == "b2023json"


def test_add_bibtex_from_stdin(cli, paths: Paths) -> None:
    bib = (
        "@inproceedings{Li:2014:whatever,\n  title = {Scaling Distributed Machine Learning with the "
        "Parameter Server},\n  author = {Li, Mu and Andersen, David G.},\n  booktitle = "
        "{11th USENIX Symposium on Operating Systems Design and Implementation (OSDI 14)},\n"
        "  year = {2014},\n  pages = {583--598}\n}\n"
    )
    result = cli("add", "--bibtex", "-", input=bib)
    assert result.exit_code == 0, result.output
    assert "added Li:2014:whatever: Scaling" in result.output  # a BibTeX key is kept (issue 21)
    paper = papers(paths)["Li:2014:whatever"]
    assert (paper.venue, paper.year, paper.pages) == ("OSDI", 2014, "583-598")
    again = cli("add", "--bibtex", "-", input=bib)
    assert again.exit_code == 1 and "duplicate" in again.output


def test_add_bibtex_keeps_a_valid_key(cli, paths: Paths) -> None:
    bib = (
        "@inproceedings{li2014parameter,\n  title = {Scaling Distributed Machine Learning "
        "with the Parameter Server},\n  author = {Li, Mu and Andersen, David G.},\n  "
        "booktitle = {11th USENIX Symposium on Operating Systems Design and Implementation "
        "(OSDI 14)},\n  year = {2014}\n}\n"
    )
    result = cli("add", "--bibtex", "-", input=bib)
    assert result.exit_code == 0, result.output
    assert "added li2014parameter: Scaling Distributed" in result.output
    assert "(was" not in result.output
    assert papers(paths)["li2014parameter"].venue == "OSDI"


def test_add_by_id_of_a_paper_already_there_needs_no_network(cli, monkeypatch):
    # Point the services at a closed port: the answer must come before any request.
    for name in ("PAPERS_CROSSREF_URL", "PAPERS_ARXIV_URL", "PAPERS_DBLP_URL"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    by_doi = cli("add", "--doi", "10.1145/3575693.3575718")
    assert by_doi.exit_code == 1
    assert "already in the catalog as kurniawan2023evstore (same DOI)" in by_doi.output
    by_arxiv = cli("add", "--arxiv", "2103.13262v2")
    assert by_arxiv.exit_code == 1
    assert "already in the catalog as he2021fastmoe (same arXiv id)" in by_arxiv.output


def test_interactive_add_asks_again_for_an_unknown_venue(cli, paths, monkeypatch):
    from catalog.commands import adding

    monkeypatch.setattr(adding, "on_terminal", lambda: True)
    answers = "Tessellate: Caching Embeddings in Tiles\nAda Tester; Bo Example\n2023\nosdl\nosdi\n"
    result = cli("add", input=answers)
    assert result.exit_code == 0, result.output
    assert "'osdl' is not in" in result.output and "did you mean 'OSDI'?" in result.output
    from catalog.data.reader import load

    added = {p.key: p for p in load(paths.catalog)}["tester2023tessellate"]
    assert added.venue == "OSDI" and added.authors == ["Ada Tester", "Bo Example"]
