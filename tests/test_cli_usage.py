"""Mistakes at the command line are bad input too: unknown or misplaced options, one
meaning per short letter, commands run outside a catalog, and nothing from the data
reaching the terminal as a control sequence."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from catalog.cli import app
from catalog.commands import for_terminal
from catalog.model import CONTROL_OR_NEWLINE_RE
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog
from tests.test_docs import COMMANDS

# ---------------------------------------------------------------- unknown options


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "embedding", "--jsn"], "No such option: --jsn (did you mean --json?)"),
        (
            ["search", "embedding", "--catalog", "other.yaml"],
            "--catalog is an option of papers itself and goes before the command: "
            "papers --catalog other.yaml search embedding",
        ),
        (["list", "--db=x.db", "tag:moe"], "papers --db=x.db list tag:moe"),
        (["list", "--jsno"], "did you mean --json?"),
        (
            ["list", "--frobnicate"],
            "to search for '--frobnicate' itself, put it after --: papers list -- --frobnicate",
        ),
        (["export", "tag:moe", "--outptu", "x.bib"], "did you mean --output?"),
        (["export", "--catalog", "c.yaml"], "papers --catalog c.yaml export"),
        (["show", "he2021fastmoe", "--db", "x.db"], "papers --db x.db show he2021fastmoe"),
        (["related", "he2021fastmoe", "--limt", "2"], "did you mean --limit?"),
    ],
)
def test_an_unknown_option_is_an_error_with_a_suggestion(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stdout == ""  # no table, no search for the option's name


def test_an_option_without_its_value_says_so(cli):
    result = cli("search", "embedding", "-n")
    assert result.exit_code == 2 and "Option '-n' requires an argument." in result.stderr


def test_misplaced_option_does_not_search_for_its_name(cli, tmp_path):
    result = cli("search", "embedding", "--catalog", str(tmp_path / "other.yaml"))
    assert result.exit_code == 2 and not (tmp_path / "other.yaml").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["search", "embedding", "-caching", "--keys"], "lai2023adaembed\n"),
        (["list", "--keys", "-tag:embedding"], "he2021fastmoe\n"),
        (["search", "--keys", "--", "-embedding"], "he2021fastmoe\n"),
    ],
)
def test_dash_words_still_exclude(cli, args, expected):
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout == expected


def test_list_takes_a_limit(cli):
    assert cli("list", "--keys", "--limit", "2").stdout.splitlines() == [
        "kurniawan2023evstore",
        "lai2023adaembed",
    ]
    assert cli("list", "--keys", "-n", "1", "tag:embedding").stdout == "kurniawan2023evstore\n"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["-n", "3", "search", "x"],
            "goes after the command: papers --catalog C --db D search -n 3 x",
        ),
        (["-n3", "search", "x"], "papers --catalog C --db D search -n3 x"),
        (["--keys", "list", "tag:moe"], "papers --catalog C --db D list --keys tag:moe"),
        (["site", "-o", "out", "build"], "goes after the command: papers site build -o out"),
        (["-o", "out", "site", "build"], "papers --catalog C --db D site build -o out"),
    ],
)
def test_an_option_written_before_its_command_says_where_it_goes(paths, args, line):
    # (a): the corrected command line, the global options left where they were.
    catalog, db = str(paths.catalog), str(paths.db)
    result = CliRunner().invoke(app, ["--catalog", catalog, "--db", db, *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert line.replace("C", catalog, 1).replace("D", db, 1) in result.stderr
    assert f"is an option of `papers {'site build' if 'site' in args else args[-2]}`" in (
        result.stderr
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["site", "--catalog", "c.yaml", "build"], "papers --catalog c.yaml site build"),
        (["site", "build", "--db=x.db", "-o", "out"], "papers --db=x.db site build -o out"),
        (["search", "x", "--version"], "papers --version search x"),
    ],
)
def test_an_option_of_papers_after_the_command_says_it_goes_before(cli, args, line):
    # (b), a group's sub-command and a flag too.
    result = cli(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"is an option of papers itself and goes before the command: {line})" in result.stderr


def test_a_mistyped_option_gets_clicks_suggestion_once(cli):
    # (c): click's own NoSuchOption and its close options, said once.
    result = cli("tag", "he2021fastmoe", "--tg", "moe")
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: No such option: --tg (did you mean --tag?)\n")
    result = cli("tag", "he2021fastmoe", "-t", "x", "--bogus")
    assert result.stderr.endswith("Error: No such option: --bogus\n")  # nothing to add


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["search", "-n1", "embedding", "--keys"], "lai2023adaembed\n"),  # -n5 is the option
        (["search", "embedding", "-nothing", "--keys"], "lai2023adaembed\nkurniawan2023evstore\n"),
        (["search", "embedding", "-training", "--keys"], "kurniawan2023evstore\n"),
        (["search", "--keys", "--", "--caching"], "lai2023adaembed\nhe2021fastmoe\n"),
        (["list", "--keys", "-n1", "-tag:moe"], "kurniawan2023evstore\n"),
        (["export", "-tag:embedding", "--qqq"], None),
    ],
)
def test_query_words_may_start_with_a_dash(cli, args, expected):
    # (d): a dash-word is a query word unless it is a short option, alone or with a number;
    # after '--' even a --word is one.
    result = cli(*args)
    if expected is None:  # a --word that is no option is an error, not a query word
        assert result.exit_code == 2 and "put it after --: papers export -- --qqq" in result.stderr
        return
    assert result.exit_code == 0, result.output
    assert result.stdout == expected


@pytest.mark.parametrize(
    "args",
    [
        ["search", "x", "--\x1b]0;owned\x07"],
        ["search", "x", "--catalog", "\x1b[2J\x1b[H"],
        ["\x1b[31m-n", "search", "x"],
        ["-n", "\x9b2J", "search", "x"],
        ["list", "--db=\u202eevil", "x"],
        ["tag", "k", "--t\x1bag", "x"],
        ["tag", "k", "--\u202ex"],  # click's own message, no hint
        ["ser\u202ech", "x"],  # no such command
        ["search", "-n", "\u202e", "x"],  # not a number
        ["show", "k", "\u202e"],  # an extra argument
    ],
)
def test_usage_errors_quoting_what_was_typed_are_sanitized(cli, args):
    result = cli(*args)
    assert result.exit_code == 2
    assert clean_venue(result.output), result.output
    assert "\u202e" not in result.output


def _complete(paths: Paths, words: str) -> list[str]:
    """What the shell completion of bash offers for the last of words."""
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "_PAPERS_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (not words.endswith(" "))),
        "PAPERS_CATALOG": str(paths.catalog),
        "PAPERS_DB": str(paths.db),
    }
    code = "import sys\nfrom catalog.cli import main\nsys.argv = ['papers']\nmain()\n"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=paths.root
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_shell_completion_offers_commands_options_and_keys(paths):
    assert _complete(paths, "papers se") == ["search"]
    assert "build" in _complete(paths, "papers site b")
    assert _complete(paths, "papers search --li") == ["--limit"]
    assert _complete(paths, "papers show he20") == ["he2021fastmoe"]


# ---------------------------------------------------------------- one letter, one meaning


def test_dash_n_means_limit_in_every_command():
    with_n = {}
    for name, cmd in COMMANDS:
        for param in cmd.params:
            if "-n" in getattr(param, "opts", []):
                with_n[name] = param.opts
            if "--dry-run" in getattr(param, "opts", []):
                assert param.opts == ["--dry-run"], f"papers {name}: {param.opts}"
    assert {"search", "list", "queue", "related"} <= set(with_n)
    for name, opts in with_n.items():
        assert "--limit" in opts, f"papers {name}: -n is {opts}"


def test_related_takes_limit_and_the_old_count(cli):
    for flag in ("-n", "--limit", "--count"):
        result = cli("related", "kurniawan2023evstore", flag, "1", "--json")
        assert result.exit_code == 0, result.output
        assert len(json.loads(result.stdout)) == 1


def test_dry_run_has_no_short_letter(cli, paths):
    before = paths.catalog.read_text()
    result = cli("tag", "he2021fastmoe", "-t", "caching", "-n")
    assert result.exit_code == 2
    assert paths.catalog.read_text() == before


# ---------------------------------------------------------------- outside a catalog


@pytest.fixture
def nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with no catalog in it or above it, and no PAPERS_* variables."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.delenv("PAPERS_DB", raising=False)
    return folder


@pytest.mark.parametrize(
    "args", [["search", "x"], ["list"], ["site", "build"], ["tag", "k", "-t", "x"], ["check"]]
)
def test_outside_a_catalog_says_how_to_point_at_one(nowhere, args):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no catalog here: papers runs inside a catalog's folder")
    assert (
        f"papers --catalog PATH/papers.yaml {' '.join(args[: 2 if args[0] == 'site' else 1])}"
        in result.stderr
    )
    assert "PAPERS_CATALOG" in result.stderr
    assert "BuildError" not in result.output and "Traceback" not in result.output
    assert not (nowhere / "build").exists()


def test_a_named_catalog_that_is_missing_says_so(nowhere):
    result = CliRunner().invoke(app, ["--catalog", "gone.yaml", "search", "x"])
    assert result.exit_code == 1 and "gone.yaml: catalog file not found" in result.stderr


def test_the_catalog_is_found_by_walking_up(tmp_path, monkeypatch):
    paths = write_catalog(tmp_path / "project")
    below = tmp_path / "project" / "site" / "notes"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.delenv("PAPERS_DB", raising=False)
    result = CliRunner().invoke(app, ["search", "tag:moe", "--keys"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "he2021fastmoe\n"
    assert paths.db.exists()  # the project's index, not one under the working folder
    assert not (below / "build").exists()


BIB = """\
@inproceedings{lai2023adaembed,
  title = {AdaEmbed: Adaptive Embedding for Large-Scale Recommendation Models},
  author = {Lai, Fan and Zhang, Wei and Chowdhury, Mosharaf},
  booktitle = {17th USENIX Symposium on Operating Systems Design and Implementation (OSDI 23)},
  year = {2023},
}
"""


def test_bib_check_works_anywhere(nowhere):
    (nowhere / "refs.bib").write_text(BIB)
    result = CliRunner().invoke(app, ["bib-check", "refs.bib"])
    assert result.exit_code == 0, result.output
    assert "refs.bib:1: lai2023adaembed: 2023 OSDI: AdaEmbed" in result.stdout
    assert "[new venue]" not in result.stdout  # OSDI is in the shipped registry
    assert "no catalog here; venues are checked against the registry shipped" in result.stderr


def test_bib_check_without_any_registry_still_reads_the_file(nowhere, monkeypatch):
    from catalog import paths

    monkeypatch.setattr(paths, "SHIPPED_VENUES", nowhere / "missing" / "venues.yaml")
    (nowhere / "refs.bib").write_text(BIB)
    result = CliRunner().invoke(app, ["bib-check", "refs.bib"])
    assert "refs.bib:1: lai2023adaembed" in result.stdout
    assert "every venue shows as new" in result.stderr


# ---------------------------------------------------------------- the terminal sanitizer

PAYLOADS = [
    "\x1b]0;owned\x07",
    "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
    "\x1b[2J\x1b[H",
    "\x1b[31m",
    "\x9b31m",
    "\x9d0;t\x9c",
    "\x00",
    "\r",
    "\t",
    "\x08",
    "\x7f",
    "\x85",
    "\u202e",
    "\u2066",
    "\u200f",
    "\x1b",
    "\x02",
    "\x03",
    "[bold]",
    "[/]",
    "\x1bP1$r\x1b\\",
]
hostile = st.lists(
    st.one_of(
        st.sampled_from(PAYLOADS),
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=4),
    ),
    min_size=1,
    max_size=5,
).map("".join)


def clean_venue(output: str) -> bool:
    """No control character (tab included) but newline."""
    return not CONTROL_OR_NEWLINE_RE.search(output.replace("\n", ""))


def _hostile_catalog(folder: Path, title: str, other: str) -> None:
    """A catalog whose papers, registries and notes carry the hostile strings in every field
    a reading command prints (keys stay valid: a malformed key is refused outright)."""
    paper = {
        "key": "evil2023zebra",
        "title": f"zebra {title}",
        "authors": [other, "A B"],
        "doi": f"10.1/{other}",
        "arxiv": other,
        "url": f"https://x/{other}",
        "pages": other,
        "volume": other,
        "number": other,
        "tags": ["moe", other],
        "code": f"https://x/{other}",
        "checked": other,
        "added": other,
        "summary": f"zebra {other}\n{title}",
        "abstract": other,
    }
    plain = {
        "key": "good2023zebra",
        "title": "Zebra caching",
        "authors": ["C D"],
        "tags": ["moe"],
        "summary": "zebra",
    }
    data = {2023: {f"OSDI{other}": [paper], "OSDI": [plain]}}
    write_catalog(
        folder,
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
        venues=yaml.safe_dump(
            {"OSDI": {"kind": "conference", "name": title, "publisher": other}}, allow_unicode=True
        ),
        tags=yaml.safe_dump({"moe": other, other: title}, allow_unicode=True),
    )
    notes = folder / "site" / "notes"
    notes.mkdir(parents=True, exist_ok=True)
    (notes / "evil.md").write_text(
        f"# {title}\n\n[[evil2023zebra]] [[good2023zebra]]\n", encoding="utf-8"
    )


READING = [
    ["search", "zebra"],
    ["search", "zebra", "--json"],
    ["search", "zebra", "--keys"],
    ["show", "evil2023zebra"],
    ["show", "evil2023zebra", "--json"],
    ["list"],
    ["list", "--json"],
    ["stats"],
    ["venues"],
    ["check"],
    ["queue"],
    ["notes"],
    ["related", "good2023zebra"],
    ["tags"],
    ["show", "evil2023zebr"],
]


@pytest.fixture(scope="module")
def invoke() -> Iterator[Callable[[list[str]], Result]]:
    """CliRunner.invoke on the click command built once (typer builds it on every call,
    ~0.1 s with every command loaded)."""
    import typer.testing

    command = typer.main.get_command(app)
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", lambda _app: command)
        yield lambda args: runner.invoke(app, args)


@pytest.mark.slow
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(title=hostile, other=hostile)
def test_no_control_character_reaches_the_terminal(tmp_path_factory, invoke, title, other):
    folder = tmp_path_factory.mktemp("hostile")
    _hostile_catalog(folder, title, other)
    base = [
        "--catalog",
        str(folder / "data" / "papers.yaml"),
        "--db",
        str(folder / "build" / "catalog.db"),
    ]
    for args in [*READING, ["search", f"zebra {title}"], ["show", other]]:
        result = invoke([*base, *args])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            result.exception,
        )
        assert clean_venue(result.output), (args, result.output)


def test_the_hostile_catalog_reaches_the_commands(tmp_path):
    # The property above is only worth something if the hostile data is really printed.
    _hostile_catalog(tmp_path, "\x1b]0;owned\x07 \u202eevil", "\x1b[31mred")
    base = [
        "--catalog",
        str(tmp_path / "data" / "papers.yaml"),
        "--db",
        str(tmp_path / "build" / "catalog.db"),
    ]
    shown = CliRunner().invoke(app, [*base, "show", "evil2023zebra"])
    assert shown.exit_code == 0, shown.output
    assert "zebra ]0;owned" not in shown.stdout and "zebra  evil" in shown.stdout
    assert "red" in shown.stdout and "\x1b" not in shown.stdout
    data = json.loads(CliRunner().invoke(app, [*base, "show", "evil2023zebra", "--json"]).stdout)
    assert data["title"] == "zebra \x1b]0;owned\x07 \u202eevil"  # JSON keeps it, escaped


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\x1b[1;31mred\x1b[0m b", "ared b"),
        ("t\x1b]0;title\x07x", "tx"),
        ("t\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\", "tlink"),
        ("\x9b2Jx", "x"),
        ("tab\there\r\nline", "tab here\nline"),
        ("\u202eevil\u2069 \x00nul", "evil nul"),
        ("no\x1b", "no"),
        ("Čech ß 中文 — ok", "Čech ß 中文 — ok"),
    ],
)
def test_for_terminal(text, expected):
    assert for_terminal(text) == expected


def test_marked_titles_stay_balanced_rich_markup():
    from io import StringIO

    from rich.console import Console

    from catalog.commands.reading import _marked

    for title in ("\x02a\x03 [b] \x1b[31m\x03\x03", "\x02\x02x", "[/] \x02y\x03"):
        console = Console(file=StringIO(), force_terminal=False, width=200)
        console.print(_marked(title, True))  # a MarkupError would raise here
        assert clean_venue(console.file.getvalue())
        assert not re.search(r"[\x02\x03]", _marked(title, False))


def test_tags_listing_is_sanitized(cli, paths):
    paths.tags.write_text(paths.tags.read_text() + 'evil: "\\e]0;x\\a desc"\n')
    result = cli("tags")
    assert result.exit_code == 0 and "evil" in result.stdout and clean_venue(result.output)


def test_error_messages_that_echo_user_input_are_sanitized(cli):
    result = cli("show", "he2021\x1b[2Jfastmoe")
    assert result.exit_code == 1 and clean_venue(result.output)
    assert "error: no paper with key 'he2021fastmoe'" in result.stderr


def _papers(paths: Paths, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed command as a user runs it: its own process, its own exit."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "catalog.cli",
            "--catalog",
            str(paths.catalog),
            "--db",
            str(paths.db),
            *args,
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


@pytest.mark.slow
def test_the_process_exits_with_its_status_and_all_its_output(paths: Paths) -> None:
    """The command as its own process: whatever it printed arrives, every exit status
    stays."""
    found = _papers(paths, "search", "embedding", "--json")
    assert found.returncode == 0 and json.loads(found.stdout)
    listed = _papers(paths, "list", "--json")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) >= 3
    missing = _papers(paths, "show", "nosuchkey")
    assert missing.returncode == 1 and "no paper with key 'nosuchkey'" in missing.stderr
    mistyped = _papers(paths, "search", "--bogus")
    assert mistyped.returncode == 2 and "No such option: --bogus" in mistyped.stderr
