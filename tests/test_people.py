"""One person, one page: data/authors.yaml's people (spellings joined, namesakes told
apart by an id), stable author page addresses, the likely splits `papers authors`
proposes, and the decisions `papers authors same/different` write through the one door."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.check import splits
from catalog.data import authors as authorsfile
from catalog.edit.writer import edit
from catalog.errors import InvalidCatalogError
from catalog.model import Paper, digest
from catalog.site import listpages, render, sitedata
from catalog.site.people import People, address, plain
from catalog.site.shelves import anchor, shelf
from tests.conftest import write_catalog

# Two people named Hao Wang are authors 2 and 3 of a2024two; b2024one's Hao Wang is
# not told apart (a third person, or one of them: no record says).
PAPERS = """\
2024:
  OSDI:
    - key: a2024two
      title: Two Namesakes
      authors: [Ann Lee, Hao Wang, Hao Wang]
      tags: [caching]
    - key: b2024one
      title: One More
      authors: [Hao Wang, Bo Chen]
      tags: [caching]
    - key: c2024three
      title: Ed Writes
      authors: [Ed H. Chi, Ann Lee, Bo Chen]
      tags: [caching]
    - key: d2024four
      title: Ed Again
      authors: [Ed Chi, Ann Lee]
      tags: [caching]
"""

SPLIT = """\
# The two Hao Wangs of a2024two.
hao-wang-east:
  name: Hao Wang
  papers: [a2024two#2]

hao-wang-west:
  name: Hao Wang
  papers: [a2024two#3]
"""


@pytest.fixture
def namesakes(tmp_path):
    return write_catalog(tmp_path, PAPERS)


@pytest.fixture
def cli(namesakes, monkeypatch):
    """Run `papers ARGS` on the namesakes' catalog."""
    from typer.testing import CliRunner

    from catalog.cli import app

    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.delenv("PAPERS_DB", raising=False)
    monkeypatch.chdir(namesakes.root)  # files shown as data/...

    def run(*args: str):
        return CliRunner().invoke(
            app, ["--catalog", str(namesakes.catalog), "--db", str(namesakes.db), *args]
        )

    return run


def _authors(paths) -> authorsfile.Authors:
    return authorsfile.load(paths.authors, "data/authors.yaml")


# ---------------------------------------------------------------- the file's format


def test_both_forms_read_and_a_claim_decides_who_is_at_a_place(namesakes):
    namesakes.authors.write_text(SPLIT + "\nEd H. Chi: [Ed Chi]\n", encoding="utf-8")
    found = _authors(namesakes)
    east, west = found.entries["hao-wang-east"], found.entries["hao-wang-west"]
    assert (east.id, east.name, east.claims) == ("hao-wang-east", "Hao Wang", (("a2024two", 2),))
    assert found.who("a2024two", 2, "Hao Wang") is east
    assert found.who("a2024two", 3, "Hao Wang") is west
    assert found.who("b2024one", 1, "Hao Wang") == "Hao Wang"  # elsewhere: the spelling
    chi = found.entries["Ed H. Chi"]
    assert found.who("d2024four", 1, "Ed Chi") is chi and chi.id is None


@pytest.mark.parametrize(
    ("text", "line", "message", "fix"),
    [
        ("Ann Lee: [{a: b}]\n", 1, "expected a list of names", "Display Name: [Other Spelling"),
        ("Ann Lee: {}\n", 1, "an entry that says nothing", "Display Name: [Other Spelling"),
        ("Ann Lee: {spelings: [A. Lee]}\n", 1, "unknown field 'spelings'", "the fields are"),
        ("\nHao Wang:\n  name: Hao Wang\n", 2, "'Hao Wang' is not an id", "hao-wang-rutgers"),
        ("index:\n  name: Ann Lee\n", 1, "'index' is not an id", "authors index"),
        ("Hao Wang: {papers: [a2024two#2]}\n", 1, "needs an id", "'some-id:'"),
        ("x-y:\n  name: Hao Wang\n  papers: [a2024two/2]\n", 1, "is not a paper's key", "KEY#N"),
        ("x-y:\n  name: Hao Wang\n  papers: [a2024two#0]\n", 1, "is not a paper's key", "from 1"),
        (
            "a-b:\n  name: Hao Wang\n  papers: [a2024two#2]\nc-d:\n  name: Hao Wang\n"
            "  papers: [a2024two#2]\n",
            4,
            "author 2 of a2024two is claimed by both 'a-b' and 'c-d'",
            "keep the claim",
        ),
        ("Ed H. Chi: [Ed Chi]\nEd Chi Jr: [Ed Chi]\n", 2, "listed for both", "under the one"),
        (
            "Ed H. Chi:\n  spellings: [Ed Chi]\n  different: [Ed Chi]\n",
            1,
            "both a spelling of Ed H. Chi and a different person",
            "keep it in one",
        ),
        (
            "Ann Lee: [A. Lee]\nAnn Lee: [Ann L.]\n",
            2,
            "written twice (also at line 1)",
            "one entry",
        ),
        ('Ann Lee: ["A. Lee\\u0007"]\n', 1, "is not a name", "as papers.yaml writes it"),
    ],
)
def test_a_bad_entry_stops_with_file_line_and_fix(namesakes, cli, text, line, message, fix):
    namesakes.authors.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidCatalogError) as err:
        _authors(namesakes)
    shown = str(err.value)
    assert f"data/authors.yaml:{line}:" in shown and message in shown and fix in shown
    result = cli("check")  # check reports it the same way, and fails
    assert result.exit_code == 1
    assert f"data/authors.yaml:{line}:" in result.output and message in result.output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x-y:\n  name: Hao Wang\n  papers: [a2024twoo#2]\n", "no paper with key 'a2024twoo'"),
        ("x-y:\n  name: Hao Wang\n  papers: [a2024two#4]\n", "a2024two has 3 authors, no author 4"),
        (
            "x-y:\n  name: Hao Wang\n  papers: [a2024two#1]\n",
            "author 1 of a2024two is 'Ann Lee', not Hao Wang",
        ),
        ("Ann Lee: [A. Lee]\n", "'A. Lee' is the name of no author in the catalog"),
        ("Ann Lee:\n  different: [Anne Leigh]\n", "different: 'Anne Leigh' is the name of no"),
        ("Bo Chen: [Ann Lee]\n", "'Ann Lee', 'Bo Chen': one person here, but authors 2 and 3"),
    ],
)
def test_check_reads_the_entries_against_the_papers(tmp_path, text, message):
    from catalog.check.rules import check

    paths = write_catalog(tmp_path, PAPERS)
    paths.authors.write_text(SPLIT + "\n" + text, encoding="utf-8")
    shown = [str(p) for p in check(paths)]
    assert any(message in p and "authors.yaml:" in p for p in shown), shown


def test_one_spelling_twice_on_a_paper_is_reported_until_told_apart(namesakes, cli):
    result = cli("check")
    assert result.exit_code == 1
    assert (
        "papers.yaml:3: 2024 › OSDI › a2024two: 'Hao Wang' is authors 2 and 3: one person, "
        "twice (two authors of one paper are two people: if they are, give one an id in "
        "data/authors.yaml that claims a2024two#3" in result.output
    )
    namesakes.authors.write_text(SPLIT, encoding="utf-8")
    assert cli("check").exit_code == 0


# ---------------------------------------------------------------- the site's people


def _site(paths):
    data, _ = sitedata.load(paths, with_charts=False)
    return data, render.generate(data)


def test_namesakes_told_apart_get_a_page_each_that_says_how(namesakes):
    namesakes.authors.write_text(SPLIT, encoding="utf-8")
    data, pages = _site(namesakes)
    paper = data.by_key["a2024two"]
    _, east, west = data.people.of(paper)
    assert (east.uri, west.uri) == ("authors/hao-wang-east.md", "authors/hao-wang-west.md")
    rest = data.people.spelled("Hao Wang")
    assert rest.uri == "authors/hao-wang.md" and [p.key for p in rest.papers] == ["b2024one"]
    # The paper's page links each author to their own section of the "wa" shelf.
    page = pages["papers/a2024two.md"]
    assert '<a href="../../authors/wa/#hao-wang-east">Hao Wang</a>' in page
    assert '<a href="../../authors/wa/#hao-wang-west">Hao Wang</a>' in page
    # Each section names the person and what tells them from the others: their papers.
    shelf = pages["authors/wa.md"]
    mine = shelf[shelf.index('<h2 id="hao-wang-east">') : shelf.index('<h2 id="hao-wang-west">')]
    assert "Hao Wang is the name of 3 people in the catalog" in mine
    assert 'This one: author 2 of <a href="../../papers/a2024two/">Two Namesakes</a>' in mine
    assert '<a href="#hao-wang-west">Hao Wang</a> (author 3 of' in mine
    assert "(1 paper where authors.yaml tells no namesake apart)" in mine
    index = pages["authors/index.md"]
    assert (
        '<a href="wa/#hao-wang-east">Wang, Hao</a> <span class="pp-n">(1)</span> '
        '<span class="pp-which">(author 2 of Two Namesakes)</span>'
    ) in index
    assert (
        '<a href="wa/#hao-wang">Wang, Hao</a> <span class="pp-n">(1)</span> '
        '<span class="pp-which">(not told apart)</span>'
    ) in index
    # All papers' data: the spelling's section, and the namesakes' own where they differ.
    script = listpages.papers_data(data)
    value = json.loads(json.loads(script[len("window.PAPERS_DATA=JSON.parse(") : -3]))
    assert value["authors"]["Hao Wang"] == "../authors/wa/#hao-wang"
    record = next(r for r in value["papers"] if r["k"] == "a2024two")
    assert record["o"] == {"1": "../authors/wa/#hao-wang-east", "2": "../authors/wa/#hao-wang-west"}
    assert "o" not in next(r for r in value["papers"] if r["k"] == "b2024one")


def test_joined_spellings_are_one_page_and_one_coauthor(namesakes):
    namesakes.authors.write_text(SPLIT + "\nEd H. Chi: [Ed Chi]\n", encoding="utf-8")
    data, pages = _site(namesakes)
    chi = data.people.spelled("Ed Chi")
    assert chi is data.people.spelled("Ed H. Chi") and chi.uri == "authors/ed-h-chi.md"
    assert "authors/ed-chi.md" not in pages
    lee = data.people.spelled("Ann Lee")
    assert (chi, 2) in lee.coauthors(data.people)


def test_show_search_and_bibtex_keep_names_as_written(namesakes, cli):
    before = [cli(*a).output for a in (["show", "a2024two"], ["export"], ["search", "author:wang"])]
    namesakes.authors.write_text(SPLIT, encoding="utf-8")
    after = [cli(*a).output for a in (["show", "a2024two"], ["export"], ["search", "author:wang"])]
    assert after == before and "Ann Lee, Hao Wang, Hao Wang" in before[0].replace("\n", " ")


def test_a_hostile_name_in_authors_yaml_is_inert_on_the_pages(namesakes):
    namesakes.authors.write_text(
        'x-y:\n  name: "<script>alert(1)</script> Wang"\n  spellings: [Hao Wang]\n'
        "  papers: [a2024two#2]\n",
        encoding="utf-8",
    )
    _, pages = _site(namesakes)
    assert "<script>alert" not in pages["authors/wa.md"]
    assert "<script>alert" not in pages["authors/index.md"]


# ---------------------------------------------------------------- stable addresses


def test_the_address_is_the_slug_only_for_the_one_spelling_it_reads_back_as():
    assert plain("quoc-v-le") == "Quoc V. Le"
    assert address("Quoc V. Le") == "authors/quoc-v-le.md"
    assert address("Quoc V Le") == f"authors/quoc-v-le-{digest('Quoc V Le')[:8]}.md"
    assert address("Timothée Lacroix").startswith("authors/timothee-lacroix-")
    assert address("Hao Wang", "hao-wang-east") == "authors/hao-wang-east.md"
    assert address("Hao Wang", taken={"hao-wang"}).startswith("authors/hao-wang-")
    assert address("Index") != "authors/index.md"  # the authors index's own page
    assert address("王灏") == f"authors/{digest('王灏')[:8]}.md"


@pytest.mark.parametrize("first", ["Jose Silva", "José Silva", "JOSE SILVA"])
@pytest.mark.parametrize("newcomer", ["Jose Silva", "José Silva", "Jose  Silva", "Jose-Silva"])
def test_a_new_coauthor_whose_name_folds_alike_moves_no_page(tmp_path, first, newcomer):
    """Adding a paper by a new co-author whose name folds to an existing slug changes no
    existing address, whichever of the two spellings came first."""
    paths = write_catalog(
        tmp_path,
        f"2024:\n  OSDI:\n    - key: a2024a\n      title: A\n      authors: [{first}, Ann Lee]\n",
    )
    data, _ = sitedata.load(paths, with_charts=False)
    before = {p.name: p.uri for p in data.people.everyone}
    with edit(paths) as session:
        session.add(Paper("b2024b", "B", [newcomer, "Ann Lee"], 2024, "OSDI"))
    data, _ = sitedata.load(paths, with_charts=False)
    after = {p.name: p.uri for p in data.people.everyone}
    assert {name: after[name] for name in before} == before
    pages = render.generate(data)
    assert all(f'<h2 id="{anchor(p)}">' in pages[shelf(p)] for p in data.people.everyone)
    if newcomer != first:
        assert len(set(after.values())) == len(after) == 3


_NAME = st.builds(
    lambda first, sep, last: f"{first}{sep}{last}",
    st.sampled_from(["Jose", "José", "JOSE", "jose", "J.", "J", "Ann-Li", "Ann Li", "AnnLi"]),
    st.sampled_from([" ", "  ", "-", ". "]),
    st.sampled_from(["Silva", "silva", "Sílva", "van der Berg", "Van Der Berg", "O'Neil"]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_NAME, min_size=1, max_size=6, unique=True), _NAME)
def test_addresses_depend_on_the_person_alone(names, newcomer):
    def uris(authors: list[str]) -> dict[str, str]:
        papers = [Paper(f"k{i}", "T", [a], 2024, "OSDI") for i, a in enumerate(authors)]
        return {p.name: p.uri for p in People(papers, authorsfile.Authors()).everyone}

    before = uris(names)
    after = uris([*names, newcomer])
    assert {n: after[n] for n in before} == before
    assert len(set(after.values())) == len(after)  # never two people on one page


# ---------------------------------------------------------------- likely splits


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [
        ("Timothée Lacroix", "Timothee Lacroix", "accents, case or punctuation"),
        ("ChongLin Sun", "Chonglin Sun", "accents, case or punctuation"),
        ("Quoc V Le", "Quoc V. Le", "accents, case or punctuation"),
        ("Dennis Van Der Staay", "Dennis van der Staay", "accents, case or punctuation"),
        ("Chong Lin Sun", "Chong-Lin Sun", "spacing or hyphens"),
        ("Chong Lin Sun", "Chonglin Sun", "spacing or hyphens"),
        ("Mahmut T. Kandemir", "Mahmut Taylan Kandemir", "initials"),
        ("J. Doe", "Jane Doe", "initials"),
        ("Ed Chi", "Ed H. Chi", "a middle name or initial added"),
        ("Derek Cheng", "Derek Zhiyuan Cheng", "a middle name or initial added"),
        ("Y.k. Li", "Yong Li", "a middle name or initial added"),
        ("Doe, Jane", "Jane Q. Doe", "a middle name or initial added"),
    ],
)
def test_compatible_names(a, b, why):
    family_a, given_a = splits.split_name(a)
    family_b, given_b = splits.split_name(b)
    assert family_a == family_b
    reason = splits.compatible(given_a, given_b)
    assert reason is not None and why in reason


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Chen Chen", "Cheng Chen"),  # a syllable is not an initial
        ("Lin Yang", "Chia-Lin Yang"),  # a hyphenated given name is one name
        ("Hojin Park", "Jay H. Park"),  # first names must correspond
        ("Jeff Dean", "Jeffrey Dean"),  # a prefix is no initial (the curator's eye)
        ("Yu Wang", "Yu Wan"),  # another family name
    ],
)
def test_incompatible_names(a, b):
    one, other = splits.split_name(a), splits.split_name(b)
    assert one[0] != other[0] or splits.compatible(one[1], other[1]) is None


def _paper(key: str, *names: str) -> Paper:
    return Paper(key, key, list(names), 2024, "OSDI")


def test_proposals_rank_by_shared_coauthors_and_leave_out_what_is_decided():
    papers = [
        _paper("p1", "Ed Chi", "Ann Lee", "Bo Chen"),
        _paper("p2", "Ed H. Chi", "Ann Lee", "Bo Chen"),
        _paper("p3", "Y. Wu", "Zed Zhao"),
        _paper("p4", "Yonghui Wu", "Max Mo"),
        _paper("p5", "Kai Li", "K. Li"),  # two authors of one paper: two people
    ]
    found = splits.proposals(papers, authorsfile.Authors())
    pairs = [({p.a.name, p.b.name}, len(p.shared)) for p in found]
    assert pairs == [({"Ed Chi", "Ed H. Chi"}, 2), ({"Y. Wu", "Yonghui Wu"}, 0)]
    assert found[0].shared == ("Ann Lee", "Bo Chen")
    joined = authorsfile.parse("Ed H. Chi: [Ed Chi]\nY. Wu: {different: [Yonghui Wu]}\n", "a")
    assert splits.proposals(papers, joined) == []
    # Told apart the other way round too.
    reverse = authorsfile.parse("Yonghui Wu: {different: [Y. Wu]}\n", "a")
    assert [{p.a.name, p.b.name} for p in splits.proposals(papers, reverse)] == [
        {"Ed Chi", "Ed H. Chi"}
    ]


def test_papers_authors_lists_the_proposals(namesakes, cli):
    result = cli("authors")
    assert result.exit_code == 0
    assert (
        '"Ed Chi" on d2024four ~ "Ed H. Chi" on c2024three: a middle name or initial added; '
        "1 shared co-author (Ann Lee)" in result.output
    )
    assert "1 likely split: confirm one with `papers authors same A B`" in result.output
    listed = json.loads(cli("authors", "--json").stdout)
    assert listed[0]["a"]["name"] == "Ed Chi" and listed[0]["shared_coauthors"] == 1


# ---------------------------------------------------------------- recording a decision

CRLF_AUTHORS = (
    "# People (reviewed).\r\n"
    "\r\n"
    "# Ed's Google papers.\r\n"
    "Ed H. Chi: [Ed Chi]  # both spellings\r\n"
    "\r\n"
    "# The two Hao Wangs of a2024two.\r\n"
    "hao-wang-east:\r\n"
    "  name: Hao Wang\r\n"
    "  papers: [a2024two#2]\r\n"
    "\r\n"
    "hao-wang-west:\r\n"
    "  name: Hao Wang\r\n"
    "  papers: [a2024two#3]\r\n"
)


@pytest.fixture
def crlf(namesakes):
    namesakes.authors.write_bytes(CRLF_AUTHORS.encode())
    return namesakes


def test_different_writes_an_entry_keeping_comments_order_and_crlf(crlf, cli):
    result = cli("authors", "different", "Bo Chen", "Ann Lee")
    assert result.exit_code == 0, result.output
    assert "recorded 'Bo Chen' and 'Ann Lee' as two people: entry 'Bo Chen'" in result.output
    data = crlf.authors.read_bytes()
    assert data == CRLF_AUTHORS.encode() + b"\r\nBo Chen:\r\n  different: [Ann Lee]\r\n"
    again = cli("authors", "different", "Bo Chen", "Ann Lee")
    assert "already recorded as two people; nothing to write" in again.output
    assert crlf.authors.read_bytes() == data


def test_same_grows_the_entry_that_holds_a_name(crlf, cli):
    crlf_text = CRLF_AUTHORS.replace("Ed H. Chi: [Ed Chi]  # both spellings", "Ed H. Chi: [Ed Chi]")
    crlf.authors.write_bytes(crlf_text.encode())
    # papers.yaml gains a third spelling, then the curator joins it.
    text = crlf.catalog.read_text(encoding="utf-8")
    crlf.catalog.write_text(text.replace("[Ed Chi, Ann Lee]", "[E. H. Chi, Ann Lee]"))
    result = cli("authors", "same", "E. H. Chi", "Ed H. Chi")
    assert result.exit_code == 0, result.output
    assert "as one person, shown as Ed H. Chi: entry 'Ed H. Chi'" in result.output
    written = crlf.authors.read_bytes().decode()
    assert "Ed H. Chi: [Ed Chi, E. H. Chi]\r\n" in written
    assert written.replace("Ed H. Chi: [Ed Chi, E. H. Chi]", "Ed H. Chi: [Ed Chi]") == crlf_text
    same = cli("authors", "same", "Ed Chi", "E. H. Chi")
    assert "already one person; nothing to write" in same.output


def test_same_folds_two_entries_into_the_first(namesakes, cli):
    namesakes.authors.write_text(
        "# Ed.\nEd H. Chi:\n  different: [Bo Chen]\n\n# Also Ed.\nEd Chi: {different: [Ann Lee]}\n",
        encoding="utf-8",
    )
    namesakes.catalog.write_text(PAPERS.replace("[Ann Lee, Hao Wang, Hao Wang]", "[Ann Lee]"))
    result = cli("authors", "same", "Ed H. Chi", "Ed Chi", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["removed"] == ["Ed Chi"]
    found = _authors(namesakes).entries
    assert set(found) == {"Ed H. Chi"}
    assert found["Ed H. Chi"].spellings == ("Ed H. Chi", "Ed Chi")
    assert found["Ed H. Chi"].different == ("Bo Chen", "Ann Lee")
    assert (
        "# Ed.\n" in namesakes.authors.read_text()
        and "# Also Ed.\n" in namesakes.authors.read_text()
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["same", "Ann Lee", "Bo Chen"], "one person here, but authors 2 and 3 of c2024three"),
        (["same", "Ann Lee", "Anne Leigh"], "'Anne Leigh' is the name of no author"),
        (["different", "Ann Lee", "Anne Leigh"], "different: 'Anne Leigh' is the name of no"),
        (["different", "Ed Chi", "Ed H. Chi"], "are one person there (Ed H. Chi)"),
        (["same", "hao-wang-east", "Hao Wang"], "one of several people named Hao Wang"),
        (["same", "Bo Chen", "Bo Chen"], "give two different names"),
    ],
)
def test_a_refused_decision_writes_nothing(crlf, cli, args, message):
    result = cli("authors", *args)
    assert result.exit_code in (1, 2) and message in result.output, result.output
    assert crlf.authors.read_bytes() == CRLF_AUTHORS.encode()


def test_same_is_refused_for_names_recorded_as_different(crlf, cli):
    assert cli("authors", "different", "Bo Chen", "Ann Lee").exit_code == 0
    written = crlf.authors.read_bytes()
    result = cli("authors", "same", "Ann Lee", "Bo Chen")
    assert result.exit_code == 1 and "recorded as different people" in result.output
    assert crlf.authors.read_bytes() == written


def test_dry_run_shows_the_entry_and_writes_nothing(crlf, cli):
    result = cli("authors", "different", "Bo Chen", "Ann Lee", "--dry-run")
    assert result.exit_code == 0
    assert "would record" in result.output and "+Bo Chen:" in result.output
    assert crlf.authors.read_bytes() == CRLF_AUTHORS.encode()
