"""The README's tour, run literally: every console block, in order, on a scratch copy made
by the tour's own first command; each command must print what the README shows (dates and
timings masked), and the shipped catalog must be untouched afterwards (issue 22, 11)."""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
# The tour's scratch folder as the README writes it; the test puts its own in its place.
SCRATCH = "/tmp/papers-tour"
_MASKS = [
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "DATE"),
    (re.compile(r"\b\d+(?:\.\d+)? s\b"), "N s"),
]


@dataclass
class Step:
    """One `$ command` of a console block and the lines the README shows after it."""

    line: int
    command: str
    expected: list[str]


def steps(text: str) -> list[Step]:
    """Every command of every ```console block, in order, with its shown output."""
    found: list[Step] = []
    inside = False
    pending = ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            inside = line.strip() == "```console"
            continue
        if not inside:
            continue
        if pending:
            pending += "\n" + line
            if not line.endswith("\\"):
                found[-1].command, pending = pending, ""
            continue
        if line.startswith("$ "):
            found.append(Step(number, line[2:], []))
            if line.endswith("\\"):
                pending = line[2:]
        elif found:
            found[-1].expected.append(line)
    return found


def _mask(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        for pattern, mark in _MASKS:
            line = pattern.sub(mark, line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


@pytest.fixture
def shell_env(tmp_path: Path) -> dict[str, str]:
    """PATH with a `papers` that runs this checkout's code; no catalog chosen by env."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "papers"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m catalog "$@"\n')
    shim.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERS_")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO)
    env["COLUMNS"] = "200"
    return env


def test_readme_has_a_tour_that_starts_on_a_scratch_copy():
    first = steps(README.read_text(encoding="utf-8"))[:2]
    assert first[0].command.startswith(f"papers demo {SCRATCH}")
    assert first[1].command == f"cd {SCRATCH}"


@pytest.mark.slow
def test_every_readme_console_block_prints_what_it_shows(tmp_path: Path, shell_env):
    scratch = str(tmp_path / "tour")
    before = _digest(REPO / "data")
    cwd = REPO
    failures = []
    for step in steps(README.read_text(encoding="utf-8")):
        command = step.command.replace(SCRATCH, scratch)
        if command.startswith("cd "):
            cwd = Path(command[3:].strip())
            continue
        run = subprocess.run(
            command,
            shell=True,
            cwd=cwd,
            env=shell_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=300,
        )
        shown = _mask([line.replace(SCRATCH, scratch) for line in step.expected])
        got = _mask(run.stdout.splitlines())
        if got != shown:
            failures.append(f"README.md:{step.line}: $ {step.command}\n" + "\n".join(got))
    assert not failures, "\n\n".join(failures)
    assert _digest(REPO / "data") == before, "the tour changed the shipped catalog"
