"""The query language and `papers search / show / list / stats / venues`."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.errors import PaperNotFound, QueryError
from catalog.index import database, query
from tests.conftest import write_catalog


@pytest.fixture
def conn(paths):
    return database.connect(paths)


def keys(conn, text: str) -> list[str]:
    return [h.paper.key for h in query.search(conn, text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("embedding", {"kurniawan2023evstore", "lai2023adaembed"}),
        ("EMBEDDING", {"kurniawan2023evstore", "lai2023adaembed"}),
        ("emb*", {"kurniawan2023evstore", "lai2023adaembed"}),
        ('"mixture of expert"', {"he2021fastmoe"}),
        ("caching OR moe", {"kurniawan2023evstore", "he2021fastmoe"}),
        ("embedding -caching", {"lai2023adaembed"}),
        ("-embedding", {"he2021fastmoe"}),
        ("year:2021", {"he2021fastmoe"}),
        ("year:2022..2023", {"kurniawan2023evstore", "lai2023adaembed"}),
        ("year:..2021", {"he2021fastmoe"}),
        ("venue:osdi", {"lai2023adaembed"}),
        ("tag:caching", {"kurniawan2023evstore"}),
        ("-tag:embedding", {"he2021fastmoe"}),
        ("author:gunawi", {"kurniawan2023evstore"}),
        ("status:read", {"lai2023adaembed"}),
        ("status:to-read embedding", {"kurniawan2023evstore"}),
        ("title:cach*", {"kurniawan2023evstore"}),
        # Snowball stems: "cache" and "Caching" share the stem "cach".
        ("title:cache*", {"kurniawan2023evstore"}),
        ("title:cache", {"kurniawan2023evstore"}),
        ("embeddings", {"kurniawan2023evstore", "lai2023adaembed"}),
        ("caches", {"kurniawan2023evstore"}),
        ("cached lookup", {"kurniawan2023evstore"}),
        ('"embedding tables"', {"kurniawan2023evstore"}),
        ('"embedding table"', {"kurniawan2023evstore"}),
        ('"mixture of experts"', {"he2021fastmoe"}),
        ("summary:gpus", {"he2021fastmoe"}),
        ("-caches", {"lai2023adaembed", "he2021fastmoe"}),
        # A prefix longer than the stem ("embed") still begins the words it began.
        ("embedd*", {"kurniawan2023evstore", "lai2023adaembed"}),
        ("EMBEDDI*", {"kurniawan2023evstore", "lai2023adaembed"}),
        ("title:cachi*", {"kurniawan2023evstore"}),
        ("summary:lookup*", {"kurniawan2023evstore"}),
        ("-embeddi*", {"he2021fastmoe"}),
        ("mixture-of-exp*", {"he2021fastmoe"}),
        ("cachix*", set()),
        ("key:he2021*", {"he2021fastmoe"}),
        ("training year:2023", {"lai2023adaembed"}),
    ],
)
def test_query_language(conn, text, expected):
    assert set(keys(conn, text)) == expected


TWO_CURATED = """\
2023:
  OSDI:
    - key: alpha2023store
      title: "Zebra: A Store for Embedding Tables"
      authors: [A Author]
      tags: [embedding]
      summary: "Keeps tables in flash."
    - key: beta2023cache
      title: "Quagga: Faster Lookups"
      authors: [B Author]
      tags: [caching]
      summary: "A cache in front of a zebra of tables, among other things."
"""


def test_title_weighs_more_than_summary(tmp_path):
    # Both papers are curated (tags and summary) and match "zebra" once: alpha in its
    # title, beta in its (longer) summary. The title match must lead, whichever comes
    # first in the file.
    swapped = TWO_CURATED.replace("alpha2023store", "zeta2023store")  # sorts after beta
    for folder, papers in (("one", TWO_CURATED), ("two", swapped)):
        conn = database.connect(write_catalog(tmp_path / folder, papers))
        found = keys(conn, "zebra")
        assert len(found) == 2 and found[0] in ("alpha2023store", "zeta2023store"), found


LONG_SUMMARY = (
    "Keeps embedding rows in flash behind a small DRAM cache of hot rows, with a "
    "log-structured layout that turns the random writes of training into "
    "sequential ones spread over many devices."
)


def test_curated_papers_lead_title_only_imports(tmp_path):
    # An imported record with only a short title (no tags, no summary) that matches in the
    # title, against a curated paper matching in its title, tags and summary: bm25 alone
    # prefers the short record; the curated one must lead.
    papers = (
        TWO_CURATED.replace("Keeps tables in flash.", LONG_SUMMARY)
        + """\
    - key: jia2014caffe
      title: "Caffe: Convolutional Architecture for Fast Feature Embedding"
      authors: [Yangqing Jia]
"""
    )
    conn = database.connect(write_catalog(tmp_path, papers))
    assert keys(conn, "embedding") == ["alpha2023store", "jia2014caffe"]
    assert keys(conn, "embeddings") == ["alpha2023store", "jia2014caffe"]


def test_abstract_is_searched_below_curated_fields(tmp_path):
    papers = TWO_CURATED.replace(
        'summary: "Keeps tables in flash."',
        'summary: "Keeps tables in flash."\n      abstract: "We study wombat placement."',
    )
    conn = database.connect(write_catalog(tmp_path, papers))
    assert keys(conn, "wombat") == ["alpha2023store"]
    assert keys(conn, "abstract:wombats") == ["alpha2023store"]
    assert keys(conn, "summary:wombat") == []


def test_latex_is_searched_as_the_pages_show_it(tmp_path):
    # The site's Words box has the text as pages show it: the index holds the same words,
    # so a LaTeX command is no word and a protected word is one.
    papers = TWO_CURATED.replace(
        'summary: "Keeps tables in flash."',
        'summary: "Keeps tables in flash."\n'
        "      abstract: 'A $1.5\\times$ speedup, \\textbf{wombat} placement.'",
    )
    conn = database.connect(write_catalog(tmp_path, papers))
    assert keys(conn, "wombat") == ["alpha2023store"]
    assert keys(conn, "textbf") == []
    assert keys(conn, "speedup") == ["alpha2023store"]


def test_the_sites_ranking_is_the_searchs():
    rank = query.ranking()
    assert rank["weights"] == list(query.WEIGHTS)
    assert rank["columns"][rank["curatedColumns"][1]] == "tags"
    assert (rank["curated"], rank["near"]) == (query.CURATED_BOOST, query.NEAR_BOOST)


def test_accents_are_ignored(paths):
    text = paths.catalog.read_text().replace("Ruipu Wang", "Ruipu Wäng Čech")
    paths.catalog.write_text(text)
    conn = database.connect(paths)
    assert keys(conn, "author:cech") == ["kurniawan2023evstore"]
    assert keys(conn, "wang") == ["kurniawan2023evstore"]
    assert keys(conn, "čech") == ["kurniawan2023evstore"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("yaer:2022", "unknown filter 'yaer:' (did you mean 'year:'?"),
        ("year:20x", "bad year '20x'"),
        ("year:2023..2020", "empty year range"),
        ("status:done", "unknown status 'done'"),
        ("venue:", "'venue:' needs a value"),
    ],
)
def test_bad_queries_get_clear_messages(conn, text, message):
    with pytest.raises(QueryError, match=message.replace("(", r"\(").replace("?", r"\?")):
        query.search(conn, text)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_random_queries_never_crash(conn, text):
    try:
        hits = query.search(conn, text)
    except QueryError as err:
        assert str(err)
    else:
        assert all(h.paper.key for h in hits)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                '"',
                "*",
                "-",
                "OR",
                "AND",
                "NOT",
                "(",
                ")",
                ":",
                "^",
                "NEAR",
                "emb",
                "year:",
                "tag:x",
                "é",
                " ",
                "\\",
                "'",
            ]
        ),
        max_size=12,
    )
)
def test_fts_syntax_soup_never_crashes(conn, parts):
    try:
        query.search(conn, "".join(parts))
    except QueryError as err:
        assert any(
            m in str(err)
            for m in (
                "cannot search",
                "filter",
                "year",
                "nothing to search",
                "unknown tag",
                "unknown venue",
            )
        )


def test_get_suggests_a_key(conn):
    with pytest.raises(PaperNotFound, match="did you mean 'he2021fastmoe'"):
        query.get(conn, "he2021fastmo")


def test_cli_search_plain_json_keys(cli):
    plain = cli("search", "embedding")
    assert plain.exit_code == 0
    assert plain.output.splitlines()[0].startswith(("kurniawan2023evstore", "lai2023adaembed"))
    data = json.loads(cli("search", "embedding", "--json").output)
    assert data[0]["authors"] and data[0]["venue"] and "summary" in data[0]
    assert cli("search", "tag:moe", "--keys").output == "he2021fastmoe\n"
    assert len(cli("search", "embedding", "--keys", "--limit", "1").stdout.splitlines()) == 1


def test_cli_search_errors(cli):
    none = cli("search", "nonexistentword")
    assert none.exit_code == 1 and "no papers match" in none.output
    bad = cli("search", "yaer:2020")
    assert bad.exit_code == 1 and "did you mean 'year:'" in bad.output


def test_cli_show(cli):
    result = cli("show", "he2021fastmoe")
    assert result.exit_code == 0
    assert "FastMoE: A Fast Mixture-of-Expert Training System" in result.output
    assert "arxiv:   2103.13262" in result.output
    data = json.loads(cli("show", "he2021fastmoe", "--json").output)
    assert data["year"] == 2021 and data["discussed_in"] == []
    missing = cli("show", "he2021fastmo")
    assert missing.exit_code == 1 and "did you mean 'he2021fastmoe'" in missing.output


def test_cli_show_lists_notes(cli, paths):
    paths.notes.mkdir(parents=True)
    (paths.notes / "moe.md").write_text("# MoE systems\n\n[[he2021fastmoe]] groups tokens.\n")
    data = json.loads(cli("show", "he2021fastmoe", "--json").output)
    assert data["discussed_in"] == [{"note": "moe", "title": "MoE systems"}]
    assert "discussed in: MoE systems" in cli("show", "he2021fastmoe").output


def test_cli_list_groups_and_filters(cli):
    out = cli("list").output
    assert out.index("2023") < out.index("ASPLOS") < out.index("OSDI") < out.index("2021")
    assert cli("list", "year:2021", "--keys").output == "he2021fastmoe\n"


def test_cli_stats_and_venues(cli):
    stats = json.loads(cli("stats", "--json").output)
    assert stats["year"] == {"2023": 2, "2021": 1}
    assert stats["tag"]["embedding"] == 2
    assert "█" in cli("stats").output
    venues = json.loads(cli("venues", "--json").output)
    assert {v["short"]: v["papers"] for v in venues}["OSDI"] == 1
    assert "USENIX Association" in cli("venues").output


def test_cli_index(cli):
    result = cli("index")
    assert result.exit_code == 0 and "indexed 3 papers" in result.output


def test_environment_variables_choose_catalog_and_db(paths, monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from catalog.cli import app

    db = tmp_path / "elsewhere.db"
    monkeypatch.setenv("PAPERS_CATALOG", str(paths.catalog))
    monkeypatch.setenv("PAPERS_DB", str(db))
    result = CliRunner().invoke(app, ["search", "tag:moe", "--keys"])
    assert result.output == "he2021fastmoe\n"
    assert db.exists()


def test_missing_catalog_is_a_clear_error(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from catalog.cli import app

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.setenv("PAPERS_DB", str(tmp_path / "x.db"))
    result = CliRunner().invoke(app, ["search", "x"])
    assert result.exit_code == 1
    assert "no catalog here" in result.output and "PAPERS_CATALOG" in result.output


def test_letters_without_decomposition_are_folded(paths):
    text = (
        paths.catalog.read_text()
        .replace("Ruipu Wang", "Holger Preußer")
        .replace("Fan Lai", "Søren Łukasz")
    )
    paths.catalog.write_text(text)
    conn = database.connect(paths)
    for words, key in (
        ("preusser", "kurniawan2023evstore"),
        ("Preußer", "kurniawan2023evstore"),
        ("author:preusser", "kurniawan2023evstore"),
        ("soren lukasz", "lai2023adaembed"),
        ("Søren", "lai2023adaembed"),
    ):
        assert keys(conn, words) == [key], words


@pytest.mark.parametrize("text", ['"', "(", "-", "*", "OR", "- OR *"])
def test_queries_with_nothing_to_search_say_so(conn, text):
    with pytest.raises(QueryError, match="nothing to search for"):
        query.search(conn, text)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-embedding", "--keys"], "he2021fastmoe\n"),
        (["--keys", "-tag:embedding"], "he2021fastmoe\n"),
        (["tag:embedding", "-caching", "--keys"], "lai2023adaembed\n"),
        (["--keys", "embedding", "training"], "lai2023adaembed\n"),
        (["--keys", "-n1", "--", "-caching"], "lai2023adaembed\n"),
        (["--keys", "--limit=1", "tag:embedding"], "kurniawan2023evstore\n"),
    ],
)
def test_cli_query_words_may_start_with_a_dash(cli, args, expected):
    result = cli("search", *args)
    assert result.exit_code == 0, result.output
    assert result.stdout == expected


def test_cli_list_and_export_take_dash_words(cli):
    assert cli("list", "-tag:embedding", "--keys").output == "he2021fastmoe\n"
    assert cli("export", "-tag:embedding").output.startswith("@misc{he2021fastmoe,")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("venue:OSDl", "unknown venue 'OSDl' (did you mean 'OSDI'?)"),
        ("tag:cachng", "unknown tag 'cachng' (did you mean 'caching'?)"),
    ],
)
def test_unknown_venue_or_tag_filters_are_typos(conn, text, message):
    with pytest.raises(QueryError) as err:
        query.search(conn, text)
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("text", "wider"),
    [
        ("embed", "embed*"),
        ("embed year:2022", "embed* year:2022"),
        ("cach OR shard", "cach* OR shard*"),
        ("emb* tabl", "emb* tabl*"),
        ('"embed table"', None),
        ("emb*", None),
        ("-embed", None),
        ("title:embed", None),
        ("year:2022", None),
        ("", None),
    ],
)
def test_prefix_query(text, wider):
    assert query.prefix_query(text) == wider


def test_cli_search_offers_the_prefix_when_a_word_finds_nothing(cli):
    # "embedd" is no word and no stem of one; "embedd*" finds both papers.
    result = cli("search", "embedd")
    assert result.exit_code == 0, result.output
    assert result.stderr == "no papers match 'embedd'; showing 'embedd*'\n"
    assert {line.split()[0] for line in result.stdout.splitlines()} == {
        "kurniawan2023evstore",
        "lai2023adaembed",
    }
    scripted = cli("search", "embedd", "--keys")
    assert scripted.stdout == "" and "did you mean 'embedd*'?" in scripted.stderr
    assert cli("search", "embedd", "--json").stdout == "[]\n"
    none = cli("search", "zzzq")
    assert none.exit_code == 1 and none.stderr == "no papers match 'zzzq'\n"


def test_embed_finds_embedding_papers_as_they_are(cli):
    # Snowball cuts "embed" to "emb" but "embedding" to "embed": catalog.index.words
    # pins embed's stem, so the word finds them without falling back to a prefix.
    result = cli("search", "embed", "--keys")
    assert result.exit_code == 0 and result.stderr == ""
    assert set(result.stdout.split()) == {"kurniawan2023evstore", "lai2023adaembed"}


def test_prefixes_widen_to_words_added_by_an_edit(paths):
    conn = database.connect(paths)
    assert keys(conn, "wombatti*") == []
    text = paths.catalog.read_text().replace(
        "Caches embedding lookups", "Caches wombatting lookups"
    )
    paths.catalog.write_text(text)
    conn = database.connect(paths)  # the changed year block is re-read, its words added
    assert keys(conn, "wombatti*") == ["kurniawan2023evstore"]
