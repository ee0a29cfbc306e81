"""Attacks through the command line itself: options out of place."""

from __future__ import annotations

import re
from pathlib import Path

from attacklib import (
    case,
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
