"""Attacks on reading state: the catalog's old status lines, their migration, rm of a read paper."""

from __future__ import annotations

import re
from pathlib import Path

from attacklib import added, case, papers, project, traceback

_KILL_AFTER_FIRST_WRITE = {"PAPERS_TEST_CRASH": "after-rename:1"}


def _problems(root: Path) -> set[str]:
    """check's findings, without line numbers (a removed paper moves the lines after it)."""
    run = papers(root, "check")
    return {re.sub(r":\d+:", ":", line) for line in run.out.splitlines() if line.strip()}


def _with_old_status(root: Path, count: int) -> list[str]:
    """Write status: read (and a read_on) on the first papers by hand, as an older catalog
    did; the keys written on."""
    path = root / "data" / "papers.yaml"
    text = path.read_text(encoding="utf-8")
    keys = re.findall(r"\n    - key: (\S+)\n", text)[:count]
    for key in keys:
        text = text.replace(
            f"    - key: {key}\n",
            f"    - key: {key}\n      status: read\n      read_on: 2024-01-02\n",
            1,
        )
    path.write_text(text, encoding="utf-8")
    return keys


@case("29.1", "status --migrate killed after its first write, then run again")
def migrate_rerun_after_a_kill(tmp: Path) -> str | None:
    root = project(tmp)
    keys = _with_old_status(root, 5)
    killed = papers(root, "status", "--migrate", env=_KILL_AFTER_FIRST_WRITE)
    if killed.code != -9:
        return f"the migration was not killed after its first write (exit {killed.code})"
    rerun = papers(root, "status", "--migrate")
    if traceback(rerun) or rerun.code != 0:
        return traceback(rerun) or f"the re-run exited {rerun.code}: {rerun.err.strip()[-100:]}"
    if "nothing to move" in rerun.err:
        return f"the re-run said {rerun.err.strip()!r} while it removed {2 * len(keys)} lines"
    if "status:" in (root / "data" / "papers.yaml").read_text(encoding="utf-8"):
        return "the re-run left status lines in the catalog"
    if any("reading state" in problem for problem in _problems(root)):
        return "check still finds reading state in the catalog"
    return None


@case("29.1", "rm of a paper you have read (and killed between its two writes)")
def rm_of_a_read_paper(tmp: Path) -> str | None:
    for kill in (False, True):
        root = project(tmp / ("killed" if kill else "whole"))
        key = "reader2023paper"  # a paper of its own: no note links to it
        made = added(root, "A Paper to Read", "--key", key, author="Ann Reader")
        if made.code != 0:
            return f"could not add the paper to read: {made.err.strip()[-100:]}"
        before = _problems(root)
        papers(root, "status", key, "read")
        papers(root, "queue", "--top", key)
        run = papers(root, "rm", key, "--yes", env=_KILL_AFTER_FIRST_WRITE if kill else None)
        if traceback(run):
            return traceback(run)
        found = _problems(root) - before
        if found:
            return f"{'killed, ' if kill else ''}check then finds: {sorted(found)[0][:120]}"
    return None
