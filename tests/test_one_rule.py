"""One rule for each job, whoever asks: the callers of each rule agree on the same input.

Each job here was once written twice and the copies answered differently (issue 29):
a DOI, alike titles, "is a preprint", LaTeX as text, a note's Markdown as HTML.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.bib.options import ExportOptions
from catalog.check import duplicates
from catalog.check.rules import check
from catalog.data.registry import Venue
from catalog.edit import writer
from catalog.ingest import importer
from catalog.model import Paper
from tests.conftest import write_catalog

OSDI = "USENIX Symposium on Operating Systems Design and Implementation"
REGISTRY = {"OSDI": Venue("OSDI", "conference", OSDI)}

# ---------------------------------------------------------------- alike titles

# (earlier paper's fields, later paper's fields, whether they are a possible duplicate)
TITLE_PAIRS = [
    pytest.param(
        {"title": "Ekko: A Large-Scale Deep Learning Recommender System"},
        {"title": "Ekko: a large scale deep learning recommender system."},
        True,
        id="same-words",
    ),
    pytest.param(
        {"title": "Scalable Embedding Tables for Recommendation Systems on Heterogeneous Clusters"},
        # both of the two longest words changed: the Finder's old buckets missed this pair
        {"title": "Scalable Embedding Tables for Recommendations Systems on Heterogenous Clusters"},
        True,
        id="longest-words-changed",
    ),
    pytest.param(
        {"title": "Fleche: An Efficient GPU Embedding Cache", "doi": "10.1145/1.1"},
        {"title": "Fleche: an efficient GPU embedding cache", "doi": "10.1145/2.2"},
        False,
        id="other-doi",
    ),
    pytest.param(
        {"title": "Fleche: An Efficient GPU Embedding Cache", "arxiv": "2301.00001"},
        {"title": "Fleche: an efficient GPU embedding cache", "arxiv": "2301.00002"},
        False,
        id="other-arxiv-id",
    ),
    pytest.param(
        {"title": "Fleche: An Efficient GPU Embedding Cache"},
        {"title": "HugeCTR: Embedding Caches on Many GPUs"},
        False,
        id="other-title",
    ),
]


def _yaml(key: str, fields: dict[str, str]) -> str:
    lines = [f"    - key: {key}", f'      title: "{fields["title"]}"', "      authors: [Ann Lee]"]
    lines += [f"      {name}: '{value}'" for name, value in fields.items() if name != "title"]
    return "\n".join(lines) + "\n"


def _catalog(tmp_path: Path, *papers: tuple[str, dict[str, str]]):
    body = "2023:\n  OSDI:\n" + "".join(_yaml(key, fields) for key, fields in papers)
    return write_catalog(tmp_path, body)


def _bib(key: str, fields: dict[str, str]) -> str:
    extra = "".join(
        f"  {'eprint' if name == 'arxiv' else name} = {{{value}}},\n"
        for name, value in fields.items()
        if name != "title"
    )
    return (
        f"@inproceedings{{{key},\n  title = {{{{{fields['title']}}}}},\n  author = {{Ann Lee}},\n"
        f"  booktitle = {{{OSDI}}},\n  year = {{2023}},\n{extra}}}\n"
    )


def _by_check(tmp_path: Path, first: dict[str, str], second: dict[str, str]) -> bool:
    paths = _catalog(tmp_path / "check", ("lee2023a", first), ("lee2023b", second))
    return any(
        p.message.startswith("title nearly the same as lee2023a") and p.where.endswith("lee2023b")
        for p in check(paths)
    )


def _by_finder(first: dict[str, str], second: dict[str, str]) -> bool:
    def paper(key: str, fields: dict[str, str]) -> Paper:
        return Paper(key=key, authors=["Ann Lee"], year=2023, venue="OSDI", **fields)

    finder = duplicates.Finder.of([paper("lee2023a", first)])
    return finder.find(paper("lee2023b", second)) is not None


def _by_import(tmp_path: Path, first: dict[str, str], second: dict[str, str]) -> bool:
    paths = _catalog(tmp_path / "import", ("lee2023a", first))
    report = importer.import_bib(paths, _bib("lee2023b", second), "b.bib", dry_run=True)
    [outcome] = report.outcomes
    return outcome.action == "duplicate" or "possible duplicate of lee2023a" in outcome.reason


def _by_edit(tmp_path: Path, first: dict[str, str], second: dict[str, str]) -> bool:
    """A hand edit that gives the later paper its title (and ids): the edit's check warns."""
    unrelated = {"title": "Quantum Annealing of Garden Sheds"}
    paths = _catalog(tmp_path / "edit", ("lee2023a", first), ("lee2023b", unrelated))
    with writer.edit(paths) as session:
        session.update("lee2023b", **second)
        result = session.commit(dry_run=True)
    return any(w.message.startswith("title nearly the same as lee2023a") for w in result.warnings)


@pytest.mark.parametrize(("first", "second", "alike"), TITLE_PAIRS)
def test_check_import_finder_and_edit_judge_a_title_pair_alike(
    tmp_path: Path, first: dict[str, str], second: dict[str, str], alike: bool
) -> None:
    """check, import (.bib), the Finder (which the inbox asks) and an edit's check give one
    answer for one pair: alike titles are a possible duplicate unless ids differ."""
    answers = {
        "check": _by_check(tmp_path, first, second),
        "finder": _by_finder(first, second),
        "import": _by_import(tmp_path, first, second),
        "edit": _by_edit(tmp_path, first, second),
    }
    assert answers == dict.fromkeys(answers, alike)


# ---------------------------------------------------------------- a DOI

BARE = "10.1145/3600006.3613142"
# (a DOI as some door is given it, the DOI the catalog keeps of it: None when it names none)
DOIS = [
    pytest.param(BARE, BARE, id="bare"),
    pytest.param(f"https://doi.org/{BARE}", BARE, id="doi.org-link"),
    pytest.param(f"http://dx.doi.org/{BARE}", BARE, id="dx.doi.org-link"),
    pytest.param(f"doi:{BARE}", BARE, id="doi-colon"),
    pytest.param(f"DOI: {BARE}", BARE, id="doi-colon-space"),
    pytest.param("10.1145/x\\input{/etc/hostname}", None, id="latex-injection"),
    pytest.param("https://doi.org/10.1145/x y", None, id="space"),
    pytest.param("10.1145", None, id="no-suffix"),
]


def _doi_by_add(cli, paths, value: str) -> str | None:
    from catalog.data import reader

    result = cli(
        "add", "--title", "A Title", "--author", "Ann Lee", "--year", "2023", "--venue", "OSDI",
        "--doi", value, "--key", "lee2023title",
    )  # fmt: skip
    if result.exit_code != 0:
        assert result.exit_code == 2 and "is not a DOI" in result.output, result.output
        return None
    return next(p.doi for p in reader.load(paths.catalog) if p.key == "lee2023title")


def _doi_by_bib(value: str) -> str | None:
    from catalog.bib.bibtex import read_bib

    bib = _bib("lee2023title", {"title": "A Title", "doi": value})
    [record] = read_bib(bib, "a.bib", REGISTRY)
    assert record.paper is not None, record.problems
    return record.paper.doi


def _doi_by_list(value: str) -> str | None:
    from catalog.ingest.listfields import Entry, with_ids

    link = value if "doi.org/" in value else f"https://doi.org/{value.removeprefix('doi:')}"
    return with_ids(Entry(1, "A Title", "OSDI", 2023), link).doi


def _doi_by_service(value: str) -> str | None:
    from catalog.ingest.services import Record

    return Record("Crossref", "A Title", ["Ann Lee"], doi=value).doi


def _doi_by_check(tmp_path: Path, value: str) -> str | None:
    """The DOI check takes the catalog's to be: the value when it finds nothing, the one
    its hint names when the value is not bare, else None."""
    paths = _catalog(tmp_path / "check", ("lee2023title", {"title": "A Title", "doi": value}))
    found = [p for p in check(paths) if p.message.startswith("malformed DOI")]
    if not found:
        return value
    [problem] = found
    return problem.hint.removeprefix("write the bare DOI: ") if ": 10." in problem.hint else None


@pytest.mark.parametrize(("value", "kept"), DOIS)
def test_every_door_reads_a_doi_alike(tmp_path: Path, cli, paths, value: str, kept) -> None:
    """add's --doi, a .bib, a list's link, a service's reply (which update applies) and
    check keep the same DOI of one value, or all refuse it (issue 29: add refused a
    doi.org link that import took)."""
    answers = {
        "add": _doi_by_add(cli, paths, value),
        "bib": _doi_by_bib(value),
        "service": _doi_by_service(value),
        "check": _doi_by_check(tmp_path, value),
    }
    if (
        value.startswith(("10.", "https://doi.org/", "http://dx.doi.org/", "doi:"))
        and " " not in value
    ):
        answers["list"] = _doi_by_list(value)
    assert answers == dict.fromkeys(answers, kept)


def test_an_arxiv_doi_names_the_preprint_for_every_door() -> None:
    """arXiv's own DOI, bare or as a link, is the preprint's arXiv id to a .bib, a list
    and the duplicate finder alike."""
    from catalog.bib.bibtex import read_bib
    from catalog.check.duplicates import norm_arxiv, norm_doi
    from catalog.ingest.listfields import Entry, with_ids

    for value in ("10.48550/arXiv.2301.02959", "https://doi.org/10.48550/arXiv.2301.02959"):
        bib = _bib("lee2023title", {"title": "A Title", "doi": value})
        [record] = read_bib(bib, "a.bib", REGISTRY)
        assert record.paper is not None
        assert (record.paper.arxiv, record.paper.doi) == ("2301.02959", None)
        entry = with_ids(
            Entry(1, "A Title", None, 2023), "https://doi.org/10.48550/arXiv.2301.02959"
        )
        assert entry.arxiv == "2301.02959"
        assert (norm_arxiv(None, value), norm_doi(value)) == ("2301.02959", None)


# ---------------------------------------------------------------- "is a preprint"

PREPRINT_REGISTRY = {
    "arXiv": Venue("arXiv", "preprint", "arXiv"),
    "SSRN": Venue("SSRN", "preprint", "Social Science Research Network"),  # not named arXiv
    "OSDI": Venue("OSDI", "conference", OSDI),
    "Nature": Venue("Nature", "journal", "Nature"),
}


def _preprint_by_check(venue: str) -> bool:
    """check's rule: a preprint cannot be older than its own arXiv id."""
    from catalog.check.rules import paper_problems

    paper = Paper("lee2019fast", "Fast", ["Ann Lee"], 2019, venue, arxiv="2301.00001")
    found = paper_problems([paper], "papers.yaml", PREPRINT_REGISTRY, {})
    return any("after the paper's year" in p.message for p in found)


def _preprint_by_import(venue: str) -> bool:
    """import's rule: one title by one first author four years apart is one paper only
    when one of them is a preprint."""
    published = Paper("lee2023fast", "Fast Caches", ["Ann Lee"], 2023, "OSDI")
    finder = duplicates.Finder.of([published], PREPRINT_REGISTRY)
    match = finder.find(Paper("", "Fast Caches", ["Ann Lee"], 2019, venue))
    assert match is not None
    return match.sure


def _preprint_by_merge(venue: str) -> bool:
    """merge's rule: a preprint moves to the venue of its published version."""
    existing = Paper("lee2019fast", "Fast Caches", ["Ann Lee"], 2019, venue)
    published = Paper("", "Fast Caches", ["Ann Lee"], 2019, "OSDI")
    return duplicates.plan_merge(existing, published, PREPRINT_REGISTRY).move_to is not None


def _preprint_by_bibtex(venue: str) -> bool:
    """BibTeX's --arxiv-style journal writes a preprint as 'arXiv preprint arXiv:ID'."""
    from catalog.bib import bibtex

    paper = Paper("lee2019fast", "Fast Caches", ["Ann Lee"], 2019, venue, arxiv="1901.00001")
    entry = bibtex.entry(paper, PREPRINT_REGISTRY, ExportOptions(arxiv_style="journal"))
    return "arXiv preprint arXiv:1901.00001" in entry


def _preprint_by_csl(venue: str) -> bool:
    """CSL-JSON types a preprint 'article' (a journal's paper is 'article-journal')."""
    from catalog.bib import csljson

    paper = Paper("lee2019fast", "Fast Caches", ["Ann Lee"], 2019, venue)
    return csljson.item(paper, PREPRINT_REGISTRY[venue])["type"] == "article"


@pytest.mark.parametrize(
    ("venue", "preprint"),
    [("arXiv", True), ("SSRN", True), ("OSDI", False), ("Nature", False)],
)
def test_check_import_merge_and_export_agree_on_a_preprint(venue: str, preprint: bool) -> None:
    """One answer to "are this venue's papers preprints?": the registry's kind, asked by
    check, the duplicate finder, merge and the exporters (registry.is_preprint)."""
    answers = {
        "check": _preprint_by_check(venue),
        "import": _preprint_by_import(venue),
        "merge": _preprint_by_merge(venue),
        "bibtex": _preprint_by_bibtex(venue),
        "csl-json": _preprint_by_csl(venue),
    }
    assert answers == dict.fromkeys(answers, preprint)


def test_a_venue_the_registry_lacks_is_a_preprint_by_its_name() -> None:
    from catalog.data.registry import is_preprint

    assert is_preprint("CoRR") and is_preprint("arxiv", PREPRINT_REGISTRY)
    assert not is_preprint("SSRN") and is_preprint("SSRN", PREPRINT_REGISTRY)


# ---------------------------------------------------------------- LaTeX as text

# LaTeX as the catalog holds it: arXiv abstracts keep theirs, BibTeX protects capitals.
LATEX_IN_THE_CATALOG = [
    r"speedups of \textbf{5.83$\times$} over PyTorch",
    r"leaving 20-30\% latency improvement unrealized",
    r"achieves $32\,\mathrm{\mu s}$ decision latency",
    r"code at \url{https://github.com/PKU-SEC-Lab/HybriMoE}",
    r"M\"{u}ller \& Co: {GPU} Caching with Ekko~2",
    "{GPU} Caching",
    r"see \href{https://a.org}{here}",
]


@pytest.mark.parametrize("text", LATEX_IN_THE_CATALOG)
def test_the_site_reads_latex_as_import_does(text: str) -> None:
    """The site's page text (links.plain) reads LaTeX with the importer's reader
    (bib.latex.to_text): one converter, one answer."""
    from catalog.bib.latex import to_text
    from catalog.site.links import plain

    assert plain(text) == to_text(text)
    assert "\\" not in plain(text) and "{" not in plain(text)


# ---------------------------------------------------------------- a note's Markdown as HTML

NOTE = "!!! note\n    Caches win.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


def test_a_reading_note_is_converted_as_the_site_converts_its_pages(tmp_path: Path, paths) -> None:
    """The paper page's reading note and a page of the site are converted alike: the
    hook and the builder hand SiteData the site's own Markdown extensions (mkdocs.yml's
    admonitions here), and note_html is the one conversion."""
    import markdown
    from mkdocs.config import load_config

    from catalog.site import render, sitedata
    from catalog.site.hook import use_markdown
    from tests.conftest import REPO

    paths.readings.mkdir(parents=True)
    (paths.readings / "kurniawan2023evstore.md").write_text(NOTE, encoding="utf-8")
    data, _ = sitedata.load(paths, [], with_charts=False)
    config = load_config(str(REPO / "mkdocs.yml"))
    use_markdown(data, config)
    page = render.paper_page(data.by_key["kurniawan2023evstore"], data)
    # What mkdocs makes of the same Markdown as a page of the site, made inert.
    as_page = markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs
    ).convert(NOTE)
    assert '<div class="admonition note">' in as_page
    assert sitedata.sanitize(as_page) in page


def test_a_site_without_extensions_converts_notes_as_mkdocs_would(tmp_path: Path) -> None:
    """SiteData's own defaults are the extensions mkdocs adds to any site's."""
    from mkdocs.config import load_config

    from catalog.site.sitedata import MKDOCS_EXTENSIONS

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    assert list(config.markdown_extensions) == list(MKDOCS_EXTENSIONS)


# ---------------------------------------------------------------- export options


@pytest.mark.parametrize(
    "flags",
    [[], ["--ascii"], ["--venue-style", "short", "--arxiv-style", "journal"]],
)
def test_cite_export_and_the_library_write_one_entry_for_one_set_of_options(
    cli, paths, flags: list[str]
) -> None:
    """`papers cite` and `papers export` parse their flags into one ExportOptions, and the
    library's entry for those options is what both print."""
    from catalog.bib import bibtex
    from catalog.bib.options import ExportOptions
    from catalog.data import reader
    from catalog.data.registry import load_venues

    cited = cli("cite", "he2021fastmoe", *flags)
    exported = cli("export", "key:he2021fastmoe", *flags)
    assert cited.exit_code == 0 and exported.exit_code == 0, cited.output + exported.output
    names = {"--ascii": "ascii", "--venue-style": "venue_style", "--arxiv-style": "arxiv_style"}
    given: dict[str, object] = {}
    for i, flag in enumerate(flags):
        if flag in names:
            given[names[flag]] = True if flag == "--ascii" else flags[i + 1]
    paper = next(p for p in reader.load(paths.catalog) if p.key == "he2021fastmoe")
    entry = bibtex.entry(paper, load_venues(paths.venues), ExportOptions(**given))  # type: ignore[arg-type]
    assert cited.stdout == exported.stdout == entry


def test_check_and_an_edit_find_one_arxiv_id_under_its_doi(tmp_path: Path) -> None:
    """A paper with arXiv id X and one with arXiv's DOI for X share an arXiv id: check
    reports it, and an edit that makes the pair is refused with the same finding."""
    first = {"title": "Fleche: An Efficient GPU Embedding Cache", "arxiv": "2301.00001"}
    second = {"title": "HugeCTR: Embedding Caches on Many GPUs", "doi": "10.48550/arXiv.2301.00001"}
    paths = _catalog(tmp_path / "check", ("lee2023a", first), ("lee2023b", second))
    checked = [p.message for p in check(paths) if p.message.startswith("duplicate arXiv id")]
    assert checked == ["duplicate arXiv id 10.48550/arXiv.2301.00001 (also lee2023a, line 3)"]
    paths = _catalog(
        tmp_path / "edit", ("lee2023a", first), ("lee2023b", {"title": second["title"]})
    )
    with pytest.raises(writer.InvalidEditError) as refused, writer.edit(paths) as session:
        session.update("lee2023b", doi=second["doi"])
        session.commit(dry_run=True)
    assert [p.message for p in refused.value.problems] == checked


# ---------------------------------------------------------------- "which paper a link names"

LINKS = [
    ("https://arxiv.org/abs/2301.02959", "2301.02959", None),
    ("https://arxiv.org/pdf/2301.02959.pdf", "2301.02959", None),
    ("https://arxiv.org/ftp/arxiv/papers/2301/2301.02959.pdf", "2301.02959", None),
    ("https://doi.org/10.48550/arXiv.2301.02959", "2301.02959", None),
    ("https://dl.acm.org/doi/abs/10.1145/3326937.3341255", None, "10.1145/3326937.3341255"),
    ("https://doi.org/10.1145/3326937.3341255", None, "10.1145/3326937.3341255"),
]


@pytest.mark.parametrize(("link", "arxiv", "doi"), LINKS)
def test_every_reader_takes_one_paper_from_a_link(link: str, arxiv, doi) -> None:
    """A list's line, a .bib url and check's source rule name the same arXiv id and DOI
    for one link (issue 29: three readers of links disagreed on FTP paths and /doi/)."""
    from catalog.bib.fields import arxiv_id
    from catalog.check.sources import linked_ids
    from catalog.ingest.listfields import Entry, with_ids

    entry = with_ids(Entry(1, "A Title", None, 2023), f"[paper]({link})")
    assert (entry.arxiv, entry.doi if doi else None) == (arxiv, doi)
    assert arxiv_id({"url": link}) == arxiv
    assert linked_ids(link) == (arxiv, doi.lower() if doi else None)
