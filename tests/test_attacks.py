"""Every reproducer of the adversarial review (issue 8) stays fixed: tools/attacks.py runs
each attack against the real CLI, in subprocesses, on a copy of the seed catalog."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, SEED_CATALOG

sys.path.insert(0, str(REPO / "tools"))
import attacklib
import attacks

attacklib.CATALOG = SEED_CATALOG


@pytest.mark.slow
@pytest.mark.parametrize("case", attacks.CASES, ids=[c.name for c in attacks.CASES])
def test_attack_holds(case: attacks.Case, tmp_path: Path) -> None:
    broke = case.run(tmp_path)
    assert broke is None, f"#{case.item} {case.what}: {broke}"


def test_every_item_of_the_review_has_a_case() -> None:
    items = {part for c in attacks.CASES for part in c.item.split("-")}
    assert {str(n) for n in range(1, 21)} <= items
