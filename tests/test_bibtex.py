"""BibTeX export: entry types from the venue registry, names, escaping, keys, .aux files."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
import pybtex.database
import pytest

from catalog.bib import bibtex
from catalog.bib.bibtex import Name, export, format_name, join_name, split_name
from catalog.bib.options import ExportOptions
from catalog.data import reader
from catalog.data.registry import Venue, load_venues
from catalog.errors import CatalogError, UsageError
from catalog.model import Paper
from tests.conftest import REPO

VENUES = load_venues(REPO / "data" / "venues.yaml")
TERMS = bibtex.load_protected_terms(REPO / "data" / "protected-terms.txt")


def paper(**fields) -> Paper:
    base = {
        "key": "sima2022ekko",
        "title": "Ekko: A Recommender System",
        "authors": ["Chijun Sima", "Yao Fu"],
        "year": 2022,
        "venue": "OSDI",
    }
    return Paper(**{**base, **fields})


def fields_of(text: str) -> dict[str, str]:
    """The single entry of text as parsed by bibtexparser (raw values, braces kept)."""
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    (entry,) = library.entries
    return {"ENTRYTYPE": entry.entry_type, **{f.key: f.value for f in entry.fields}}


def test_conference_paper_is_inproceedings_with_registry_fields() -> None:
    text = bibtex.entry(
        paper(
            key="kurniawan2023evstore",
            venue="ASPLOS",
            year=2023,
            title="EVStore: Storage and Caching",
            pages="281-294",
            doi="10.1145/3575693.3575718",
        ),
        VENUES,
    )
    got = fields_of(text)
    assert got["ENTRYTYPE"] == "inproceedings"
    assert got["booktitle"] == (
        "Proceedings of the ACM International Conference on "
        "Architectural Support for Programming Languages and "
        "Operating Systems"
    )
    assert got["series"] == "ASPLOS '23"
    assert got["publisher"] == "Association for Computing Machinery"
    assert got["pages"] == "281--294"
    assert got["doi"] == "10.1145/3575693.3575718"
    assert got["title"] == "{EVStore}: Storage and Caching"
    assert got["year"] == "2023"


def test_venue_style_short_writes_the_abbreviation() -> None:
    osdi = fields_of(bibtex.entry(paper(), VENUES, ExportOptions(venue_style="short")))
    assert osdi["booktitle"] == "Proc. OSDI"
    pvldb = fields_of(
        bibtex.entry(
            paper(venue="PVLDB", volume="15", number="2"),
            VENUES,
            ExportOptions(venue_style="short"),
        )
    )
    assert pvldb["journal"] == "Proc. VLDB Endow."


def test_journal_paper_is_article_with_volume_and_number() -> None:
    got = fields_of(
        bibtex.entry(
            paper(
                key="miao2022het",
                venue="PVLDB",
                volume="15",
                number="2",
                doi="10.14778/3489496.3489511",
                arxiv="2112.07221",
            ),
            VENUES,
        )
    )
    assert got["ENTRYTYPE"] == "article"
    assert got["journal"] == "Proceedings of the VLDB Endowment"
    assert (got["volume"], got["number"]) == ("15", "2")
    assert got["eprint"] == "2112.07221" and got["archivePrefix"] == "arXiv"
    assert "booktitle" not in got and "series" not in got


def test_preprint_is_misc_with_eprint_and_url() -> None:
    got = fields_of(
        bibtex.entry(
            paper(key="he2021fastmoe", venue="arXiv", year=2021, arxiv="2103.13262"), VENUES
        )
    )
    assert got["ENTRYTYPE"] == "misc"
    assert got["eprint"] == "2103.13262"
    assert got["archivePrefix"] == "arXiv"
    assert got["url"] == "https://arxiv.org/abs/2103.13262"
    assert "journal" not in got and "publisher" not in got and "primaryClass" not in got


def test_arxiv_style_journal_for_natbib() -> None:
    got = fields_of(
        bibtex.entry(
            paper(venue="arXiv", arxiv="2103.13262"), VENUES, ExportOptions(arxiv_style="journal")
        )
    )
    assert got["ENTRYTYPE"] == "article"
    assert got["journal"] == "arXiv preprint arXiv:2103.13262"
    assert "eprint" not in got
    # A published paper keeps its venue; its arXiv id stays in eprint.
    published = fields_of(
        bibtex.entry(paper(arxiv="2202.12429"), VENUES, ExportOptions(arxiv_style="journal"))
    )
    assert published["ENTRYTYPE"] == "inproceedings"
    assert published["eprint"] == "2202.12429"


def test_nothing_is_written_that_the_data_lacks() -> None:
    got = fields_of(bibtex.entry(paper(venue="ISCA"), VENUES))  # ISCA: no publisher, no series
    assert set(got) == {"ENTRYTYPE", "author", "title", "booktitle", "year"}


def test_book_thesis_and_report_venues() -> None:
    venues = {
        "Springer": Venue("Springer", "book", "Springer"),
        "Stanford": Venue("Stanford", "thesis", "Stanford University"),
        "MSR": Venue("MSR", "report", "Microsoft Research", extra={"entry_type": "techreport"}),
    }
    assert fields_of(bibtex.entry(paper(venue="Springer"), venues))["publisher"] == "Springer"
    thesis = fields_of(bibtex.entry(paper(venue="Stanford"), venues))
    assert (thesis["ENTRYTYPE"], thesis["school"]) == ("phdthesis", "Stanford University")
    report = fields_of(bibtex.entry(paper(venue="MSR"), venues))
    assert (report["ENTRYTYPE"], report["institution"]) == ("techreport", "Microsoft Research")


def test_unknown_venue_is_a_clear_error() -> None:
    with pytest.raises(
        bibtex.ExportError,
        match=r"sima2022ekko \(line 7\): venue 'OSDY' is "
        r"not in the venue registry \(add it to data/venues.yaml\)",
    ) as err:
        bibtex.entry(paper(venue="OSDY", line=7), VENUES)
    assert err.value.located("data/papers.yaml") == (
        "data/papers.yaml:7: sima2022ekko: venue 'OSDY' is not in the venue registry (add it to "
        "data/venues.yaml)"
    )


def test_bad_options_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="venue style 'tiny'"):
        export([paper()], VENUES, ExportOptions(venue_style="tiny"))
    with pytest.raises(UsageError, match="arXiv style 'doi'"):
        export([paper()], VENUES, ExportOptions(arxiv_style="doi"))


@pytest.mark.parametrize(
    ("author", "name"),
    [
        ("Chijun Sima", Name(first="Chijun", last="Sima")),
        ("Daniar H. Kurniawan", Name(first="Daniar H.", last="Kurniawan")),
        ("Mahmoud khorashadi", Name(first="Mahmoud", last="khorashadi")),
        ("Ludwig van Beethoven", Name(first="Ludwig", von="van", last="Beethoven")),
        ("Jean de la Fontaine", Name(first="Jean", von="de la", last="Fontaine")),
        (
            "Gabriel de Souza Pereira Moreira",
            Name(first="Gabriel", von="de", last="Souza Pereira Moreira"),
        ),
        ("Martin Luther King Jr.", Name(first="Martin Luther", last="King", jr="Jr.")),
        ("Martin Luther King, Jr.", Name(first="Martin Luther", last="King", jr="Jr.")),
        ("Enright Jerger, Natalie", Name(first="Natalie", last="Enright Jerger")),
        ("van der Berg, Jan", Name(first="Jan", von="van der", last="Berg")),
        ("Beeblebrox, IV, Zaphod", Name(first="Zaphod", last="Beeblebrox", jr="IV")),
        ("NVIDIA", Name(last="NVIDIA")),
    ],
)
def test_split_name(author: str, name: Name) -> None:
    assert split_name(author) == name


@pytest.mark.parametrize(
    ("author", "bib"),
    [
        ("Chijun Sima", "Sima, Chijun"),
        ("Ludwig van Beethoven", "van Beethoven, Ludwig"),
        ("Gabriel de Souza Pereira Moreira", "de Souza Pereira Moreira, Gabriel"),
        ("Martin Luther King Jr.", "King, Jr., Martin Luther"),
        ("Enright Jerger, Natalie", "Enright Jerger, Natalie"),
        ("Mahmoud khorashadi", "khorashadi, Mahmoud"),
        ("Tom and Jerry", "{and} Jerry, Tom"),
        ("NVIDIA", "NVIDIA"),
        ("van Beethoven", "{van Beethoven}"),
        ("Jean-François Crespo", "Crespo, Jean-François"),
        ("Ann O_Neil", r"O\_Neil, Ann"),
    ],
)
def test_format_name(author: str, bib: str) -> None:
    assert format_name(author) == bib


@pytest.mark.parametrize(
    "author",
    [
        "Chijun Sima",
        "Ludwig van Beethoven",
        "Martin Luther King Jr.",
        "Mahmoud khorashadi",
        "Enright Jerger, Natalie",
        "Gabriel de Souza Pereira Moreira",
        "K. R. Kishore",
        "NVIDIA",
    ],
)
def test_join_name_gives_the_catalog_spelling_back(author: str) -> None:
    assert join_name(split_name(author)) == author


def test_authors_and_others() -> None:
    got = fields_of(bibtex.entry(paper(et_al=True), VENUES))
    assert got["author"] == "Sima, Chijun and Fu, Yao and others"


def test_ascii_mode_spells_accents_in_latex() -> None:
    text = bibtex.entry(
        paper(title="Čech complexes", authors=["Thomas B. Preußer", "Zoë Čech"]),
        VENUES,
        ExportOptions(ascii=True),
    )
    assert text.isascii()
    got = fields_of(text)
    assert got["author"] == r"Preu{\ss}er, Thomas B. and {\v{C}}ech, Zo{\"e}"
    assert got["title"] == r"{\v{C}}ech complexes"


def test_utf8_mode_keeps_utf8_but_spells_name_initials_for_8bit_bibtex() -> None:
    got = fields_of(
        bibtex.entry(
            paper(title="Čech complexes", authors=["Thomas B. Preußer", "Zoë Čech"]), VENUES
        )
    )
    assert got["title"] == "Čech complexes"
    assert got["author"] == r"Preußer, Thomas B. and {\v{C}}ech, Zoë"


def test_ascii_mode_refuses_characters_without_latex_form() -> None:
    with pytest.raises(
        CatalogError,
        match=r"sima2022ekko: title: '😀' \(U\+1F600\) has no "
        r"LaTeX form \(export without --ascii",
    ):
        bibtex.entry(paper(title="Emoji 😀 embeddings"), VENUES, ExportOptions(ascii=True))


def test_url_and_doi_stay_verbatim() -> None:
    got = fields_of(
        bibtex.entry(
            paper(doi="10.1002/(SICI)1097-4636_x%y#z", url="https://example.org/a_b%20c#frag&x=~1"),
            VENUES,
        )
    )
    assert got["doi"] == "10.1002/(SICI)1097-4636_x%y#z"
    assert got["url"] == "https://example.org/a_b%20c#frag&x=~1"
    # Only what could act in LaTeX (braces, backslash, ^^ notation, spaces, controls) is
    # changed, to its percent-encoding.
    assert bibtex.verbatim("https://x.org/{a}") == "https://x.org/%7Ba%7D"
    assert bibtex.verbatim("https://x.org/a}b") == "https://x.org/a%7Db"
    assert bibtex.verbatim("10.1234/\\input{/etc/passwd}") == "10.1234/%5Cinput%7B/etc/passwd%7D"
    assert bibtex.verbatim("10.1/^^5cinput x\x1b") == "10.1/%5E%5E5cinput%20x%1B"


def test_export_is_sorted_by_key_and_stable() -> None:
    papers = [paper(key="zeta2020x"), paper(key="alpha2020x"), paper(key="mid2020x")]
    text = export(papers, VENUES)
    keys = [e.key for e in bibtexparser.parse_string(text).entries]
    assert keys == ["alpha2020x", "mid2020x", "zeta2020x"]
    assert export(list(reversed(papers)), VENUES) == text


def test_load_protected_terms(tmp_path: Path) -> None:
    assert bibtex.load_protected_terms(tmp_path / "missing.txt") == []
    path = tmp_path / "terms.txt"
    path.write_text("# comment\nEkko\n\n  Monte Carlo  # with a note\nC++\n", encoding="utf-8")
    assert bibtex.load_protected_terms(path) == ["Ekko", "Monte Carlo", "C++"]
    assert "Ekko" in TERMS


@pytest.mark.slow
def test_shipped_catalog_export_parses_in_pybtex_and_bibtexparser() -> None:
    papers = reader.load(REPO / "data" / "papers.yaml")
    for options in ({}, {"ascii": True}, {"venue_style": "short"}, {"arxiv_style": "journal"}):
        text = export(papers, VENUES, ExportOptions(protected=tuple(TERMS), **options))
        data = pybtex.database.parse_string(text, "bibtex")
        assert sorted(data.entries) == sorted(p.key for p in papers)
        library = bibtexparser.parse_string(text)
        assert not library.failed_blocks
        assert len(library.entries) == len(papers)
        for key, entry in data.entries.items():
            original = next(p for p in papers if p.key == key)
            assert len(entry.persons["author"]) == len(original.authors) + original.et_al


def test_cited_keys_from_aux_files(tmp_path: Path) -> None:
    (tmp_path / "chapter.aux").write_text("\\citation{he2021fastmoe}\n", encoding="utf-8")
    aux = tmp_path / "paper.aux"
    aux.write_text(
        "\\relax\n\\citation{sima2022ekko,foo2022bar}\n\\citation{sima2022ekko}\n"
        "\\@input{chapter.aux}\n\\abx@aux@cite{0}{miao2022het}\n\\bibdata{refs}\n",
        encoding="utf-8",
    )
    assert bibtex.cited_keys(aux) == ["sima2022ekko", "foo2022bar", "miao2022het", "he2021fastmoe"]
    papers = [paper(), paper(key="he2021fastmoe")]
    found, missing = bibtex.select_cited(papers, bibtex.cited_keys(aux))
    assert [p.key for p in found] == ["sima2022ekko", "he2021fastmoe"]
    assert missing == ["foo2022bar", "miao2022het"]
    assert bibtex.select_cited(papers, ["*"]) == (papers, [])
    with pytest.raises(CatalogError, match="no such file"):
        bibtex.cited_keys(tmp_path / "nothing.aux")


def test_primary_class_is_written_and_read_back():
    from catalog.bib.bibtex import export
    from catalog.bib.parser import read_bib
    from catalog.data.registry import Venue
    from catalog.model import Paper

    venues = {"arXiv": Venue("arXiv", "preprint", "arXiv", "Cornell University")}
    paper = Paper(
        key="he2021fastmoe",
        title="FastMoE: A Fast Mixture-of-Expert Training System",
        authors=["Jiaao He"],
        year=2021,
        venue="arXiv",
        arxiv="2103.13262",
        arxiv_class="cs.LG",
    )
    text = export([paper], venues)
    assert "primaryClass  = {cs.LG}" in text
    (record,) = read_bib(text, "x.bib", venues)
    assert record.paper is not None and record.paper.arxiv_class == "cs.LG"
