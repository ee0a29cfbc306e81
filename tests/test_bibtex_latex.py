"""Exports compile with the real tools: pdflatex + bibtex, no BibTeX warning, no LaTeX error."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from catalog.bib import bibtex
from catalog.bib.options import ExportOptions
from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.model import Paper
from tests.conftest import REPO, require

pytestmark = pytest.mark.slow  # pdflatex and bibtex, seconds a document

VENUES = load_venues(REPO / "data" / "venues.yaml")
TERMS = bibtex.load_protected_terms(REPO / "data" / "protected-terms.txt")
STYLES = ("plain", "alpha", "plainnat")
MODES = {"utf8": {}, "ascii": {"ascii": True}}

# UTF-8 .bib files need inputenc (the default since LaTeX 2018, explicit for older ones) and
# T1 fonts; the --ascii export must also work in a document that has neither.
PREAMBLE = {
    "utf8": "\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
    "\\IfFileExists{lmodern.sty}{\\usepackage{lmodern}}{}\n",
    "ascii": "",
}


@pytest.fixture(scope="module")
def tex() -> None:
    """pdflatex, bibtex and the styles, or a skip (a failure in CI) naming what is missing."""
    for tool in ("pdflatex", "bibtex", "kpsewhich"):
        require(
            shutil.which(tool) is not None,
            f"{tool} (apt-get install texlive-latex-base texlive-binaries)",
        )
    for name in ("plainnat.bst", "alpha.bst", "natbib.sty", "url.sty"):
        found = subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout
        require(
            bool(found.strip()),
            f"{name} (apt-get install texlive-latex-recommended texlive-bibtex-extra)",
        )


def compile_bib(folder: Path, bib: str, style: str, mode: str) -> tuple[list[str], list[str]]:
    """BibTeX warnings and LaTeX errors from running pdflatex, bibtex, pdflatex on bib."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    natbib = "\\usepackage{natbib}\n" if style == "plainnat" else ""
    (folder / "doc.tex").write_text(
        "\\documentclass{article}\n"
        + PREAMBLE[mode]
        + "\\usepackage{url}\n"
        + natbib
        + "\\begin{document}\n\\nocite{*}\n"
        f"\\bibliographystyle{{{style}}}\n\\bibliography{{refs}}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    subprocess.run(latex, cwd=folder, capture_output=True, timeout=120)
    run = subprocess.run(["bibtex", "doc"], cwd=folder, capture_output=True, timeout=120)
    blg = (folder / "doc.blg").read_text(encoding="utf-8", errors="replace")
    warnings = [
        line
        for line in blg.splitlines()
        if line.startswith("Warning--")
        or "error message" in line
        or line.startswith("I couldn't")
        or line.startswith("I was expecting")
    ]
    if run.returncode != 0 and not warnings:
        warnings.append(f"bibtex exited with {run.returncode}")
    final = subprocess.run(latex, cwd=folder, capture_output=True, timeout=120)
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    errors = [line for line in log.splitlines() if line.startswith("!")]
    if final.returncode != 0 and not errors:
        errors.append(f"pdflatex exited with {final.returncode}")
    bbl = (folder / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    assert bbl.count("\\bibitem") == bib.count("\n@"[1:]), "every entry is in the bibliography"
    return warnings, errors


def test_shipped_catalog_compiles_in_every_style_and_mode(tex: None, tmp_path: Path) -> None:
    papers = reader.load(REPO / "data" / "papers.yaml")
    for mode, options in MODES.items():
        bib = bibtex.export(papers, VENUES, ExportOptions(protected=tuple(TERMS), **options))
        for style in STYLES:
            warnings, errors = compile_bib(tmp_path / f"{style}-{mode}", bib, style, mode)
            assert (warnings, errors) == ([], []), (style, mode)


def test_shipped_catalog_compiles_with_natbib_arxiv_journals_and_short_venues(
    tex: None, tmp_path: Path
) -> None:
    papers = reader.load(REPO / "data" / "papers.yaml")
    bib = bibtex.export(
        papers,
        VENUES,
        ExportOptions(protected=tuple(TERMS), arxiv_style="journal", venue_style="short"),
    )
    warnings, errors = compile_bib(tmp_path / "natbib", bib, "plainnat", "utf8")
    assert (warnings, errors) == ([], [])
    bbl = (tmp_path / "natbib" / "doc.bbl").read_text(encoding="utf-8")
    assert "arXiv preprint arXiv:2103.13262" in bbl
    assert "Proc. OSDI" in bbl


HOSTILE = [
    Paper(
        key="jiang2021microrec",
        year=2021,
        venue="MLSys",
        pages="845-859",
        volume="3",
        title="MicroRec: 100% of {Embeddings} & $5 #1 a_b ~x^2 \\cite <tag> a|b -- ``q'' "
        "Über-GPU naïve, with Ekko in C++",
        authors=[
            "Wenqi Jiang",
            "Thomas B. Preußer",
            "Jean-François Crespo",
            "Joaquin Quiñonero Candela",
            "Ludwig van Beethoven",
            "Martin Luther King Jr.",
            "Gabriel de Souza Pereira Moreira",
            "M. Tamer Özsu",
            "Anne-Élodie Ørsted",
        ],
        doi="10.1000/a_b%3C#x",
        url="https://example.org/a_b%20c#frag&x=~1",
    ),
    Paper(
        key="cech2022sparse",
        year=2022,
        venue="arXiv",
        arxiv="2201.00001",
        et_al=True,
        title="Sparse Čech complexes on 3D GPUs with FastMoE",
        authors=["Ivan Čech", "Zoë Ångström"],
    ),
    Paper(
        key="lee2020report",
        year=2020,
        venue="PVLDB",
        volume="13",
        number="12",
        title="Łódź, Škoda and Ærø: a ß-test",
        authors=["Łukasz Żak", "Søren Ærøe"],
    ),
]


def test_accents_specials_and_particles_compile(tex: None, tmp_path: Path) -> None:
    """Non-ASCII initials (alpha labels, abbrv's F.), every LaTeX special, von and Jr."""
    for mode, options in MODES.items():
        bib = bibtex.export(HOSTILE, VENUES, ExportOptions(protected=tuple(TERMS), **options))
        for style in (*STYLES, "abbrv"):
            warnings, errors = compile_bib(tmp_path / f"{style}-{mode}", bib, style, mode)
            assert (warnings, errors) == ([], []), (style, mode)
    bbl = (tmp_path / "plain-utf8" / "doc.bbl").read_text(encoding="utf-8")
    # plain lower-cases titles: the protected words keep their capitals, the rest do not.
    assert re.search(
        r"\{MicroRec\}: 100\\% of .*\{Über-GPU\} naïve, with \{Ekko\} in \{C\+\+\}",
        re.sub(r"\s+", " ", bbl),
    )


# Excerpts of openmlsys-zh's references that were read or exported wrongly (a month as the
# issue number, quotes, HTML entities, braces across punctuation, an IEEE booktitle).
WILD = """\
@article{2015Automatic,
  title={Automatic Differentiation in Machine Learning: a Survey},
  author={ Pearlmutter, B. A. },
  journal={computer science},
  number={February},
  year={2015},
}
@inproceedings{ribeiro2016should,
  title={" Why should i trust you?" Explaining the predictions of any classifier},
  author={Ribeiro, Marco Tulio and Singh, Sameer and Guestrin, Carlos},
  booktitle={Proceedings of the 22nd ACM SIGKDD international conference on knowledge discovery and data mining},
  pages={1135--1144},
  year={2016}
}
@inproceedings{10.1007/978-3-030-50743-5_3,
    author="Graham, Richard L. and Levi, Lion",
    title="Scalable Hierarchical Aggregation and Reduction Protocol (SHARP)TM Streaming-Aggregation Hardware Design and Evaluation",
    booktitle="High Performance Computing",
    year="2020",
    publisher="Springer International Publishing",
    pages="41--59",
}
@inproceedings{2004LLVM,
  title={LLVM: A Compilation Framework for Lifelong Program Analysis & Transformation},
  author={ Lattner, C.  and  Adve, V. },
  booktitle={Code Generation and Optimization, 2004. CGO 2004. International Symposium on},
  year={2004},
}
@inproceedings{10.1145/2988450.2988454,
  author = {Cheng, Heng-Tze and Koc, Levent},
  title = {Wide &amp; Deep Learning for Recommender Systems},
  year = {2016},
  booktitle = {Proceedings of the 1st Workshop on Deep Learning for Recommender Systems},
  pages = {7-10},
  series = {DLRS 2016}
}
"""


def test_entries_read_from_the_wild_export_and_compile_without_warnings(
    tex: None, tmp_path: Path
) -> None:
    records = bibtex.read_bib(WILD, "wild.bib", VENUES)
    venues = {**VENUES, **{r.venue.short: r.venue for r in records if r.new_venue}}
    papers = [r.paper for r in records if r.paper is not None]
    assert len(papers) == 5
    for mode, options in MODES.items():
        bib = bibtex.export(papers, venues, ExportOptions(protected=tuple(TERMS), **options))
        assert "number" not in bib and "&amp;" not in bib
        assert "({SHARP}){TM}" in bib
        assert "booktitle = {International Symposium on Code Generation and Optimization}" in bib
        for style in ("plain", "plainnat"):
            warnings, errors = compile_bib(tmp_path / f"{style}-{mode}", bib, style, mode)
            assert (warnings, errors) == ([], []), (style, mode)
    bbl = (tmp_path / "plain-utf8" / "doc.bbl").read_text(encoding="utf-8")
    # plain keeps a title's first character: the quote, so the capital after it is protected.
    assert "“{Why} should i trust you?” explaining" in re.sub(r"\s+", " ", bbl)


def test_book_chapters_compile_in_every_style_and_mode(tex: None, tmp_path: Path) -> None:
    """@incollection with booktitle, editors, publisher and chapter: read from our fixture,
    plus one whose book fields hold every LaTeX special and non-ASCII names."""
    text = (REPO / "tests" / "data" / "chapters.bib").read_text(encoding="utf-8")
    papers = [r.paper for r in bibtex.read_bib(text, "chapters.bib", VENUES) if r.paper is not None]
    assert len(papers) == 3
    papers.append(
        Paper(
            key="zak2021odd",
            year=2021,
            venue="Chapter",
            title="An Odd Chapter",
            authors=["Łukasz Żak"],
            booktitle="50% of {C++} & #1: a_b ~x^2 \\input{x}",
            editors=["Zoë Ångström", "Jean de la Fontaine, Jr.", "Søren Ærøe"],
            publisher="Ærø & Sons $5",
            chapter="4",
            pages="1-9",
        )
    )
    for mode, options in MODES.items():
        bib = bibtex.export(papers, VENUES, ExportOptions(protected=tuple(TERMS), **options))
        assert bib.count("@incollection{") == 4 and bib.count("  editor    = {") == 4
        for style in (*STYLES, "abbrv"):
            warnings, errors = compile_bib(tmp_path / f"{style}-{mode}", bib, style, mode)
            assert (warnings, errors) == ([], []), (style, mode)
    bbl = re.sub(r"\s+", " ", (tmp_path / "plain-utf8" / "doc.bbl").read_text(encoding="utf-8"))
    assert (
        "In Carla Editor, Jörg Müller, and Dirk van~der Sample, editors, {\\em Handbook "
        "of Made-Up Recommenders}, chapter~3, pages 45--78. Example Press, 2015."
    ) in bbl
