"""The authors index a person can use (letters, a filter box, counts, by family name)
and author pages that start with the person's papers and are found by search."""

from __future__ import annotations

import re

from catalog.site import links, render
from catalog.site.authorpages import letter_of
from catalog.site.people import family_first, sort_key
from tests.conftest import write_catalog

PAPERS = """\
2023:
  OSDI:
    - key: a2023one
      title: "One Paper"
      authors: [Diego de las Casas, Ann Zed, Émile Borel]
    - key: b2023two
      title: "Two Paper"
      authors: [Ann Zed, Bob Álvarez]
"""
VENUES = "OSDI:\n  kind: conference\n  name: OSDI\n"


def _pages(tmp_path):
    from catalog.site import sitedata

    paths = write_catalog(tmp_path, papers=PAPERS, venues=VENUES, tags="")
    data, _ = sitedata.load(paths, with_charts=False)
    return data, render.generate(data)


def test_names_sort_and_file_under_their_family_name():
    assert sort_key("Diego de las Casas")[0] == "casas"
    assert family_first("Diego de las Casas") == "Casas, Diego de las"
    assert [letter_of(n) for n in ("Émile Borel", "Bob Álvarez", "Ann Zed", "李 明")] == [
        "B",
        "A",
        "Z",
        "#",
    ]


def test_the_index_has_letters_counts_and_a_filter_box_by_family_name(tmp_path):
    _, pages = _pages(tmp_path)
    index = pages["authors/index.md"]
    labels = re.findall(r'<li data-name="[^"]*"><a href="[^"]+">([^<]+)</a>', index)
    assert labels == ["Álvarez, Bob", "Borel, Émile", "Casas, Diego de las", "Zed, Ann"]
    assert '<a href="ze/#ann-zed">Zed, Ann</a> <span class="pp-n">(2)</span>' in index
    # A letter with people links to its section; one without is no link.
    assert '<a href="#letter-a" title="1 author">A</a>' in index
    assert '<section class="pp-letter" id="letter-a">' in index
    assert '<span class="pp-none" aria-hidden="true">D</span>' in index
    # The filter box (shown by the script) and the folded names it matches against.
    assert 'id="pp-people-q"' in index and 'data-name="emile borel"' in index
    assert 'src="../javascripts/people.js"' in index
    assert render.is_html_page("authors/index.md")


def _section(pages: dict[str, str], person) -> tuple[str, str]:
    """A person's shelf page and their section of it."""
    from catalog.site import shelves

    page = pages[shelves.shelf(person)]
    start = page.index(f'<h2 id="{shelves.anchor(person)}">')
    end = page.find('<section class="pp-person">', start)
    return page, page[start : end if end > 0 else None]


def test_an_author_section_starts_with_the_papers_and_is_in_search(tmp_path):
    data, pages = _pages(tmp_path)
    page, zed = _section(pages, data.people.spelled("Ann Zed"))
    assert "exclude" not in links.read_front(page)[1].get("search", {})  # found by search
    assert zed.index('class="pp-list"') < zed.index('class="pp-coauthors"')
    assert "2 papers in the catalog." in zed


def test_many_coauthors_stay_compact(tmp_path):
    many = ", ".join(f"Person{i} Name{i}" for i in range(30))
    papers = (
        PAPERS
        + f"""\
    - key: c2023many
      title: "Many Authors"
      authors: [Ann Zed, {many}]
"""
    )
    from catalog.site import sitedata

    paths = write_catalog(tmp_path, papers=papers, venues=VENUES, tags="")
    data, _ = sitedata.load(paths, with_charts=False)
    _, zed = _section(render.generate(data), data.people.spelled("Ann Zed"))
    coauthors = zed.split('class="pp-coauthors"', 1)[1]
    assert coauthors.count("<a href") == 0  # none shared more than one paper
    assert "33 others on one paper each" in coauthors
