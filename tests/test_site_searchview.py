"""The search's view of a generated page: Material's search indexes it as it indexes the
whole page, and the lists it skips are left out of it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocs.utils.meta import get_data

from catalog.site import render, sitedata
from catalog.site.searchview import search_view


def indexed(page_html: str) -> list[tuple[str | None, str, str]]:
    """What Material's search indexes of a page: (id, title, text) of each section."""
    from material.plugins.search.plugin import Parser

    parser = Parser()
    parser.feed(page_html)
    parser.close()
    return [
        (s.id, "".join(s.title).strip(), "".join(s.text).strip())
        for s in parser.data
        if not s.is_excluded()
    ]


def test_every_generated_page_indexes_as_its_view(paths):
    data, problems = sitedata.load(paths, with_charts=False)
    assert problems == []
    pages = {
        uri: get_data(text)[0]
        for uri, text in render.generate(data).items()
        if render.is_html_page(uri)
    }
    assert len(pages) > 20
    for uri, body in pages.items():
        assert indexed(search_view(body)) == indexed(body), uri
    # The lists of papers are what the view leaves out.
    tag_page = pages["tags/caching.md"]
    assert 'class="pp-entry"' in tag_page
    assert 'class="pp-entry"' not in search_view(tag_page)
    paper = pages["papers/kurniawan2023evstore.md"]
    assert 'data-cite="ris"' in paper  # the download buttons, inside what search skips
    assert 'data-cite="ris"' not in search_view(paper)


CASES = {
    "a list": ("<h1 id=t>T</h1><ul data-search-exclude><li>a</li></ul><p>b</p>", True),
    "in capitals": ("<H1 ID=t>T</H1><UL DATA-SEARCH-EXCLUDE><LI>a</LI></UL><P>b</P>", True),
    "an excluded section": (
        '<h2 id="c" data-search-exclude>C</h2><p data-search-exclude>x</p>',
        True,
    ),
    # Material ends the exclusion where an element of the same tag inside closes.
    "the same tag inside": ("<h1 id=t>T</h1><div data-search-exclude><div>a</div>b</div>", False),
    "a heading inside": ('<div data-search-exclude><h2 id="s">S</h2>t</div><p>u</p>', False),
    "a script inside": ("<div data-search-exclude><script>'</div>'</script></div>", False),
    "a mark inside": ("<div data-search-exclude><p data-search-exclude>a</p>b</div>", False),
    "a mark in a value": ('<p title=" data-search-exclude">a</p><p>b</p>', False),
    "a mark as text": ("<h1 id=t>T</h1><p>data-search-exclude</p>", False),
    "never closed": ("<h1 id=t>T</h1><ul data-search-exclude><li>a", False),
    "a void tag": ("<h1 id=t>T</h1><input data-search-exclude><p>a</p>", False),
    "line numbers": ('<div data-search-exclude>a</div><div class="linenodiv">1</div>', False),
}


@pytest.mark.parametrize("case", CASES)
def test_what_is_left_out(case):
    page, cut = CASES[case]
    view = search_view(page)
    assert indexed(view) == indexed(page)
    assert (view != page) is cut


TAGS = ("div", "p", "ul", "li", "span", "section", "h1", "h2", "h3", "script")


def _element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """One element of a random tag, maybe excluded or with an id, around its children."""

    def build(tag: str, marks: list[str], inside: list[str]) -> str:
        attributes = "".join(f" {mark}" for mark in dict.fromkeys(marks))
        if tag == "script":  # its text is not read as tags, whatever it holds
            return f"<script{attributes}>'</{(inside or ['div'])[0][1:3]}>'</script>"
        return f"<{tag}{attributes}>{''.join(inside)}</{tag}>"

    marks = st.lists(st.sampled_from(["data-search-exclude", 'id="s"', 'class="c"']), max_size=2)
    return st.builds(build, st.sampled_from(TAGS), marks, st.lists(children, max_size=4))


HTML = st.recursive(st.sampled_from(["a", " b ", "c d", "&amp;"]), _element, max_leaves=30)


def outcome(page_html: str) -> object:
    """What Material's search indexes of a page, or the error it stops with (some
    nestings of one tag inside itself make it fail)."""
    try:
        return indexed(page_html)
    except ValueError as err:
        return repr(err)


@settings(max_examples=200, deadline=None)
@given(st.lists(HTML, min_size=1, max_size=5))
def test_any_well_formed_page_indexes_as_its_view(parts):
    page = "".join(parts)
    assert outcome(search_view(page)) == outcome(page)
