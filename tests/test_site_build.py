"""Real `mkdocs build --strict` runs: on tiny tmp catalogs and on the shipped one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.paths import Paths
from tests.conftest import PAPERS, READING, REPO, BuiltSite, write_catalog

pytestmark = pytest.mark.slow

NOTE = """\
# Caching embeddings

[[kurniawan2023evstore]] caches lookups; [[lai2023adaembed|AdaEmbed]] prunes rows.
"""


def write_note(paths: Paths, text: str = NOTE, name: str = "caching.md") -> None:
    paths.notes.mkdir(parents=True, exist_ok=True)
    (paths.notes / name).write_text(text, encoding="utf-8")


def mkdocs_build(paths: Paths, out: Path) -> subprocess.CompletedProcess[str]:
    """The real mkdocs command line, run from the repository root as CI does."""
    env = {
        **os.environ,
        "PAPERS_CATALOG": str(paths.catalog),
        "PAPERS_DB": str(paths.db),
        "NO_MKDOCS_2_WARNING": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The tests' tiny catalog (its reader's file and one note) built once by the real
    mkdocs command line, for the tests that only read its pages."""
    folder = tmp_path_factory.mktemp("tiny-site")
    paths = write_catalog(folder, reading=READING)
    write_note(paths)
    return BuiltSite(mkdocs_build(paths, folder / "out"), folder / "out")


def article(html: str) -> str:
    """The page's own content, without nav, header or search."""
    return html[html.index("<article") : html.index("</article>")]


def test_site_build_on_a_tmp_catalog(cli, paths, tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERS_SHOW_READINGS", "true")  # the reader's notes, asked for
    write_note(paths)
    paths.readings.mkdir(parents=True)
    (paths.readings / "lai2023adaembed.md").write_text(
        "Read it for the pruning score.\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    result = cli("site", "build", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    assert re.search(r"built \d+ pages into .*out in", result.output)

    home = (out / "index.html").read_text(encoding="utf-8")
    for chart in ("papers-per-year", "tag-counts", "coverage"):
        assert f'href="assets/charts/{chart}.svg"' in home
        assert (out / "assets" / "charts" / f"{chart}.svg").read_text().startswith("<?xml")
    # Inline, named by its alt text, its bars linking to the year pages.
    assert re.search(
        r'<svg role="group" aria-label="Bar chart of papers per year from 2021 '
        r"to 2023",
        home,
    )
    assert '<a href="years/2021/" aria-label="Papers of 2021">' in home
    # The charts' own text (years, counts, tag names) is not searchable; captions are.
    docs = json.loads((out / "search" / "search_index.json").read_text())["docs"]
    charts = next(d for d in docs if d["location"].endswith("#the-field-in-charts"))
    assert "Papers per year" in charts["text"] and "2021" not in charts["text"]

    page = article((out / "papers" / "lai2023adaembed" / "index.html").read_text())
    assert (
        '<h1 id="title">AdaEmbed: Adaptive Embedding for Large-Scale Recommendation Models</h1>'
    ) in page
    assert "Read it for the pruning score." in page
    assert 'href="../../notes/caching/">Caching embeddings</a>' in page
    assert "Related papers" in page and 'href="../kurniawan2023evstore/"' in page
    # The BibTeX entry, highlighted (Material adds the copy button in the browser).
    assert '<h2 id="cite" data-search-exclude>' in page
    assert '<code class="language-bibtex">@inproceedings{lai2023adaembed,' in page

    note = article((out / "notes" / "caching" / "index.html").read_text())
    assert 'href="../../papers/kurniawan2023evstore/"' in note
    assert ">EVStore</a>" in note and ">AdaEmbed</a>" in note

    assert (out / "years" / "2021" / "index.html").exists()
    assert (out / "venues" / "asplos" / "index.html").exists()
    assert (out / "tags" / "moe" / "index.html").exists()
    # The nav stays short: no paper page is listed in it.
    nav = re.findall(r'href="([^"]*)"[^>]*class="md-nav__link', home)
    assert "notes/" in nav and "years/" in nav
    # Pruned (navigation.prune): a section's pages are listed on its own pages only.
    assert "notes/caching/" not in nav
    note_html = (out / "notes" / "caching" / "index.html").read_text()
    assert "./" in re.findall(r'href="([^"]*)"[^>]*class="md-nav__link', note_html)
    assert "papers/" in nav  # All papers
    assert not [link for link in nav if re.search("papers/.", link)]
    # Nothing generated lands in the source folder.
    assert not (REPO / "site" / "papers").exists()
    assert not (REPO / "site" / "years").exists()


def test_mkdocs_command_line_on_a_tmp_catalog(tiny_site):
    out, run = tiny_site.out, tiny_site.run
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr
    assert (out / "papers" / "he2021fastmoe" / "index.html").exists()
    assert (out / "notes" / "caching" / "index.html").exists()
    # The shipped notes are not part of a site about another catalog.
    assert not (out / "notes" / "moe-systems").exists()


def test_unknown_key_in_a_note_fails_the_strict_build(cli, paths, tmp_path):
    write_note(paths, "# Bad\n\nfine [[he2021fastmoe]]\n\nbroken [[he2021fastmo]]\n")
    result = cli("site", "build", "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert re.search(
        r"caching\.md:5: .*unknown paper 'he2021fastmo' "
        r"\(did you mean 'he2021fastmoe'\?\)",
        result.output,
    )
    run = mkdocs_build(paths, tmp_path / "out2")
    assert run.returncode != 0
    assert "caching.md:5:" in run.stderr
    assert "Aborted with 1 warnings" in run.stdout + run.stderr
    # Without --strict the site is still built, the broken link shown as text.
    loose = cli("site", "build", "--no-strict", "-o", str(tmp_path / "out3"))
    assert loose.exit_code == 0
    assert "warning: " in loose.output
    assert (
        "<code>he2021fastmo</code>"
        in (tmp_path / "out3" / "notes" / "caching" / "index.html").read_text()
    )


def test_odd_titles_render_as_text(tmp_path, cli):
    odd = PAPERS.replace(
        '"FastMoE: A Fast Mixture-of-Expert Training System"',
        '"{Fast}MoE <script>alert(1)</script> & \\\\\\"{u}ber *all*"',
    )
    paths = write_catalog(tmp_path, odd)
    from typer.testing import CliRunner

    from catalog.cli import app

    result = CliRunner().invoke(
        app,
        [
            "--catalog",
            str(paths.catalog),
            "--db",
            str(paths.db),
            "site",
            "build",
            "-o",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    html = (tmp_path / "out" / "papers" / "he2021fastmoe" / "index.html").read_text()
    title = "FastMoE &lt;script&gt;alert(1)&lt;/script&gt; &amp; über *all*"
    assert f"<title>{title} - papers</title>" in html
    assert f'<h1 id="title">{title}</h1>' in html
    assert "<script>alert(1)" not in html
    # The citation_* meta tags carry the same title, inert.
    assert f'<meta name="citation_title" content="{title}">' in html
    year = (tmp_path / "out" / "years" / "2021" / "index.html").read_text()
    # The BibTeX toggle keeps the LaTeX; what a reader sees has none.
    assert title in year and "{Fast}" not in re.sub(r"<pre>.*?</pre>", "", year, flags=re.S)


def test_broken_catalog_stops_the_build_with_its_message(tmp_path):
    from typer.testing import CliRunner

    from catalog.cli import app

    paths = write_catalog(tmp_path, "2023:\n  OSDI:\n    - key: x2023y\n")
    result = CliRunner().invoke(
        app,
        [
            "--catalog",
            str(paths.catalog),
            "--db",
            str(paths.db),
            "site",
            "build",
            "-o",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 1
    assert "papers.yaml:3:" in result.output and "missing title" in result.output
    assert "Traceback" not in result.output


def test_shipped_catalog_builds_strict(shipped_site):
    shipped = Paths(REPO / "data" / "papers.yaml", shipped_site.out.parent / "catalog.db")
    out = shipped_site.out  # built once per run by the same command line; read only
    run = shipped_site.run
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr
    page = (out / "papers" / "xie2022fleche" / "index.html").read_text()
    assert 'href="../../notes/embedding-systems/"' in page
    cite = re.sub(r"<[^>]+>", "", page[page.index('<h2 id="cite"') :])
    assert "@inproceedings{xie2022fleche," in cite
    note = (out / "notes" / "moe-systems" / "index.html").read_text()
    assert 'href="../../papers/he2021fastmoe/"' in note
    # Every paper page carries its citation_* meta tags, right, and its own description;
    # every author name on it links to the author's page, which lists the paper.
    import html as htmllib
    import xml.etree.ElementTree as ET

    from catalog.bib.csljson import name as csl_name
    from catalog.data import reader
    from catalog.site.citation import creator
    from catalog.site.links import plain

    for paper in reader.load(shipped.catalog):
        page = (out / "papers" / paper.key / "index.html").read_text()
        meta: dict[str, list[str]] = {}
        for name, value in re.findall(r'<meta name="(citation_\w+)" content="([^"]*)">', page):
            meta.setdefault(name, []).append(htmllib.unescape(value))
        assert meta["citation_title"] == [plain(paper.title)], paper.key
        # 'Family, Given': the comma tells a reader which words are the family name.
        assert meta["citation_author"] == [
            creator(csl_name(a)) for a in paper.authors if a != "others"
        ], paper.key
        assert meta["citation_publication_date"] == [str(paper.year)]
        assert meta.get("citation_doi") == ([paper.doi] if paper.doi else None)
        assert meta.get("citation_arxiv_id") == ([paper.arxiv] if paper.arxiv else None)
        if paper.summary:
            assert (
                f'<meta name="description" content="{htmllib.escape(plain(paper.summary))}">'
                in page
            )
        authors = re.search(r'<p class="pp-authors">(.*?)</p>', page).group(1)
        links = re.findall(r'<a href="\.\./\.\./authors/([^/"]+)/#([^"]+)">', authors)
        assert len(links) == len([a for a in paper.authors if a != "others"]), paper.key
        for shelf, anchor in links:
            text = (out / "authors" / shelf / "index.html").read_text()
            section = text[text.index(f'<h2 id="{anchor}">') :].split("<h2 ", 2)[1]
            assert f"papers/{paper.key}/" in section
    assert (out / "authors" / "index.html").is_file()
    # The feeds parse as Atom.
    for path in (out / "feeds").glob("*.xml"):
        assert ET.parse(path).getroot().tag == "{http://www.w3.org/2005/Atom}feed"
    # No LaTeX braces or escapes in what a reader sees (the BibTeX block aside).
    for path in (out / "papers").glob("*/index.html"):
        text = article(path.read_text())
        text = re.sub(r"<pre>.*?</pre>", "", text, flags=re.DOTALL)
        text = re.sub(r"<[^>]+>", "", text)
        assert not re.search(r"[{}\\]", text), path


def test_catalog_from_the_environment(paths, tmp_path, monkeypatch):
    """PAPERS_CATALOG picks the catalog for `papers site build` as for every command."""
    from typer.testing import CliRunner

    from catalog.cli import app

    write_note(paths)
    monkeypatch.setenv("PAPERS_CATALOG", str(paths.catalog))
    monkeypatch.setenv("PAPERS_DB", str(paths.db))
    out = tmp_path / "env-out"
    result = CliRunner().invoke(app, ["site", "build", "--site-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "notes" / "caching" / "index.html").exists()
    assert len(list((out / "papers").glob("*/index.html"))) == 3


def test_site_serve_binds_localhost_and_serves_the_catalog(paths, tmp_path):
    import socket
    import time
    import urllib.request

    write_note(paths)
    with socket.socket() as probe:  # a free port on 127.0.0.1
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "catalog.cli",
            "--catalog",
            str(paths.catalog),
            "--db",
            str(paths.db),
            "site",
            "serve",
            "-a",
            f"127.0.0.1:{port}",
        ],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/papers/he2021fastmoe/", timeout=2
                ) as response:
                    page = response.read().decode()
                break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the server did not answer in 60 s"
                time.sleep(0.3)
        assert '<h1 id="title">FastMoE: A Fast Mixture-of-Expert Training System</h1>' in page
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_site_commands_have_help(cli):
    result = cli("site", "serve", "--help")
    assert result.exit_code == 0
    assert "127.0.0.1:8000" in result.output
    for args in (("site", "build"), ("notes",), ("related",)):
        help_text = cli(*args, "--help").output
        assert "Usage:" in help_text and len(help_text.splitlines()) > 4


def test_reading_note_from_papers_note_shows_on_the_paper_page(cli, paths, tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERS_SHOW_READINGS", "true")
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    created = cli("note", "he2021fastmoe")
    assert created.exit_code == 0, created.output
    note = paths.readings / "he2021fastmoe.md"
    note.write_text(
        note.read_text(encoding="utf-8")
        + "\n## Compared\n\nCloser to [[lai2023adaembed]] than it looks.\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = cli("site", "build", "-o", str(out))
    assert result.exit_code == 0, result.output
    page = article((out / "papers" / "he2021fastmoe" / "index.html").read_text())
    assert '<h2 id="reading-note">' in page
    assert "Started reading on" in page and '<h3 id="compared">Compared<a' in page
    assert '<a href="../lai2023adaembed/" title="AdaEmbed' in page


def test_published_settings_from_the_environment(paths, tmp_path):
    """PAPERS_SITE_URL and PAPERS_REPO_URL (set by the Pages workflow) reach the site."""
    env = {
        **os.environ,
        "PAPERS_CATALOG": str(paths.catalog),
        "PAPERS_DB": str(paths.db),
        "NO_MKDOCS_2_WARNING": "1",
        "PAPERS_SITE_URL": "https://example.org/papers/",
        "PAPERS_REPO_URL": "https://github.com/someone/papers",
    }
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/papers/papers/he2021fastmoe/</loc>" in sitemap
    # 404.html is served at any depth: its links start at the sub-path, not at /.
    missing = (out / "404.html").read_text(encoding="utf-8")
    assert 'href="/papers/assets/' in missing or 'src="/papers/assets/' in missing
    assert 'href="/assets/' not in missing
    home = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/someone/papers"' in home
    assert 'href="https://github.com/someone/papers/issues/new?template=suggest-paper.yml"' in home
    assert (REPO / ".github" / "workflows" / "pages.yml").is_file()


def squeezed(html: str) -> str:
    """HTML with white space between tags dropped and other runs of it made one space."""
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html))


def test_sources_as_files_build_without_the_hook(cli, paths, tmp_path):
    """`papers site sources` writes pages a plain mkdocs.yml (no hook) builds alike."""
    write_note(paths)
    src = tmp_path / "src"
    result = cli("site", "sources", "-o", str(src))
    assert result.exit_code == 0, result.output
    config = (src / "mkdocs.yml").read_text(encoding="utf-8")
    assert "hooks" not in config and "docs_dir: docs" in config
    assert (src / "docs" / "papers" / "he2021fastmoe.md").is_file()
    assert "[[" not in (src / "docs" / "notes" / "caching.md").read_text(encoding="utf-8")
    assert "<!-- papers:" not in (src / "docs" / "index.md").read_text(encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PAPERS_CATALOG", "PAPERS_DB")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(src / "mkdocs.yml")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    plain = src / "site"
    # The theme's overrides came along: the search setup and its stemming worker.
    assert (plain / "assets" / "javascripts" / "workers" / "papers-search.js").is_file()
    assert "papers-search-setup.js" in (plain / "index.html").read_text(encoding="utf-8")
    hooked = tmp_path / "hooked"
    assert cli("site", "build", "-o", str(hooked)).exit_code == 0
    pages = sorted(str(p.relative_to(hooked)) for p in hooked.rglob("*.html"))
    assert sorted(str(p.relative_to(plain)) for p in plain.rglob("*.html")) == pages
    for page in (
        "papers/he2021fastmoe/index.html",
        "years/2023/index.html",
        "notes/caching/index.html",
    ):
        mine, theirs = article((plain / page).read_text()), article((hooked / page).read_text())
        # The same content; only whitespace between blocks may differ (none, or some).
        assert squeezed(mine) == squeezed(theirs), page
    # A second run replaces its own folder; a folder with other files is refused.
    assert cli("site", "sources", "-o", str(src)).exit_code == 0
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("x", encoding="utf-8")
    refused = cli("site", "sources", "-o", str(tmp_path / "mine"))
    assert refused.exit_code == 1 and "refusing" in refused.output


def test_the_site_ships_no_source_maps_or_other_languages(tiny_site):
    out, run = tiny_site.out, tiny_site.run
    assert run.returncode == 0, run.stderr
    assert list(out.rglob("*.map")) == []
    assert not (out / "assets" / "javascripts" / "lunr").exists()
    assert list((out / "assets" / "javascripts" / "workers").glob("search.*.min.js"))


def test_the_404_page_helps(tiny_site):
    out = tiny_site.out
    assert tiny_site.run.returncode == 0
    page = (out / "404.html").read_text(encoding="utf-8")
    assert "Page not found" in page and ">all papers</a>" in page and "search" in page


def test_generated_html_pages_skip_markdown(paths, tmp_path, monkeypatch):
    """Only Markdown sources (home, notes) go through a Markdown converter: a generated
    page's HTML is taken as it is (catalog.site.htmlpage), and its search view and body
    still reach the site."""
    import markdown
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    write_note(paths)
    converted: list[str] = []
    convert = markdown.Markdown.convert

    def counting(self: markdown.Markdown, source: str) -> str:
        converted.append(source)
        return convert(self, source)

    monkeypatch.setattr(markdown.Markdown, "convert", counting)
    monkeypatch.setenv("PAPERS_CATALOG", str(paths.catalog))
    monkeypatch.setenv("PAPERS_DB", str(paths.db))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    config = load_config(str(REPO / "mkdocs.yml"), site_dir=str(tmp_path / "out"), strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    assert converted and not any('<h1 id="title">' in text for text in converted)
    assert len(converted) <= 3, [text[:60] for text in converted]
    page = (tmp_path / "out" / "papers" / "he2021fastmoe" / "index.html").read_text()
    assert '<h1 id="title">FastMoE' in page and '<ul class="pp-list pp-related"' in page
