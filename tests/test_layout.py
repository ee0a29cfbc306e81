"""The code's layout as ARCHITECTURE.md and the house style describe it: every module named
in the package table, none over 600 lines."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "catalog"
MAX_LINES = 600
# A row of the package table: | `index/` | its job | `database` (...), `schema` (...) |
_ROW = re.compile(r"^\| `([a-z_]+)/`[^|]*\|[^|]*\|(.*)\|\s*$")


def modules() -> list[Path]:
    """Every module of the package but the dunder ones (__init__, __main__)."""
    return sorted(p for p in PACKAGE.rglob("*.py") if not p.stem.startswith("__"))


def table() -> dict[str, set[str]]:
    """The package table of ARCHITECTURE.md: package folder name -> module names shown."""
    rows = {}
    for line in (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines():
        if row := _ROW.match(line):
            rows[row.group(1)] = set(re.findall(r"`([a-z_]+)`", row.group(2)))
    return rows


def test_the_table_has_a_row_for_every_package():
    folders = {p.parent.name for p in PACKAGE.rglob("__init__.py")}
    assert folders <= set(table()), folders - set(table())


def test_architecture_names_every_module():
    rows = table()
    missing = [
        str(p.relative_to(REPO)) for p in modules() if p.stem not in rows.get(p.parent.name, ())
    ]
    assert not missing, f"add to ARCHITECTURE.md's package table: {missing}"


def test_the_table_names_no_module_that_is_gone():
    present = {(p.parent.name, p.stem) for p in modules()}
    rows = table()
    # The table may name a file other than a module in backticks (`papers site build`):
    # only a single lower-case word that is a module elsewhere would mislead.
    everywhere = {stem for _, stem in present}
    gone = [
        f"{package}/{name}"
        for package, names in rows.items()
        for name in names
        if name in everywhere and (package, name) not in present
    ]
    assert not gone, gone


def test_no_module_is_over_600_lines():
    long = {
        str(p.relative_to(REPO)): n
        for p in modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"
