"""The export, cite and bib-check commands, run through the CLI on a tiny catalog."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser

from catalog.paths import Paths
from tests.conftest import SHARED

RECOMMENDER = SHARED / "testdata" / "recommender.bib"


def keys_of(text: str) -> list[str]:
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    return [e.key for e in library.entries]


def test_export_all_to_stdout_sorted_by_key(cli) -> None:
    result = cli("export")
    assert result.exit_code == 0, result.output
    assert keys_of(result.stdout) == ["he2021fastmoe", "kurniawan2023evstore", "lai2023adaembed"]


def test_export_all_streams_what_the_library_writes(cli, paths: Paths) -> None:
    """`papers export` (every paper, read in key order and written one at a time) gives
    the text catalog.bib.bibtex.export gives for the papers read whole, with and without
    abstracts."""
    from catalog.bib import bibtex
    from catalog.bib.options import ExportOptions
    from catalog.data import reader
    from catalog.data.registry import load_venues

    text = paths.catalog.read_text(encoding="utf-8")
    text = text.replace(
        '      summary: "A PyTorch system',
        '      abstract: "Trains 50% faster -- on GPUs & TPUs\\n{x}."\n'
        '      summary: "A PyTorch system',
    )
    paths.catalog.write_text(text, encoding="utf-8")
    papers = reader.load(paths.catalog)
    venues = load_venues(paths.venues)
    for options, flags in (
        ({}, []),
        ({"abstracts": True}, ["--abstracts"]),
        ({"ascii": True, "arxiv_style": "journal"}, ["--ascii", "--arxiv-style", "journal"]),
    ):
        result = cli("export", *flags)
        assert result.exit_code == 0, result.output
        assert result.stdout == bibtex.export(papers, venues, ExportOptions(**options))
    abstract = [
        line for line in cli("export", "--abstracts").stdout.splitlines() if "abstract" in line
    ]
    assert abstract == [
        "  abstract      = {Trains 50\\% faster -{}- on GPUs \\& TPUs "
        "\\textbraceleft{}x\\textbraceright{}.}"
    ]
    assert "abstract" not in cli("export").stdout


def test_export_query_to_file(cli, tmp_path: Path) -> None:
    out = tmp_path / "refs.bib"
    result = cli("export", "tag:embedding year:2021..2023", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert "wrote 2 entries to" in result.stderr
    assert keys_of(out.read_text(encoding="utf-8")) == ["kurniawan2023evstore", "lai2023adaembed"]


def test_export_options_reach_the_library(cli) -> None:
    result = cli("export", "key:he2021fastmoe", "--arxiv-style", "journal")
    assert "journal = {arXiv preprint arXiv:2103.13262}" in result.stdout
    result = cli("export", "venue:OSDI", "--venue-style", "short")
    assert "booktitle = {Proc. OSDI}" in result.stdout


def test_export_protects_terms_from_the_catalogs_data_folder(cli, paths: Paths) -> None:
    (paths.data_dir / "protected-terms.txt").write_text("Embedding\n", encoding="utf-8")
    result = cli("export", "venue:OSDI")
    assert "title     = {{AdaEmbed}: Adaptive {Embedding} for" in result.stdout


def test_export_ascii(cli, paths: Paths) -> None:
    text = paths.catalog.read_text(encoding="utf-8").replace("Ruipu Wang", "Ruipu Wäng")
    paths.catalog.write_text(text, encoding="utf-8")
    result = cli("export", "--ascii")
    assert result.exit_code == 0, result.output
    assert r"W{\"a}ng, Ruipu" in result.stdout and result.stdout.isascii()


def test_export_no_match_and_bad_usage(cli) -> None:
    result = cli("export", "zzzz")
    assert result.exit_code == 1
    assert "error: no papers match 'zzzz'" in result.stderr
    result = cli("export", "moe", "--aux", "paper.aux")
    assert result.exit_code == 2
    assert "error: give a query or --aux, not both" in result.stderr
    result = cli("export", "--venue-style", "tiny")
    assert result.exit_code == 2


def test_export_aux_names_the_keys_the_catalog_lacks(cli, tmp_path: Path) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text(
        "\\relax\n\\citation{lai2023adaembed,he2021fastmo}\n\\citation{lai2023adaembed}"
        "\n\\bibdata{refs}\n",
        encoding="utf-8",
    )
    out = tmp_path / "refs.bib"
    result = cli("export", "--aux", str(aux), "-o", str(out))
    assert result.exit_code == 1
    assert keys_of(out.read_text(encoding="utf-8")) == ["lai2023adaembed"]
    assert (
        f"{aux}: cites 'he2021fastmo', which the catalog lacks (did you mean 'he2021fastmoe'?)"
    ) in result.stderr


def test_export_aux_star_means_all(cli, tmp_path: Path) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text("\\citation{*}\n", encoding="utf-8")
    result = cli("export", "--aux", str(aux))
    assert result.exit_code == 0
    assert len(keys_of(result.stdout)) == 3
    aux.write_text("\\relax\n", encoding="utf-8")
    result = cli("export", "--aux", str(aux))
    assert result.exit_code == 1 and "cites nothing" in result.stderr
    result = cli("export", "--aux", str(tmp_path / "missing.aux"))
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_cite_prints_entries_in_the_order_given(cli) -> None:
    result = cli("cite", "lai2023adaembed", "he2021fastmoe", "lai2023adaembed")
    assert result.exit_code == 0, result.output
    assert keys_of(result.stdout) == ["lai2023adaembed", "he2021fastmoe"]


def test_cite_unknown_keys_get_did_you_mean(cli) -> None:
    result = cli("cite", "lai2023adaembd")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: no paper with key 'lai2023adaembd'; did you mean 'lai2023adaembed'?"
    )
    result = cli("cite", "lai2023adaembd", "he2021fastmoe", "nothing")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: no paper with key 'lai2023adaembd'; did you mean 'lai2023adaembed'?",
        "error: no paper with key 'nothing'",
    ]


def test_export_of_a_bad_venue_names_the_paper(cli, paths: Paths) -> None:
    text = paths.catalog.read_text(encoding="utf-8").replace("  OSDI:", "  OSDY:")
    paths.catalog.write_text(text, encoding="utf-8")
    result = cli("export")
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {paths.catalog}:12: lai2023adaembed: venue 'OSDY' is not "
        "in the venue registry (add it to data/venues.yaml)\n"
    )


def test_bib_check_clean_file(cli, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(cli("export").stdout, encoding="utf-8")
    result = cli("bib-check", str(bib))
    assert result.exit_code == 0, result.output
    assert (
        f"{bib}:1: he2021fastmoe: 2021 arXiv: FastMoE: A Fast Mixture-of-Expert Training "
        "System" in result.stdout
    )
    assert "3 entries, 3 importable, 0 problems" in result.stderr


def test_bib_check_reports_problems_with_lines(cli) -> None:
    result = cli("bib-check", str(RECOMMENDER))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert (
        f"{RECOMMENDER}:33: 280902 (as sima2022ekko): 2022 OSDI: Ekko: A Large-Scale Deep "
        "Learning Recommender System with Low-Latency Model Update" in lines
    )
    assert f"{RECOMMENDER}:141: Merlin: not importable" in lines
    assert (
        f"  {RECOMMENDER}:141: Merlin: not a paper (web page / software): skipped (a link "
        "where a paper names its venue; cite it from a .bib of your own)"
    ) in lines
    # The tiny test registry lacks MLSys, SC and PPoPP: those venues are unknown here too.
    assert "32 entries, 28 importable, 25 problems" in result.stderr


def test_bib_check_json(cli) -> None:
    result = cli("bib-check", str(RECOMMENDER), "--json")
    assert result.exit_code == 1
    records = json.loads(result.stdout)
    assert len(records) == 32
    ekko = next(r for r in records if r["key"] == "280902")
    assert ekko["paper"]["venue"] == "OSDI" and ekko["new_venue"] is False
    assert ekko["line"] == 33 and ekko["fields"]["pages"] == "821–839"
    merlin = next(r for r in records if r["key"] == "Merlin")
    assert merlin["paper"] is None
    assert merlin["problems"][0]["line"] == 141


def test_bib_check_bad_files(cli, tmp_path: Path) -> None:
    result = cli("bib-check", str(tmp_path / "none.bib"))
    assert result.exit_code == 1 and "none.bib: no such file" in result.stderr
    latin = tmp_path / "latin.bib"
    latin.write_bytes(b"@misc{a,\n  author = {Preu\xdfer}}\n")
    result = cli("bib-check", str(latin))
    assert result.exit_code == 1
    assert "latin.bib:2: not UTF-8 text (save it as UTF-8)" in result.stderr


def test_bib_check_reads_utf16_with_a_byte_order_mark(cli, tmp_path: Path) -> None:
    bib = tmp_path / "utf16.bib"
    bib.write_bytes(
        b"\xff\xfe"
        + (
            "@article{x2022y, title = {Fine}, author = {Preu\u00dfer, "
            "Ann}, journal = {Proceedings of the VLDB Endowment}, "
            "year = {2022}}\n"
        ).encode("utf-16-le")
    )
    result = cli("bib-check", str(bib))
    assert result.exit_code == 0, result.output
    assert "utf16.bib:1: x2022y: 2022 PVLDB: Fine" in result.stdout


def test_add_bibtex_from_a_latin1_file_is_a_clear_error(cli, tmp_path: Path) -> None:
    latin = tmp_path / "latin.bib"
    latin.write_bytes(b"@misc{a,\n  author = {Preu\xdfer}}\n")
    result = cli("add", "--bibtex", str(latin))
    assert result.exit_code == 1
    assert "latin.bib:2: not UTF-8 text (save it as UTF-8)" in result.output
    assert "Traceback" not in result.output


def test_commands_have_help(cli) -> None:
    for name in ("export", "cite", "bib-check"):
        result = cli(name, "--help")
        assert result.exit_code == 0
        assert "Usage:" in result.stdout


def test_bib_check_of_a_file_without_entries_says_so(cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty.bib"
    empty.write_text("% nothing here\n", encoding="utf-8")
    result = cli("bib-check", str(empty))
    assert result.exit_code == 1
    assert "empty.bib: no BibTeX entries found" in result.stderr


def test_streamed_export_to_a_file_writes_the_whole_text_or_nothing(
    cli, paths: Paths, tmp_path: Path
) -> None:
    """Every paper to -o is written as it is formatted: the file gets what stdout gets,
    and a paper that cannot be written leaves the old file whole and no temporary."""
    out = tmp_path / "refs.bib"
    result = cli("export", "--abstracts", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == cli("export", "--abstracts").stdout
    assert "wrote 3 entries to" in result.stderr
    out.write_text("old\n", encoding="utf-8")
    text = paths.catalog.read_text(encoding="utf-8").replace("  OSDI:", "  OSDY:")
    paths.catalog.write_text(text, encoding="utf-8")
    result = cli("export", "-o", str(out))
    assert result.exit_code == 1
    assert "lai2023adaembed: venue 'OSDY' is not in the venue registry" in result.stderr
    assert out.read_text(encoding="utf-8") == "old\n"
    assert not list(tmp_path.glob(".*.tmp"))
