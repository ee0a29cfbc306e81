"""`papers export --format biblatex|csl-json|ris`, each read back by a real reader:
bibtexparser and pybtex (and biber, where installed) read the biblatex, citeproc-py
renders the CSL-JSON as a bibliography, rispy reads the RIS (issue 22, item 5)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pybtex.database
import pytest
import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter
from citeproc.source.json import CiteProcJSON
from hypothesis import HealthCheck, given, settings

from catalog.bib import biblatex, bibtex, csljson, formats
from catalog.model import CONTROL_RE
from tests.conftest import PAPERS, REPO, VENUES, require, write_catalog
from tests.test_hostile_export import VENUES as HOSTILE_VENUES
from tests.test_hostile_export import paper as hostile_paper
from tests.test_hostile_export import papers_st

# The tiny catalog, with a journal paper whose authors have a particle, a suffix and
# accents, and whose pages are a range.
JOURNAL = """\
2022:
  PVLDB:
    - key: vanderberg2022tables
      title: "Tables of GPUs: A Study"
      authors: [Jan van der Berg, "Martin Luther King, Jr.", Zoë Čech]
      doi: 10.14778/3551793.3551800
      volume: "15"
      number: "11"
      pages: 3044-3057
      articleno: "7"
      numpages: "14"
  Chapter:
    - key: smith2022caches
      title: "Caches for Recommenders"
      authors: [Ann Smith]
      booktitle: "Recommender Systems Handbook"
      editors: [Francesco Ricci, Lior Rokach]
      publisher: Springer
      chapter: "12"
      pages: 100-120
"""
CHAPTER = """Chapter:
  kind: collection
  name: Book chapter
"""
KEYS = [
    "he2021fastmoe",
    "kurniawan2023evstore",
    "lai2023adaembed",
    "smith2022caches",
    "vanderberg2022tables",
]


@pytest.fixture
def paths(tmp_path):
    return write_catalog(tmp_path, PAPERS + JOURNAL, VENUES + CHAPTER)


def _export(cli, *args: str) -> str:
    result = cli("export", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _bib_fields(text: str) -> dict[str, tuple[str, dict[str, str]]]:
    """key -> (entry type, fields) as bibtexparser v2 reads a .bib text."""
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    return {e.key: (e.entry_type, {f.key: f.value for f in e.fields}) for e in library.entries}


def test_biblatex_is_the_bibtex_with_biblatex_field_names(cli) -> None:
    latex = _bib_fields(_export(cli, "--format", "biblatex"))
    plain = _bib_fields(_export(cli))
    assert sorted(latex) == KEYS
    for key, (etype, fields) in plain.items():
        renamed = {biblatex.RENAMED.get(k, k): v for k, v in fields.items()}
        renamed = {k: v for k, v in renamed.items() if biblatex.allowed(etype, k)}
        if "eprinttype" in renamed:
            renamed["eprinttype"] = "arxiv"
        assert latex[key] == (etype, renamed)  # the same escaping, names and titles
    assert latex["vanderberg2022tables"][1]["journaltitle"] == "Proceedings of the VLDB Endowment"
    assert latex["vanderberg2022tables"][1]["date"] == "2022"
    assert latex["vanderberg2022tables"][1]["eid"] == "7"  # ACM's article number
    assert "pagetotal" not in latex["vanderberg2022tables"][1]  # no such field in @article
    assert latex["smith2022caches"][0] == "incollection"
    assert latex["smith2022caches"][1]["editor"] == "Ricci, Francesco and Rokach, Lior"
    assert "year" not in latex["vanderberg2022tables"][1]
    fastmoe = latex["he2021fastmoe"][1]
    assert (fastmoe["eprint"], fastmoe["eprinttype"]) == ("2103.13262", "arxiv")
    assert latex["kurniawan2023evstore"][1]["doi"] == "10.1145/3575693.3575718"
    # pybtex reads it too, names in their parts.
    parsed = pybtex.database.parse_string(_export(cli, "--format", "biblatex"), "bibtex")
    king = parsed.entries["vanderberg2022tables"].persons["author"][1]
    assert (king.last_names, king.lineage_names, king.first_names) == (
        ["King"],
        ["Jr."],
        ["Martin"],
    )
    assert parsed.entries["vanderberg2022tables"].fields["journaltitle"]


def _biber(folder: Path, text: str) -> Path:
    """biber's reading of a biblatex .bib, checked against its data model: no warning."""
    (folder / "refs.bib").write_text(text, encoding="utf-8")
    run = subprocess.run(
        ["biber", "--tool", "--validate-datamodel", "--output-file", "read.bib", "refs.bib"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=folder,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert not re.search(r"\b(WARN|ERROR)\b", run.stdout), run.stdout
    return folder / "read.bib"


@pytest.mark.slow
def test_biber_reads_the_biblatex_without_a_warning(cli, tmp_path: Path) -> None:
    """biber, biblatex's own reader, in tool mode: it checks every entry against
    biblatex's data model and writes back what it read."""
    require(shutil.which("biber") is not None, "biber (apt-get install biber)")
    out = _biber(tmp_path, _export(cli, "--format", "biblatex"))
    read = _bib_fields(out.read_text(encoding="utf-8"))
    assert sorted(k.lower() for k in read) == KEYS
    fields = {
        k.lower(): (t.lower(), {n.lower(): v for n, v in f.items()}) for k, (t, f) in read.items()
    }
    journal = fields["vanderberg2022tables"]
    assert journal[0] == "article"
    assert journal[1]["journaltitle"] == "Proceedings of the VLDB Endowment"
    assert journal[1]["date"] == "2022"
    assert journal[1]["pages"] == "3044--3057"
    assert fields["he2021fastmoe"][1]["eprinttype"] == "arxiv"
    assert fields["smith2022caches"][1]["booktitle"] == "Recommender Systems Handbook"


def _bibliography(items: list[dict]) -> list[str]:
    """citeproc-py's rendering of the items, in a style it ships, one string each."""
    style_path = next(
        Path(sys.modules["citeproc"].__file__).parent.glob("data/styles/*.csl")  # type: ignore[arg-type]
    )
    style = CitationStylesStyle(str(style_path), validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON(items), citeproc_formatter.plain)
    bibliography.register(Citation([CitationItem(i["id"]) for i in items]))
    return [str(entry) for entry in bibliography.bibliography()]


def test_citeproc_renders_the_csl_json(cli) -> None:
    items = json.loads(_export(cli, "--format", "csl-json"))
    assert [i["id"] for i in items] == KEYS
    rendered = _bibliography(items)
    assert len(rendered) == len(KEYS)
    text = "\n".join(rendered)
    for item in items:
        assert item["title"] in text
        for author in item["author"]:
            assert author["family"] in text
        assert str(item["issued"]["date-parts"][0][0]) in text
    journal = items[KEYS.index("vanderberg2022tables")]
    assert journal["type"] == "article-journal"
    assert journal["container-title"] == "Proceedings of the VLDB Endowment"
    assert (journal["volume"], journal["issue"], journal["page"]) == ("15", "11", "3044-3057")
    assert journal["author"] == [
        {"family": "Berg", "given": "Jan", "non-dropping-particle": "van der"},
        {"family": "King", "given": "Martin Luther", "suffix": "Jr."},
        {"family": "Čech", "given": "Zoë"},
    ]
    assert journal["DOI"] == "10.14778/3551793.3551800"
    fastmoe = items[0]
    assert (fastmoe["type"], fastmoe["publisher"], fastmoe["number"]) == (
        "article",
        "arXiv",
        "arXiv:2103.13262",
    )
    assert items[1]["type"] == "paper-conference"
    assert items[1]["container-title"].startswith("ACM International Conference on Arch")
    assert items[1]["container-title-short"] == "ASPLOS"
    chapter = items[KEYS.index("smith2022caches")]
    assert (chapter["type"], chapter["container-title"], chapter["chapter-number"]) == (
        "chapter",
        "Recommender Systems Handbook",
        "12",
    )
    assert chapter["editor"] == [
        {"family": "Ricci", "given": "Francesco"},
        {"family": "Rokach", "given": "Lior"},
    ]
    assert (journal["number"], journal["number-of-pages"]) == ("7", "14")


def test_rispy_reads_the_ris_back(cli) -> None:
    items = json.loads(_export(cli, "--format", "csl-json"))
    records = rispy.loads(_export(cli, "--format", "ris"))
    assert [r["id"] for r in records] == KEYS
    types = [r["type_of_reference"] for r in records]
    assert types == ["UNPB", "CPAPER", "CPAPER", "CHAP", "JOUR"]
    for record, item in zip(records, items, strict=True):
        assert record["title"] == item["title"]
        assert len(record["authors"]) == len(item["author"])
        assert record["year"] == str(item["issued"]["date-parts"][0][0])
        assert record.get("doi") == item.get("DOI")
        assert record.get("urls", [None])[0] == item.get("URL")
    journal = records[4]
    assert journal["authors"] == ["van der Berg, Jan", "King, Martin Luther, Jr.", "Čech, Zoë"]
    assert (journal["start_page"], journal["end_page"]) == ("3044", "3057")
    assert journal["secondary_title"] == "Proceedings of the VLDB Endowment"
    assert (journal["volume"], journal["number"]) == ("15", "11")
    assert records[0]["note"] == "arXiv:2103.13262"
    chapter = records[3]
    assert chapter["secondary_title"] == "Recommender Systems Handbook"
    assert chapter["secondary_authors"] == ["Ricci, Francesco", "Rokach, Lior"]
    assert (chapter["section"], chapter["publisher"]) == ("12", "Springer")


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex", "csl-json", "ris"])
def test_aux_exports_the_cited_keys_in_each_format(cli, tmp_path: Path, fmt: str) -> None:
    aux = tmp_path / "paper.aux"
    aux.write_text(
        "\\relax\n\\citation{vanderberg2022tables,he2021fastmoe}\n\\bibdata{refs}\n",
        encoding="utf-8",
    )
    suffix = {"csl-json": ".json", "ris": ".ris"}.get(fmt, ".bib")
    out = tmp_path / f"refs{suffix}"
    result = cli("export", "--aux", str(aux), "--format", fmt, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote 2 entries to {out}\n"
    text = out.read_text(encoding="utf-8")
    if fmt == "csl-json":
        keys = [i["id"] for i in json.loads(text)]
    elif fmt == "ris":
        keys = [r["id"] for r in rispy.loads(text)]
    else:
        keys = list(_bib_fields(text))
    assert keys == ["he2021fastmoe", "vanderberg2022tables"]
    assert text == _export(cli, "--aux", str(aux), "--format", fmt)  # -o writes what stdout gets


def test_a_query_picks_the_papers_in_each_format(cli) -> None:
    assert [i["id"] for i in json.loads(_export(cli, "tag:embedding", "--format", "csl-json"))] == [
        "kurniawan2023evstore",
        "lai2023adaembed",
    ]
    abstracts = json.loads(_export(cli, "--abstracts", "--format", "csl-json"))
    assert all("abstract" not in i for i in abstracts)  # the tiny catalog has none


@pytest.mark.parametrize("option", [["--ascii"], ["--arxiv-style", "journal"]])
@pytest.mark.parametrize("fmt", ["csl-json", "ris"])
def test_latex_options_are_refused_for_plain_formats(cli, option, fmt) -> None:
    result = cli("export", "--format", fmt, *option)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"{option[0]} is for the LaTeX formats (bibtex, biblatex); {fmt} is plain text" in (
        result.stderr
    )


def test_unknown_format_is_a_usage_error(cli) -> None:
    result = cli("export", "--format", "endnote")
    assert result.exit_code == 2
    assert "bibtex" in result.output and "csl-json" in result.output


def test_output_never_replaces_a_file_of_another_kind(cli, tmp_path: Path) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_text("\\documentclass{article}\n", encoding="utf-8")
    result = cli("export", "--format", "csl-json", "-o", str(paper))
    assert result.exit_code == 2
    assert (
        f"refusing to replace {paper}: papers writes csl-json to a new file or to a .json file"
        in (result.stderr)
    )
    assert paper.read_text(encoding="utf-8") == "\\documentclass{article}\n"
    refs = tmp_path / "refs.json"
    refs.write_text("[]\n", encoding="utf-8")
    assert cli("export", "--format", "csl-json", "-o", str(refs)).exit_code == 0
    assert len(json.loads(refs.read_text(encoding="utf-8"))) == len(KEYS)
    fresh = tmp_path / "new-name"
    assert cli("export", "--format", "ris", "-o", str(fresh)).exit_code == 0
    assert len(rispy.loads(fresh.read_text(encoding="utf-8"))) == len(KEYS)


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


_RIS_LINE = re.compile(r"^(?:[A-Z][A-Z0-9]  - .*|)$")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(papers_st)
def test_hostile_fields_stay_plain_text_and_inert(rows) -> None:
    papers = [hostile_paper(i, *row) for i, row in enumerate(rows)]
    keys = sorted(p.key for p in papers)
    # CSL-JSON: valid JSON, every string one line of plain text.
    items = json.loads(formats.export("csl-json", papers, HOSTILE_VENUES))
    assert [i["id"] for i in items] == keys
    for item in items:
        for text in _strings(item):
            assert not CONTROL_RE.search(text) and "\n" not in text and "\t" not in text
    by_key = {p.key: p for p in papers}
    for item in items:
        assert item["title"] == csljson.plain(by_key[item["id"]].title)
        assert item.get("URL", "https://").startswith(("http://", "https://"))
        assert all(a for a in item["author"])  # no empty name
    _bibliography(items)  # citeproc renders whatever the fields hold
    # RIS: every line a tag line (or the blank between records), read back whole.
    text = formats.export("ris", papers, HOSTILE_VENUES)
    assert all(_RIS_LINE.match(line) for line in text.split("\n")), text
    records = rispy.loads(text)
    assert [r["id"] for r in records] == keys
    for record, item in zip(records, items, strict=True):
        assert record["title"] == item["title"]
        assert record["doi"] == item["DOI"]
    # biblatex: BibTeX's escaping, field for field (the LaTeX attacks are that writer's tests).
    latex = bibtex.export(papers, HOSTILE_VENUES, writer=biblatex.Writer)
    plain = bibtex.export(papers, HOSTILE_VENUES)
    for name, renamed in biblatex.RENAMED.items():
        plain = plain.replace(f"  {name} ", f"  {renamed} ")
    assert re.sub(r" +=", " =", latex).replace("{arxiv}", "{arXiv}") == re.sub(r" +=", " =", plain)
    assert sorted(pybtex.database.parse_string(latex, "bibtex").entries) == keys


def test_bibtex_export_imports_no_other_format(paths) -> None:
    """Export's speed: the default format never loads the others' code (rispy, json)."""
    code = (
        "import sys\n"
        "from catalog.cli import main\n"
        f"sys.argv = ['papers', '--catalog', {str(paths.catalog)!r}, '--db', {str(paths.db)!r},"
        " 'export', '-o', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('rispy', 'citeproc', 'catalog.bib.csljson', "
        "'catalog.bib.ris', 'catalog.bib.biblatex') if m in sys.modules))\n"
    )
    out = paths.catalog.parent / "refs.bib"
    run = subprocess.run(
        [sys.executable, "-c", code, str(out)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"
    assert out.read_text(encoding="utf-8").count("@") == len(KEYS)


@pytest.mark.slow
def test_the_seed_catalog_reads_back_in_every_format(run, tmp_path: Path) -> None:
    """The frozen first papers of the shipped catalog, through each reader."""
    bib = run("export")
    assert bib.exit_code == 0, bib.output
    keys = sorted(_bib_fields(bib.stdout))
    items = json.loads(run("export", "--format", "csl-json").stdout)
    assert [i["id"] for i in items] == keys
    assert len(_bibliography(items)) == len(keys)
    records = rispy.loads(run("export", "--format", "ris").stdout)
    assert [(r["id"], r["title"], r["year"]) for r in records] == [
        (i["id"], i["title"], str(i["issued"]["date-parts"][0][0])) for i in items
    ]
    latex = run("export", "--format", "biblatex").stdout
    fields = _bib_fields(latex)
    assert sorted(fields) == keys
    assert all("date" in f and "year" not in f for _, f in fields.values())
    if shutil.which("biber") or os.environ.get("PAPERS_REQUIRE_TOOLS"):  # (CI has it)
        assert sorted(_bib_fields(_biber(tmp_path, latex).read_text(encoding="utf-8")))
