"""Attacks through the command line itself: options out of place, papers edit."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from attacklib import (
    TERMINAL_CONTROLS,
    case,
    first_key,
    papers,
    project,
    traceback,
)

# ------------------------------------------------------------------ the command line


@case("18", "unknown or misplaced options after search, list and export")
def misplaced_options(tmp: Path) -> str | None:
    root = project(tmp)
    for args in (
        ("search", "embedding", "--jsn"),
        ("search", "embedding", "--catalog", "other.yaml"),
        ("export", "--asci"),
    ):
        run = papers(root, *args)
        if traceback(run) or run.code != 2:
            return traceback(run) or f"`papers {' '.join(args)}` exit {run.code}, not 2"
    run = papers(root, "list", "--limit", "2")
    if run.code != 0 or "0 papers" in run.out:
        return f"`papers list --limit 2`: exit {run.code}: {(run.out + run.err)[:80]}"
    run = papers(root, "search", "embedding", "-caching", "--keys")
    if run.code != 0 or not run.out.strip():
        return "the exclusion `-caching` stopped working"
    return None


@case("19", "-n means one thing across the CLI")
def one_letter_one_meaning(tmp: Path) -> str | None:
    root = project(tmp)
    meanings = {}
    for command in (
        "search",
        "queue",
        "related",
        "tag",
        "status",
        "add",
        "import",
        "rm",
        "list",
        "export",
    ):
        run = papers(root, command, "--help")
        m = re.search(r"-n\b[^\n]*?(--[a-z-]+)|(--[a-z-]+)[ ,]+-n\b", run.out)
        if m:
            meanings[command] = m.group(1) or m.group(2)
    if len(set(meanings.values())) > 1:
        return f"-n means {sorted(set(meanings.values()))}"
    return None


@case("20", "outside a catalog: bib-check anywhere, site build with a clear message")
def outside_a_catalog(tmp: Path) -> str | None:
    root = project(tmp)
    nowhere = tmp / "elsewhere"
    nowhere.mkdir()
    bib = nowhere / "x.bib"
    bib.write_text(
        "@article{a2023b,\n  title = {T},\n  author = {A, B},\n"
        "  journal = {Proceedings of the VLDB Endowment},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    run = papers(root, "bib-check", str(bib), cwd=nowhere)
    if traceback(run) or "no venue registry" in run.err:
        return traceback(run) or "bib-check needs a catalog"
    run = papers(root, "site", "build", cwd=nowhere)
    if traceback(run) or "Aborted with a BuildError" in run.err or run.code == 0:
        return traceback(run) or f"site build outside a catalog: {run.err.strip()[-80:]}"
    deep = root / "data" / "readings"
    deep.mkdir(exist_ok=True)
    run = papers(root, "search", "embedding", cwd=deep)
    if run.code != 0:
        return "a command in a subfolder of the project did not find the catalog"
    return None


# ------------------------------------------------------------------ issue 29.3: click's own parsing


@case("29.3", "click parses: misplaced, global and mistyped options; dash-words; escapes")
def usage_hints_from_click(tmp: Path) -> str | None:
    root = project(tmp)
    for args, said in (
        (("-n", "3", "search", "embedding"), "goes after the command: "),
        (("search", "embedding", "--db", "x.db"), "goes before the command: "),
        (("search", "embedding", "--jsn"), "(did you mean --json?)"),
        (("list", "--qqq"), "put it after --: "),
        (("search", "x", "--catalog", "\x1b]0;owned\x07"), "goes before the command: "),
        (("-\x1b[2J", "search", "x"), "No such option"),
    ):
        run = papers(root, *args)
        if traceback(run) or run.code != 2 or said not in run.err:
            return traceback(run) or f"`papers {' '.join(args)}`: exit {run.code}: {run.err[-90:]}"
        if TERMINAL_CONTROLS.search(run.out + run.err):
            return f"`papers {' '.join(args)}` printed a control character"
    run = papers(root, "search", "-n3", "embedding", "-inference", "-tag:moe", "--keys")
    if run.code != 0 or len(run.out.split()) != 3:
        return f"-n3 with -inference and -tag:moe: exit {run.code}, {len(run.out.split())} keys"
    return None


def _editor(tmp: Path, code: str) -> dict[str, str]:
    """$EDITOR set to a Python script that runs code on the file it is given (path)."""
    script = tmp / "editor.py"
    script.write_text(f"import pathlib, sys\npath = pathlib.Path(sys.argv[-1])\n{code}\n")
    return {"EDITOR": f"{sys.executable} {script}", "VISUAL": ""}


@case("29.3", "papers edit: a copy saved as Latin-1, or a catalog saved meanwhile")
def edit_by_hand(tmp: Path) -> str | None:
    root = project(tmp)
    catalog = root / "data" / "papers.yaml"
    key = first_key(root)
    before = catalog.read_bytes()
    latin = "path.write_bytes(path.read_bytes().replace(b'title: ', b'title: \\xe9', 1))"
    run = papers(root, "edit", key, env=_editor(tmp, latin))
    if traceback(run) or run.code != 1 or "kept at" not in run.err:
        return traceback(run) or f"a Latin-1 copy: exit {run.code}: {run.err[-90:]}"
    if catalog.read_bytes() != before:
        return "a Latin-1 copy changed the catalog"
    meanwhile = (
        "path.write_text(path.read_text() + '# mine\\n')\n"
        f"other = pathlib.Path({str(catalog)!r})\n"
        "other.write_text(other.read_text() + '# theirs\\n')"
    )
    run = papers(root, "edit", key, env=_editor(tmp, meanwhile))
    if traceback(run) or run.code != 1 or "changed while you were editing" not in run.err:
        return traceback(run) or f"a save meanwhile: exit {run.code}: {run.err[-90:]}"
    if not catalog.read_text(encoding="utf-8").endswith("# theirs\n"):
        return "the save made meanwhile was lost"
    return None
