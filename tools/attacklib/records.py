"""Attacks on the records registry and the completeness report (issue 30, items 2-3)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from attacklib import TERMINAL_CONTROLS, add_paper, case, papers, project, traceback

_BOMB = (
    'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
)


@case("30.3", "a YAML alias bomb in records.yaml")
def records_bomb(tmp: Path) -> str | None:
    root = project(tmp)
    (root / "data" / "records.yaml").write_text(_BOMB, encoding="utf-8")
    try:
        run = papers(root, "check", timeout=30)
    except subprocess.TimeoutExpired:
        return "check still running after 30 s"
    if traceback(run):
        return traceback(run)
    if run.code == 0 or "aliases" not in run.out:
        return f"check exit {run.code} without naming the aliases"
    return None


@case("30.3", "hostile records.yaml entries and a hostile source host, through check")
def hostile_records(tmp: Path) -> str | None:
    root = project(tmp)
    with (root / "data" / "records.yaml").open("a", encoding="utf-8") as out:
        out.write(
            '"evil\\e[2J.org": {kind: publisher, note: an escape in the host}\n'
            "javascript:alert(1): {kind: publisher, note: a scheme}\n"
            'bidi.org: {kind: publisher, note: "\\u202eevil"}\n'
        )
    add_paper(
        root,
        "    - key: hostile2023records\n"
        '      title: "Hostile Records"\n'
        "      authors: [Eve Attacker]\n"
        '      sources: ["https://bidi.org/x", "https://evil\\e.org/x"]\n',
    )
    run = papers(root, "check")
    if traceback(run):
        return traceback(run)
    if run.code != 1:
        return f"check exit {run.code}"
    if TERMINAL_CONTROLS.search(run.out + run.err):
        return "a control character reached the terminal"
    if "source on bidi.org is not a primary record" not in run.out:
        return "a source on a host whose entry was refused was accepted"
    return None


@case("30.2", "a hostile publisher name in check --completeness -v")
def hostile_completeness(tmp: Path) -> str | None:
    root = project(tmp)
    venues = root / "data" / "venues.yaml"
    text = venues.read_text(encoding="utf-8")
    venues.write_text(
        text.replace("publisher: USENIX Association", 'publisher: "USENIX\\e]0;x\\a\\u202e"'),
        encoding="utf-8",
    )
    run = papers(root, "check", "--completeness", "-v")
    if traceback(run):
        return traceback(run)
    if run.code != 0:
        return f"check --completeness exit {run.code}"
    if TERMINAL_CONTROLS.search(run.out + run.err):
        return "a control character reached the terminal"
    return None
