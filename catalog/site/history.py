"""When each paper entered the catalog: its own `added` date, else git's history.

An `added` date that many papers share was set in bulk (a first import), and says
nothing about when each came in; a paper without one has none to give. For them
the date is that of the first commit whose change to the catalog file added a
line `- key: KEY`, read from `git log`. A catalog outside git, or a paper not yet
committed, keeps what it has.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from catalog.model import Paper
from catalog.site.links import DATE_RE

# An `added` date shared by at least this many papers was set in bulk.
BULK = 20
_COMMIT_RE = re.compile(r"^@@papers@@ (\d{4}-\d{2}-\d{2}T\S+)")
_KEY_LINE_RE = re.compile(r"""^\+\s*-?\s*key:\s*["']?([^"'\s#]+)""")


@dataclass(frozen=True)
class Added:
    """The day a paper entered the catalog and where that date comes from."""

    when: str  # ISO 8601: a day (the field), or the commit's time (git)
    source: str  # "added" (the paper's own field) or "git" (history of the file)

    @property
    def date(self) -> str:
        """The day, YYYY-MM-DD."""
        return self.when[:10]


def first_commits(catalog: Path, timeout: float = 30.0) -> dict[str, str]:
    """Key -> the time (ISO 8601, commit date) of the first commit that added it."""
    try:
        run = subprocess.run(
            [
                "git",
                "log",
                "--reverse",
                "--no-renames",
                "--format=@@papers@@ %cI",
                "-p",
                "-U0",
                "--",
                catalog.name,
            ],
            cwd=catalog.parent,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if run.returncode != 0:
        return {}
    out: dict[str, str] = {}
    day = ""
    for line in run.stdout.splitlines():
        commit = _COMMIT_RE.match(line)
        if commit:
            day = commit.group(1)
            continue
        key = _KEY_LINE_RE.match(line)
        if key and day:
            out.setdefault(key.group(1), day)
    return out


def added_dates(papers: Sequence[Paper], catalog: Path) -> dict[str, Added]:
    """Each paper's day of entry: its own `added`, unless missing or set in bulk, when
    git's is used; papers with neither are left out."""
    own = {p.key: p.added for p in papers if p.added and DATE_RE.match(p.added)}
    shared = Counter(own.values())
    out = {k: Added(d, "added") for k, d in own.items() if shared[d] < BULK}
    if len(out) < len(papers):
        history = first_commits(catalog)
        for paper in papers:
            if paper.key not in out and paper.key in history:
                out[paper.key] = Added(history[paper.key], "git")
            elif paper.key not in out and paper.key in own:
                out[paper.key] = Added(own[paper.key], "added")
    return out
