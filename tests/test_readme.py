"""The README's tour, run literally (tools/examples.py): every console block, in order, on a
scratch copy made by the tour's own first command; each command must print what the README
shows (dates and timings masked), and the shipped catalog must be untouched afterwards."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import examples

README = REPO / "README.md"


def digest(folder: Path) -> dict[str, str]:
    """Each file's hash under folder, hidden files aside."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def test_readme_has_a_tour_that_starts_on_a_scratch_copy():
    first = examples.steps(README.read_text(encoding="utf-8"))[:2]
    assert first[0].command.startswith(f"papers demo {examples.SCRATCH}")
    assert first[1].command == f"cd {examples.SCRATCH}"


@pytest.mark.slow
def test_every_readme_console_block_prints_what_it_shows(tmp_path: Path):
    before = digest(REPO / "data")
    differ = examples.differences(README, examples.run_page(README, tmp_path))
    assert not differ, "\n\n".join(differ) + "\n\n(python tools/examples.py --update rewrites)"
    assert digest(REPO / "data") == before, "the tour changed the shipped catalog"
