"""Site renderers, related papers and charts, driven as a library (no mkdocs run)."""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.data.notes import Note, find_links
from catalog.index import related
from catalog.model import Paper
from catalog.paths import Paths
from catalog.site import (
    charts,
    history,
    hook,
    links,
    listpages,
    markup,
    render,
    shelves,
    sitedata,
)
from catalog.site import home as homepage
from tests.conftest import PAPERS, write_catalog

ODD = PAPERS.replace(
    '"FastMoE: A Fast Mixture-of-Expert Training System"',
    '"Fast{MoE}: <Fast> & *Mixture* of [Experts] \\\\& M\\\\\\"{u}ller\'s `GPU` | 50%"',
).replace(
    "[Jiaao He, Jiezhong Qiu, Jie Tang]", '[Jiaao He, "M\\\\\\"{u}ller, J{\\\\o}rn", <b>Bold</b>]'
)


def data_for(paths: Paths, notes: list[Note] | None = None) -> sitedata.SiteData:
    data, problems = sitedata.load(paths, notes, with_charts=False)
    assert problems == []
    return data


def test_plain_resolves_latex_and_leaves_plain_text_alone():
    assert links.plain("{GPU} Caching") == "GPU Caching"
    assert links.plain('M\\"{u}ller \\& Co') == "Müller & Co"
    assert links.plain("50% of {A} & #1") == "50% of A & #1"
    assert links.plain("A <b> & C") == "A <b> & C"


@pytest.mark.parametrize("text", [r"n\sqrt", r"x\footnote", r"\input", r"\title"])
def test_plain_keeps_text_that_pylatexenc_fails_on(text):
    assert links.plain(text) == text
    assert links.plain(r"see \href{https://a.org}{here}") == "see here <https://a.org>"


def test_md_escapes_html_and_markdown():
    assert links.md("a <b> & c") == "a &lt;b&gt; &amp; c"
    assert links.md("*x* _y_ [z](w) `q` |") == "\\*x\\* \\_y\\_ \\[z\\]\\(w\\) \\`q\\` \\|"


def data_with_reading(paths, reading: str, note_title: str):
    """The site's data with a reading note on kurniawan2023evstore and a note, titled
    note_title, that links to it."""
    paths.readings.mkdir(parents=True)
    (paths.readings / "kurniawan2023evstore.md").write_text(reading, encoding="utf-8")
    note = Note(paths.notes / "caching.md", note_title, find_links("[[kurniawan2023evstore]]"))
    return data_for(paths, [note])


def test_paper_page_has_every_part(paths):
    data = data_with_reading(
        paths, "## My reading\n\nCompare with [[lai2023adaembed]].\n", "Caching notes"
    )
    data.bibtex = {"kurniawan2023evstore": "@inproceedings{kurniawan2023evstore,\n}"}
    page = render.paper_page(data.by_key["kurniawan2023evstore"], data)
    assert links.read_front(page)[1]["title"].startswith("EVStore: Storage and Caching Capab")
    assert '\n<h1 id="title">EVStore: Storage and Caching Capabilities' in page
    assert (
        '<p class="pp-summary"><span class="pp-where"><a href="../../venues/asplos/">ASPLOS</a> '
        '<a href="../../years/2023/">2023</a></span> Caches embedding lookups'
    ) in page
    assert links.read_front(page)[1]["tags"] == ["ASPLOS", "2023"]  # search's tags
    # Every author's name links to their page.
    assert (
        '<a href="../../authors/ku/#daniar-h-kurniawan">Daniar H. Kurniawan</a>, '
        '<a href="../../authors/wa/#ruipu-wang">Ruipu Wang</a> and '
        '<a href="../../authors/gu/#haryadi-s-gunawi">Haryadi S. Gunawi</a>'
    ) in page
    assert '<a href="../../venues/asplos/">ASPLOS</a>: ACM International Conference' in page
    assert '<a href="../../years/2023/">2023</a>, pages 281-294' in page
    assert (
        '<a href="https://doi.org/10.1145/3575693.3575718">DOI 10.1145/3575693.3575718</a>'
    ) in page
    assert (
        '<a href="../../tags/embedding/">embedding</a>, <a href="../../tags/caching/">caching</a>'
    ) in page
    assert "Reading status" not in page  # the curator's, off the site by default
    # The summary first (what search shows), the facts kept out of the index.
    assert (
        "2023</a></span> Caches embedding lookups in three layers.</p>\n"
        '<p class="pp-authors"><a href="../../authors/ku/#daniar-h-kurniawan">Daniar'
    ) in page
    assert '<ul class="pp-facts" data-search-exclude>' in page
    data.show_status = True
    assert "<strong>Reading status:</strong> to read" in render.paper_page(
        data.by_key["kurniawan2023evstore"], data
    )
    # The reading note is nested under our heading and its links resolved.
    assert "Reading note<a" in page and "<h3" in page and "My reading</h3>" in page
    assert '<a href="../lai2023adaembed/" title="AdaEmbed: Adaptive' in page
    assert '<h2 id="cite" data-search-exclude>' in page
    assert '<code class="language-bibtex">@inproceedings{kurniawan2023evstore,' in page
    assert '<a class="pp-title" href="../lai2023adaembed/">AdaEmbed: Adaptive Embedding' in page
    assert '<li><a href="../../notes/caching/">Caching notes</a></li>' in page
    assert [anchor for anchor, _ in markup.toc_of(page)] == [
        "reading-note",
        "cite",
        "related-papers",
        "discussed-in",
    ]
    # The same sections listed after the trail, for phones (the theme's table of
    # contents is out of reach there on pages outside the nav); not indexed.
    assert (
        '<nav class="pp-contents" aria-label="On this page" data-search-exclude>'
        'On this page: <a href="#reading-note">Reading note</a> · <a href="#cite">Cite</a>'
        ' · <a href="#related-papers">Related papers</a> · <a href="#discussed-in">'
        "Discussed in</a></nav>"
    ) in page


def test_paper_page_without_optional_parts(paths):
    data = data_for(paths)
    data.bibtex = {}  # as while catalog/bib/bibtex.py was not there
    page = render.paper_page(data.by_key["he2021fastmoe"], data)
    assert '<a href="https://arxiv.org/abs/2103.13262">arXiv</a>' in page
    assert '<a href="https://arxiv.org/pdf/2103.13262">PDF</a>' in page
    assert "Metadata from" not in page
    assert 'id="cite"' not in page
    assert "No note discusses this paper yet." in page
    assert "Reading note" not in page
    assert 'On this page: <a href="#related-papers">' in page


def test_relpath_matches_posixpath():
    import itertools
    import posixpath

    paths = [
        "index",
        "papers",
        "papers/a",
        "papers/a/b",
        "tags/x",
        ".",
        "years/2022",
        "assets/charts/x.svg",
        "a/b/c",
    ]
    for path, start in itertools.product(paths, paths):
        assert links._relpath(path, start) == posixpath.relpath(path, start), (path, start)


def test_urls_follow_use_directory_urls():
    assert links.url("papers/a.md", "papers/b.md") == "../b/"
    assert links.url("papers/a.md", "index.md") == "../../"
    assert links.url("papers/a.md", "years/index.md") == "../../years/"
    assert links.url("index.md", "papers/b.md") == "papers/b/"
    assert links.url("papers/a.md", "papers/b.md", directory_urls=False) == "b.html"
    assert links.url("papers/a.md", "index.md", directory_urls=False) == "../index.html"
    assert links.url("index.md", "assets/charts/x.svg") == "assets/charts/x.svg"


def test_odd_titles_and_names_are_text_not_markup(tmp_path):
    paths = write_catalog(tmp_path, ODD)
    data = data_for(paths)
    paper = data.by_key["he2021fastmoe"]
    page = render.paper_page(paper, data)
    title = links.read_front(page)[1]["title"]
    heading = next(line for line in page.splitlines() if line.startswith("<h1"))
    assert title.startswith("FastMoE: &lt;Fast&gt; &amp; ")
    assert heading == (
        '<h1 id="title">FastMoE: &lt;Fast&gt; &amp; *Mixture* of [Experts] &amp; '
        "Müller&#39;s `GPU` | 50%</h1>"
    )
    assert "Müller, Jørn" in page and "&lt;b&gt;Bold&lt;/b&gt;" in page
    year = listpages.year_page(2021, [paper], data)
    assert ">FastMoE: &lt;Fast&gt; &amp; *Mixture* of [Experts]" in year and "<Fast>" not in year


def test_lists_and_indexes(paths):
    data = data_for(paths)
    pages = render.generate(data)
    assert set(pages) >= {
        "papers/kurniawan2023evstore.md",
        "papers/lai2023adaembed.md",
        "papers/he2021fastmoe.md",
        "years/2023.md",
        "years/2021.md",
        "venues/asplos.md",
        "venues/arxiv.md",
        "tags/moe.md",
        "years/index.md",
        "venues/index.md",
        "tags/index.md",
        "notes/index.md",
    }
    year = pages["years/2023.md"]
    # One dense list, by venue, each entry with its badge; no section per venue.
    assert "<h2" not in year
    assert '<a href="#venue-asplos">ASPLOS</a> 1, <a href="#venue-osdi">OSDI</a> 1.' in year
    assert '<li class="pp-entry" id="venue-osdi"><span class="pp-venue" title="USENIX ' in year
    assert year.index("venue-asplos") < year.index('id="venue-osdi"')
    assert (
        '<a class="pp-title" href="../../papers/lai2023adaembed/">AdaEmbed: Adaptive '
        "Embedding for Large-Scale Recommendation Models</a>"
    ) in year
    assert (
        '<div class="pp-authors"><a href="../../authors/la/#fan-lai">Fan Lai</a>, '
        '<a href="../../authors/zh/#wei-zhang">Wei Zhang</a> and '
        '<a href="../../authors/ch/#mosharaf-chowdhury">Mosharaf Chowdhury</a></div>'
    ) in year
    assert 'rel="next">2023' not in year and 'href="../2021/" rel="prev">← 2021</a>' in year
    assert render.is_html_page("years/2023.md") and not render.is_html_page("notes/index.md")
    assert render.is_html_page("papers/index.md")
    assert '<span class="pp-venue" title="USENIX' in pages["tags/training.md"]
    assert 'id="year-2023"' in pages["tags/training.md"]
    venues = pages["venues/index.md"]
    # The count right after the venue, where a phone shows it without scrolling.
    assert (
        '<th>Venue</th><th style="text-align: right">Papers</th><th>Full name</th><th>Kind</th>'
    ) in venues
    assert '<td><a href="osdi/">OSDI</a></td><td style="text-align: right">1</td>' in venues
    assert '<td style="text-align: right">1</td><td>USENIX Symposium' in venues
    # Registry venues without papers are the curator's business, not the reader's.
    assert "PVLDB" not in venues
    assert "<p>Embedding tables.</p>" in pages["tags/embedding.md"]
    assert (
        "<p>USENIX Symposium on Operating Systems Design and Implementation: conference, "
        "published by USENIX Association.</p>" in pages["venues/osdi.md"]
    )
    assert (
        '<td><a href="embedding/">embedding</a></td><td style="text-align: right">2</td>'
    ) in pages["tags/index.md"]


def test_entries_stand_on_their_own(paths):
    data = data_for(paths)
    data.bibtex = {"he2021fastmoe": "@article{he2021fastmoe,\n  title = {FastMoE}\n}"}
    item = markup.paper_item(data.by_key["he2021fastmoe"], "tags/moe.md", data)
    assert item.startswith(
        '<li class="pp-entry"><span class="pp-venue" title="arXiv">arXiv'
        '</span> <span class="pp-year">2021</span> <a class="pp-title" '
        'href="../../papers/he2021fastmoe/">FastMoE'
    )
    # A year's page does not repeat its year on each entry, nor a venue's its venue.
    in_year = markup.paper_item(data.by_key["he2021fastmoe"], "years/2021.md", data)
    assert 'class="pp-venue"' in in_year and 'class="pp-year"' not in in_year
    in_venue = markup.paper_item(data.by_key["he2021fastmoe"], "venues/arxiv.md", data)
    assert 'class="pp-venue"' not in in_venue and 'class="pp-year"' in in_venue
    assert '<div class="pp-summary">A PyTorch system for training' in item
    assert '<a class="pp-tag" href="../../tags/moe/">moe</a>' in in_year
    assert '<a href="https://arxiv.org/pdf/2103.13262" class="pp-link">PDF</a>' in item
    # The BibTeX is loaded when the toggle opens; without scripts it links to the paper's.
    assert (
        '<details class="pp-toggle" data-bib="he2021fastmoe"><summary>BibTeX</summary>'
        '<p><a href="../../papers/he2021fastmoe/#cite">'
    ) in item
    assert "@article" not in item
    assert "Abstract" not in item  # none in the catalog


def test_all_papers_page_and_its_data(paths):
    data = data_for(paths)
    pages = render.generate(data)
    page = pages["papers/index.md"]
    assert "3 papers from 2021 to 2023, newest first." in page
    # Every paper, newest first and then by title (the script's first order), the
    # newest in full: the data comes when the reader acts, not with the page.
    items = re.findall(r'<a class="pp-title" href="([^"]+)">', page)
    assert items == [
        "../papers/lai2023adaembed/",
        "../papers/kurniawan2023evstore/",
        "../papers/he2021fastmoe/",
    ] or items == ["lai2023adaembed/", "kurniawan2023evstore/", "he2021fastmoe/"]
    assert page.count('<li class="pp-entry">') == 3
    assert 'class="pp-authors"' in page
    assert "<script src=" not in page
    scripts = "javascripts/stem.js {0}javascripts/rank.js {0}assets/papers-data.js"
    assert f'data-scripts="../{scripts.format("../")}"' in page or (
        f'data-scripts="../../{scripts.format("../../")}"' in page
    )
    js = pages["assets/papers-data.js"]
    assert js.startswith('window.PAPERS_DATA=JSON.parse("{') and js.endswith('}");\n')
    records = json.loads(json.loads(js[len("window.PAPERS_DATA=JSON.parse(") : -3]))
    fast = next(r for r in records["papers"] if r["k"] == "he2021fastmoe")
    assert fast["u"] == "he2021fastmoe/" and fast["y"] == 2021 and fast["g"] == ["moe", "training"]
    assert ["PDF", "https://arxiv.org/pdf/2103.13262"] in fast["l"]
    assert records["tags"]["moe"] == "../tags/moe/"
    assert "x" not in fast  # the BibTeX comes from its own script, when asked for
    assert "assets/papers-bib.js" not in pages  # that script is the downloads' BibTeX


def test_list_pages_offer_the_bibtex_of_their_papers(paths):
    data = data_for(paths)
    pages = render.generate(data)
    page = pages["tags/embedding.md"]
    assert "Cite these 2 papers:" in page
    tagged = sorted(p.key for p in data.papers if "embedding" in p.tags)
    assert (
        f'data-cite-keys="{" ".join(tagged)}" data-cite-name="tags-embedding">Cite these 2 papers:'
        ' <button type="button" class="pp-download" data-cite="bibtex">BibTeX</button>'
    ) in page
    for uri in ("years/2023.md", "venues/asplos.md"):
        assert 'class="pp-download" data-cite="bibtex"' in pages[uri]


def test_script_data_cannot_close_its_script():
    text = listpages._js_literal({"t": "</script><script>alert(1)</script>\u2028&"})
    assert "<" not in text and ">" not in text and "\u2028" not in text and "&" not in text
    assert json.loads(text) == {"t": "</script><script>alert(1)</script>\u2028&"}


def test_sources_show_where_the_metadata_came_from(paths):
    data = data_for(paths)
    paper = data.by_key["he2021fastmoe"]
    object.__setattr__(
        paper, "sources", ["https://api.crossref.org/works/x", "javascript:alert(1)"]
    )
    page = render.paper_page(paper, data)
    assert (
        '<strong>Metadata from:</strong> <a href="https://api.crossref.org/works/x">'
        "api.crossref.org/works/x</a>, javascript:alert(1)</li>"
    ) in page


def test_home_sections(paths):
    data = data_for(paths)
    home = homepage.fill_home("# Home\n\n<!-- papers:counts -->\n\n<!-- papers:latest -->\n", data)
    assert "**3** [papers](papers/index.md) from 2021 to 2023" in home
    assert "to read" not in home  # reading status stays off the site by default
    # No paper has a date added: no "Latest additions" made up from file order.
    assert "Latest" not in home and "<!--" not in home
    data.papers[0].added = "2024-05-01"
    data.added = history.added_dates(data.papers, paths.catalog)
    data.show_status = True
    home = homepage.fill_home("<!-- papers:counts -->\n<!-- papers:latest -->", data)
    assert "1 read, 2 to read" in home
    assert "## Latest additions" in home and home.count("\n- 2024-05-01: [") == 1


def test_empty_catalog_wording(tmp_path):
    paths = write_catalog(tmp_path, "{}\n")
    data = data_for(paths)
    home = homepage.fill_home(
        "<!-- papers:counts -->\n<!-- papers:notes -->\n<!-- papers:latest -->", data
    )
    assert "The catalog is empty." in home and "none written yet" in home
    assert "discussing" not in home and "each paper they discuss" not in home
    pages = render.generate(data)
    assert "The catalog has no papers yet." in pages["papers/index.md"]
    assert "No papers yet." in pages["venues/index.md"]


def test_link_papers_uses_short_titles_and_relative_links(paths):
    data = data_for(paths)
    text = "See [[he2021fastmoe]], [[lai2023adaembed|this]] and [[nobody2020none]]."
    out = render.link_papers(text, "notes/x.md", data)
    assert out.startswith('See [FastMoE](../papers/he2021fastmoe.md "FastMoE: A Fast')
    assert "[this](../papers/lai2023adaembed.md " in out
    assert "`nobody2020none`" in out


def test_link_problems_name_file_and_line(paths):
    paths.notes.mkdir(parents=True)
    (paths.notes / "n.md").write_text(
        "# N\n\nok [[he2021fastmoe]]\n[[he2021fastmo]]\n", encoding="utf-8"
    )
    paths.readings.mkdir(parents=True)
    (paths.readings / "lai2023adaembed.md").write_text("x\n\n[[lai2023]]\n", encoding="utf-8")
    _, problems = sitedata.load(paths, with_charts=False)
    text = [str(p) for p in problems]
    assert len(text) == 2
    assert re.search(r"lai2023adaembed\.md:3: .*unknown paper 'lai2023'", text[0])
    assert re.search(r"n\.md:4: .*unknown paper 'he2021fastmo' .*did you mean", text[1])


def test_names_alike_get_pages_of_their_own(paths):
    data = data_for(paths)
    assert links.slug("arXiv") == "arxiv" and links.slug("a:b") == "a-b"
    data.papers.append(Paper("he2021:fastmoe", "T", ["A"], 2021, "arXiv"))
    data.papers.append(Paper("he2021-fastmoe", "T", ["A"], 2021, "arXiv"))
    data.papers.append(Paper("He2021-fastmoe", "T", ["A"], 2021, "A.B"))
    data.papers.append(Paper("index", "T", ["A"], 2021, "A-B"))
    data.papers.append(Paper("Index", "T", ["Index"], 2021, "Index", tags=["index"]))
    pages = render.generate(data)
    keys = ["he2021:fastmoe", "he2021-fastmoe", "He2021-fastmoe", "index", "Index"]
    uris = [links.paper_uri(k) for k in keys]
    assert len(set(uris)) == len(uris) and all(u in pages for u in uris)
    assert links.paper_uri("he2021-fastmoe") == "papers/he2021-fastmoe.md"
    assert "papers/index.md" not in uris and "papers/index.md" in pages
    venues = [data.venue_uri(v) for v in ("A.B", "A-B", "Index", "arXiv")]
    assert len(set(venues)) == 4 and "venues/index.md" not in venues
    assert data.venue_uri("arXiv") == "venues/arxiv.md"
    assert links.tag_uri("index") != "tags/index.md" and links.tag_uri("index") in pages
    person = data.people.spelled("Index")
    assert person is not None and shelves.shelf(person) == "authors/in.md"
    assert f'<h2 id="{shelves.anchor(person)}">Index<' in pages["authors/in.md"]


def test_bibtex_block_uses_the_real_exporter(paths):
    from catalog.bib.bibtex import entry

    data = data_for(paths)
    paper = data.by_key["kurniawan2023evstore"]
    assert data.bibtex[paper.key] == entry(paper, data.venues)
    page = render.paper_page(paper, data)
    shown = re.sub(r"<[^>]+>", "", page[page.index('id="cite"') : page.index('id="related')])
    assert html.escape(entry(paper, data.venues).strip(), quote=True) in shown


# ---------------------------------------------------------------- related papers


def make(key: str, title: str, summary: str = "", tags: tuple[str, ...] = ()) -> Paper:
    return Paper(key, title, ["A B"], 2022, "OSDI", summary=summary, tags=list(tags))


CORPUS = [
    make(
        "a1",
        "Embedding caches for recommendation",
        "Caches hot embedding rows on GPUs",
        ("embedding", "caching"),
    ),
    make(
        "a2",
        "GPU embedding cache",
        "A cache of embedding vectors in GPU memory",
        ("embedding", "caching"),
    ),
    make("b1", "Mixture of experts training", "Expert parallel training with all-to-all", ("moe",)),
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
    papers = [
        make(
            f"p{i:04}",
            f"system {i % 17} cache {i % 5} shard {i % 3}",
            f"word{i % 11} word{i % 7}",
            ("t" + str(i % 4),),
        )
        for i in range(400)
    ]
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
    # Nothing of the run (no date, no order of the papers) gets into a chart.
    assert [c.svg for c in charts.render_all(papers[::-1])] == [c.svg for c in first]
    for chart in first:
        assert chart.svg.lstrip().startswith("<?xml") and "<svg" in chart.svg
        assert chart.alt and chart.caption
    assert "from 2021 to 2023" in first[0].alt and "busiest year is 2023" in first[0].alt
    assert "embedding 2" in first[1].alt
    assert charts.render_all([]) == []


def test_charts_lump_rare_venues_into_other():
    papers = [Paper(f"k{i}", "T", ["A"], 2000 + i % 3, f"V{i}") for i in range(25)]
    chart = charts.coverage(papers)
    assert "other" in chart.svg and "V0" in chart.svg
    assert "20 venues" in chart.alt  # 19 shown and 'other'


def test_chart_bars_and_labels_link_to_their_pages(paths):
    data, _ = sitedata.load(paths)
    first = {c.name: c for c in data.charts}
    year = first["papers-per-year"].svg
    assert '<a href="../years/2023/"' not in year  # relative to the home page
    assert '<a href="years/2023/"' in year and '<a href="years/2021/"' in year
    assert 'href="years/2022/"' not in year  # no papers, no page, no link
    assert '<a href="tags/moe/"' in first["tag-counts"].svg
    assert '<a href="venues/osdi/"' in first["coverage"].svg
    assert "<a xlink:href" not in year  # SVG 2's href, which crawlers count as links
    # Each named, as a link's text would name it (the bars and labels are drawn).
    assert '<a href="years/2023/" aria-label="Papers of 2023">' in year
    assert '<a href="tags/moe/" aria-label="Papers tagged moe">' in first["tag-counts"].svg
    assert '<a href="venues/osdi/" aria-label="Papers at OSDI">' in first["coverage"].svg
    assert "<a href=" not in charts.papers_per_year(data.papers).svg  # no links: an image
    inline = homepage.inline_chart(first["tag-counts"])
    assert inline.startswith('<svg role="group" aria-label="Bar chart of papers per tag')
    assert "<?xml" not in inline
    home = homepage.fill_charts(homepage.home_charts(data), data)
    assert home.count('<svg role="group"') == 3 and "<!-- papers-chart" not in home
    ids = re.findall(r'\bid="([^"]*)"', home)
    assert len(ids) == len(set(ids))  # no id of one chart is another's


def test_suggest_a_paper_link(paths):
    assert hook.suggest_url("", "https://github.com/o/r/") == (
        "https://github.com/o/r/issues/new?template=suggest-paper.yml"
    )
    assert hook.suggest_url("https://example.org/form", "https://github.com/o/r") == (
        "https://example.org/form"
    )
    assert hook.suggest_url("javascript:alert(1)", None) is None
    assert hook.suggest_url(None, "") is None
    data = data_for(paths)
    assert "Suggest one" not in homepage.home_counts(data)
    data.suggest_url = "https://example.org/form"
    assert "missing a paper? [Suggest one](https://example.org/form)" in homepage.home_counts(data)
    assert '<a href="https://example.org/form">Suggest one</a>' in listpages.all_papers_page(data)


def _indexed(page_html: str) -> list[tuple[str | None, str, str]]:
    """What Material's search plugin indexes from a page: (id, title, text) per section."""
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(page_html)
    parser.close()
    return [
        (s.id, "".join(s.title).strip(), "".join(s.text).strip())
        for s in parser.data
        if not s.is_excluded()
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\\{}")))
def test_page_title_reads_back_whole(title):
    """The title in front matter reads back as written by mkdocs's YAML: line breaks YAML
    would fold (NEL, U+2028) and characters it refuses are escapes."""
    from mkdocs.utils.meta import get_data

    page = links.front(title, ["<h1>x</h1>", "", "<p>y</p>"])
    expected = html.escape(links.plain(title), quote=False)
    assert get_data(page) == ("<h1>x</h1>\n\n<p>y</p>\n", {"title": expected})
    assert links.read_front(page) == get_data(page)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(st.characters(blacklist_categories=("Cs",))), max_size=3),
    st.text(st.characters(blacklist_categories=("Cs",))),
    st.sampled_from([1.0, 0.5, 10000.0]),
    st.booleans(),
)
def test_front_matter_reads_the_same_by_yaml_and_by_json(values, one, boost, searchable):
    """What a generated page's HtmlPage reads back (json) is what mkdocs's YAML reader
    gives for the same page: meta values, lists, the search's weight, the body."""
    from mkdocs.utils.meta import get_data

    meta: dict[str, str | list[str]] = {"citation_author": values, "citation_title": one}
    page = links.front("T", ["<h1>x</h1>", "<p>---</p>"], ["a b"], meta, searchable, boost)
    assert links.read_front(page) == get_data(page)


def test_url_matches_posixpath_for_every_pair_of_pages():
    """url() works a link out once per folder; it must give what posixpath gives."""
    import itertools
    import posixpath

    uris = [
        "index.md",
        "papers/index.md",
        "papers/a.md",
        "papers/ab.md",
        "papers/a/b.md",
        "papers/a/index.md",
        "years/2012.md",
        "tags/x.md",
        "notes/n.md",
        "a/b/c.md",
        "assets/papers-data.js",
        "assets/charts/c.svg",
        "a.md",
        "a/b/index.md",
    ]
    for from_uri, to_uri in itertools.product(uris, uris):
        for directory_urls in (True, False):
            here = links.page_url(from_uri, directory_urls)
            there = links.page_url(to_uri, directory_urls)
            base = here.rstrip("/") if here.endswith("/") or not here else posixpath.dirname(here)
            want = posixpath.relpath("/" + there.rstrip("/"), "/" + base)
            if there.endswith("/") or not there:
                want = "./" if want == "." else want + "/"
            assert links.url(from_uri, to_uri, directory_urls) == want, (from_uri, to_uri)


def test_chart_files_link_from_where_they_are():
    svg = '<a href="years/2022/"><path/></a><a href="#x"/><a href="https://a.b/"/><use xlink:href="#m"/>'
    assert render.chart_file(svg, None).startswith('<a href="../../years/2022/">')
    published = render.chart_file(svg, "https://example.org/papers")
    assert '<a href="https://example.org/papers/years/2022/">' in published
    assert 'href="#x"' in published and 'href="https://a.b/"' in published
    assert '<use xlink:href="#m"/>' in published


def test_code_and_checked_are_shown_by_show_json_the_page_and_all_papers(cli, paths):
    """The two fields added to the table: the code repository is a link everywhere a
    paper's links are; checked is a date show prints."""
    text = paths.catalog.read_text(encoding="utf-8").replace(
        '      arxiv: "2103.13262"\n',
        '      arxiv: "2103.13262"\n      code: https://github.com/laekov/fastmoe\n',
    )
    text = text.replace(
        "      tags: [moe, training]\n", "      tags: [moe, training]\n      checked: 2024-06-01\n"
    )
    paths.catalog.write_text(text, encoding="utf-8")
    shown = cli("show", "he2021fastmoe").stdout
    assert "  code:    https://github.com/laekov/fastmoe\n" in shown
    assert "  checked: 2024-06-01\n" in shown
    data = json.loads(cli("show", "he2021fastmoe", "--json").stdout)
    assert (data["code"], data["checked"]) == ("https://github.com/laekov/fastmoe", "2024-06-01")
    assert json.loads(cli("list", "--json").stdout)[-1]["code"] == data["code"]
    site = data_for(paths)
    page = render.paper_page(site.by_key["he2021fastmoe"], site)
    assert '<a href="https://github.com/laekov/fastmoe">Code</a>' in page
    script = render.papers_data(site)
    value = json.loads(json.loads(script[len("window.PAPERS_DATA=JSON.parse(") : -3]))
    fast = next(r for r in value["papers"] if r["k"] == "he2021fastmoe")
    assert ["Code", "https://github.com/laekov/fastmoe"] in fast["l"]
    assert cli("check").exit_code == 0
    paths.catalog.write_text(text.replace("https://github.com", "javascript://github.com"))
    assert "code is not an http(s) link" in cli("check").stdout
    site = data_for(paths)
    assert "javascript:" not in render.paper_page(site.by_key["he2021fastmoe"], site)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "finely segmenting the experts into $mN$ ones",
            "finely segmenting the experts into mN ones",
        ),
        ("from length $10^2$ to $10^4-10^5$", "from length 10^2 to 10^4-10^5"),
        ("by up to $29.6x$.", "by up to 29.6x."),
        ("costs $5 and $10", "costs $5 and $10"),
        ("a template ${x} and {{ 7*7 }}", "a template ${x} and {{ 7*7 }}"),
    ],
)
def test_inline_math_is_read_as_latex_and_a_dollar_of_its_own_stays(text, shown):
    assert links.plain(text) == shown


def test_a_list_entrys_tags_lead_to_their_own_pages(paths):
    # Entries are written once per folder: a tag page's link to another tag must not be
    # the "./" of the page the entry was first written for.
    data = data_for(paths)
    pages = render.generate(data)
    seen = 0
    for uri in [u for u in pages if u.startswith("tags/") and u != "tags/index.md"]:
        for target, tag in re.findall(r'<a class="pp-tag" href="([^"]*)">([^<]*)</a>', pages[uri]):
            assert target == f"../{tag}/", (uri, tag, target)
            seen += 1
    assert seen > 4


def test_a_theme_folder_overrides_the_page_and_chart_templates(paths, tmp_path):
    """A template of the site's own theme folder under papers/ is used in place of ours,
    for a list entry and for a chart alike; ours for the rest."""
    from catalog.site.templates import OVERRIDES

    theme = tmp_path / "theme" / "papers"
    theme.mkdir(parents=True)
    for name in ("entry.html", "chart.html"):
        ours = (OVERRIDES / "papers" / name).read_text(encoding="utf-8")
        (theme / name).write_text(f"<!-- mine:{name} -->\n{ours}", encoding="utf-8")
    data, problems = sitedata.load(paths, template_dir=theme.parent)
    assert problems == []
    pages = render.generate(data)
    assert "<!-- mine:entry.html -->" in pages["years/2023.md"]
    assert data.charts and all("<!-- mine:chart.html -->" in c.svg for c in data.charts)
    assert "<!-- mine:" not in pages[links.paper_uri("he2021fastmoe")].split("pp-related")[0]
