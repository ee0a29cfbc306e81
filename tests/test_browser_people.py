"""The authors index and the All-papers citation formats in a real browser (Debian's
Chromium driven by Playwright, as tests/test_browser.py; its fixtures build and serve
the shipped catalog's site)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin

import pytest

from catalog.model import fold
from tests.test_browser import _catalog_papers

pytestmark = pytest.mark.slow


def _context(browser, size, **options):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    return context, page, errors


def _download(page, button) -> tuple[str, str]:
    """What clicking the button downloads: the file's suggested name and its text."""
    with page.expect_download() as download:
        button.click()
    return download.value.suggested_filename, Path(download.value.path()).read_text("utf-8")


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_the_authors_filter_narrows_the_list_as_one_types(browser, site_url, size):
    context, page, errors = _context(browser, size)
    try:
        page.goto(urljoin(site_url, "authors/"))
        box = page.locator("#pp-people-q")
        assert box.is_visible()  # the script shows it
        everyone = page.locator("ul.pp-people > li").count()
        assert everyone > 500
        box.fill("zhang")
        shown = page.locator("ul.pp-people > li:not([hidden])")
        names = shown.evaluate_all("els => els.map(e => e.getAttribute('data-name'))")
        assert names and all("zhang" in n for n in names)
        # Every person whose name has it is shown: the filter hides no match.
        want = sum(
            "zhang" in n
            for n in page.locator("ul.pp-people > li").evaluate_all(
                "els => els.map(e => e.getAttribute('data-name'))"
            )
        )
        assert len(names) == want
        status = page.locator("#pp-people-count").inner_text()
        assert status == f"{want} of {everyone} authors."
        # Letters whose section has no match are marked; the Z section stays.
        assert page.locator('.pp-letters a[href="#letter-z"]').get_attribute("class") in ("", None)
        assert "pp-empty" in (
            page.locator('.pp-letters a[href="#letter-a"]').get_attribute("class") or ""
        )
        # Accents and case aside: "ANDRE" finds André.
        box.fill("ANDRE")
        found = page.locator("ul.pp-people > li:not([hidden]) > a").all_inner_texts()
        assert any("André" in name for name in found), found
        box.fill("")
        assert page.locator("ul.pp-people > li:not([hidden])").count() == everyone
        box.fill("no such name at all")
        assert page.locator("ul.pp-people > li:not([hidden])").count() == 0
        assert "no name has these letters" in page.locator("#pp-people-count").inner_text()
    finally:
        context.close()
    assert errors == [], errors


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_a_letter_jumps_to_its_family_names(browser, site_url, size):
    context, page, errors = _context(browser, size)
    try:
        page.goto(urljoin(site_url, "authors/"))
        page.locator('.pp-letters a[href="#letter-m"]').click()
        page.wait_for_function("location.hash === '#letter-m'")
        section = page.locator("#letter-m")
        top = section.bounding_box()["y"]
        assert 0 <= top < size[1] / 2  # scrolled to it
        labels = section.locator("li > a").all_inner_texts()
        assert labels and all(fold(label).startswith("m") for label in labels)
        # By family name, accents and case aside.
        assert labels == sorted(labels, key=lambda s: fold(s))
    finally:
        context.close()
    assert errors == [], errors


def test_all_papers_downloads_the_filtered_set_in_each_format(browser, site_url):
    from catalog.bib import formats
    from catalog.bib.bibtex import load_protected_terms
    from catalog.bib.options import ExportOptions
    from catalog.data.registry import load_venues
    from tests.conftest import REPO

    want = [p for p in _catalog_papers() if "caching" in p.tags and p.year >= 2021]
    venues = load_venues(REPO / "data" / "venues.yaml")
    options = ExportOptions(
        protected=tuple(load_protected_terms(REPO / "data" / "protected-terms.txt"))
    )
    context, page, errors = _context(browser, (1366, 900), accept_downloads=True)
    try:
        page.goto(urljoin(site_url, "papers/#tag=caching&from=2021"))
        button = page.locator("button.pp-bibset")
        for fmt, label, ending in (
            ("ris", "RIS", ".ris"),
            ("csl-json", "CSL-JSON", ".json"),
            ("biblatex", "biblatex", ".biblatex.bib"),
        ):
            page.locator("select.pp-citefmt").select_option(fmt)
            assert button.inner_text() == f"{label} of these {len(want)} papers ({ending})"
            name, text = _download(page, button)
            assert name == "papers" + ending
            assert text == formats.export(fmt, want, venues, options), fmt
    finally:
        context.close()
    assert errors == [], errors


def test_a_list_page_and_a_paper_page_download_their_papers(browser, site_url):
    from catalog.bib import formats
    from catalog.bib.bibtex import load_protected_terms
    from catalog.bib.options import ExportOptions
    from catalog.data.registry import load_venues
    from tests.conftest import REPO

    want = [p for p in _catalog_papers() if "caching" in p.tags]
    venues = load_venues(REPO / "data" / "venues.yaml")
    options = ExportOptions(
        protected=tuple(load_protected_terms(REPO / "data" / "protected-terms.txt"))
    )
    context, page, errors = _context(browser, (1366, 900), accept_downloads=True)
    try:
        page.goto(urljoin(site_url, "tags/caching/"))
        assert (
            page.locator(".pp-downloads").inner_text().startswith(f"Cite these {len(want)} papers:")
        )
        for fmt, label, ending in (
            ("bibtex", "BibTeX", ".bib"),
            ("biblatex", "biblatex", ".biblatex.bib"),
            ("ris", "RIS", ".ris"),
            ("csl-json", "CSL-JSON", ".json"),
        ):
            button = page.locator(".pp-downloads .pp-download", has_text=label)
            name, text = _download(page, button)
            assert name == "tags-caching" + ending
            assert text == formats.export(fmt, want, venues, options), fmt
        # An author of several papers: the same buttons under their papers.
        page.goto(urljoin(site_url, "authors/he/#jiaao-he"))
        section = page.locator("section.pp-person", has=page.locator("h2#jiaao-he"))
        keys = section.locator(".pp-downloads").get_attribute("data-cite-keys").split(" ")
        theirs = sorted(p.key for p in _catalog_papers() if "Jiaao He" in p.authors)
        assert keys == theirs and len(keys) > 1
        name, text = _download(page, section.locator(".pp-download", has_text="RIS"))
        assert name == "jiaao-he.ris"
        chosen = [p for p in _catalog_papers() if p.key in theirs]
        assert text == formats.export("ris", chosen, venues, options)
        # A paper's page: the same buttons, its own files.
        (fastmoe,) = [p for p in _catalog_papers() if p.key == "he2021fastmoe"]
        page.goto(urljoin(site_url, "papers/he2021fastmoe/"))
        for fmt, label, ending in (
            ("biblatex", "biblatex", ".biblatex.bib"),
            ("ris", "RIS", ".ris"),
        ):
            button = page.locator(".pp-downloads .pp-download", has_text=label)
            name, text = _download(page, button)
            assert name == "he2021fastmoe" + ending
            assert text == formats.export(fmt, [fastmoe], venues, options), fmt
    finally:
        context.close()
    assert errors == [], errors


def test_a_list_entry_shows_its_bibtex_when_opened(browser, site_url):
    from catalog.bib import formats
    from catalog.bib.bibtex import load_protected_terms
    from catalog.bib.options import ExportOptions
    from catalog.data.registry import load_venues
    from tests.conftest import REPO

    venues = load_venues(REPO / "data" / "venues.yaml")
    options = ExportOptions(
        protected=tuple(load_protected_terms(REPO / "data" / "protected-terms.txt"))
    )
    context, page, errors = _context(browser, (1366, 900))
    try:
        page.goto(urljoin(site_url, "tags/caching/"))
        toggle = page.locator("details[data-bib]").first
        key = toggle.get_attribute("data-bib")
        toggle.locator("summary").click()
        code = toggle.locator("pre code")
        code.wait_for()
        (paper,) = [p for p in _catalog_papers() if p.key == key]
        assert (
            code.inner_text().strip() == formats.export("bibtex", [paper], venues, options).strip()
        )
    finally:
        context.close()
    assert errors == [], errors


def test_a_list_entry_shows_its_abstract_when_opened(browser, site_url):
    from catalog.site.links import plain

    context, page, errors = _context(browser, (390, 800))
    try:
        page.goto(urljoin(site_url, "tags/caching/"))
        toggle = page.locator("details[data-abstract]").first
        key = toggle.get_attribute("data-abstract")
        toggle.locator("summary").click()
        (paper,) = [p for p in _catalog_papers() if p.key == key]
        text = toggle.locator("p")
        page.wait_for_function(
            "d => !d.querySelector('p a')", arg=toggle.element_handle(), timeout=10000
        )
        assert text.inner_text() == plain(paper.abstract or "")
        assert text.inner_text()  # an abstract, not an empty toggle
    finally:
        context.close()
    assert errors == [], errors
