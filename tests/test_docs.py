"""Docs that can't go stale: every command has help and is shown in the command guide
(docs/pages/commands.md), and the docs build with no broken link."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import typer

from catalog.cli import app
from tests.conftest import REPO


def commands() -> list[tuple[str, object]]:
    root = typer.main.get_command(app)
    out = []

    # typer carries its own copy of click, so groups are recognised by shape.
    def walk(group, prefix: str) -> None:
        for name, cmd in group.commands.items():
            full = f"{prefix} {name}".strip()
            if hasattr(cmd, "commands"):
                walk(cmd, full)
            out.append((full, cmd))

    walk(root, "")
    return out


COMMANDS = commands()


def test_there_are_commands():
    names = {name for name, _ in COMMANDS}
    assert {"search", "show", "list", "stats", "venues", "check", "index"} <= names


@pytest.mark.parametrize(("name", "cmd"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_has_help(name, cmd):
    assert (cmd.help or "").strip(), f"papers {name} has no help text"
    for param in cmd.params:
        if param.param_type_name == "option" and param.name != "help":
            assert (param.help or "").strip(), f"papers {name} {param.opts[0]} has no help"


@pytest.mark.parametrize(("name", "cmd"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_help_shows_an_example(name, cmd):
    text = cmd.help or ""
    assert re.search(r"Examples?:", text), f"papers {name} --help shows no example"
    assert f"papers {name}" in text.split("Example", 1)[1], f"papers {name}: example of another"


@pytest.mark.parametrize(("name", "cmd"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_command_is_in_the_command_guide(name, cmd):
    guide = (REPO / "docs" / "pages" / "commands.md").read_text(encoding="utf-8")
    assert f"papers {name}" in guide, f"docs/pages/commands.md never shows `papers {name}`"


def test_readme_starts_with_the_two_setup_commands():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert block[0] == "pip install -e . && papers search embedding"
    assert block[1].startswith("pip install -e '.[test]' && ")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert block[1] in ci, ".ci/run must run the README's test command"


def test_each_command_is_registered_by_the_module_cli_imports_for_it():
    from catalog.cli import MODULES

    for name, cmd in COMMANDS:
        top = name.split()[0]
        module = getattr(cmd, "callback", None) and cmd.callback.__module__
        if " " not in name and module:
            assert module == f"catalog.commands.{MODULES[top]}", name
    assert {name.split()[0] for name, _ in COMMANDS} == set(MODULES)


EVERY_MODULE = [
    "adding",
    "authors",
    "bib",
    "curate",
    "demo",
    "inbox",
    "personal",
    "reading",
    "site",
    "tagging",
    "update",
    "venues",
]


@pytest.mark.parametrize(
    ("argv", "modules"),
    [
        (["search", "x"], ["reading"]),
        (["--db", "a.db", "--catalog", "c.yaml", "show", "k"], ["reading"]),
        (["--db=a.db", "tag", "k"], ["tagging"]),
        (["add", "--help"], ["adding"]),
        (["edit", "k"], ["curate"]),
        (["site", "build", "--help"], ["site"]),
        (["--help"], EVERY_MODULE),
        ([], EVERY_MODULE),
        (["serch", "x"], EVERY_MODULE),  # to suggest 'search'
    ],
)
def test_a_command_imports_only_its_module(tmp_path, argv, modules):
    code = (
        "import sys\n"
        "from catalog.cli import main\n"
        f"sys.argv = ['papers', *{argv!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m.rpartition('.')[2] for m in sys.modules "
        "if m.startswith('catalog.commands.')), file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout's code, outside a catalog
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert run.stderr.splitlines()[-1] == repr(modules), run.stderr


@pytest.mark.slow
def test_the_installed_command_runs_reading_and_other_commands(tmp_path):
    import subprocess
    import sys

    from tests.conftest import write_catalog

    paths = write_catalog(tmp_path)
    base = [
        sys.executable,
        "-m",
        "catalog.cli",
        "--catalog",
        str(paths.catalog),
        "--db",
        str(paths.db),
    ]
    search = subprocess.run(
        [*base, "search", "tag:moe", "--keys"], capture_output=True, text=True, check=True
    )
    assert search.stdout == "he2021fastmoe\n"
    cite = subprocess.run(
        [*base, "cite", "he2021fastmoe"], capture_output=True, text=True, check=True
    )
    assert cite.stdout.startswith("@misc{he2021fastmoe,")
    helped = subprocess.run([*base, "--help"], capture_output=True, text=True, check=True)
    assert "export" in helped.stdout and "search" in helped.stdout


def readme_links() -> list[str]:
    """The relative link targets of README.md (code blocks left out), #anchors kept."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```", "", readme, flags=re.DOTALL | re.MULTILINE)
    targets = (m.group(1) for m in re.finditer(r"\]\(([^)\s]+)\)", prose))
    return sorted({t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t)})


def slugs(page: str) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub and mkdocs make them."""
    text = (REPO / page).read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    heads = re.findall(r"^#+\s+(.+?)\s*$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def test_readme_is_short():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250, f"README.md has {len(lines)} lines: move detail into docs/pages/"


def test_readme_has_links():
    assert {"docs/pages/commands.md", "docs/pages/commands.md#the-site-commands"} <= set(
        readme_links()
    )


@pytest.mark.parametrize("target", readme_links())
def test_readme_link_resolves(target):
    path, _, anchor = target.partition("#")
    assert (REPO / path).exists(), f"README.md links {path}, which does not exist"
    if anchor:
        assert anchor in slugs(path), f"README.md links {target}: {path} has no such heading"


# "issue 21", "issues 21-24", "#21", "PR 3": the project's tracker, which users never see.
_ISSUE = re.compile(r"\b(?:issues?|PRs?|pull requests?)\s*#?\d+|(?<![\w&/])#\d+\b", re.I)
USER_DOCS = [REPO / "README.md", *sorted((REPO / "docs" / "pages").glob("*.md"))]


@pytest.mark.parametrize("page", USER_DOCS, ids=[p.name for p in USER_DOCS])
def test_user_docs_cite_no_issue_numbers(page):
    found = [
        f"{page.name}:{number}: {hit.group()}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for hit in _ISSUE.finditer(line)
    ]
    assert not found, f"say what changed, not its issue number: {found}"


def test_the_issue_pattern():
    for cited in ("after issue 21", "issues 21-24", "Issue #8", "see #12", "PR 3"):
        assert _ISSUE.search(cited), cited
    for fine in ("&#8212;", "page.html#21", "20 issues", "#the-site-commands"):
        assert not _ISSUE.search(fine), fine


@pytest.mark.slow
def test_the_docs_build_strictly(tmp_path):
    """mkdocs --strict fails on a broken link or anchor, or a page left out of the nav."""
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(REPO / "docs" / "mkdocs.yml"),
            "-d",
            str(tmp_path),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stderr
    pages = sorted(p.stem for p in (REPO / "docs" / "pages").glob("*.md"))
    for page in pages:
        html = tmp_path / ("index.html" if page == "index" else f"{page}/index.html")
        assert html.is_file(), f"docs/pages/{page}.md was not built"
