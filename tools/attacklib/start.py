"""Attacks on starting a catalog and on contributions (issue 31, parts 1, 3 and 5): init
over what a user holds, a half-made catalog, a copy that fails half-way, and a suggestion
whose text is written to break out of the pull request's code blocks."""

from __future__ import annotations

import sys
from pathlib import Path

from attacklib import REPO, case, papers, project, traceback
from catalog.paths import resolve


@case("31.1", "papers init over a folder with the user's files, twice")
def init_keeps_what_is_there(tmp: Path) -> str | None:
    root = tmp / "mine"
    (root / "data").mkdir(parents=True)
    own = {root / "README.md": "mine\n", root / ".gitignore": "secret/\n"}
    for path, text in own.items():
        path.write_text(text)
    first = papers(tmp, "init", "mine")
    if first.code != 0 or traceback(first):
        return f"init exit {first.code}: {(first.err or first.out).strip()[-120:]}"
    changed = [p.name for p, text in own.items() if p.read_text() != text]
    if changed:
        return f"init replaced the user's {', '.join(changed)}"
    again = papers(tmp, "init", "mine")
    if again.code != 2 or "already holds a catalog" not in again.err:
        return f"a second init was not refused: exit {again.code}"
    return None


@case("31.1", "a catalog missing its registries: one message, all of them, init as the fix")
def one_message_for_missing_files(tmp: Path) -> str | None:
    (tmp / "half" / "data").mkdir(parents=True)
    (tmp / "half" / "data" / "papers.yaml").write_text("")
    run = papers(tmp / "half", "check")
    if traceback(run):
        return traceback(run)
    lines = [line for line in (run.out + run.err).splitlines() if "venues.yaml" in line]
    if len(lines) != 1 or "tags.yaml" not in lines[0] or "papers init" not in lines[0]:
        return f"not one message naming both files and init: {lines}"
    return None


@case("31.5", "papers demo into a new folder fails half-way: no folder is left")
def demo_failure_leaves_nothing(tmp: Path) -> str | None:
    broken = tmp / "broken" / "data"
    broken.mkdir(parents=True)
    (broken / "papers.yaml").write_text("2022: [unclosed\n")
    for name in ("venues.yaml", "tags.yaml"):
        (broken / name).write_text("")
    run = papers(tmp, "--catalog", str(broken / "papers.yaml"), "demo", "tour")
    if traceback(run):
        return traceback(run)
    if (tmp / "tour").exists():
        return f"demo failed (exit {run.code}) and left {tmp / 'tour'} behind"
    return None


@case("31.3", "a suggestion whose text tries to leave the pull request's code blocks")
def suggestion_text_stays_code(tmp: Path) -> str | None:
    sys.path.insert(0, str(REPO / "tools"))
    import suggestion

    why = "x\n</code>\n\n# Approved\n@maintainers [click](javascript:alert(1))\n\x1b[31mred"
    body = f"### DOI, arXiv id or URL\n\nhttps://example.org/\n\n### Why it belongs\n\n{why}\n"
    wanted = suggestion.read_form(body)
    outcome = suggestion.add(resolve(project(tmp)), wanted)  # no DOI in it: asks no one
    text = suggestion.pull_request_text(1, wanted, outcome)
    quoted = text.split("Why it belongs:\n\n", 1)[1].split("\n\nWhat papers add said", 1)[0]
    loose = [line for line in quoted.split("\n") if not line.startswith("    ")]
    if loose or "\x1b" in text:
        return f"outside text outside a code block: {loose[:2]}"
    return None
