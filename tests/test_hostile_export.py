"""Hostile strings in every field reach the .bib inert: pybtex reads every entry, and
pdflatex + bibtex compile it without running anything the data spelled.

The renderer trusts no door: these papers are built directly, bypassing the field rules
that add, import and check apply, as a hand edit or an old catalog could hold them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pybtex.database
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.bib import bibtex
from catalog.data.registry import Venue
from catalog.model import CONTROL_RE, Paper
from tests.conftest import require

VENUES = {
    "OSDI": Venue(
        "OSDI",
        "conference",
        "USENIX Symposium on Operating Systems Design and Implementation",
        "USENIX Association",
    ),
    "arXiv": Venue("arXiv", "preprint", "arXiv", "Cornell University"),
}
SECRET = "SECRETPAYLOAD"
# Pieces an attacker would combine: commands that read files or write them, TeX's ^^
# notation for a backslash, characters that end a field or a line, controls, Unicode.
PIECES = [
    "\\input{secret}",
    "\\include{secret}",
    "^^5cinput^^7bsecret^^7d",
    "}",
    "{",
    "\\",
    "%",
    "#",
    "&",
    "~",
    "^",
    "$",
    "_",
    "@",
    '"',
    ",",
    "=",
    "\n",
    "\x1b[31m",
    "\x00",
    "\u202e",
    "\\immediate\\write18{touch pwned}",
    "\\def\\x{y}",
    "\\catcode`\\@=0 ",
    "Ünïcödé",
    "é",
    "--",
    "}, title = {x",
    "\\\\",
    "{\\relax}",
    "\\csname input\\endcsname",
]
hostile = st.lists(
    st.one_of(
        st.sampled_from(PIECES),
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=6),
    ),
    min_size=1,
    max_size=6,
).map("".join)


def paper(i: int, title: str, author: str, ident: str, url: str, text: str, venue: str) -> Paper:
    return Paper(
        f"p{i}2021x",
        title or "T",
        [author or "A B", "Ada Lovelace"],
        2021,
        venue,
        doi="10.1/" + ident,
        arxiv=ident if venue == "arXiv" else None,
        url=url,
        pages=text,
        volume=text,
        number=text,
        arxiv_class=ident,
    )


papers_st = st.lists(
    st.tuples(hostile, hostile, hostile, hostile, hostile, st.sampled_from(sorted(VENUES))),
    min_size=1,
    max_size=4,
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(papers_st)
def test_pybtex_reads_every_hostile_entry_with_its_key(rows) -> None:
    papers = [paper(i, *row) for i, row in enumerate(rows)]
    text = bibtex.export(papers, VENUES)
    assert not CONTROL_RE.search(text)
    parsed = pybtex.database.parse_string(text, "bibtex")
    assert sorted(parsed.entries) == sorted(p.key for p in papers)
    for entry in parsed.entries.values():  # no field swallowed or spilled into another
        assert entry.fields["year"] == "2021"


def _compile(folder: Path, bib: str, with_url: bool) -> tuple[str, str]:
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    (folder / "secret.tex").write_text(SECRET + "\n", encoding="utf-8")
    preamble = "\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{natbib}\n"
    preamble += "\\usepackage{url}\n" if with_url else ""
    (folder / "doc.tex").write_text(
        "\\documentclass{article}\n" + preamble + "\\begin{document}\n\\nocite{*}\n"
        "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8",
    )
    latex = ["pdflatex", "-interaction=nonstopmode", "-no-shell-escape", "doc.tex"]
    subprocess.run(latex, cwd=folder, capture_output=True, timeout=120)
    subprocess.run(["bibtex", "doc"], cwd=folder, capture_output=True, timeout=120)
    subprocess.run(latex, cwd=folder, capture_output=True, timeout=120)
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    bbl = (folder / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    return log, bbl


@pytest.mark.slow
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(papers_st)
def test_latex_never_reads_a_file_the_data_names(tmp_path_factory, rows) -> None:
    for tool in ("pdflatex", "bibtex"):
        require(shutil.which(tool) is not None, f"{tool} (apt-get install texlive-binaries)")
    papers = [paper(i, *row) for i, row in enumerate(rows)]
    bib = bibtex.export(papers, VENUES)
    for with_url in (True, False):
        folder = tmp_path_factory.mktemp("tex")
        log, bbl = _compile(folder, bib, with_url)
        assert "secret.tex" not in log, "LaTeX opened the file a field named"
        assert SECRET not in log
        assert not (folder / "pwned").exists()
        assert bbl.count("\\bibitem") == len(papers)


@pytest.mark.slow
def test_the_reported_doi_injection_is_inert(tmp_path: Path) -> None:
    """The reproducer: add --doi '10.1234/\\input{/some/file}' once reached pdflatex as is."""
    for tool in ("pdflatex", "bibtex"):
        require(shutil.which(tool) is not None, f"{tool} (apt-get install texlive-binaries)")
    bad = Paper(
        "x2021y",
        "T",
        ["A B"],
        2021,
        "OSDI",
        doi="10.1234/\\input{secret}",
        url="https://x.org/\\input{secret}",
    )
    bib = bibtex.export([bad], VENUES)
    assert "\\input" not in bib
    for with_url in (True, False):
        folder = tmp_path / str(with_url)
        folder.mkdir()
        log, _ = _compile(folder, bib, with_url)
        assert SECRET not in log and "secret.tex" not in log
