"""Attacks on a job written twice: two doors that answer the same input two ways."""

from __future__ import annotations

import re
from pathlib import Path

from attacklib import add_paper, added, case, imported, papers, project, traceback

# ------------------------------------------------------------------ one rule for every job

_DOI = "10.1145/3600006.3600006"


@case("29.2", "add --doi takes a doi.org link as an imported .bib's doi takes it")
def doi_link_through_add_and_import(tmp: Path) -> str | None:
    root = project(tmp)
    add = added(
        root,
        "A Paper Read Through Two Doors",
        "--key",
        "lee2023paper",
        "--doi",
        f"https://doi.org/{_DOI}",
        author="Ann Lee",
    )
    if traceback(add) or add.code != 0:
        return traceback(add) or f"add --doi https://doi.org/...: exit {add.code}"
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    if f"doi: {_DOI}\n" not in text:
        return "add kept the doi.org link, not the bare DOI"
    run = imported(
        root,
        root / "b.bib",
        "@inproceedings{roe2023other,\n  title = {Another Paper Read Through Two Doors},\n"
        "  author = {Rob Roe},\n  booktitle = {OSDI},\n  year = {2023},\n"
        f"  doi = {{https://doi.org/{_DOI}}},\n}}\n",
        "--json",
    )
    if traceback(run):
        return traceback(run)
    if '"duplicate": 1' not in run.out:
        return "import did not know the DOI add kept: " + run.out[:120]
    return None


@case("29.2", "check and import judge one pair of alike titles alike")
def alike_titles_one_judgement(tmp: Path) -> str | None:
    root = project(tmp)
    title = "Sharded Embedding Caches for Recommendation Training on Many GPUs"
    add_paper(
        root,
        f'    - key: lee2023sharded\n      title: "{title}"\n      authors: [Ann Lee]\n'
        "      doi: 10.1145/1111111.1111111\n",
        venue="AAAI",  # the first venue under 2023 in the shipped catalog
    )
    run = imported(
        root,
        root / "b.bib",
        "@inproceedings{lee2023shardedb,\n"
        f"  title = {{{{{title.replace('Caches', 'Cache')}}}}},\n  author = {{Ann Lee}},\n"
        "  booktitle = {OSDI},\n  year = {2023},\n  doi = {10.1145/2222222.2222222},\n}\n",
    )
    if traceback(run) or run.code != 0:
        return traceback(run) or f"import: exit {run.code}: {(run.out + run.err)[:120]}"
    imported_alike = "possible duplicate" in run.out + run.err
    check = papers(root, "check")
    if traceback(check):
        return traceback(check)
    checked_alike = re.search(r"lee2023shardedb?: title nearly the same", check.out) is not None
    if imported_alike != checked_alike:
        return (
            f"import {'warned' if imported_alike else 'did not warn'} of a possible duplicate, "
            f"check {'reports' if checked_alike else 'does not report'} the pair"
        )
    return None
