"""Site renderers, related papers and charts, driven as a library (no mkdocs run)."""

from __future__ import annotations

import html
import json
import re

import pytest

from catalog import charts, related, site
from catalog.model import Paper
from catalog.notes import Note, find_links
from catalog.paths import Paths
from tests.conftest import PAPERS, write_catalog

ODD = PAPERS.replace(
    '"FastMoE: A Fast Mixture-of-Expert Training System"',
    '"Fast{MoE}: <Fast> & *Mixture* of [Experts] \\\\& M\\\\\\"{u}ller\'s `GPU` | 50%"',
).replace("[Jiaao He, Jiezhong Qiu, Jie Tang]", '[Jiaao He, "M\\\\\\"{u}ller, J{\\\\o}rn", <b>Bold</b>]')


def data_for(paths: Paths, notes: list[Note] | None = None) -> site.SiteData:
    data, problems = site.load(paths, notes, with_charts=False)
    assert problems == []
    return data


def test_plain_resolves_latex_and_leaves_plain_text_alone():
    assert site.plain("{GPU} Caching") == "GPU Caching"
    assert site.plain('M\\"{u}ller \\& Co') == "Müller & Co"
    assert site.plain("50% of {A} & #1") == "50% of A & #1"
    assert site.plain("A <b> & C") == "A <b> & C"


def test_md_escapes_html_and_markdown():
    assert site.md("a <b> & c") == "a &lt;b&gt; &amp; c"
    assert site.md("*x* _y_ [z](w) `q` |") == "\\*x\\* \\_y\\_ \\[z\\]\\(w\\) \\`q\\` \\|"


def test_paper_page_has_every_part(paths):
    paths.readings.mkdir(parents=True)
    (paths.readings / "kurniawan2023evstore.md").write_text(
        "## My reading\n\nCompare with [[lai2023adaembed]].\n", encoding="utf-8")
    note = Note(paths.notes / "caching.md", "Caching notes",
                find_links("[[kurniawan2023evstore]]"))
    data = data_for(paths, [note])
    data.bibtex = {"kurniawan2023evstore": "@inproceedings{kurniawan2023evstore,\n}"}
    page = site.paper_page(data.by_key["kurniawan2023evstore"], data)
    assert page.startswith('---\ntitle: "EVStore: Storage and Caching Capabilities')
    assert "\n---\n\n<h1>EVStore: Storage and Caching Capabilities" in page
    assert "Daniar H. Kurniawan, Ruipu Wang and Haryadi S. Gunawi" in page
    assert ('<a href="../../venues/asplos/">ASPLOS</a>: ACM International Conference'
            in page)
    assert '<a href="../../years/2023/">2023</a>, pages 281-294' in page
    assert ('<a href="https://doi.org/10.1145/3575693.3575718">DOI 10.1145/3575693.3575718'
            "</a>") in page
    assert ('<a href="../../tags/embedding/">embedding</a>, '
            '<a href="../../tags/caching/">caching</a>') in page
    assert "<strong>Reading status:</strong> to read" in page
    assert "Summary<a" in page and "<p>Caches embedding lookups in three layers.</p>" in page
    # The reading note is nested under our heading and its links resolved.
    assert "Reading note<a" in page and "<h3" in page and "My reading</h3>" in page
    assert '<a href="../lai2023adaembed/" title="AdaEmbed: Adaptive' in page
    assert '<h2 id="cite" data-search-exclude>' in page
    assert '<code class="language-bibtex">@inproceedings{kurniawan2023evstore,' in page
    assert '<li><a href="../lai2023adaembed/">AdaEmbed: Adaptive Embedding' in page
    assert '<li><a href="../../notes/caching/">Caching notes</a></li>' in page
    assert [anchor for anchor, _ in site.toc_of(page)] == [
        "summary", "reading-note", "cite", "related-papers", "discussed-in"]


def test_paper_page_without_optional_parts(paths):
    data = data_for(paths)
    data.bibtex = {}  # as while catalog/bibtex.py was not there
    page = site.paper_page(data.by_key["he2021fastmoe"], data)
    assert '<a href="https://arxiv.org/abs/2103.13262">arXiv 2103.13262</a>' in page
    assert 'id="cite"' not in page
    assert "No note discusses this paper yet." in page
    assert "Reading note" not in page


def test_urls_follow_use_directory_urls():
    assert site.url("papers/a.md", "papers/b.md") == "../b/"
    assert site.url("papers/a.md", "index.md") == "../../"
    assert site.url("papers/a.md", "years/index.md") == "../../years/"
    assert site.url("index.md", "papers/b.md") == "papers/b/"
    assert site.url("papers/a.md", "papers/b.md", directory_urls=False) == "b.html"
    assert site.url("papers/a.md", "index.md", directory_urls=False) == "../index.html"
    assert site.url("index.md", "assets/charts/x.svg") == "assets/charts/x.svg"


def test_odd_titles_and_names_are_text_not_markup(tmp_path):
    paths = write_catalog(tmp_path, ODD)
    data = data_for(paths)
    paper = data.by_key["he2021fastmoe"]
    page = site.paper_page(paper, data)
    title, heading = page.splitlines()[1], page.splitlines()[4]
    assert title.startswith('title: "FastMoE: &lt;Fast&gt; &amp; ')
    assert heading == ("<h1>FastMoE: &lt;Fast&gt; &amp; *Mixture* of [Experts] &amp; "
                       "Müller&#x27;s `GPU` | 50%</h1>")
    assert "Müller, Jørn" in page and "&lt;b&gt;Bold&lt;/b&gt;" in page
    year = site.year_page(2021, [paper], data)
    assert ">FastMoE: &lt;Fast&gt; &amp; *Mixture* of [Experts]" in year and "<Fast>" not in year


def test_lists_and_indexes(paths):
    data = data_for(paths)
    pages = site.generate(data)
    assert set(pages) >= {
        "papers/kurniawan2023evstore.md", "papers/lai2023adaembed.md",
        "papers/he2021fastmoe.md", "years/2023.md", "years/2021.md", "venues/asplos.md",
        "venues/arxiv.md", "tags/moe.md", "years/index.md", "venues/index.md",
        "tags/index.md", "notes/index.md"}
    year = pages["years/2023.md"]
    assert '<h2 id="venue-asplos" data-search-exclude>ASPLOS<a' in year
    assert ('<a href="../../venues/osdi/">USENIX Symposium on Operating Systems Design and '
            "Implementation</a>") in year
    assert ('<li><a href="../../papers/lai2023adaembed/">AdaEmbed: Adaptive Embedding for '
            "Large-Scale Recommendation Models</a><br>Fan Lai, Wei Zhang and Mosharaf "
            "Chowdhury</li>") in year
    assert site.is_html_page("years/2023.md") and not site.is_html_page("years/index.md")
    assert "(OSDI)" in pages["tags/training.md"] and 'id="year-2023"' in pages["tags/training.md"]
    venues = pages["venues/index.md"]
    assert "| [OSDI](osdi.md) | USENIX Symposium" in venues
    assert "| PVLDB | Proceedings of the VLDB Endowment | journal | 0 |" in venues
    assert "<p>Embedding tables.</p>" in pages["tags/embedding.md"]
    assert "<p>USENIX Symposium on Operating Systems Design and Implementation: conference, " \
        "published by USENIX Association.</p>" in pages["venues/osdi.md"]
    assert "| [embedding](embedding.md) | 2 |" in pages["tags/index.md"]


def test_home_sections(paths):
    data = data_for(paths)
    home = site.fill_home("# Home\n\n<!-- papers:counts -->\n\n<!-- papers:latest -->\n",
                          data)
    assert "**3** papers from 2021 to 2023" in home
    assert "1 read, 2 to read" in home
    assert "- [EVStore: Storage" in home or "- [AdaEmbed" in home
    assert "<!--" not in home


def test_link_papers_uses_short_titles_and_relative_links(paths):
    data = data_for(paths)
    text = "See [[he2021fastmoe]], [[lai2023adaembed|this]] and [[nobody2020none]]."
    out = site.link_papers(text, "notes/x.md", data)
    assert out.startswith('See [FastMoE](../papers/he2021fastmoe.md "FastMoE: A Fast')
    assert "[this](../papers/lai2023adaembed.md " in out
    assert "`nobody2020none`" in out


def test_link_problems_name_file_and_line(paths):
    paths.notes.mkdir(parents=True)
    (paths.notes / "n.md").write_text("# N\n\nok [[he2021fastmoe]]\n[[he2021fastmo]]\n",
                                      encoding="utf-8")
    paths.readings.mkdir(parents=True)
    (paths.readings / "lai2023adaembed.md").write_text("x\n\n[[lai2023]]\n", encoding="utf-8")
    _, problems = site.load(paths, with_charts=False)
    text = [str(p) for p in problems]
    assert len(text) == 2
    assert re.search(r"lai2023adaembed\.md:3: .*unknown paper 'lai2023'", text[0])
    assert re.search(r"n\.md:4: .*unknown paper 'he2021fastmo' .*did you mean", text[1])


def test_slugs_and_clashes(paths):
    data = data_for(paths)
    assert site.slug("arXiv") == "arxiv" and site.slug("a:b") == "a-b"
    assert site.slug_clashes(data) == []
    data.papers.append(Paper("he2021:fastmoe", "T", ["A"], 2021, "arXiv"))
    data.papers.append(Paper("he2021-fastmoe", "T", ["A"], 2021, "arXiv"))
    assert "would share the page papers/he2021-fastmoe.md" in site.slug_clashes(data)[0]


def test_bibtex_block_uses_the_real_exporter(paths):
    from catalog.bibtex import entry

    data = data_for(paths)
    paper = data.by_key["kurniawan2023evstore"]
    assert data.bibtex[paper.key] == entry(paper, data.venues)
    page = site.paper_page(paper, data)
    shown = re.sub(r"<[^>]+>", "", page[page.index('id="cite"'):page.index('id="related')])
    assert html.escape(entry(paper, data.venues).strip(), quote=True) in shown


# ---------------------------------------------------------------- related papers


def make(key: str, title: str, summary: str = "", tags: tuple[str, ...] = ()) -> Paper:
    return Paper(key, title, ["A B"], 2022, "OSDI", summary=summary, tags=list(tags))


CORPUS = [
    make("a1", "Embedding caches for recommendation", "Caches hot embedding rows on GPUs",
         ("embedding", "caching")),
    make("a2", "GPU embedding cache", "A cache of embedding vectors in GPU memory",
         ("embedding", "caching")),
    make("b1", "Mixture of experts training", "Expert parallel training with all-to-all",
         ("moe",)),
    make("b2", "Faster expert parallel training", "Shadows popular experts", ("moe",)),
    make("c1", "Unrelated topic", "Nothing shared at all"),
]


def test_related_ranks_by_shared_words_and_excludes_self():
    out = related.related_all(CORPUS, 2)
    assert out["a1"][0][0] == "a2" and out["b1"][0][0] == "b2"
    assert all(key != k for key, hits in out.items() for k, _ in hits)
    assert out["c1"] == []  # nothing in common: nothing shown
    scores = [s for _, s in out["a1"]]
    assert scores == sorted(scores, reverse=True)


def test_related_one_paper_matches_all_papers():
    everything = related.related_all(CORPUS)
    for paper in CORPUS:
        one = [(p.key, s) for p, s in related.related(CORPUS, paper.key)]
        assert one == everything[paper.key]


def test_related_many_papers_across_blocks(monkeypatch):
    papers = [make(f"p{i:04}", f"system {i % 17} cache {i % 5} shard {i % 3}",
                   f"word{i % 11} word{i % 7}", ("t" + str(i % 4),)) for i in range(400)]
    small = related.related_all(papers, 5)
    monkeypatch.setattr(related, "_BLOCK_PAIRS", 500)  # many tiny blocks, same answer
    assert related.related_all(papers, 5) == small
    assert all(len(v) == 5 for v in small.values())


def test_related_unknown_key():
    from catalog.errors import PaperNotFound

    with pytest.raises(PaperNotFound, match="did you mean 'a1'"):
        related.related(CORPUS, "a11")


def test_cli_related(cli):
    result = cli("related", "kurniawan2023evstore", "-n", "1")
    assert result.exit_code == 0, result.output
    assert result.output.split()[1] == "lai2023adaembed"
    data = json.loads(cli("related", "kurniawan2023evstore", "--json").output)
    assert data[0]["key"] == "lai2023adaembed"
    assert all(0 < d["score"] <= 1 for d in data)
    bad = cli("related", "kurniawan2023evstor")
    assert bad.exit_code == 1
    assert "did you mean 'kurniawan2023evstore'" in bad.output


# ---------------------------------------------------------------- charts


def test_charts_are_reproducible_svg_with_alt_text(paths):
    papers = data_for(paths).papers
    first = charts.render_all(papers)
    again = charts.render_all(papers)
    assert [c.name for c in first] == ["papers-per-year", "tag-counts", "coverage"]
    assert [c.svg for c in first] == [c.svg for c in again]
    for chart in first:
        assert chart.svg.lstrip().startswith("<?xml") and "<svg" in chart.svg
        assert "<dc:date>" not in chart.svg
        assert chart.alt and chart.caption
    assert "from 2021 to 2023" in first[0].alt
    assert "embedding 2" in first[1].alt
    assert charts.render_all([]) == []


def test_charts_lump_rare_venues_into_other():
    papers = [Paper(f"k{i}", "T", ["A"], 2000 + i % 3, f"V{i}") for i in range(15)]
    chart = charts.papers_per_year(papers)
    assert "other" in chart.alt and "V0" in chart.alt
