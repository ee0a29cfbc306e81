"""`papers check --completeness`: what the records lack, by publisher and field, counted
on a small catalog written into tmp_path."""

from __future__ import annotations

import json

import pytest

from catalog.check import completeness as report_module
from catalog.check.completeness import completeness
from catalog.model import FIELDS
from tests.conftest import VENUES, write_catalog

REGISTRY = (
    VENUES.replace(
        "  publisher: USENIX Association\n",
        "  publisher: USENIX Association\n  dois: false\n",
    ).replace(
        "  publisher: Cornell University\n", "  publisher: Cornell University\n  dois: false\n"
    )
    + "ISCA:\n  kind: conference\n  name: International Symposium on Computer Architecture\n"
    "APSys:\n  kind: workshop\n  name: ACM SIGOPS Asia-Pacific Workshop on Systems\n"
    "  publisher: Association for Computing Machinery\n"
)

CATALOG = """\
2024:
  ASPLOS:
    - key: a2024full
      title: "A: All There"
      authors: [Ada One]
      doi: 10.1145/1.1
      pages: 1-14
      abstract: "Given."
    - key: a2024bare
      title: "B: Nothing Given"
      authors: [Ada Two]
    - key: a2024article
      title: "C: An Article Number"
      authors: [Ada Three]
      doi: 10.1145/1.3
      articleno: "7"
      numpages: "14"
  APSys:
    - key: a2024workshop
      title: "D: A Workshop Paper"
      authors: [Ada Four]
  OSDI:
    - key: a2024usenix
      title: "E: A USENIX Paper"
      authors: [Ada Five]
      pages: 1-17
  ISCA:
    - key: a2024isca
      title: "F: No Publisher in the Registry"
      authors: [Ada Six]
  PVLDB:
    - key: a2024journal
      title: "G: A Journal Paper"
      authors: [Ada Seven]
      doi: 10.14778/1.1
      pages: 1-12
      volume: "17"
  arXiv:
    - key: a2024preprint
      title: "H: A Preprint"
      authors: [Ada Eight]
      arxiv: "2401.00001"
      abstract: "Given."
"""

ACM = "Association for Computing Machinery"


@pytest.fixture
def catalog(tmp_path, paths):
    """CATALOG and REGISTRY in place of the default tiny catalog (which `cli` runs on)."""
    return write_catalog(tmp_path, CATALOG, venues=REGISTRY)


def test_the_counts_by_publisher_and_field(catalog):
    report = completeness(catalog)
    assert report.fields[:5] == ("doi", "pages", "volume", "number", "abstract")
    table = {
        g.publisher: (g.papers, {n: (len(gap.missing), gap.expected) for n, gap in g.gaps.items()})
        for g in [*report.groups, report.total]
    }
    assert table[ACM] == (
        4,
        # the workshop paper needs no pages; an article number and page count are pages
        {
            "doi": (2, 4),
            "pages": (1, 3),
            "volume": (0, 0),
            "number": (0, 0),
            "abstract": (3, 4),
            "code": (4, 4),  # a code link is looked for on every paper
        },
    )
    assert table["USENIX Association"][1]["doi"] == (0, 0)  # dois: false
    assert table["USENIX Association"][1]["pages"] == (0, 1)
    assert table["ISCA (no publisher)"][1]["doi"] == (1, 1)
    assert table["VLDB Endowment"][1]["number"] == (1, 1)
    assert table["VLDB Endowment"][1]["volume"] == (0, 1)
    assert table["Cornell University"][1] == {
        "doi": (0, 0),
        "pages": (0, 0),
        "volume": (0, 0),
        "number": (0, 0),
        "abstract": (0, 1),
        **({"code": (1, 1)} if "code" in FIELDS else {}),
    }
    total = table["all"]
    assert total[0] == 8
    assert total[1]["doi"] == (3, 6) and total[1]["pages"] == (2, 6)
    assert report.groups[0].publisher == ACM  # most papers first
    assert report.total.gaps["doi"].missing == ["a2024bare", "a2024workshop", "a2024isca"]


def test_the_code_field_is_counted_once_the_model_has_it(catalog, monkeypatch):
    monkeypatch.setattr(report_module, "FIELDS", (*FIELDS, "code"))
    report = completeness(catalog)
    assert report.fields[-1] == "code"
    assert report.total.gaps["code"].expected == 8


def test_json_lists_every_count_and_the_papers(cli, catalog):
    result = cli("check", "--completeness", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["fields"][:5] == ["doi", "pages", "volume", "number", "abstract"]
    assert data["total"]["papers"] == 8
    assert data["total"]["fields"]["doi"] == {
        "expected": 6,
        "missing": 3,
        "papers": ["a2024bare", "a2024workshop", "a2024isca"],
    }
    acm = next(g for g in data["publishers"] if g["publisher"] == ACM)
    assert acm["fields"]["pages"] == {"expected": 3, "missing": 1, "papers": ["a2024bare"]}


def test_the_table_and_the_papers_with_v(cli, catalog):
    plain = cli("check", "--completeness")
    assert plain.exit_code == 0, plain.output
    lines = plain.stdout.splitlines()
    assert lines[0].startswith("missing / expected, by publisher")
    assert lines[1].split()[:7] == [
        "publisher",
        "papers",
        "doi",
        "pages",
        "volume",
        "number",
        "abstract",
    ]
    acm = next(line for line in lines if line.startswith(ACM))
    assert acm.split()[4:10] == ["4", "2/4", "1/3", "-", "-", "3/4"]
    assert lines[-1].split()[:4] == ["all", "8", "3/6", "2/6"]
    assert "a2024bare" not in plain.stdout
    verbose = cli("check", "--completeness", "-v")
    assert verbose.exit_code == 0
    assert "missing doi (3):" in verbose.stdout
    assert f"  {ACM}: a2024bare a2024workshop" in verbose.stdout


def test_a_report_exits_0_even_when_check_would_fail(cli, catalog):
    catalog.catalog.write_text(
        catalog.catalog.read_text(encoding="utf-8").replace("Ada One", "et al."), encoding="utf-8"
    )
    assert cli("check").exit_code == 1
    assert cli("check", "--completeness").exit_code == 0


def test_an_unreadable_catalog_is_an_error(cli, catalog):
    catalog.catalog.write_text("2024: [\n", encoding="utf-8")
    result = cli("check", "--completeness")
    assert result.exit_code == 1
    assert "YAML syntax error" in result.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--completeness", "--require-sources"], "without --require-sources"),
        (["-v"], "give both"),
    ],
)
def test_options_that_do_not_go_together_are_refused(cli, catalog, args, says):
    result = cli("check", *args)
    assert result.exit_code == 2
    assert says in result.output


def test_a_hostile_publisher_reaches_the_terminal_inert(cli, catalog):
    text = catalog.venues.read_text(encoding="utf-8")
    catalog.venues.write_text(
        text.replace("publisher: VLDB Endowment", 'publisher: "VLDB\\e[31m \\u202eEndowment"'),
        encoding="utf-8",
    )
    result = cli("check", "--completeness", "-v")
    assert result.exit_code == 0
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_a_dois_mark_that_is_not_a_boolean_is_reported_on_its_line(tmp_path):
    from catalog.check.rules import check

    registry = REGISTRY.replace("  dois: false\n", "  dois: no\n", 1)  # YAML 1.2: a word
    paths = write_catalog(tmp_path, venues=registry)
    (found,) = check(paths)
    assert found.file.endswith("venues.yaml") and found.where == "OSDI"
    assert found.line == registry.splitlines().index("OSDI:") + 1
    assert found.message == "dois is not true or false: 'no'"
    assert not found.blocking
