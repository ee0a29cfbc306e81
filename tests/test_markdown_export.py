"""`papers export --format markdown`: a README list as the field writes one, every field
inert, awesome-lint clean, and read back by `papers import` to the same papers."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from catalog.bib import formats, markdown
from catalog.bib.options import ExportOptions
from catalog.cli import app
from catalog.data import reader
from catalog.errors import UsageError
from catalog.model import Paper, strip_controls
from catalog.paths import Paths
from tests.conftest import REPO, require

# Where .ci/run installs the pinned awesome-lint (npm), never committed.
AWESOME_LINT = REPO / "build" / "npm" / "node_modules" / "awesome-lint"
LINT_SCRIPT = REPO / "tests" / "awesome_lint.mjs"


def papers_of(paths: Paths, *args: str) -> str:
    result = CliRunner().invoke(
        app, ["--catalog", str(paths.catalog), "--db", str(paths.db), *args]
    )
    assert result.exit_code == 0, result.output
    return result.output


def paper(**fields: object) -> Paper:
    base: dict[str, object] = {
        "key": "doe2023x",
        "title": "X: A Title",
        "authors": ["Jane Doe"],
        "year": 2023,
        "venue": "OSDI",
    }
    return Paper(**{**base, **fields})  # type: ignore[arg-type]


def test_one_line_per_paper_with_a_table_of_contents(shipped: Paths):
    text = papers_of(shipped, "export", "--format", "markdown")
    assert text.startswith("# Papers\n")
    assert "## Contents\n\n- [2023](#2023)\n- [2022](#2022)" in text
    line = next(ln for ln in text.splitlines() if "Bagpipe" in ln)
    assert line == (
        "- [Bagpipe: Accelerating Deep Recommendation Model Training]"
        "(https://doi.org/10.1145/3600006.3613142) - Saurabh Agarwal, Chengpo Yan, "
        "Ziyi Zhang, Shivaram Venkataraman. SOSP'23. [PDF](https://arxiv.org/pdf/2202.12429)."
    )
    assert text.count("\n- [") == 25 + text.count("](#")  # each paper once, and the ToC


def test_by_venue_and_by_tag_and_a_query(shipped: Paths):
    by_venue = papers_of(shipped, "export", "--format", "markdown", "--by", "venue")
    headings = re.findall(r"^## (.+)$", by_venue, re.MULTILINE)
    assert headings[0] == "Contents" and headings[1:] == sorted(headings[1:], key=str.casefold)
    assert "ASPLOS" in headings
    by_tag = papers_of(shipped, "export", "--format", "markdown", "--by", "tag", "--query", "moe")
    assert "## moe" in by_tag and "EVStore" not in by_tag
    assert by_tag.count("](https://doi.org/") == len(
        set(re.findall(r"\(https://doi\.org/[^)]+", by_tag))
    )


def test_by_is_for_the_markdown_format_only():
    with pytest.raises(UsageError, match="--by is for the markdown format"):
        formats.export("bibtex", [paper()], {}, ExportOptions(group="venue"))
    with pytest.raises(UsageError, match="unknown grouping"):
        ExportOptions(group="colour")


HOSTILE = [
    "](javascript:alert(1))",
    "<script>alert(1)</script>",
    "a | b | c",
    "**bold** _it_ `code` ~~gone~~",
    "[x](https://evil.example)",
    "![img](https://evil.example/i.png)",
    "https://evil.example/auto www.evil.example mail@evil.example",
    "&lt;b&gt; &#60;",
    "# heading",
    "\\",
    "<https://evil.example>",
    "{{ jinja }} $x$",
]


def _html(text: str) -> str:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_every_field_is_markdown_inert(hostile: str):
    hostile_paper = paper(
        title=f"T {hostile} end", authors=[f"A {hostile}", "B Bee"], venue="OSDI", tags=[]
    )  # no DOI, URL or arXiv id: any link in the paper's line came from a field
    text = markdown.export([hostile_paper], {})
    html = _html(text)
    links = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert links == ["#2023"]  # the table of contents' own; the fields make none
    assert "<script" not in html and "<img" not in html
    assert "<strong>" not in html and "<em>" not in html and "<code>" not in html
    assert html.count("<li>") == 2  # the table of contents' one item, and the paper's


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
@example("*a* _b_ [c](https://d.example) <e> `f` &amp; \\ ![g](h) # i | j")
def test_any_text_renders_as_itself(text: str):
    """Whatever a field holds, Markdown shows it as it is (as one line of text)."""
    line = re.sub(r"\s+", " ", strip_controls(text)).strip()
    rendered = MarkdownIt("commonmark").renderInline(markdown.inert(text))
    assert rendered == html.escape(line, quote=True).replace("&#x27;", "'")


def test_import_into_the_same_catalog_adds_nothing(shipped: Paths, tmp_path: Path):
    readme = tmp_path / "README.md"
    papers_of(shipped, "export", "--format", "markdown", "-o", str(readme))
    before = shipped.catalog.read_bytes()
    out = papers_of(shipped, "import", str(readme), "-q")
    assert "added 0," in out and "skipped 25 duplicates" in out, out
    assert shipped.catalog.read_bytes() == before


# A paper of the seed catalog with an author the list reader does not take for a name
# ('Mahmoud khorashadi': a lower-case family name, which plain_names refuses so that
# 'Deep learning' is no person); it is left out of the comparison below and its own
# round trip is the expected failure after it (catalog.ingest.listfields, not the writer).
LOWER_CASE_AUTHOR = "mudigere2022software"


def _round_trip(shipped: Paths, tmp_path: Path, by: str) -> tuple[list[Paper], list[Paper]]:
    """The seed catalog's papers, and those `papers import` reads back from its list."""
    readme = tmp_path / "README.md"
    papers_of(shipped, "export", "--format", "markdown", "--by", by, "-o", str(readme))
    fresh = tmp_path / "fresh" / "data"
    fresh.mkdir(parents=True)
    for name in ("venues.yaml", "tags.yaml", "records.yaml"):
        shutil.copy(shipped.data_dir / name, fresh / name)
    (fresh / "papers.yaml").write_text("# the catalog\n", encoding="utf-8")
    target = Paths(fresh / "papers.yaml", tmp_path / "fresh" / "build" / "catalog.db")
    out = papers_of(target, "import", str(readme), "-q")
    assert "added 25," in out, out
    return reader.load(shipped.catalog), reader.load(target.catalog)


def _facts(papers: list[Paper]) -> dict[str, tuple[object, ...]]:
    return {p.title: (tuple(p.authors), p.year, p.venue, p.arxiv, p.et_al) for p in papers}


@pytest.mark.parametrize("by", ["year", "venue", "tag"])
def test_import_into_a_fresh_catalog_gives_back_the_same_papers(
    shipped: Paths, tmp_path: Path, by: str
):
    before, after = _round_trip(shipped, tmp_path, by)
    was, now = _facts(before), _facts(after)
    assert set(was) == set(now)  # every title, once
    left_out = next(p.title for p in before if p.key == LOWER_CASE_AUTHOR)
    assert {t: f for t, f in was.items() if t != left_out} == {
        t: f for t, f in now.items() if t != left_out
    }


@pytest.mark.xfail(strict=True, reason="the list reader drops a lower-case family name")
def test_a_lower_case_family_name_comes_back(shipped: Paths, tmp_path: Path):
    before, after = _round_trip(shipped, tmp_path, "year")
    assert _facts(before) == _facts(after)


@pytest.mark.slow
@pytest.mark.parametrize("by", ["year", "venue", "tag"])
def test_the_list_passes_awesome_lint(shipped: Paths, tmp_path: Path, by: str):
    require(
        shutil.which("node") is not None and (AWESOME_LINT / "index.js").is_file(),
        "node and awesome-lint (npm install --prefix build/npm awesome-lint, as .ci/run does)",
    )
    readme = tmp_path / "README.md"
    papers_of(shipped, "export", "--format", "markdown", "--by", by, "-o", str(readme))
    done = subprocess.run(
        ["node", str(LINT_SCRIPT), str(AWESOME_LINT), readme.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_hostile_fields_pass_awesome_lint(tmp_path: Path):
    require(
        shutil.which("node") is not None and (AWESOME_LINT / "index.js").is_file(),
        "node and awesome-lint (npm install --prefix build/npm awesome-lint, as .ci/run does)",
    )
    # Not "~~": awesome-lint's no-repeat-punctuation refuses a title that repeats ~ ! ? or
    # a comma, and papers writes a title as the paper has it.
    hostile = [
        paper(key=f"doe2023x{i}", title=f"T {h} end", doi=f"10.1234/x{i}", authors=[f"Ann {h}"])
        for i, h in enumerate(HOSTILE)
        if "~~" not in h
    ]
    (tmp_path / "README.md").write_text(markdown.export(hostile, {}), encoding="utf-8")
    done = subprocess.run(
        ["node", str(LINT_SCRIPT), str(AWESOME_LINT), "README.md"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_page_two_papers_share_is_linked_once():
    shared = "https://proceedings.example/osdi23"
    first = paper(key="a2023x", title="A", url=shared, arxiv="2301.00001")
    second = paper(key="b2023y", title="B", url=shared)
    text = markdown.export([first, second], {})
    assert f"[A]({shared})" in text and "- B - Jane Doe" in text
    assert text.count(f"({shared})") == 1
