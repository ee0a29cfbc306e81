"""Reading .bib files back: real messy files, malformed entries, names, venues, arXiv ids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from catalog.bib.bibtex import BibRecord, read_bib, read_bib_file
from catalog.data import reader
from catalog.data.registry import Venue, load_venues
from catalog.errors import CatalogError
from catalog.model import normalize_title
from tests.conftest import REPO, SEED_CATALOG, SHARED, used_venues

VENUES = load_venues(REPO / "data" / "venues.yaml")
# Without the well-known venues no paper uses yet: for tests of how unknown venues are proposed.
USED = used_venues()
RECOMMENDER = SHARED / "testdata" / "recommender.bib"
SEED = SHARED / "reference" / "seed-papers.bib"


def read(text: str, venues: dict[str, Venue] = VENUES) -> list[BibRecord]:
    return read_bib(text, "refs.bib", venues)


def one(text: str, venues: dict[str, Venue] = VENUES) -> BibRecord:
    (record,) = read(text, venues)
    return record


def entry_lines(text: str) -> dict[int, str]:
    """Line -> key of every '@type{key' in a .bib text (comments aside)."""
    out = {}
    for i, line in enumerate(text.splitlines(), 1):
        m = re.match(r"\s*@\s*(\w+)\s*\{\s*([^,\s]*)", line)
        if m and m.group(1).lower() not in ("comment", "string", "preamble"):
            out[i] = m.group(2)
    return out


def test_every_entry_of_recommender_bib_is_read_or_reported_with_its_line() -> None:
    text = RECOMMENDER.read_text(encoding="utf-8")
    records = read_bib(text, "recommender.bib", VENUES)
    assert {r.line: r.key for r in records} == entry_lines(text)
    assert len(records) == 32
    for record in records:
        if record.paper is None:
            assert record.problems, record.key
        for problem in record.problems:
            assert (problem.file, problem.line, problem.where) == (
                "recommender.bib",
                record.line,
                record.key,
            )
    unread = {r.key for r in records if r.paper is None}
    assert unread == {"Merlin", "NVTabular", "HugeCTR", "Triton"}  # software: no venue
    for record in records:
        if record.key in unread:
            assert [p.message for p in record.problems] == [
                "not a paper (web page / software): skipped"
            ]


def test_recommender_bib_quirks_are_understood() -> None:
    records = {r.key: r for r in read_bib_file(RECOMMENDER, VENUES)}
    wide = records["cheng2016wide"].paper
    assert wide is not None
    assert wide.title == "Wide & deep learning for recommender systems"
    assert wide.et_al and len(wide.authors) == 10
    assert wide.authors[0] == "Heng-Tze Cheng" and wide.pages == "7-10"
    assert records["de2021transformers4rec"].paper.authors[0] == "Gabriel de Souza Pereira Moreira"
    assert "Thomas B. Preußer" in records["MLSYS2021_ec895663"].paper.authors
    assert "Yong Li" in records["MLSYS2021_ec895663"].paper.authors  # 'Li , Yong'
    assert "Jean-François Crespo" in records["NIPS2015_86df7dcf"].paper.authors
    assert "Joaquin Quiñonero Candela" in records["10.1145/2648584.2648589"].paper.authors
    assert records["ConciseVV_10.1007/11561927_25"].paper.authors == ["Dahlia Malkhi", "Doug Terry"]
    lightseq = records["wang-etal-2021-lightseq"].paper  # double-quoted values
    assert lightseq.title == "LightSeq: A High Performance Inference Library for Transformers"
    assert lightseq.doi == "10.18653/v1/2021.naacl-industry.15"
    vector = records["VectorSet_10.1145/1243418.1243427"].paper
    assert vector.pages == "68-74"  # written with an en dash
    assert vector.key == "VectorSet_10.1145/1243418.1243427"  # any key BibTeX takes is kept
    doi_key = records["10.1145/2648584.2648589"].paper
    assert doi_key.key != "10.1145/2648584.2648589"  # a digit first: a catalog key is made
    assert records["280902"].fields["month"] == "July"
    assert records["Merlin"].fields["howpublished"] == "https://github.com/NVIDIA-Merlin/Merlin"
    assert (
        records["russakovsky2015imagenet"].paper.title
        == "Imagenet Large Scale Visual Recognition Challenge"
    )


def test_recommender_bib_venues_resolve_against_the_registry() -> None:
    """Against the venues the catalog uses, the rest of recommender.bib's venues are proposed."""
    records = {r.key: r for r in read_bib_file(RECOMMENDER, USED)}
    known = {
        "280902": "OSDI",
        "186214": "OSDI",
        "ProjectAdam_186212": "OSDI",
        "9355295": "SC",
        "MLSYS2020_f7e6c855": "MLSys",
        "MLSYS2021_979d472a": "MLSys",
        "10.1145/3437801.3441578": "PPoPP",
        "naumov2019deep": "arXiv",
        "merity2016pointer": "arXiv",
        "zionex": "arXiv",
        "ginart2021mixed": "arXiv",
    }
    for key, short in known.items():
        record = records[key]
        assert record.paper.venue == short, key
        assert record.venue is USED[short] and not record.new_venue
        assert not record.problems, key
    proposed = {
        "russakovsky2015imagenet": ("IJCV", "journal", "International Journal of Computer Vision"),
        "ijcai2017-239": (
            "IJCAI",
            "conference",
            "International Joint Conference on Artificial Intelligence",
        ),
        "10.1145/2020408.2020444": (
            "KDD",
            "conference",
            "ACM SIGKDD International Conference on Knowledge Discovery and Data Mining",
        ),
        "cheng2016wide": (
            "workshop on deep learning for recommender systems",
            "workshop",
            "workshop on deep learning for recommender systems",
        ),
        "VectorSet_10.1145/1243418.1243427": (
            "SIGOPS Oper. Syst. Rev.",
            "journal",
            "SIGOPS Oper. Syst. Rev.",
        ),
    }
    for key, (short, kind, name) in proposed.items():
        record = records[key]
        assert record.new_venue and record.paper.venue == short, key
        assert (record.venue.short, record.venue.kind, record.venue.name) == (short, kind, name)
        assert [p.blocking for p in record.problems] == [False]
        assert record.problems[0].message.startswith(f"unknown venue '{short}'")
    assert (
        records["VectorSet_10.1145/1243418.1243427"].venue.publisher
        == "Association for Computing Machinery"
    )


def test_recommender_bib_resolves_well_known_venues_in_the_shipped_registry() -> None:
    records = {r.key: r for r in read_bib_file(RECOMMENDER, VENUES)}
    known = {
        "cheng2016wide": "DLRS",
        "yi2019sampling": "RecSys",
        "ma2018entire": "SIGIR",
        "NIPS2015_86df7dcf": "NeurIPS",
        "10.1145/2020408.2020444": "KDD",
        "ijcai2017-239": "IJCAI",
    }
    for key, short in known.items():
        record = records[key]
        assert record.paper.venue == short, key
        assert record.venue is VENUES[short] and not record.new_venue
        assert not record.problems, key
    assert records["NIPS2015_86df7dcf"].paper.key == "NIPS2015_86df7dcf"  # kept (issue 21)
    record = records["russakovsky2015imagenet"]
    assert record.new_venue and record.paper.venue == "IJCV"


def test_seed_papers_in_recommender_bib_are_the_catalogs_papers() -> None:
    catalog = reader.load(SEED_CATALOG)
    by_doi = {p.doi: p for p in catalog if p.doi}
    by_arxiv = {p.arxiv: p for p in catalog if p.arxiv}
    by_title = {normalize_title(p.title): p for p in catalog}
    matches = {}
    for record in read_bib_file(RECOMMENDER, VENUES):
        p = record.paper
        if p is None:
            continue
        ours = by_doi.get(p.doi) or by_arxiv.get(p.arxiv) or by_title.get(normalize_title(p.title))
        if ours:
            matches[record.key] = ours
            assert ours.year == p.year or p.venue == "arXiv", record.key
            if p.venue != "arXiv":  # a preprint record of a published paper keeps arXiv
                assert p.venue == ours.venue, record.key
    assert {k: p.key for k, p in matches.items()} == {
        "280902": "sima2022ekko",
        "9355295": "xie2020kraken",
        "MLSYS2020_f7e6c855": "zhao2020distributed",
        "naumov2019deep": "naumov2019deep",
        "zionex": "mudigere2022software",
    }


def test_seed_papers_bib_reads_as_the_catalog() -> None:
    """The reference bibliography, with its publishers' booktitles, gives our papers exactly."""
    catalog = {p.key: p for p in reader.load(SEED_CATALOG)}
    records = read_bib_file(SEED, VENUES)
    assert len(records) == 21
    for record in records:
        assert not record.problems, record.key
        ours, read_back = catalog[record.key], record.paper
        for name in (
            "title",
            "authors",
            "year",
            "venue",
            "doi",
            "arxiv",
            "pages",
            "volume",
            "number",
            "url",
            "et_al",
        ):
            assert getattr(read_back, name) == getattr(ours, name), (record.key, name)


def test_malformed_entries_are_reported_with_their_line_and_the_rest_still_read(capfd) -> None:
    text = """\
@article{good1, title = {Good}, author = {A. Author}, year = 2020, journal = {PVLDB}}

@article{broken,
  title = {Broken,
  author = {B. Author},
  year = 2021
}

@inproceedings{nocomma, title = {X} author = {C. Author}, year = {2020}, booktitle = {OSDI}}
@misc{good1, title = {Again}}
@misc{twice, title = {One}, title = {Two}}
@misc{macro, title = unknownmacro, author = {D. Author}, year = 2020}
@misc{, title = {No key}}
@misc stray, title = {no brace}
@inproceedings{good2, title = {Fine}, author = {E. Author}, year = {2019},
  booktitle = {Proceedings of the USENIX Symposium on Operating Systems Design and Implementation}}
"""
    records = read(text)
    by_line = {r.line: r for r in records}
    assert by_line[1].paper.venue == "PVLDB"
    assert by_line[15].paper.venue == "OSDI" and by_line[15].key == "good2"
    expected = {
        3: ("broken", "malformed entry: "),
        9: ("nocomma", "field 'title': unexpected text after the value: 'author = {C. Author}'"),
        10: ("good1", "duplicate key 'good1' (first at line 1)"),
        11: ("twice", "field title given twice"),
        12: ("macro", "field 'title': unknown @string macro 'unknownmacro'"),
        13: ("", "entry has no key"),
        14: ("stray", "text that looks like an entry could not be read"),
    }
    for line, (key, message) in expected.items():
        record = by_line[line]
        assert record.paper is None and record.key == key, line
        assert record.problems[0].line == line
        assert record.problems[0].message.startswith(message), record.problems[0].message
        assert record.problems[0].blocking
    assert capfd.readouterr().err == ""  # reported once, by us, not logged by bibtexparser


def test_missing_fields_and_bad_year() -> None:
    record = one("@article{x, title = {T}, journal = {PVLDB}}")
    assert record.paper is None
    assert [p.message for p in record.problems] == ["missing author", "missing year"]
    record = one("@article{x, title = {T}, author = {A B}, year = {in press}, journal = {J}}")
    assert record.problems[0].message == "year 'in press' is not a year"
    record = one("@book{x, title = {T}, editor = {A B}, year = 2020, publisher = {P}}")
    assert record.problems[0].hint == "only editors are given"


def test_strings_months_and_concatenation() -> None:
    record = one(
        '@string{vldb = "Proceedings of the VLDB Endowment"}\n'
        '@article{x, title = "Part " # {One}, author = {A B}, year = 2022,'
        " journal = vldb, month = sep}"
    )
    assert record.fields["title"] == "Part One"
    assert record.fields["month"] == "September"
    assert record.paper.venue == "PVLDB"


@pytest.mark.parametrize(
    ("authors", "expected", "et_al"),
    [
        ("Sima, Chijun and Fu, Yao", ["Chijun Sima", "Yao Fu"], False),
        ("Chijun Sima and Yao Fu and others", ["Chijun Sima", "Yao Fu"], True),
        (
            "van Beethoven, Ludwig and King, Jr., Martin Luther",
            ["Ludwig van Beethoven", "Martin Luther King Jr."],
            False,
        ),
        ("Enright Jerger, Natalie", ["Enright Jerger, Natalie"], False),
        (
            r"{\"O}zsu, M. Tamer and Preu\ss er, Thomas and {\v{C}}ech, Ivan",
            ["M. Tamer Özsu", "Thomas Preußer", "Ivan Čech"],
            False,
        ),
        ("{Barnes and Noble}", ["Barnes and Noble"], False),
        ("D.~E. Knuth", ["D. E. Knuth"], False),
    ],
)
def test_author_forms(authors: str, expected: list[str], et_al: bool) -> None:
    paper = one(
        f"@misc{{x, author = {{{authors}}}, title = {{T}}, year = 2020, eprint = {{2001.00001}}}}"
    ).paper
    assert paper is not None
    assert (paper.authors, paper.et_al) == (expected, et_al)


def test_invalid_name_is_reported() -> None:
    record = one("@misc{x, author = {A, B, C, D}, title = {T}, year = 2020, eprint = {2001.00001}}")
    assert record.paper is None
    assert "author 1 'A, B, C, D'" in record.problems[0].message


@pytest.mark.parametrize(
    "fields",
    [
        "eprint = {2103.13262}, archivePrefix = {arXiv}",
        "eprint = {arXiv:2103.13262}",
        "journal = {arXiv preprint arXiv:2103.13262}",
        "journal = {CoRR}, volume = {abs/2103.13262}",
        "url = {https://arxiv.org/abs/2103.13262}",
        "url = {http://arxiv.org/pdf/2103.13262.pdf}",
        "note = {arXiv:2103.13262}",
        "howpublished = {\\url{https://arxiv.org/abs/2103.13262}}",
        "doi = {10.48550/arXiv.2103.13262}",
    ],
)
def test_arxiv_id_from_any_field(fields: str) -> None:
    record = one(f"@misc{{x, author = {{A B}}, title = {{T}}, year = 2021, {fields}}}")
    assert record.paper.arxiv == "2103.13262"
    assert record.paper.venue == "arXiv" and record.paper.doi is None


def test_published_paper_with_eprint_keeps_its_venue() -> None:
    record = one(
        "@inproceedings{x, author = {A B}, title = {T}, year = 2023,"
        " booktitle = {Proceedings of the 29th Symposium on Operating Systems Principles"
        " (SOSP '23)}, eprint = {2202.12429}, archivePrefix = {arXiv}}"
    )
    assert (record.paper.venue, record.paper.arxiv) == ("SOSP", "2202.12429")


@pytest.mark.parametrize(
    ("fields", "short"),
    [
        (
            "booktitle = {17th USENIX Symposium on Operating Systems Design and Implementation "
            "(OSDI 23)}",
            "OSDI",
        ),
        (
            "booktitle = {Proceedings of the 2022 International Conference on Management of Data "
            "(SIGMOD '22)}",
            "SIGMOD",
        ),
        ("booktitle = {Some Proceedings}, series = {ASPLOS '23}", "ASPLOS"),
        (
            "booktitle = {2022 IEEE 38th International Conference on Data Engineering (ICDE)}",
            "ICDE",
        ),
        (
            "booktitle = {MICRO-54: 54th Annual IEEE/ACM International Symposium on "
            "Microarchitecture}",
            "MICRO",
        ),
        (
            "booktitle = {SC20: International Conference for High Performance Computing, Networking,"
            " Storage and Analysis}",
            "SC",
        ),
        (
            "booktitle = {Proceedings of the Seventeenth European Conference on Computer Systems}",
            "EuroSys",
        ),
        ("booktitle = {Proc. OSDI}", "OSDI"),
        ("journal = {Proc. VLDB Endow.}", "PVLDB"),
        ("journal = {{PVLDB}}", "PVLDB"),
        ("journal = {J. Mach. Learn. Res.}", "JMLR"),
    ],
)
def test_venue_resolution(fields: str, short: str) -> None:
    etype = "article" if fields.startswith("journal") else "inproceedings"
    record = one(f"@{etype}{{x, author = {{A B}}, title = {{T}}, year = 2022, {fields}}}")
    assert record.paper.venue == short
    assert not record.new_venue and not record.problems


def test_unknown_venues_are_proposed_not_invented() -> None:
    record = one(
        "@inproceedings{x, author = {A B}, title = {T}, year = 2021,"
        " booktitle = {Proceedings of the 15th ACM Conference on Recommender Systems},"
        " publisher = {ACM}, series = {RecSys '21}}",
        USED,
    )
    assert record.new_venue
    assert (record.venue.short, record.venue.kind, record.venue.name, record.venue.publisher) == (
        "RecSys",
        "conference",
        "ACM Conference on Recommender Systems",
        "ACM",
    )
    assert record.paper.venue == "RecSys"
    thesis = one(
        "@phdthesis{x, author = {A B}, title = {T}, year = 2020, school = {Stanford University}}",
        USED,
    )
    assert (thesis.venue.kind, thesis.venue.name) == ("thesis", "Stanford University")
    report = one(
        "@techreport{x, author = {A B}, title = {T}, year = 2020,"
        " institution = {Microsoft Research}}",
        USED,
    )
    assert (report.venue.kind, report.venue.name) == ("report", "Microsoft Research")
    book = one("@book{x, author = {A B}, title = {T}, year = 2020, publisher = {Springer}}", USED)
    assert (book.venue.kind, book.venue.name, book.venue.publisher) == ("book", "Springer", None)


def test_fields_are_plain_unicode_and_keys_lower_case() -> None:
    record = one(
        r"@Article{x, Title = {{EVStore}: \"Uber {\v{C}}ech \& co --- 50\% off},"
        r" AUTHOR = {A B}, Year = 2022, Journal = {PVLDB},"
        r" URL = {https://example.org/a\_b}, Pages = {281--294}}"
    )
    assert record.entry_type == "article"
    assert record.fields["title"] == "EVStore: Über Čech & co — 50% off"
    assert record.fields["url"] == "https://example.org/a_b"
    assert record.paper.pages == "281-294"


def test_read_bib_file_errors(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="no such file"):
        read_bib_file(tmp_path / "none.bib", VENUES)
    latin = tmp_path / "latin.bib"
    latin.write_bytes(b"@misc{a, title = {ok}}\n@misc{b, author = {Preu\xdfer}}\n")
    with pytest.raises(CatalogError, match=r"latin.bib:2: not UTF-8 text \(save it as UTF-8\)"):
        read_bib_file(latin, VENUES)
    assert read_bib("", "empty.bib", VENUES) == []


def test_doi_and_url_are_read_verbatim() -> None:
    record = one(
        "@article{x, author = {A B}, title = {T}, year = 2020, journal = {PVLDB},"
        r" doi = {{https://doi.org/10.1000/a_(b)c}}, url = {\url{https://x.org/a\_b%20c#d}}}"
    )
    assert record.paper.doi == "10.1000/a_(b)c"
    assert record.paper.url == "https://x.org/a_b%20c#d"
    # Braces are not DOI characters (they would reach LaTeX): that DOI is left out, noted.
    braced = one(
        "@article{x, author = {A B}, title = {T}, year = 2020, journal = {PVLDB},"
        r" doi = {{https://doi.org/10.1000/a_{b}c}}}"
    )
    assert braced.paper.doi is None
    assert any("is not a DOI: left out" in p.message for p in braced.problems)


def test_a_workshop_held_with_a_conference_is_not_the_conference():
    record = one(
        "@inproceedings{x, title={T}, author={Doe, Jane}, year={2020}, booktitle="
        "{Proceedings of the IEEE/CVF conference on computer vision and pattern "
        "recognition workshops}}"
    )
    assert record.new_venue and record.venue is not None and record.venue.kind == "workshop"
    main = one(
        "@inproceedings{y, title={T}, author={Doe, Jane}, year={2020}, booktitle="
        "{Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern "
        "Recognition}}"
    )
    assert not main.new_venue and main.venue is not None and main.venue.short == "CVPR"


# ------------------------------------------------ entries refused or mangled before (issue 9)


def test_et_al_in_any_spelling_is_et_al_never_an_author() -> None:
    for tail in ("and others", "and {Others}", "and et al.", "and {et al.}", "and et~al"):
        record = one(
            f"@article{{x, author = {{Zhifeng Chen {tail}}}, title = {{T}},"
            " year = 2020, journal = {PVLDB}}"
        )
        assert record.paper is not None, (tail, record.problems)
        assert (record.paper.authors, record.paper.et_al) == (["Zhifeng Chen"], True), tail


def test_acm_article_numbers_are_kept_with_the_page_count() -> None:
    record = one(
        "@article{harper2015movielens, author = {Harper, F. Maxwell and Konstan, "
        "Joseph A.}, title = {The MovieLens Datasets}, year = 2015, journal = {PVLDB},"
        " pages = {19:1--19:19}}"
    )
    paper = record.paper
    assert paper is not None and (paper.pages, paper.articleno, paper.numpages) == (
        None,
        "19",
        "19",
    )
    given = one(
        "@article{x, author = {A B}, title = {T}, year = 2020, journal = {PVLDB},"
        " articleno = {12}, numpages = {7}}"
    ).paper
    assert (given.articleno, given.numpages) == ("12", "7")


def test_several_page_ranges_a_year_letter_and_two_classes_are_read() -> None:
    paper = one(
        "@misc{x, author = {A B}, title = {T}, year = {2023a}, eprint = {2301.00001},"
        " archivePrefix = {arXiv}, primaryClass = {cs, stat},"
        " pages = {1226--1235, 1403--1412}}"
    ).paper
    assert paper is not None
    assert (paper.year, paper.arxiv_class, paper.pages) == (2023, "cs", "1226-1235, 1403-1412")


def test_bib_check_and_import_agree_on_what_is_importable(cli, tmp_path: Path) -> None:
    bib = tmp_path / "mixed.bib"
    bib.write_text(
        "@misc{a, author = {A B}, title = {T}, year = 2019, eprint = {2101.00001}}\n"
        "@misc{b, author = {A B}, title = {U}, year = 2021, eprint = {2101.00002},"
        " primaryClass = {9x}}\n"
        "@misc{c, author = {A B}, title = {V}, year = 2021, eprint = {2101.00003}}\n",
        encoding="utf-8",
    )
    checked = json.loads(cli("bib-check", str(bib), "--json").stdout)
    importable = {r["key"] for r in checked if r["paper"]}
    imported = json.loads(cli("import", str(bib), "--json", "--dry-run").stdout)
    added = {o["source_key"] for o in imported["outcomes"] if o["action"] == "added"}
    assert importable == added == {"c"}
    refused = {o["source_key"]: o["reason"] for o in imported["outcomes"]}
    assert "after the paper's year 2019" in refused["a"]
    assert "malformed arXiv category '9x'" in refused["b"]


def test_tex_logos_are_spelled_and_noopsort_is_not_text() -> None:
    """From texlive's btxdoc.bib and xampl.bib: '{\\TeX}book' was read as 'book'."""
    paper = one(
        "@book{texbook, author = {Donald E. Knuth}, title = {The {\\TeX}book},"
        " publisher = {Addison-Wesley}, year = {{\\noopsort{1973b}}1984}}"
    ).paper
    assert paper is not None and (paper.title, paper.year) == ("The TeXbook", 1984)
    latex = one(
        "@book{latex, author = {Leslie Lamport}, title = {{\\LaTeX}: A Document "
        "Preparation System}, publisher = {Addison-Wesley}, year = 1986}"
    ).paper
    assert latex.title == "LaTeX: A Document Preparation System"


def test_pages_that_are_not_a_range_are_left_out_not_the_paper() -> None:
    record = one(
        "@article{x, author = {A B}, title = {T}, year = 2020, journal = {PVLDB}, pages = {73+}}"
    )
    assert record.paper is not None and record.paper.pages is None
    assert any("are not a page range: left out" in p.message for p in record.problems)


# ------------------------------------------------ shapes seen in public .bib files (trials)
# Every entry below is our own writing, in the shape of an entry that was misread.


def problem_messages(record: BibRecord) -> list[str]:
    return [p.message for p in record.problems]


CROSSREF_BIB = """\
@inproceedings{child,
  author = {Ada Quill and Bo Rivet},
  title = {Sharded Counters for Sparse Tables},
  pages = {11--20},
  crossref = {Proc-Nine},
}

@article{issue-paper,
  author = {Cy Dorn},
  title = {Folding Logs},
  crossref = {whole-issue},
}

@article{orphan,
  author = {Eve Fenn},
  title = {A Paper Whose Volume Is Elsewhere},
  crossref = {not-here},
}

@proceedings{proc-nine,
  editor = {Gil Hart},
  title = {Proceedings of the Ninth Symposium on Operating Systems Principles},
  publisher = {Some Press},
  year = {2009},
  doi = {10.9999/volume.9},
}

@article{whole-issue,
  journal = {\\mbox{Q-Letters} Review},
  year = 2011,
  volume = 7,
}
"""


def test_crossref_gives_the_fields_an_entry_lacks_as_bibtex_does() -> None:
    records = {r.key: r for r in read(CROSSREF_BIB)}
    child = records["child"].paper
    assert child is not None
    # year and booktitle (the volume's title) from the crossref'd entry, later in the file,
    # whose key differs in case; never the volume's own DOI
    assert (child.year, child.venue, child.doi) == (2009, "SOSP", None)
    issue = records["issue-paper"].paper
    assert issue is not None and (issue.year, issue.volume) == (2011, "7")
    assert records["issue-paper"].venue.name == "Q-Letters Review"
    # the containers are not papers, whatever they lack
    assert problem_messages(records["whole-issue"]) == [
        "a journal issue, book or proceedings other entries crossref, not a paper: skipped"
    ]
    assert not records["whole-issue"].problems[0].blocking
    assert problem_messages(records["proc-nine"]) == ["a proceedings volume, not a paper: skipped"]
    # a crossref to an entry not in the file: the reason says where the year would come from
    orphan = records["orphan"]
    assert orphan.paper is None
    assert (
        "crossref 'not-here' is not in this file: the fields it would give (year, venue, "
        "...) are missing" in problem_messages(orphan)
    )
    assert "missing year" in problem_messages(orphan)


def test_box_and_font_commands_keep_their_text_and_unknown_commands_are_noted() -> None:
    record = one(
        "@article{x, author = {A B}, year = 2020,"
        " title = {The \\TeX\\-book of \\texttt{Foo} \\myswap{--9}{B}},"
        " journal = {\\mbox{Z-Sheep's} Gazette}}"
    )
    assert record.paper is not None
    assert record.paper.title == "The TeXbook of Foo –9B"
    assert record.venue.name == "Z-Sheep's Gazette"
    (note,) = record.problems[:1]
    assert note.message == (
        "field 'title': unknown LaTeX command \\myswap dropped, the text of its arguments kept"
    )
    assert not note.blocking


@pytest.mark.parametrize(
    ("year", "read_as"),
    [
        ("{\\noopsort{1990a}}{\\myswap{--93}{1990}}", 1990),
        ("2017 (to appear)", 2017),
    ],
)
def test_a_year_field_holding_one_year_among_other_text_is_read_as_it(
    year: str, read_as: int
) -> None:
    record = one(
        f"@article{{x, author = {{A B}}, title = {{T}}, journal = {{PVLDB}}, year = {{{year}}}}}"
    )
    assert record.paper is not None and record.paper.year == read_as
    assert any(
        p.message.endswith(f"read as {read_as}, the one year it holds") for p in record.problems
    )


def test_a_year_field_with_two_years_is_still_refused() -> None:
    record = one("@article{x, author = {A B}, title = {T}, journal = {PVLDB}, year = {1990--1993}}")
    assert record.paper is None
    assert "year '1990–1993' is not a year" in problem_messages(record)


def test_a_web_page_without_year_or_author_is_not_a_paper_not_a_missing_field() -> None:
    page = one(
        "@misc{Homepage, author = {Some Org}, title = {{Some Org Home}},"
        " url = {http://example.org/about}}"
    )
    assert problem_messages(page) == ["not a paper (web page / software): skipped"]
    software = one(
        "@software{tool, title = {A Tool}, url = {https://example.org/tool}, date = {2020-05-01}}"
    )
    assert problem_messages(software) == ["not a paper (web page / software): skipped"]


@pytest.mark.parametrize(
    ("journal", "name"),
    [
        ("Proc. {ACM} Widget. Lang.", "Proc. ACM Widget. Lang."),
        (
            "Proceedings of the Royal Society of Widgets",
            "Proceedings of the Royal Society of Widgets",
        ),
        ("The Widget Journal", "The Widget Journal"),
    ],
)
def test_a_journal_keeps_proceedings_and_the_in_its_name(journal: str, name: str) -> None:
    record = one(
        f"@article{{x, author = {{A B}}, title = {{T}}, year = 2019, journal = {{{journal}}}}}"
    )
    assert record.new_venue and record.venue.name == name


def test_a_place_and_date_after_a_dblp_booktitle_are_not_the_venues_name() -> None:
    # No acronym before the place: 'International Conference on Data Engineering' is ICDE.
    icde = one(
        "@inproceedings{x, author = {A B}, title = {T}, year = 2001, booktitle ="
        " {Proceedings of the 17th International Conference on Data Engineering,"
        " Springfield, Ohio, USA, April 2-6, 2001}}"
    )
    assert icde.paper.venue == "ICDE" and not icde.new_venue
    # 'ACM SIGWIDGET 2009 Conference on ...': SIGWIDGET organises, it is not the acronym;
    # the same conference's later entry gives its acronym, and both are filed under it.
    both = read(
        "@inproceedings{a, author = {A B}, title = {T}, year = 2009, booktitle ="
        " {Proceedings of the {ACM} {SIGWIDGET} 2009 Conference on Widget Design and"
        " Layout, Fargo, ND, USA, June 1-5, 2009}}\n"
        "@inproceedings{b, author = {C D}, title = {U}, year = 2019, booktitle ="
        " {Proceedings of the 12th {ACM} {SIGWIDGET} Conference on Widget Design and"
        " Layout, {WDL} 2019, Oslo, Norway, May 3-7, 2019}}\n",
        USED,
    )
    assert [r.paper.venue for r in both] == ["WDL", "WDL"]
    assert both[0].venue.name == "ACM SIGWIDGET Conference on Widget Design and Layout"


@pytest.mark.parametrize(
    ("fields", "short"),
    [
        # a registry name but for its organisers (ACM SIGKDD, IEEE) the text leaves out
        ("booktitle = {Conference on Knowledge Discovery and Data Mining}", "KDD"),
        ("booktitle = {Proceedings of the International Conference on Data Engineering}", "ICDE"),
        # a conference's booktitle naming only its field is the registry's 'Conference on' it
        ("booktitle = {Neural Information Processing Systems}", "NeurIPS"),
    ],
)
def test_a_registry_venue_is_found_without_its_organisers(fields: str, short: str) -> None:
    record = one(f"@inproceedings{{x, author = {{A B}}, title = {{T}}, year = 2012, {fields}}}")
    assert record.paper.venue == short and not record.new_venue


@pytest.mark.parametrize(
    "text",
    [
        "@article{x, author = {A B}, title = {T}, year = 2012, journal = {ACM Transactions on"
        " Computers}}",  # the registry's TC is IEEE's: another organiser is another venue
        "@article{x, author = {A B}, title = {T}, year = 2012, journal = {Machine Learning}}",
        "@inproceedings{x, author = {A B}, title = {T}, year = 2012, booktitle = {Machine"
        " Learning: WXYZ-98}}",  # its own acronym: not the registry's ICML
    ],
)
def test_a_name_is_not_stretched_to_another_registry_venue(text: str) -> None:
    record = one(text)
    assert record.new_venue and record.paper.venue not in ("TC", "ICML")


@pytest.mark.parametrize(
    ("pages", "read_as"),
    [
        ("319--40", "319-340"),
        ("7197--8", "7197-7198"),
        ("95--105", "95-105"),
        ("12--3", "12-13"),
    ],
)
def test_a_last_page_written_short_is_written_in_full(pages: str, read_as: str) -> None:
    record = one(
        f"@article{{x, author = {{A B}}, title = {{T}}, year = 2011,"
        f" journal = {{PVLDB}}, pages = {{{pages}}}}}"
    )
    assert record.paper.pages == read_as


def test_mendeley_title_period_and_minus_one_issue_are_tidied() -> None:
    record = one(
        "@article{x, author = {A B}, title = {{Learning widgets: a survey.}},"
        " year = 2011, journal = {PVLDB}, number = {-1}, volume = {12}}"
    )
    assert record.paper.title == "Learning widgets: a survey"
    assert record.paper.number is None and record.paper.volume == "12"
    assert {
        "title: its final period dropped",
        "number '-1' is not an issue number: left out",
    } <= set(problem_messages(record))
    kept = one(
        "@article{x, author = {A B}, title = {Widgets and Gadgets, Inc.},"
        " year = 2011, journal = {PVLDB}}"
    )
    assert kept.paper.title == "Widgets and Gadgets, Inc."


def test_a_generation_suffix_written_last_is_not_the_family_name() -> None:
    paper = one(
        "@inproceedings{x, title = {T}, year = 2017, booktitle = {ICML},"
        " author = {Ann Bee and Carl D. Dune IV and Eli Fay Jr.}}"
    ).paper
    assert paper.authors == ["Ann Bee", "Carl D. Dune IV", "Eli Fay Jr."]


def test_a_repeated_key_of_the_same_paper_says_to_delete_one() -> None:
    records = read(
        "@article{k, author = {A B}, title = {Same Title}, year = 2013,"
        " journal = {PVLDB}}\n"
        "@article{k, author = {A B}, title = {Same {T}itle}, year = 2013,"
        " journal = {PVLDB}}\n"
        "@article{k, author = {A B}, title = {Other Title}, year = 2013,"
        " journal = {PVLDB}}\n"
    )
    assert [p.hint for r in records[1:] for p in r.problems] == [
        "it repeats the entry at line 1: delete one of them",
        "give each entry its own key",
    ]


@pytest.mark.parametrize(
    ("text", "venue", "kind"),
    [
        # an @inproceedings with a journal and no booktitle: the journal is its venue
        (
            "@inproceedings{x, author = {A B}, title = {T}, year = 2010, journal = {Widget Software},"
            " volume = 27, pages = {82--89}}",
            "Widget Software",
            "journal",
        ),
        (
            "@inproceedings{x, author = {A B}, title = {T}, year = 2021,"
            " journal = {arXiv:2107.99999}}",
            "arXiv",
            "preprint",
        ),
        # an @article with only a publisher is a book; a @book with a journal and pages an article
        (
            "@article{x, author = {A B}, title = {T}, year = 2000, publisher = {Gadget Press}}",
            "Gadget Press",
            "book",
        ),
        (
            "@book{x, author = {A B}, title = {T}, year = 1972, journal = {Widget Letters},"
            " pages = {10--18}, publisher = {WL}}",
            "Widget Letters",
            "journal",
        ),
    ],
)
def test_an_entry_of_the_wrong_type_keeps_the_venue_it_names(
    text: str, venue: str, kind: str
) -> None:
    record = one(text, USED)
    assert record.paper is not None
    assert (record.venue.name, record.venue.kind) == (venue, kind)
    assert any(": its venue read from " in p.message and not p.blocking for p in record.problems)


def test_the_space_tex_eats_after_a_logo_before_a_command_is_not_text() -> None:
    """texlive's btxdoc.bib writes a title '{\\LaTeX \\rm:} ...': TeX prints 'LaTeX:'."""
    paper = one(
        "@book{x, author = {A B}, publisher = {P}, year = 1990,"
        " title = {{\\LaTeX \\rm:} {W}idgets and \\TeX and more}}"
    ).paper
    assert paper.title == "LaTeX: Widgets and TeX and more"
