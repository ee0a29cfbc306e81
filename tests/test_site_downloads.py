"""The site's citation downloads: every format of a paper and of a list, written by
`papers export`'s writers, byte for byte what the command line writes."""

from __future__ import annotations

import json
import re

from catalog.bib import formats
from catalog.site import downloads, render
from catalog.site.shelves import anchor as shelves_anchor
from tests.test_site import data_for

FORMATS = [d.fmt for d in downloads.DOWNLOADS]


def _cite_data(pages: dict[str, str], download: downloads.Download) -> dict[str, object]:
    """A format's data script, read back: its joint, label, ending, type and pieces."""
    script = pages[downloads.data_file(download)]
    found = re.fullmatch(
        r"\(window\.PAPERS_CITE=window\.PAPERS_CITE\|\|\{\}\)\[(.*?)\]=(.*);\n", script, re.S
    )
    assert found and json.loads(found.group(1)) == download.fmt
    value: dict[str, object] = json.loads(found.group(2))
    return value


def _join(value: dict[str, object], keys: list[str]) -> str:
    """What papers.js's joined() makes of a data script's pieces for these keys."""
    before, between, after, empty = value["joint"]  # type: ignore[misc]
    texts = [value["pieces"][k] for k in sorted(keys)]  # type: ignore[index]
    return before + between.join(texts) + after if texts else empty


def test_every_format_is_offered_and_is_what_export_writes_for_a_list(paths, cli):
    data = data_for(paths)
    pages = render.generate(data)
    assert not [uri for uri in pages if uri.startswith("assets/bib/")]  # no list ships a file
    for uri, query, name in (
        ("tags/embedding.md", "tag:embedding", "tags-embedding"),
        ("years/2023.md", "year:2023", "years-2023"),
        ("venues/asplos.md", "venue:ASPLOS", "venues-asplos"),
    ):
        found = re.search(r'data-cite-keys="([^"]*)" data-cite-name="([^"]*)"', pages[uri])
        assert found and found.group(2) == name, uri
        keys = found.group(1).split(" ")
        buttons = re.findall(
            r'<button type="button" class="pp-download" data-cite="([^"]+)">', pages[uri]
        )
        assert buttons == FORMATS, uri
        for download in downloads.DOWNLOADS:
            result = cli("export", query, "--format", download.fmt)
            assert result.exit_code == 0, result.output
            assert _join(_cite_data(pages, download), keys) == result.stdout, (uri, download.fmt)


def test_an_author_of_several_papers_offers_their_files(tmp_path):
    from tests.conftest import PAPERS, write_catalog

    two = PAPERS.replace("[Fan Lai, Wei Zhang,", "[Fan Lai, Jiaao He,")
    assert two != PAPERS
    data = data_for(write_catalog(tmp_path, two))
    pages = render.generate(data)
    shelves = {uri: page for uri, page in pages.items() if uri.startswith("authors/")}
    offered = [
        (uri, m.group(1), m.group(2))
        for uri, page in shelves.items()
        for m in re.finditer(r'data-cite-keys="([^"]*)" data-cite-name="([^"]*)"', page)
    ]
    several = [p for p in data.people.everyone if len(p.papers) > 1]
    assert [p.name for p in several] == ["Jiaao He"]
    assert len(offered) == len(several)  # a person of one paper: its page offers it
    for person in several:
        (keys,) = [keys for _, keys, name in offered if name == shelves_anchor(person)]
        assert keys.split(" ") == sorted(p.key for p in person.papers)
        value = _cite_data(pages, downloads.DOWNLOADS[2])
        papers = [data.by_key[k] for k in keys.split(" ")]
        assert _join(value, keys.split(" ")) == formats.export(
            "ris", papers, data.venues, data.export_options
        )


def test_each_paper_page_offers_its_own_files(paths, cli):
    data = data_for(paths)
    pages = render.generate(data)
    for paper in data.papers:
        page = pages[f"papers/{paper.key}.md"]
        assert "data:" not in page  # its files are joined in the browser, as a list's
        found = re.search(r'data-cite-keys="([^"]*)" data-cite-name="([^"]*)"', page)
        assert found and found.groups() == (paper.key, paper.key), paper.key
        buttons = re.findall(
            r'<button type="button" class="pp-download" data-cite="([^"]+)">', page
        )
        assert buttons == FORMATS, paper.key
        for download in downloads.DOWNLOADS:
            assert _join(_cite_data(pages, download), [paper.key]) == formats.export(
                download.fmt, [paper], data.venues, data.export_options
            ), (paper.key, download.fmt)
    # The command line writes the same for one paper.
    result = cli("export", "fastmoe", "--format", "csl-json")
    (item,) = json.loads(result.stdout)
    csl = _join(_cite_data(pages, downloads.DOWNLOADS[3]), ["he2021fastmoe"])
    assert json.loads(csl) == [item]


def test_the_data_scripts_join_into_the_export_of_any_set(paths):
    data = data_for(paths)
    pages = render.generate(data)
    keys = sorted(p.key for p in data.papers)
    for download in downloads.DOWNLOADS:
        value = _cite_data(pages, download)
        for chosen in (keys, keys[:1], []):  # the whole catalog, one paper, none
            papers = [data.by_key[k] for k in chosen]
            assert _join(value, chosen) == formats.export(
                download.fmt, papers, data.venues, data.export_options
            )
    # A list entry's BibTeX toggle shows the BibTeX piece, the entry as export writes it.
    pieces = _cite_data(pages, downloads.DOWNLOADS[0])["pieces"]
    assert pieces["he2021fastmoe"].strip() == data.bibtex["he2021fastmoe"].strip()  # type: ignore[index]


def test_hostile_text_in_a_download_link_stays_text(paths):
    data = data_for(paths)
    # The template escapes by default: an address with markup in it stays an address.
    html = downloads.list_links('tags/"><script>alert(1)</script>.md', data.papers, data)
    assert "<script" not in html and "&#34;&gt;&lt;script&gt;" in html
    assert html.count("<button ") == len(downloads.DOWNLOADS)


def test_a_build_writes_each_papers_citation_texts_once(paths, monkeypatch):
    from collections import Counter

    from catalog.bib import bibtex, csljson

    data = data_for(paths)  # its BibTeX entries made, as a build's load makes them
    assert data.bibtex
    made: Counter[tuple[str, str]] = Counter()
    entry, item = bibtex.Writer.entry, csljson.item

    def counted_entry(self: bibtex.Writer, paper: object) -> str:
        if type(self) is bibtex.Writer:  # biblatex's writer builds on it: its own format
            made["bibtex", paper.key] += 1  # type: ignore[attr-defined]
        return entry(self, paper)  # type: ignore[arg-type]

    def counted_item(paper: object, *args: object) -> csljson.Item:
        made["csl-json", paper.key] += 1  # type: ignore[attr-defined]
        return item(paper, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(bibtex.Writer, "entry", counted_entry)
    monkeypatch.setattr(csljson, "item", counted_item)
    render.generate(data)
    # The page's BibTeX is the load's entry; the downloads (RIS and CSL-JSON) and the
    # page's citation tags read one CSL-JSON item.
    assert made == Counter({("csl-json", key): 1 for key in data.bibtex})
