"""The site's small defects of issue 34, each seen in a real browser (Debian's Chromium
driven by Playwright, as tests/test_browser.py): the feed link the theme took for a
language version, focus, history and counts of the All-papers filters, skip links, the
notes index, TeX in abstracts, the home page's first screen and the .bib links."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

from tests.test_browser import PAGE_TYPES

pytestmark = pytest.mark.slow


@pytest.fixture
def tab(browser):
    """A page at 1366 by 900 that records console errors and failed requests."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    page.problems = problems
    yield page
    context.close()


def _all_papers(page, site_url: str):
    page.goto(urljoin(site_url, "papers/"))
    page.mouse.move(5, 5)  # a reader's first move brings the data and the filters
    page.mouse.move(20, 20)
    form = page.locator("form.pp-form")
    form.wait_for()
    return form


def test_no_page_fetches_a_sitemap_beside_its_feed_or_logs_an_error(tab, site_url):
    """The theme read the Atom <link rel="alternate"> as a language version and asked
    for feeds/sitemap.xml: a 404 and a console error on every page."""
    for path in [*PAGE_TYPES.values(), "authors/", "authors/zh/"]:
        tab.goto(urljoin(site_url, path))
        tab.wait_for_load_state("networkidle")
        feed = tab.locator('link[rel~="alternate"][type="application/atom+xml"]')
        assert feed.count() >= 1, path  # feed readers still find the feed
    assert tab.problems == []


def test_words_box_shows_where_the_keys_go(tab, site_url):
    form = _all_papers(tab, site_url)
    words = form.locator("input[type=search]")
    tab.keyboard.press("Tab")  # keyboard focus, so :focus-visible is what a reader gets
    words.focus()
    style = words.evaluate("e => getComputedStyle(e).outlineStyle")
    width = words.evaluate("e => parseFloat(getComputedStyle(e).outlineWidth)")
    assert style != "none" and width >= 1


def test_arrow_keys_on_a_list_make_one_step_in_history(tab, site_url):
    form = _all_papers(tab, site_url)
    before = tab.evaluate("history.length")
    venue = form.get_by_label("Venue", exact=True)
    venue.focus()
    for _ in range(6):
        venue.press("ArrowDown")
    assert venue.input_value() != ""
    assert tab.evaluate("history.length") == before + 1
    venue.evaluate("e => e.blur()")
    tab.go_back()
    tab.wait_for_function("!location.hash")
    assert form.get_by_label("Venue", exact=True).input_value() == ""
    # A choice made with the mouse is a step of its own, as before.
    venue.select_option(index=2)
    venue.select_option(index=3)
    assert tab.evaluate("history.length") == before + 2


def test_venues_with_no_paper_cannot_be_chosen(tab, site_url):
    form = _all_papers(tab, site_url)
    form.locator("details.pp-tags summary").click()
    form.locator("input[type=checkbox][value=moe]").check()
    options = form.get_by_label("Venue", exact=True).locator("option")
    seen = {"empty": 0, "full": 0}
    for i in range(1, options.count()):
        option = options.nth(i)
        empty = option.inner_text().endswith("(0)")
        seen["empty" if empty else "full"] += 1
        assert option.is_disabled() == empty, option.inner_text()
    assert seen["empty"] and seen["full"]


def _count(form, tag: str) -> int:
    label = form.locator("label.pp-check", has=form.page.locator(f"input[value='{tag}']"))
    return int(re.search(r"\((\d+)\)", label.inner_text()).group(1))


def test_any_mode_counts_are_what_ticking_a_tag_gives(tab, site_url):
    form = _all_papers(tab, site_url)
    form.locator("details.pp-tags summary").click()
    form.get_by_label("Match", exact=True).select_option("any")
    form.locator("input[type=checkbox][value=moe]").check()
    for tag in ("caching", "inference", "training"):
        promised = _count(form, tag)
        form.locator(f"input[type=checkbox][value={tag}]").check()
        shown = int(tab.locator("#pp-count").inner_text().split()[0])
        assert shown == promised, tag
        assert _count(form, tag) == shown  # a ticked tag shows what it gives now
        form.locator(f"input[type=checkbox][value={tag}]").uncheck()


@pytest.mark.parametrize("path", ["papers/", "years/2022/", "papers/xie2022fleche/", "authors/zh/"])
def test_skip_link_leads_to_the_page_title(tab, site_url, path):
    tab.goto(urljoin(site_url, path))
    skip = tab.locator("a.md-skip")
    assert skip.count() == 1
    assert skip.get_attribute("href") == "#title"
    assert tab.locator("article h1#title").count() == 1
    tab.keyboard.press("Tab")
    tab.keyboard.press("Enter")
    tab.wait_for_function("location.hash === '#title'")


def test_notes_index_shows_links_not_raw_markdown(tab, site_url):
    tab.goto(urljoin(site_url, "notes/"))
    text = tab.locator("article").inner_text()
    assert "](" not in text and "[[" not in text
    assert "subject of MoE training and inference systems, which" in text


def test_abstracts_show_no_tex(tab, site_url):
    tab.goto(urljoin(site_url, "papers/dai2024deepseekmoe/"))
    abstract = tab.locator("h2#abstract + p").inner_text()
    assert "$" not in abstract and "mN ones" in abstract and "K_s experts" in abstract


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_home_first_screen_has_search_and_the_latest_papers(browser, site_url, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(site_url)
        button = page.locator("button.pp-open-search")
        assert button.is_visible()
        latest = page.locator("h2#latest-additions")
        first = page.locator("h2#latest-additions + p + ul > li").first
        for part in (button, latest, first):
            assert part.bounding_box()["y"] + part.bounding_box()["height"] <= size[1]
        button.click()
        page.wait_for_function("document.activeElement.matches('.md-search__input')")
        page.keyboard.type("fleche")
        page.locator(".md-search-result__item").first.wait_for()
        if size[0] > 1000:  # the charts as wide as the page's text
            text = page.locator("article.md-content__inner").bounding_box()["width"]
            chart = page.locator("svg.papers-chart-svg").first.bounding_box()["width"]
            assert chart >= 0.9 * text - 40
    finally:
        context.close()


def test_bib_link_of_a_list_looks_like_a_link(tab, site_url):
    tab.goto(urljoin(site_url, "tags/caching/"))
    link = tab.locator(".pp-downloads .pp-download").first
    colour = link.evaluate("e => getComputedStyle(e).color")
    text = tab.locator("article p").first.evaluate("e => getComputedStyle(e).color")
    border = link.evaluate("e => getComputedStyle(e).borderTopStyle")
    assert colour != text and border != "none"
