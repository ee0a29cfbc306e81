"""papers import: real .bib files and Markdown lists into copies of the shipped catalog."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from catalog.check.rules import check
from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.ingest import importer, lists, outcomes
from catalog.paths import Paths
from tests.conftest import SHARED
from tests.test_fetch import Online, atom_entry, online  # noqa: F401 (fixture)

TESTDATA = SHARED / "testdata"
RECOMMENDER = TESTDATA / "recommender.bib"
DLRM_LIST = TESTDATA / "dlrm-list.md"
BLOG = TESTDATA.parent / "seed" / "blog-excerpts.txt"


# ---------------------------------------------------------------- BibTeX


def test_recommender_bib_imports_new_papers_and_skips_the_seed_ones(shipped: Paths) -> None:
    seed = {p.key for p in reader.load(shipped.catalog)}
    registry = set(load_venues(shipped.venues))
    report = importer.import_file(shipped, RECOMMENDER)
    assert len(report.outcomes) == 32  # every entry accounted for
    by_action = {a: [o for o in report.outcomes if o.action == a] for a in outcomes.ACTIONS}
    duplicates = {o.key for o in by_action["duplicate"]}
    assert duplicates == {
        "sima2022ekko",
        "naumov2019deep",
        "mudigere2022software",
        "zhao2020distributed",
        "xie2020kraken",
    }
    refused = {o.title: o for o in by_action["refused"]}
    assert set(refused) == {"NVIDIA Merlin", "NVIDIA NVTabular", "NVIDIA HugeCTR", "NVIDIA Triton"}
    assert refused["NVIDIA Merlin"].line == 141 and "venue" in refused["NVIDIA Merlin"].reason
    assert len(by_action["added"]) == 23
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    assert seed <= set(papers) and len(papers) == len(seed) + 23
    assert papers["li2014scaling"].venue == "OSDI" and papers["li2014scaling"].year == 2014
    assert papers["cheng2016wide"].et_al is True  # 'and others' kept as et_al, not invented
    assert all(papers[o.key].added for o in by_action["added"])
    # The registry's well-known venues are used as they are; only the others are proposed.
    assert {
        o.key: o.venue
        for o in by_action["added"]
        if o.venue
        in {"DLRS", "RecSys", "SIGIR", "NeurIPS", "KDD", "CIKM", "SoCC", "NAACL", "IJCAI"}
    } == {
        "cheng2016wide": "DLRS",
        "yi2019sampling": "RecSys",
        "ma2018entire": "SIGIR",
        "de2021transformers4rec": "RecSys",
        "NIPS2015_86df7dcf": "NeurIPS",
        "wang-etal-2021-lightseq": "NAACL",
        "chu2011unbiased": "KDD",
        "tian2018continuum": "SoCC",
        "gong2020edgerec": "CIKM",
        "NEURIPS2020_a1d4c20b": "NeurIPS",
        "shi2020compositional": "KDD",
        "ijcai2017-239": "IJCAI",
    }
    venues = shipped.venues.read_text(encoding="utf-8")
    added_venues = {v.short for v in report.venues_added}
    assert added_venues == {"Distributed Computing", "SIGOPS Oper. Syst. Rev.", "IJCV", "ADKDD"}
    assert set(load_venues(shipped.venues)) == registry | added_venues
    for venue in report.venues_added:
        assert f"\n{venue.short}:" in venues or f'\n"{venue.short}":' in venues
    assert not [p for p in check(shipped) if p.blocking or "unknown" in p.message]


def test_importing_twice_adds_nothing_the_second_time(shipped: Paths) -> None:
    importer.import_file(shipped, RECOMMENDER)
    after_first = shipped.catalog.read_bytes()
    second = importer.import_file(shipped, RECOMMENDER)
    assert second.counts == {"added": 0, "merged": 0, "duplicate": 28, "inbox": 0, "refused": 4}
    assert shipped.catalog.read_bytes() == after_first


def test_import_cli_summary_and_json(run, shipped: Paths) -> None:
    result = run("import", str(RECOMMENDER), "--dry-run")
    assert result.exit_code == 0, result.output
    assert (
        "recommender.bib: would add 23, merged 0, skipped 5 duplicates, refused 4" in result.output
    )
    assert "recommender.bib:141: refused: NVIDIA Merlin" in result.output
    assert "added venue" not in result.output
    assert (
        "would add venue IJCV (journal: International Journal of Computer Vision)" in result.output
    )
    assert (
        "would add venue KDD" not in result.output and "would add venue DLRS" not in result.output
    )
    assert "would add venue IJCAI" not in result.output  # in the registry since issue 9
    assert (
        "recommender.bib:1: added cheng2016wide: Wide & deep learning for recommender "
        "systems [DLRS 2016]" in result.output
    )
    assert "+    - key: li2014scaling" in result.output  # the diff
    assert not (shipped.db.parent / "x").exists()
    data = json.loads(run("import", str(RECOMMENDER), "--json").stdout)
    assert (data["added"], data["duplicate"], data["refused"]) == (23, 5, 4)
    assert {o["line"] for o in data["outcomes"]} >= {1, 141, 363}


def test_no_new_venues_refuses_entries_from_unknown_venues(shipped_used: Paths) -> None:
    # A registry without KDD, RecSys, ...: their entries are refused too.
    venues_before = shipped_used.venues.read_bytes()
    report = importer.import_file(shipped_used, RECOMMENDER, new_venues=False)
    assert report.venues_added == [] and shipped_used.venues.read_bytes() == venues_before
    refused = [o for o in report.outcomes if o.action == "refused"]
    assert any("--no-new-venues" in o.reason for o in refused)
    added = {o.venue for o in report.outcomes if o.action == "added"}
    assert added <= {"OSDI", "MLSys", "PPoPP", "arXiv"}


def test_merge_fills_what_the_catalog_lacks(shipped: Paths) -> None:
    report = importer.import_file(shipped, RECOMMENDER, merge=True)
    merged = {o.key: o for o in report.outcomes if o.action == "merged"}
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    # Ekko had no pages in the catalog; the .bib has them. Nothing is overwritten.
    assert "pages" in merged["sima2022ekko"].fields and papers["sima2022ekko"].pages == "821-839"
    assert papers["sima2022ekko"].title.startswith("Ekko: A Large-Scale")
    assert papers["xie2020kraken"].pages == "1-17"


BROKEN_BIB = (
    "@inproceedings{good2023x,\n  title = {A Good Entry},\n"
    "  author = {Doe, Jane},\n  booktitle = {OSDI},\n  year = {2023}\n}\n\n"
    "@article{bad2023y,\n  title = {Unclosed,\n  author = {Roe, Rick},\n"
    "  year = 2023\n\n@misc{other, title={x}}\n"
)


def test_a_bib_with_broken_entries_is_refused_whole(run, shipped: Paths, tmp_path: Path) -> None:
    bib = tmp_path / "broken.bib"
    bib.write_text(BROKEN_BIB, encoding="utf-8")
    before = shipped.catalog.read_bytes()
    result = run("import", str(bib))
    assert result.exit_code == 1
    assert "broken.bib:8: bad2023y: malformed entry" in result.output
    assert "nothing was imported; fix them, or pass --skip-broken" in result.output
    assert shipped.catalog.read_bytes() == before


def test_broken_bib_entries_are_refused_alone_with_skip_broken(
    run, shipped: Paths, tmp_path: Path
) -> None:
    bib = tmp_path / "broken.bib"
    bib.write_text(BROKEN_BIB, encoding="utf-8")
    result = run("import", str(bib), "--skip-broken")
    assert result.exit_code == 0, result.output
    # Like an entry with no venue, an entry that cannot be read is refused with its line;
    # every entry is accounted for and the readable one is imported.
    assert "broken.bib:1: added good2023x: A Good Entry [OSDI 2023]" in result.output
    assert "broken.bib:8: refused: bad2023y — malformed entry" in result.output
    assert "broken.bib:13: refused: x — missing author" in result.output
    assert "added 1, merged 0, skipped 0 duplicates, refused 2" in result.output
    assert "good2023x" in {p.key for p in reader.load(shipped.catalog)}
    assert {"bad2023y", "other"}.isdisjoint(p.key for p in reader.load(shipped.catalog))


def test_unknown_file_kind_and_missing_file(run, tmp_path: Path) -> None:
    odd = tmp_path / "refs.json"
    odd.write_text("{}", encoding="utf-8")
    assert run("import", str(odd)).exit_code == 1
    missing = run("import", str(tmp_path / "nope.bib"))
    assert missing.exit_code == 1 and "no such file" in missing.output


def test_import_tag_applies_to_added_papers(shipped: Paths, tmp_path: Path) -> None:
    bib = tmp_path / "one.bib"
    bib.write_text(
        "@inproceedings{x,\n  title = {Scaling Distributed Machine Learning with "
        "the Parameter Server},\n  author = {Mu Li and David G. Andersen},\n"
        "  booktitle = {11th USENIX Symposium on Operating Systems Design and "
        "Implementation (OSDI 14)},\n  year = {2014}\n}\n",
        encoding="utf-8",
    )
    report = importer.import_file(shipped, bib, tags=["parameter-server"])
    key = report.outcomes[0].key
    assert next(p for p in reader.load(shipped.catalog) if p.key == key).tags == [
        "parameter-server"
    ]
    with pytest.raises(importer.CatalogError, match="unknown tag 'paramserver'"):
        importer.import_file(shipped, bib, tags=["paramserver"])


# ---------------------------------------------------------------- Markdown lists


def test_dlrm_list_finds_its_8_papers_and_no_more() -> None:
    parsed = lists.parse(DLRM_LIST.read_text(encoding="utf-8"))
    assert len(parsed.entries) == 8
    assert [(e.venue, e.year) for e in parsed.entries] == [
        ("SOSP", 2023),
        ("SOSP", 2023),
        ("OSDI", 2023),
        ("ASPLOS", 2023),
        ("arXiv", 2022),
        ("OSDI", 2022),
        ("DLP-KDD", 2022),
        ("DLRS", 2016),
    ]
    disagg = parsed.entries[4]
    assert disagg.title.startswith("DisaggRec: Architecting") and disagg.arxiv == "2212.00939"
    assert parsed.entries[0].url == "https://dl.acm.org/doi/10.1145/3600006.3613169"
    assert 40 in parsed.skipped  # the acronym bullet is not a paper


def test_dlrm_list_import_merges_known_and_files_the_rest_in_the_inbox(run, shipped: Paths) -> None:
    before = shipped.catalog.read_bytes()
    result = run("import", str(DLRM_LIST), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["added"], data["duplicate"], data["inbox"], data["refused"]) == (0, 4, 4, 0)
    assert len(data["outcomes"]) == 8 and data["venues_added"] == []
    assert data["skipped_lines"] == 19
    reasons = {
        o["title"].split(":")[0]: o["reason"] for o in data["outcomes"] if o["action"] == "inbox"
    }
    needs = (
        "the list gives no authors (rerun with --fetch, or add it with "
        "papers add --arxiv/--doi/--bibtex)"
    )
    assert re.fullmatch(
        r"filed in the inbox as [0-9a-f]{8}: " + re.escape(needs), reasons["UGache"]
    )
    assert reasons["Wide & Deep Learning for Recommender Systems"].endswith(needs)
    assert shipped.catalog.read_bytes() == before  # the catalog is unchanged
    listed = run("inbox", "--json")
    assert {c["title"].split(":")[0] for c in json.loads(listed.stdout)} == set(reasons)


def test_list_merge_records_urls_the_catalog_lacks(shipped: Paths) -> None:
    report = importer.import_file(shipped, DLRM_LIST, merge=True)
    merged = {o.key: o.fields for o in report.outcomes if o.action == "merged"}
    assert merged == {"agarwal2023bagpipe": ["url"], "kurniawan2023evstore": ["url"]}
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    assert papers["kurniawan2023evstore"].url == "https://dl.acm.org/doi/10.1145/3575693.3575718"


def test_blog_year_lists_are_split_and_all_recognised(shipped: Paths) -> None:
    report = importer.import_file(shipped, BLOG)
    assert len(report.outcomes) == 19
    assert report.counts == {"added": 0, "merged": 0, "duplicate": 19, "inbox": 0, "refused": 0}
    keys = {o.key for o in report.outcomes}
    assert {"agarwal2023bagpipe", "adnan2022accelerating", "mudigere2022software"} <= keys


def test_awesome_list_forms_and_tables(tmp_path: Path) -> None:
    text = """# Papers
- [OSDI'23] [AdaEmbed: Adaptive Embedding for Large-Scale Recommendation Models](https://www.usenix.org/conference/osdi23/presentation/lai)
- [SOSP 2023] Bagpipe: Accelerating Deep Recommendation Model Training
  - a note about it, not a paper

## ASPLOS 2023
| Paper | Code |
|-------|------|
| [EVStore: Storage and Caching Capabilities for Scaling Embedding Tables in Deep Recommendation Systems](https://dl.acm.org/doi/10.1145/3575693.3575718) | [code](https://github.com/x/y) |

## 2022
### OSDI
| Title | Venue |
|---|---|
| Ekko: A Large-Scale Deep Learning Recommender System with Low-Latency Model Update | OSDI'22 |

Some prose that mentions OSDI'22 and is not a paper.
"""
    parsed = lists.parse(text, venues=["OSDI", "ASPLOS"])
    assert [(e.title.split(":")[0], e.venue, e.year) for e in parsed.entries] == [
        ("AdaEmbed", "OSDI", 2023),
        ("Bagpipe", "SOSP", 2023),
        ("EVStore", "ASPLOS", 2023),
        ("Ekko", "OSDI", 2022),
    ]
    assert parsed.skipped == [4, 17]


def test_a_list_with_no_papers_is_an_error(run, shipped: Paths, tmp_path: Path) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nJust prose here.\n- a bullet\n", encoding="utf-8")
    result = run("import", str(notes))
    assert result.exit_code == 1
    assert "no papers found in 2 lines" in result.output and "OSDI'23" in result.output


def test_fetch_fills_authors_from_arxiv(shipped: Paths, tmp_path: Path, online: Online) -> None:
    online.arxiv["2399.00001"] = atom_entry(
        "2399.00001",
        "Quokka: A Test Preprint About Sharding Tables",
        ["Cy Sample", "Di Placeholder"],
        "2023-09-03T10:00:00Z",
    )
    lst = tmp_path / "list.md"
    lst.write_text(
        "* Quokka: A Test Preprint About Sharding Tables (arXiv 2399.00001)\n"
        "* Wombat: Nobody Knows This One ([OSDI 2023](x))\n",
        encoding="utf-8",
    )
    report = importer.import_file(shipped, lst, fetch=True)
    assert [o.action for o in report.outcomes] == ["added", "inbox"]
    assert "no matching record" in report.outcomes[1].reason
    paper = next(p for p in reader.load(shipped.catalog) if p.key == report.outcomes[0].key)
    assert paper.authors == ["Cy Sample", "Di Placeholder"] and paper.venue == "arXiv"
