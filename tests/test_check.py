"""One case per check rule, through the library and through `papers check`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.check.rules import check
from catalog.errors import InvalidCatalogError, Problem
from catalog.index.database import refresh
from tests.conftest import PAPERS, write_catalog

GOOD_PAPER = """\
    - key: {key}
      title: "{title}"
      authors: [Ada Lovelace]
"""


def catalog_with(tmp_path, body: str):
    return write_catalog(tmp_path, body)


def messages(paths) -> list[str]:
    return [str(p) for p in check(paths)]


def test_shipped_style_catalog_is_clean(paths):
    assert check(paths) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "2023:\n  OSDI:\n    - key: a2023b\n      title: [unclosed\n",
            "YAML syntax error at column",
        ),
        ("twenty:\n  OSDI: []\n", "'twenty' is not a year"),
        ("2023:\n  OSDI:\n    - just a string\n", "a paper must be a mapping"),
        ("2023:\n  OSDI:\n    - key: a2023b\n      authors: [A B]\n", "missing title"),
        ("2023:\n  OSDI:\n    - title: T\n      authors: [A B]\n", "missing key"),
        ("2023:\n  OSDI:\n    - key: a2023b\n      title: T\n", "missing authors"),
        (
            "2023:\n  OSDI:\n    - key: a2023b\n      title: T\n      authors: A B\n",
            "authors must be a list",
        ),
        (
            "2023:\n  OSDI:\n    - key: a2023b\n      title: T\n      title: U\n      authors: [A]\n",
            "field 'title' given twice",
        ),
        ("2023:\n  OSDI: []\n2023:\n  ASPLOS: []\n", "year 2023 appears twice"),
        (
            "2023:\n  OSDI:\n    - key: a2023b\n      title: T\n      authors: [A]\n"
            "2022:\n  OSDI:\n    - key: a2023b\n      title: U\n      authors: [B]\n",
            "duplicate key 'a2023b' (first at line 3)",
        ),
    ],
)
def test_blocking_problems_stop_reading(tmp_path, body, expected):
    paths = catalog_with(tmp_path, body)
    found = check(paths)
    assert any(expected in str(p) and p.blocking for p in found), found
    with pytest.raises(InvalidCatalogError) as err:
        refresh(paths)
    assert expected in str(err.value)


def test_a_preprint_older_than_its_arxiv_id_is_a_finding_a_published_paper_is_not(tmp_path):
    paper = (
        GOOD_PAPER.format(key="lovelace2023notes", title="Notes") + '      arxiv: "2501.00001"\n'
    )
    found = messages(catalog_with(tmp_path, "2023:\n  arXiv:\n" + paper))
    assert any("arXiv id 2501.00001 is from 2025, after the paper's year 2023" in m for m in found)
    # posted to arXiv after the venue (issue 21): not a problem
    later = messages(catalog_with(tmp_path / "osdi", "2023:\n  OSDI:\n" + paper))
    assert not any("after the paper's year" in m for m in later), later


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ("      tittle: x\n", "unknown field 'tittle' (did you mean 'title'?)"),
        ("      tags: [embeding]\n", "unknown tag 'embeding' (did you mean 'embedding'?)"),
        ("      doi: 10.1145\n", "malformed DOI '10.1145'"),
        ('      arxiv: "abc"\n', "malformed arXiv id 'abc'"),
        ("      status: redd\n", "unknown status 'redd' (did you mean 'read'?; then papers"),
        ("      status: read\n", "status: is reading state, kept in data/reading.yaml now"),
        ("      code: git@github.com:x/y\n", "code is not an http(s) link: 'git@github.com:x/y'"),
        ("      checked: 2024-13-45\n", "checked '2024-13-45' is not a date (write YYYY-MM-DD)"),
        ("      added: last week\n", "added 'last week' is not a date (write YYYY-MM-DD)"),
        ("      pages: one to two\n", "malformed pages 'one to two'"),
    ],
)
def test_findings_do_not_block(tmp_path, extra, expected):
    body = "2023:\n  OSDI:\n" + GOOD_PAPER.format(key="lovelace2023notes", title="Notes") + extra
    paths = catalog_with(tmp_path, body)
    found = messages(paths)
    assert any(expected in m for m in found), found
    assert refresh(paths).papers == 1  # still readable


def test_place_and_format(tmp_path):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="lovelace2023notes", title="Notes")
        + "      tags: [cachng]\n"
    )
    paths = catalog_with(tmp_path, body)
    (problem,) = check(paths)
    assert str(problem).endswith(
        ":3: 2023 › OSDI › lovelace2023notes: unknown tag 'cachng' (did you mean 'caching'?)"
    )


def test_unknown_venue_suggests(tmp_path):
    body = "2023:\n  OSDl:\n" + GOOD_PAPER.format(key="lovelace2023notes", title="Notes")
    assert any(
        "unknown venue 'OSDl' (did you mean 'OSDI'?)" in m
        for m in messages(catalog_with(tmp_path, body))
    )


def test_malformed_key(tmp_path):
    body = "2023:\n  OSDI:\n" + GOOD_PAPER.format(key="Lovelace 2023", title="Notes")
    assert any("malformed key 'Lovelace 2023'" in m for m in messages(catalog_with(tmp_path, body)))


def test_duplicate_doi_and_arxiv(tmp_path):
    body = "2023:\n  OSDI:\n"
    for key in ("a2023one", "b2023two"):
        body += (
            GOOD_PAPER.format(key=key, title=key)
            + '      doi: 10.1000/x\n      arxiv: "2301.00001"\n'
        )
    found = messages(catalog_with(tmp_path, body))
    assert any("duplicate DOI 10.1000/x (also a2023one" in m for m in found)
    assert any("duplicate arXiv id 2301.00001 (also a2023one" in m for m in found)


def test_near_duplicate_titles(tmp_path):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="a2023one", title="Fleche: An Efficient GPU Embedding Cache")
        + GOOD_PAPER.format(key="b2023two", title="Fleche: an efficient GPU embedding cache.")
    )
    found = messages(catalog_with(tmp_path, body))
    assert any("b2023two: title nearly the same as a2023one" in m for m in found)


@pytest.mark.slow
def test_near_duplicates_are_those_all_pairs_find():
    """The buckets leave out no pair that scoring every pair finds: on a synthetic catalog
    whose titles share most of their words, and on short titles."""
    import sys
    from pathlib import Path

    from rapidfuzz import fuzz

    from catalog.check import duplicates, rules
    from catalog.check.titles import NEAR_DUPLICATE
    from catalog.model import Paper, normalize_title

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import synth

    records = synth.make_papers(1500, ["OSDI"], ["caching", "embedding", "moe", "gpu"])
    papers = [Paper(**r) for r in records]
    for i, title in enumerate(
        [
            "Deep Crossing",
            "Deep Crossings",
            "Wide & Deep",
            "Wide and Deep",
            "FastMoE",
            "Fast MoE",
            "A Survey",
            "Surveys",
            "Ekko",
            "Ekko!",
        ]
    ):
        papers.append(Paper(key=f"s{i}", title=title, authors=["A B"], year=2020, venue="OSDI"))
    titles = [normalize_title(p.title) for p in papers]
    every = {
        (a, b)
        for a in range(len(papers))
        for b in range(a + 1, len(papers))
        if titles[a] and fuzz.token_sort_ratio(titles[a], titles[b]) >= NEAR_DUPLICATE
    }
    # Alike titles of papers whose DOIs or arXiv ids differ are two papers (may_be_one).
    kept = {(a, b) for a, b in every if duplicates.may_be_one(papers[a], papers[b])}
    found = [Problem(*f) for f in rules._near_duplicate_findings(papers, "papers.yaml")]
    assert len(kept) > 20 and len(kept) < len(every)
    assert {(p.where.rsplit(" › ", 1)[1], p.message.split()[5]) for p in found} == {
        (papers[b].key, papers[a].key) for a, b in kept
    }


def test_note_link_to_unknown_paper(tmp_path):
    paths = write_catalog(tmp_path, PAPERS)
    paths.notes.mkdir(parents=True)
    (paths.notes / "n.md").write_text("# N\n\nSee [[he2021fastmoe]] and\n[[he2021fastmo]].\n")
    found = messages(paths)
    assert found == [
        f"{paths.display(paths.notes / 'n.md')}:4: n: link to unknown paper "
        "'he2021fastmo' (did you mean 'he2021fastmoe'?)"
    ]


def test_problems_sorted_and_all_reported(tmp_path):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="a2023one", title="One")
        + "      tags: [x1]\n"
        + GOOD_PAPER.format(key="b2023two", title="Two")
        + "      tags: [x2]\n"
    )
    found = check(catalog_with(tmp_path, body))
    assert [p.line for p in found] == sorted(p.line for p in found)
    assert len(found) == 2


def test_cli_check_exit_codes(cli, paths):
    ok = cli("check")
    assert ok.exit_code == 0
    text = paths.catalog.read_text().replace("[moe, training]", "[moe, trainning]")
    paths.catalog.write_text(text)
    bad = cli("check")
    assert bad.exit_code == 1
    assert "unknown tag 'trainning' (did you mean 'training'?)" in bad.output
    assert "Traceback" not in bad.output


def test_cli_blocking_error_stops_other_commands(cli, paths):
    paths.catalog.write_text(paths.catalog.read_text() + "  OSDI: [\n")
    result = cli("search", "embedding")
    assert result.exit_code == 1
    assert "YAML syntax error" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_tab_indentation_gets_its_own_hint(tmp_path):
    paths = catalog_with(tmp_path, "2023:\n\tOSDI: []\n")
    (problem,) = check(paths)
    assert problem.line == 2 and "indent with spaces" in problem.hint


def test_odd_unicode_is_read_and_searchable(tmp_path):
    from catalog.index.database import connect
    from catalog.index.query import search

    body = (
        "\ufeff2023:\r\n  OSDI:\r\n    - key: zoe2023rtl\r\n"
        '      title: "عربي Zoë 😀 café"\r\n      authors: [Zoë Čech]\r\n'
    )
    paths = write_catalog(tmp_path, body)
    paths.catalog.write_text(body, encoding="utf-8", newline="")
    assert check(paths) == []
    conn = connect(paths)
    assert [h.paper.key for h in search(conn, "cafe")] == ["zoe2023rtl"]
    assert [h.paper.key for h in search(conn, "author:zoe")] == ["zoe2023rtl"]


@pytest.mark.parametrize("value", ["true", "false", "True", "~", "null", ""])
def test_plain_booleans_and_nulls(tmp_path, value):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="lovelace2023notes", title="Notes")
        + f"      et_al: {value}\n      doi: {value}\n".replace("doi: true", "doi: ~")
        .replace("doi: false", "doi: ~")
        .replace("doi: True", "doi: ~")
    )
    paths = catalog_with(tmp_path, body)
    found = check(paths)
    if value in ("true", "false", "True"):
        assert found == []
        from catalog.data.reader import load

        paper = load(paths.catalog)[0]
        assert paper.et_al is (value.lower() == "true") and paper.doi is None
    else:
        assert any("et_al must be true or false" in str(p) for p in found)


def test_quoted_true_is_not_a_boolean(tmp_path):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="lovelace2023notes", title="Notes")
        + '      et_al: "true"\n'
    )
    assert any("et_al must be true or false" in str(p) for p in check(catalog_with(tmp_path, body)))


def test_arxiv_category_rules(tmp_path):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="lovelace2023notes", title="Notes")
        + '      arxiv_class: "cs DC"\n'
    )
    found = messages(catalog_with(tmp_path, body))
    assert any("malformed arXiv category 'cs DC'" in m for m in found)
    assert any("arXiv category without an arXiv id" in m for m in found)


def test_arxiv_versions_are_one_preprint(tmp_path):
    body = (
        "2023:\n  OSDI:\n"
        + GOOD_PAPER.format(key="a2023one", title="One")
        + '      arxiv: "2301.00001"\n'
        + GOOD_PAPER.format(key="b2023two", title="Two")
        + '      arxiv: "2301.00001v2"\n'
    )
    assert any(
        "duplicate arXiv id 2301.00001v2 (also a2023one" in m
        for m in messages(catalog_with(tmp_path, body))
    )


def test_note_links_are_not_checked_when_the_catalog_is_unreadable(tmp_path):
    paths = write_catalog(tmp_path, PAPERS + "  OSDI: [\n")
    paths.notes.mkdir(parents=True)
    (paths.notes / "n.md").write_text("# N\n\nSee [[he2021fastmoe]].\n")
    found = check(paths)
    assert len(found) == 1 and found[0].blocking


def test_sources_are_links_and_can_be_required(tmp_path):
    body = "2023:\n  OSDI:\n" + GOOD_PAPER.format(key="lovelace2023notes", title="Notes")
    paths = catalog_with(tmp_path, body)
    assert not any("metadata source" in m for m in messages(paths))
    assert any("no metadata source" in str(p) for p in check(paths, require_sources=True))
    paths = catalog_with(
        tmp_path, body + "      sources: [https://dblp.org/rec/x, 'javascript:x']\n"
    )
    found = [str(p) for p in check(paths, require_sources=True)]
    assert any("source is not an http(s) link: 'javascript:x'" in m for m in found), found
    assert not any("no metadata source" in m for m in found)


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ('      summary: "a\\x1b]8;;https://evil\\x07b"\n', "control character in summary"),
        ('      doi: "10.1234/\\\\input{x}"\n', "malformed DOI"),
        ("      url: javascript:alert(1)\n", "url is not an http(s) link"),
        ("      url: data:text/html,x\n", "url is not an http(s) link"),
    ],
)
def test_hostile_fields_are_findings(tmp_path, extra, expected):
    body = "2023:\n  OSDI:\n" + GOOD_PAPER.format(key="lovelace2023notes", title="Notes") + extra
    assert any(expected in m for m in messages(catalog_with(tmp_path, body)))


def test_big_bucket_scoring_finds_what_scoring_every_pair_finds():
    """A big bucket is scored once per distinct text and only against texts short enough
    to reach the cutoff: the pairs are those scoring every pair of its members finds,
    with titles repeated (several papers, one text), lengths at the cutoff's edge and
    more members than one block of rows."""
    import random

    import numpy
    from rapidfuzz import fuzz

    from catalog.check import titles as alike
    from catalog.check.titles import NEAR_DUPLICATE

    rng = random.Random(12)
    words = ["cache", "embedding", "tables", "gpu", "sharded", "training", "fast", "a", "of"]
    titles = []
    for _ in range(400):
        title = " ".join(rng.choice(words) for _ in range(rng.randint(3, 9)))
        titles.append(title)
        if rng.random() < 0.3:  # the same text again, or with a few letters more
            titles.append(title if rng.random() < 0.5 else title + "x" * rng.randint(1, 6))
    titles = [" ".join(sorted(t.split())) for t in titles]
    members = list(range(len(titles)))
    rng.shuffle(members)
    codes = numpy.concatenate(list(alike.alike_codes(members, titles)))
    found = {divmod(int(c), len(titles)) for c in numpy.unique(codes)}
    every = {
        (a, b)
        for a in range(len(titles))
        for b in range(a + 1, len(titles))
        if fuzz.ratio(titles[a], titles[b], score_cutoff=NEAR_DUPLICATE)
    }
    assert len(every) > 200
    assert len(set(titles)) < len(titles)
    assert found == every


def test_control_findings_are_those_of_each_paper():
    """Every paper with a control character gets its finding, and no clean paper any."""
    from catalog.check import rules
    from catalog.model import Paper

    dirty = {
        4: {"title": "a\x1b[31mb"},
        5: {"abstract": "x\x00y"},
        9: {"authors": ["A B", "C\u202eD"]},
        10: {"summary": "tab\tand\nnewline"},
    }
    papers = [
        Paper(
            **{
                "key": f"a2023x{i}",
                "title": f"Title {i}",
                "authors": ["A B"],
                "year": 2023,
                "venue": "OSDI",
                "line": i + 1,
                **dirty.get(i, {}),
            }
        )
        for i in range(12)
    ]
    found = rules.paper_problems(papers, "papers.yaml", {}, {})
    controls = {(p.line - 1, p.message) for p in found if "control character" in p.message}
    assert controls == {
        (4, "control character in title"),
        (5, "control character in abstract"),
        (9, "control character in authors"),
    }


def test_big_buckets_scored_in_blocks_find_every_pair():
    """Big buckets scored a block of rows at a time give the pairs that scoring every
    pair of each bucket finds."""
    import random

    import numpy
    from rapidfuzz import fuzz

    from catalog.check import titles as alike
    from catalog.check.titles import NEAR_DUPLICATE

    rng = random.Random(5)
    words = ["cache", "embedding", "tables", "gpu", "sharded", "training", "fast"]
    titles = sorted(
        " ".join(sorted(rng.choice(words) for _ in range(rng.randint(3, 7)))) for _ in range(300)
    )
    big = [sorted(rng.sample(range(len(titles)), rng.randint(13, 160))) for _ in range(6)]
    codes = alike.big_bucket_codes(big, titles)
    found = {divmod(int(c), len(titles)) for c in numpy.unique(numpy.concatenate(codes))}
    every = {
        (a, b)
        for members in big
        for i, a in enumerate(members)
        for b in members[i + 1 :]
        if fuzz.ratio(titles[a], titles[b], score_cutoff=NEAR_DUPLICATE)
    }
    assert len(every) > 40
    assert found == every


# Values an edit may set, hostile or malformed included: each can make a finding.
_EDITS = {
    "title": st.sampled_from(["A Title", "a\x1b[31mb", ""]),
    "authors": st.sampled_from([["A B"], ["et al."], ["A B", "C\u202eD"], [":"]]),
    "venue": st.sampled_from(["OSDI", "Nowhere", "Springer"]),
    "tags": st.sampled_from([["moe"], ["mooe"], ["moe", "x\x00"], []]),
    "key": st.sampled_from(["he2021fastmoe", "He 2021!"]),
    "doi": st.sampled_from([None, "10.1145/3575693.3575718", "doi:bad"]),
    "arxiv": st.sampled_from([None, "2301.02959", "9999.1", "2501.00001"]),
    "arxiv_class": st.sampled_from([None, "cs.DC", "bad class"]),
    "pages": st.sampled_from([None, "281-294", "many"]),
    "url": st.sampled_from([None, "https://x.org", "javascript:alert(1)"]),
    "sources": st.sampled_from([[], ["https://dblp.org"], ["file:///etc/passwd"]]),
    "code": st.sampled_from([None, "https://github.com/x/y", "ftp://x"]),
    "added": st.sampled_from([None, "2024-05-06", "2024-13-45"]),
    "checked": st.sampled_from([None, "2024-05-06", "someday"]),
    "booktitle": st.sampled_from([None, "A Book"]),
    "publisher": st.sampled_from([None, "A Press"]),
    "summary": st.sampled_from([None, "fine", "bell\x07"]),
    "abstract": st.sampled_from([None, "fine\ntext", "esc\x1b]0;x"]),
}


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    before=st.fixed_dictionaries({}, optional=_EDITS),
    after=st.fixed_dictionaries({}, optional=_EDITS),
    vocabulary_changes=st.booleans(),
)
def test_a_check_of_the_fields_an_edit_changed_finds_every_finding_it_adds(
    before, after, vocabulary_changes
):
    """An edit's judge runs only the rules that read a field it changed (or the registry
    it changed): every finding the whole rule set adds must be among theirs."""
    from catalog.check import rules
    from catalog.data.registry import Venue
    from catalog.edit.validation import EditCheck, _differences
    from catalog.model import Paper

    venues = {
        "OSDI": Venue("OSDI", "conference", "OSDI"),
        "Springer": Venue("Springer", "collection", "Springer"),
    }
    vocab_before = {"moe": "MoE", "mooe": "typo"}
    vocab_after = {"moe": "MoE"} if vocabulary_changes else vocab_before
    base = {
        "key": "he2021fastmoe",
        "title": "FastMoE",
        "authors": ["Jiaao He"],
        "year": 2021,
        "venue": "OSDI",
        "line": 5,
    }
    old = Paper(**{**base, **before})
    new = Paper(**{**base, **before, **after})
    judge = EditCheck.__new__(EditCheck)
    judge.vocab_before, judge.venues_before = vocab_before, venues
    changed, differ = _differences([new], {old.key: old})
    assert changed == ([new] if differ else [])
    fields = judge.rule_fields(differ, venues, vocab_after)
    every = {(p.message, p.hint) for p in rules.paper_problems([new], "p", venues, vocab_after)}
    had = {(p.message, p.hint) for p in rules.paper_problems([old], "p", venues, vocab_before)}
    mine = {
        (p.message, p.hint) for p in rules.paper_problems([new], "p", venues, vocab_after, fields)
    }
    assert every - had <= mine <= every


def test_check_reads_the_author_aliases(paths, cli):
    """data/authors.yaml is reviewed like the registries: a spelling under two people is
    a problem with its line, and a spelling no paper uses is reported."""
    authors = paths.data_dir / "authors.yaml"
    authors.write_text("Fan Lai: [F. Lai]\nWei Zhang: [F. Lai]\n", encoding="utf-8")
    result = cli("check")
    assert result.exit_code == 1
    assert "authors.yaml:2" in result.output and "listed for both" in result.output
    authors.write_text("Fan Lai: [F. Lai]\n", encoding="utf-8")
    result = cli("check")
    assert "'F. Lai' is the name of no author in the catalog" in result.output
