"""Every third-party package catalog/ imports is a declared dependency (pyproject.toml)."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.conftest import REPO


def imported_packages(folder: Path) -> dict[str, list[str]]:
    """Top-level modules imported anywhere in folder's Python files (inside functions too,
    where heavy libraries are imported), other than the standard library's and catalog's,
    each with the files that import it."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "catalog":
                    found.setdefault(top, []).append(str(path.relative_to(folder.parent)))
    return found


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them ('ruamel.yaml' is 'ruamel-yaml')."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> dict[str, str]:
    """pyproject.toml's dependencies: normalized name -> the requirement as written."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    out = {}
    for requirement in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
        assert name, requirement
        out[normalized(name.group())] = requirement
    return out


def undeclared(
    imports: Mapping[str, Iterable[str]],
    dependencies: Iterable[str],
    distributions: Mapping[str, list[str]],
) -> list[str]:
    """Each imported module no declared distribution provides, with where it is imported.
    distributions maps a module to the distributions that install it (an import name is
    not a distribution's: yaml is PyYAML's, ruamel ruamel.yaml's, markdown Markdown's)."""
    wanted = {normalized(d) for d in dependencies}
    missing = []
    for module, files in sorted(imports.items()):
        providers = {normalized(d) for d in distributions.get(module, [])}
        if not providers & wanted:
            given = ", ".join(sorted(providers)) or "no installed distribution"
            missing.append(f"{module} ({given}), imported by {', '.join(sorted(set(files)))}")
    return missing


def test_every_third_party_import_in_catalog_is_declared() -> None:
    imports = imported_packages(REPO / "catalog")
    distributions = importlib.metadata.packages_distributions()
    assert {"yaml", "ruamel", "markdown", "numpy"} <= set(imports)  # the walk sees them
    assert undeclared(imports, declared(), distributions) == []


def test_an_undeclared_import_is_found() -> None:
    """The check fails for a package left out of the dependencies (numpy was, once)."""
    imports = imported_packages(REPO / "catalog")
    distributions = importlib.metadata.packages_distributions()
    without = [name for name in declared() if name != "numpy"]
    [missing] = undeclared(imports, without, distributions)
    assert missing.startswith("numpy (numpy), imported by catalog/")


def test_bibtexparser_is_kept_below_its_next_major_version() -> None:
    """The v2 beta's API is the one catalog.bib.parser uses: a v3 is not taken unseen."""
    assert re.search(r"<\s*3\b", declared()["bibtexparser"])
