"""Attacks on the merge driver and the Markdown list export (issue 31, parts 2 and 4)."""

from __future__ import annotations

from pathlib import Path

from attacklib import TERMINAL_CONTROLS, _Live, add_paper, case, papers, project, traceback

HOSTILE_TITLE = (
    'Evil](javascript:alert(1)) <script>alert("x")</script> | <img src=x onerror=alert(2)>'
)


@case("31.4", "a hand-written title with ](javascript: and <script> through the list export")
def script_through_markdown_export(tmp: Path) -> str | None:
    from markdown_it import MarkdownIt

    root = project(tmp)
    title = HOSTILE_TITLE.replace('"', '\\"')
    add_paper(
        root,
        f'    - key: mallory2023evil\n      title: "{title}"\n'
        "      authors: [Eve Mallory]\n      doi: 10.1234/evil\n",
        venue="AAAI",  # the first venue of 2023 in the shipped catalog
    )
    run = papers(root, "export", "--format", "markdown")
    if run.code != 0:
        return traceback(run) or f"export failed: {run.err[-120:]}"
    parser = _Live()
    parser.feed(MarkdownIt("commonmark").enable("table").render(run.out))
    return parser.found[0] if parser.found else None


def _versions(tmp: Path, base: str, ours: str, theirs: str) -> tuple[Path, Path, Path]:
    paths = []
    for name, text in (("O", base), ("A", ours), ("B", theirs)):
        path = tmp / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1], paths[2]


@case("31.2", "merge-driver on a version that is a YAML alias bomb")
def alias_bomb_through_merge(tmp: Path) -> str | None:
    base = "a: one\n"
    bomb = "a: &x [lol, lol, lol]\nb: &y [*x, *x, *x, *x, *x, *x, *x, *x]\nc: [*y, *y, *y, *y]\n"
    o, a, b = _versions(tmp, base, "a: one\nz: two\n", base + bomb)
    run = papers(tmp, "merge-driver", str(o), str(a), str(b), "data/tags.yaml", timeout=60)
    if traceback(run):
        return traceback(run)
    if a.stat().st_size > 10_000:
        return f"the merged file grew to {a.stat().st_size} bytes"
    return None


@case("31.2", "merge-driver's messages about an entry whose name holds terminal controls")
def controls_in_a_conflict_name(tmp: Path) -> str | None:
    entry = '"evil\\x1b]0;pwned\\x07\\u202e"'  # YAML's escapes: ESC, BEL, a bidi override
    o, a, b = _versions(tmp, f"{entry}: one\n", f"{entry}: two\n", f"{entry}: three\n")
    run = papers(tmp, "merge-driver", str(o), str(a), str(b), "data/tags.yaml")
    if traceback(run):
        return traceback(run)
    if TERMINAL_CONTROLS.search(run.err + run.out):
        return f"a terminal control printed: {(run.err + run.out)[:80]!r}"
    return None
