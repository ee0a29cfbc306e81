"""One venue, one registry entry: names resolved by normalised words, ISO 4 abbreviations
and aliases; series never wins over the booktitle; a URL is never a venue (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.bib.parser import read_bib
from catalog.check.rules import check
from catalog.data.registry import Venue, abbreviates, load_venues, registry_problems, venue_key
from tests.conftest import REPO, write_catalog

REGISTRY = load_venues(REPO / "data" / "venues.yaml")


@pytest.mark.parametrize(
    ("container", "short"),
    [
        (
            "Proceedings of the 24th ACM SIGKDD International Conference on Knowledge Discovery "
            "\\& Data Mining",
            "KDD",
        ),
        ("International Conference on World Wide Web", "WWW"),
        ("Proceedings of the 2018 World Wide Web Conference", "WWW"),
        ("Adv. Neural Inf. Process. Syst.", "NeurIPS"),
        ("IEEE Trans. Knowl. Data Eng.", "TKDE"),
        ("Proc. VLDB Endow.", "PVLDB"),
        ("ACM Comput. Surv.", "CSUR"),
        ("Proceedings of the Twelfth ACM Conference on Recommender Systems", "RecSys"),
    ],
)
def test_known_venues_resolve_in_any_spelling(container: str, short: str) -> None:
    field = (
        "journal"
        if "Trans" in container
        or "Adv." in container
        or "Surv" in container
        or "Endow" in container
        else "booktitle"
    )
    kind = "article" if field == "journal" else "inproceedings"
    [record] = read_bib(
        f"@{kind}{{x, title = {{T}}, author = {{A B}}, year = 2020, {field} = {{{container}}}}}",
        "v.bib",
        REGISTRY,
    )
    assert record.paper is not None and record.paper.venue == short
    assert not record.new_venue


def test_an_abbreviation_and_its_full_name_in_one_file_are_one_new_venue() -> None:
    records = read_bib(
        "@article{a, title = {T}, author = {A B}, year = 2020, journal = "
        "{ACM Trans. Inf. Syst.}}\n@article{b, title = {U}, author = {A B}, "
        "year = 2021, journal = {ACM Transactions on Information Systems}}",
        "v.bib",
        {},
    )
    assert {r.paper.venue for r in records} == {"ACM Transactions on Information Systems"}


def test_a_publication_series_never_names_the_venue() -> None:
    [record] = read_bib(
        "@inproceedings{x, title = {T}, author = {A B}, year = 2018, booktitle "
        "= {Proceedings of the 1st Conference on Fairness, Accountability and "
        "Transparency}, series = {PMLR}, volume = {81}}",
        "v.bib",
        {},
    )
    assert record.paper is not None
    assert record.paper.venue == "Conference on Fairness, Accountability and Transparency"


def test_a_url_is_never_a_venue() -> None:
    [record] = read_bib(
        "@misc{x, title = {T}, author = {A B}, year = 2018, howpublished = "
        "{Available online: http://example.org/data}}",
        "v.bib",
        {},
    )
    assert record.paper is None or "example.org" not in record.paper.venue


def test_abbreviation_needs_every_word() -> None:
    assert abbreviates("ACM Trans. Inf. Syst.", "ACM Transactions on Information Systems")
    assert not abbreviates("ACM Trans. Inf. Syst.", "ACM Transactions on Storage")
    assert not abbreviates("ACM Trans.", "ACM Transactions on Information Systems")
    assert venue_key("The 5th International Conference on X & Y") == venue_key(
        "Conference on X and Y"
    )


def test_check_sees_what_import_let_through(tmp_path: Path) -> None:
    venues = (
        "KDD:\n  kind: conference\n  name: ACM SIGKDD Conference on Knowledge Discovery "
        "and Data Mining\nSIGKDD:\n  kind: conference\n  name: ACM SIGKDD International "
        "Conference on Knowledge Discovery & Data Mining\nWeb:\n  kind: conference\n"
        "  name: 'Available online: http://example.org'\n"
    )
    papers = (
        "2020:\n  KDD:\n    - key: a2020x\n      title: A Title\n"
        "      authors: [Zhifeng Chen, 'al., et']\n"
    )
    problems = [str(p) for p in check(write_catalog(tmp_path, papers, venues))]
    assert any("author 'al., et' is not a person" in p for p in problems)
    assert any("SIGKDD: same venue as KDD" in p for p in problems)
    assert any("Web: venue name is a URL" in p for p in problems)


def test_the_shipped_registry_has_no_split_venue() -> None:
    assert registry_problems(REGISTRY, "venues.yaml") == []
    assert registry_problems(
        {"A": Venue("A", "journal", "J. X"), "B": Venue("B", "journal", "J X")}, "v.yaml"
    )


def test_check_reports_what_venues_add_refuses(tmp_path: Path) -> None:
    """One rule set: a hand-edited entry venues add would refuse is a problem of check's,
    at its line."""
    venues = (
        "OSDI:\n  kind: conference\n  name: Operating Systems Design and Implementation\n"
        '"EVIL\\n":\n  kind: conference\n  name: Evil One\n'
        'EVIL2:\n  kind: conference\n  name: Evil Two\n  aliases: ["E\\e[31mVIL"]\n'
        'EVIL3:\n  kind: conference\n  name: Evil Three\n  publisher: "Evil \\u202EPress"\n'
        'EVIL4:\n  kind: conference\n  name: Evil Four\n  sources: ["javascript:alert(1)"]\n'
        "Index:\n  kind: conference\n  name: Evil Five\n"
        "osdi:\n  kind: conference\n  name: Evil Six\n"
        "EVIL7:\n  kind: conference\n  name: Evil Seven 2024\n"
    )
    papers = "2020:\n  OSDI:\n    - key: a2020x\n      title: A Title\n      authors: [Ann Lee]\n"
    problems = [str(p) for p in check(write_catalog(tmp_path, papers, venues))]
    for expected in (
        r"venues.yaml:4: EVIL\n: 'EVIL\n' is not a venue short name",
        r"venues.yaml:7: EVIL2: alias 'E\x1b[31mVIL' is not one line of text",
        r"venues.yaml:11: EVIL3: publisher 'Evil \u202ePress' is not one line of text",
        "venues.yaml:15: EVIL4: source 'javascript:alert(1)' is not an http(s) link",
        "venues.yaml:19: Index: short name 'Index' is the name of a list page",
        "venues.yaml:22: osdi: already in the registry as OSDI",
        "venues.yaml:25: EVIL7: name 'Evil Seven 2024' holds a year",
    ):
        assert any(expected in p for p in problems), (expected, problems)
