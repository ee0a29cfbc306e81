"""AND / OR / NOT and parentheses in queries, bare year ranges, and a search that says
when its limit cut the results (issue 22, item 6)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.errors import QueryError
from catalog.index import database, query
from catalog.paths import Paths


@pytest.fixture
def conn(paths):
    return database.connect(paths)


def keys(conn, text: str) -> set[str]:
    return {h.paper.key for h in query.search(conn, text)}


EV, ADA, MOE = "kurniawan2023evstore", "lai2023adaembed", "he2021fastmoe"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("embedding NOT caching", {ADA}),  # as 'embedding -caching', not the word 'not'
        ("embedding AND NOT caching", {ADA}),
        ("embedding AND training", {ADA}),
        ("NOT embedding", {MOE}),
        ("NOT NOT moe", {MOE}),
        ("(caching OR moe) training", {MOE}),
        ("training (caching OR moe)", {MOE}),
        ("training AND (caching OR moe)", {MOE}),
        ("-(caching OR moe)", {ADA}),
        ("NOT (caching OR moe)", {ADA}),
        ("embedding NOT (caching OR training)", set()),
        # A filter inside OR or NOT: SQL beside the full-text match.
        ("tag:moe OR caching", {MOE, EV}),
        ("caching OR tag:moe", {MOE, EV}),
        ("(tag:moe OR venue:OSDI) training", {MOE, ADA}),
        ("NOT (tag:moe OR venue:osdi)", {EV}),
        ("title:adaembed OR summary:gpus", {ADA, MOE}),
        ("training NOT (year:2021 AND moe)", {ADA}),
        # OR binds tighter than AND, as before: a b OR c is a AND (b OR c).
        ("embedding caching OR training", {EV, ADA}),
        ("embedding AND caching OR training", {EV, ADA}),
        ("(embedding caching) OR moe", {EV, MOE}),
        # A bare year range is a year filter.
        ("2021..2022", {MOE}),
        ("2022..2023", {EV, ADA}),
        ("2023..", {EV, ADA}),
        ("..2021", {MOE}),
        ("embedding 2023..2023", {EV, ADA}),
        ("-2023..2023", {MOE}),
        # Lower-case words stay words; quoting makes an operator a word.
        ('"or"', set()),
    ],
)
def test_operators(conn, text, expected):
    assert keys(conn, text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("embedding OR", "OR needs a term after it (write 'a OR b'; to search for the word, "),
        ("OR embedding", "OR needs a term before it"),
        ("embedding AND", "AND needs a term after it"),
        ("AND embedding", "AND needs a term before it"),
        ("embedding AND OR moe", "AND needs a term after it"),
        ("embedding NOT", "NOT needs a term after it"),
        ("(embedding", "a '(' is never closed"),
        ("embedding)", "a ')' closes no '('"),
        ("embedding ()", "'()' holds nothing"),
        ("2023..2021", "empty year range '2023..2021'"),
    ],
)
def test_misplaced_operators_say_how_to_write_them(conn, text, message):
    with pytest.raises(QueryError) as err:
        query.search(conn, text)
    assert message in str(err.value)
    if "year" not in message:
        assert str(err.value).startswith(f"cannot search for {text!r}: ")


def test_the_words_themselves_are_searched_when_quoted(tmp_path):
    from tests.conftest import write_catalog

    paths = write_catalog(
        tmp_path,
        papers="""\
        2022:
          OSDI:
            - key: a2022not
              title: "To Cache or Not to Cache"
              authors: [A Author]
        """,
    )
    conn = database.connect(paths)
    assert keys(conn, 'cache "not"') == {"a2022not"}
    assert keys(conn, "cache not") == {"a2022not"}  # lower case: a word, as always
    assert keys(conn, "cache NOT cache") == set()


# Terms over the frozen seed catalog: the operators must agree with set algebra on what
# each term finds alone.
TERMS = ["embedding", "cache", "training", "gpu", "tag:inference", "year:2022", "venue:OSDI"]


@st.composite
def trees(draw, depth: int = 0):
    """A query text and its meaning, (op, children) or a term."""
    if depth >= 2 or draw(st.booleans()):
        term = draw(st.sampled_from(TERMS))
        return term, term
    op = draw(st.sampled_from(["AND", "OR", "NOT", "-", "space"]))
    left_text, left = draw(trees(depth + 1))
    if op in ("NOT", "-"):
        return f"{'NOT ' if op == 'NOT' else '-'}({left_text})", ("not", left)
    right_text, right = draw(trees(depth + 1))
    joiner = " " if op == "space" else f" {op} "
    return f"({left_text}){joiner}({right_text})", ("or" if op == "OR" else "and", left, right)


def _meaning(tree, found, everything: set[str]) -> set[str]:
    if isinstance(tree, str):
        return found[tree]
    if tree[0] == "not":
        return everything - _meaning(tree[1], found, everything)
    left, right = (_meaning(t, found, everything) for t in tree[1:])
    return left | right if tree[0] == "or" else left & right


@pytest.fixture(scope="module")
def seed(tmp_path_factory):
    import shutil

    from tests.conftest import REPO, SEED_CATALOG

    folder = tmp_path_factory.mktemp("seed")
    (folder / "data").mkdir()
    for path in (REPO / "data").glob("*.yaml"):
        shutil.copy(path, folder / "data" / path.name)
    shutil.copy(SEED_CATALOG, folder / "data" / "papers.yaml")
    conn = database.connect(Paths(folder / "data" / "papers.yaml", folder / "build" / "c.db"))
    found = {t: keys(conn, t) for t in TERMS}
    return conn, found, keys(conn, "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_operators_agree_with_set_algebra(seed, drawn):
    conn, found, everything = seed
    text, tree = drawn
    assert all(found.values()) and everything  # every term finds something
    assert keys(conn, text) == _meaning(tree, found, everything), text


def test_cli_says_when_the_limit_cut_the_results(cli):
    cut = cli("search", "embedding", "--limit", "1")
    assert cut.exit_code == 0
    assert len(cut.stdout.splitlines()) == 1
    assert cut.stderr == "1 of 2 papers (use --limit)\n"
    for flag in ("--keys", "--json"):
        scripted = cli("search", "embedding", "-n", "1", flag)
        assert scripted.stderr == "1 of 2 papers (use --limit)\n"  # stdout stays clean
        assert EV in scripted.stdout or ADA in scripted.stdout
    json.loads(cli("search", "embedding", "-n1", "--json").stdout)
    whole = cli("search", "embedding", "--limit", "2")
    assert whole.exit_code == 0 and whole.stderr == ""
    listed = cli("list", "-n", "2", "--keys")
    assert listed.stdout.count("\n") == 2 and listed.stderr == "2 of 3 papers (use --limit)\n"
    assert cli("list", "--keys").stderr == ""


def test_cli_search_counts_what_the_prefix_found(cli):
    # 'embedd' finds nothing; the table shows what 'embedd*' finds, cut to the limit.
    shown = cli("search", "embedd", "-n", "1")
    assert shown.exit_code == 0
    assert (
        shown.stderr == "no papers match 'embedd'; showing 'embedd*'\n1 of 2 papers (use --limit)\n"
    )


@pytest.mark.parametrize("command", ["search", "list"])
def test_cli_refuses_json_with_keys(cli, command):
    result = cli(command, "embedding", "--json", "--keys")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: give --json or --keys, not both (--json prints every field, --keys only the keys)\n"
    )


def test_cli_operators_and_year_ranges(cli):
    assert cli("search", "embedding", "NOT", "caching", "--keys").stdout == f"{ADA}\n"
    assert cli("search", "(caching OR moe) training", "--keys").stdout == f"{MOE}\n"
    assert cli("search", "2021..2022", "--keys").stdout == f"{MOE}\n"
    assert cli("export", "2021..2022").stdout.startswith(f"@misc{{{MOE},")
    bad = cli("search", "embedding", "OR")
    assert bad.exit_code == 1 and "OR needs a term after it" in bad.stderr


@pytest.mark.parametrize(
    ("text", "wider"),
    [
        ("embed NOT cach", "embed* NOT cach"),
        ("(embed OR cach) 2021..2022", "(embed* OR cach*) 2021..2022"),
        ("embed AND tabl", "embed* AND tabl*"),
    ],
)
def test_prefix_query_keeps_operators(text, wider):
    assert query.prefix_query(text) == wider
