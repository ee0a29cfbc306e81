"""The site's Atom feeds, the dates they give, author pages and citation meta tags."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

import pytest

from catalog.model import digest
from catalog.site import feed, history, render, sitedata
from tests.conftest import write_catalog

ATOM = "{http://www.w3.org/2005/Atom}"


def _commit(folder, when: str) -> None:
    subprocess.run(["git", "add", "-A"], cwd=folder, check=True, capture_output=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "x"],
        cwd=folder,
        check=True,
        capture_output=True,
        env={"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when, "PATH": "/usr/bin:/bin"},
    )


def test_dates_come_from_git_where_added_is_missing_or_bulk(tmp_path):
    paths = write_catalog(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    text = paths.catalog.read_text(encoding="utf-8")
    # The first commit holds EVStore alone; a later one adds the others.
    paths.catalog.write_text(text.split("    - key: lai2023adaembed", 1)[0], encoding="utf-8")
    _commit(tmp_path, "2024-01-02T10:00:00+00:00")
    paths.catalog.write_text(text, encoding="utf-8")
    _commit(tmp_path, "2024-03-04T12:00:00+00:00")
    data, _ = sitedata.load(paths, with_charts=False)
    assert data.added["lai2023adaembed"] == history.Added("2024-03-04T12:00:00+00:00", "git")
    assert data.added["kurniawan2023evstore"].date == "2024-01-02"
    # A paper's own date wins, unless many papers share it (set in bulk).
    data.papers[0].added = "2023-07-01"
    assert history.added_dates(data.papers, paths.catalog)[data.papers[0].key] == (
        history.Added("2023-07-01", "added")
    )
    for p in data.papers:
        p.added = "2023-07-01"
    bulk = history.added_dates(data.papers, paths.catalog)
    assert bulk[data.papers[0].key].source == (
        "added" if len(data.papers) < history.BULK else "git"
    )
    # Outside git: only the papers' own fields.
    assert history.first_commits(tmp_path / "nowhere" / "papers.yaml") == {}


def test_atom_feed_parses_and_lists_real_dates(tmp_path):
    paths = write_catalog(tmp_path)
    data, _ = sitedata.load(paths, with_charts=False)
    data.added = {
        "he2021fastmoe": history.Added("2024-01-02", "added"),
        "lai2023adaembed": history.Added("2024-03-04T12:00:00+00:00", "git"),
    }
    data.papers[0].title = "Bad \x02 title <script>"
    pages = render.generate(data)
    root = ET.fromstring(pages[feed.ALL_FEED])
    assert root.tag == f"{ATOM}feed"
    entries = root.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}id").text for e in entries] == [
        "urn:papers-catalog:paper:lai2023adaembed",
        "urn:papers-catalog:paper:he2021fastmoe",
    ]
    assert entries[0].find(f"{ATOM}updated").text.startswith("2024-03-04T12:00:00")
    assert entries[1].find(f"{ATOM}updated").text.startswith("2024-01-02T00:00:00")
    assert entries[0].find(f"{ATOM}link").get("href") == "../papers/lai2023adaembed/"
    assert {a.find(f"{ATOM}name").text for a in entries[0].findall(f"{ATOM}author")} >= {"Fan Lai"}
    tagged = ET.fromstring(pages[feed.tag_feed_uri("moe")])
    assert [e.find(f"{ATOM}id").text for e in tagged.findall(f"{ATOM}entry")] == [
        "urn:papers-catalog:paper:he2021fastmoe"
    ]
    assert 'href="../../feeds/tag-moe.xml"' in pages["tags/moe.md"]
    # Published under an address: absolute links.
    data.site_url = "https://example.org/papers/"
    root = ET.fromstring(render.generate(data)[feed.ALL_FEED])
    link = root.find(f"{ATOM}entry").find(f"{ATOM}link").get("href")
    assert link == "https://example.org/papers/papers/lai2023adaembed/"


@pytest.fixture
def people_catalog(tmp_path):
    papers = """\
2023:
  OSDI:
    - key: a2023one
      title: One
      authors: [José Silva, Ann Lee]
      tags: [caching]
    - key: b2023two
      title: Two
      authors: [Jose Silva, Ann Lee, Bo Chen]
      tags: [caching]
"""
    return write_catalog(tmp_path, papers)


def test_author_pages_keep_alike_names_apart_unless_the_list_joins_them(people_catalog):
    data, _ = sitedata.load(people_catalog, with_charts=False)
    pages = render.generate(data)
    # Two spellings, two people: no guessing. The plain spelling has the slug for its
    # address, the other the slug and a digest of its exact name (never an order).
    accented, plain = data.people.spelled("José Silva"), data.people.spelled("Jose Silva")
    assert accented is not plain
    assert plain.uri == "authors/jose-silva.md"
    assert accented.uri == f"authors/jose-silva-{digest('José Silva')[:8]}.md"
    shelf = pages["authors/le.md"]
    lee = shelf[shelf.index('<h2 id="ann-lee">') :]
    assert "2 papers in the catalog." in lee
    # Co-authors of more than one paper are linked; those of one are counted.
    assert "Co-authors: 3 others on one paper each." in lee
    assert (
        '<a href="le/#ann-lee">Lee, Ann</a> <span class="pp-n">(2)</span>'
        in pages["authors/index.md"]
    )
    # The reviewed alias list makes them one.
    (people_catalog.data_dir / "authors.yaml").write_text(
        "José Silva: [Jose Silva]\n", encoding="utf-8"
    )
    data, _ = sitedata.load(people_catalog, with_charts=False)
    pages = render.generate(data)
    silva = data.people.spelled("José Silva")
    assert silva is data.people.spelled("Jose Silva")
    assert silva.uri == accented.uri  # the person's address: a function of its name
    shelf = pages["authors/si.md"]
    page = shelf[shelf.index(f'<h2 id="{accented.uri[8:-3]}">') :]
    assert "2 papers in the catalog; also written as Jose Silva." in page
    assert '<h2 id="jose-silva">' not in shelf
    assert '<a href="../le/#ann-lee">Ann Lee</a> (2)' in page


def test_a_spelling_listed_for_two_people_is_refused(people_catalog):
    from catalog.errors import InvalidCatalogError

    (people_catalog.data_dir / "authors.yaml").write_text(
        "José Silva: [J. Silva]\nJoão Silva: [J. Silva]\n", encoding="utf-8"
    )
    with pytest.raises(InvalidCatalogError) as err:
        sitedata.load(people_catalog, with_charts=False)
    assert "authors.yaml:2" in str(err.value) and "J. Silva" in str(err.value)


def test_notes_index_shows_openings_and_counts_the_note_lists_its_papers(tmp_path):
    from catalog.data.notes import load_notes

    paths = write_catalog(tmp_path)
    paths.notes.mkdir(parents=True, exist_ok=True)
    (paths.notes / "caching.md").write_text(
        "# Caching embeddings\n\nWhy caches matter. [[kurniawan2023evstore]] caches lookups; "
        "[a `note`](other.md) says more; "
        "[[lai2023adaembed|AdaEmbed]] prunes rows. A third sentence stays out.\n\n## More\n",
        encoding="utf-8",
    )
    notes = load_notes(paths)
    data, _ = sitedata.load(paths, notes, with_charts=False)
    index = render.generate(data)["notes/index.md"]
    # Links read as their words: no Markdown shows (issue 34).
    assert (
        "Why caches matter. EVStore caches lookups; a note says more; AdaEmbed prunes rows."
    ) in index
    assert "third sentence" not in index and "*Discusses 2 papers.*" in index
    assert "papers/" not in index  # the papers are on the note's own page
    page = render.note_page(notes[0].path.read_text(), "notes/caching.md", notes[0], data)
    listed = page.split("## Papers in this note")[1]
    assert "(../papers/kurniawan2023evstore.md) (ASPLOS 2023)" in listed
    assert "(../papers/lai2023adaembed.md)" in listed


def test_metadata_sources_say_what_they_are(tmp_path):
    paths = write_catalog(tmp_path)
    data, _ = sitedata.load(paths, with_charts=False)
    paper = data.papers[0]
    paper.sources = ["https://github.com/org/repo", "javascript:alert(1)"]  # type: ignore[attr-defined]
    page = render.paper_page(paper, data)
    assert '<a href="https://github.com/org/repo">github.com/org/repo</a>' in page
    assert "javascript:alert(1)</li>" in page and 'href="javascript' not in page


def test_feeds_say_when_their_links_are_relative(people_catalog, caplog):
    data, _ = sitedata.load(people_catalog, with_charts=False)
    with caplog.at_level("INFO", logger="mkdocs.plugins.papers"):
        feed.feeds(data, {})
    assert "set site_url in mkdocs.yml (or PAPERS_SITE_URL)" in caplog.text
    caplog.clear()
    data.site_url = "https://example.org/papers/"
    with caplog.at_level("INFO", logger="mkdocs.plugins.papers"):
        out = feed.feeds(data, {})
    assert "site_url" not in caplog.text
    assert 'href="https://example.org/papers/feeds/all.xml" rel="self"' in out[feed.ALL_FEED]
