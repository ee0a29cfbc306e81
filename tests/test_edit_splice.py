"""A one-paper edit on an indexed catalog: the paper's lines cut out by the index's span,
spliced back, and the index's rows updated to what a full build of the new file holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.edit import source as source_module
from catalog.edit import writer
from catalog.edit.source import Source
from catalog.index import database
from catalog.paths import Paths
from tests.conftest import PAPERS, write_catalog
from tests.test_index import rows

# PAPERS with a third year, a comment inside a paper and blank lines between years.
CATALOG = PAPERS.replace(
    "      pages: 281-294\n", "      pages: 281-294\n      # checked against the PDF\n"
).replace("2021:\n", "\n2021:\n") + (
    "\n2019:\n  OSDI:\n    - key: old2019paper\n"
    '      title: "An Old Paper on Sharding"\n      authors: [Ana Old]\n'
)
KEYS = ["kurniawan2023evstore", "lai2023adaembed", "he2021fastmoe", "old2019paper"]
TAGS = ["caching", "moe", "embedding", "training"]


def _no_whole_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reading the catalog or a year whole fail: a one-paper edit needs neither."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a one-paper edit read a year or the file whole")

    monkeypatch.setattr(source_module, "parse_catalog", refuse)
    monkeypatch.setattr(Source, "expand", refuse)


def _layout(tmp_path: Path, crlf: bool, final_newline: bool) -> Paths:
    paths = write_catalog(tmp_path)
    text = CATALOG if final_newline else CATALOG.rstrip("\n")
    paths.catalog.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode())
    database.refresh(paths)
    return paths


def _matches_a_full_build(paths: Paths, tmp_path: Path) -> None:
    again = write_catalog(tmp_path)
    again.catalog.write_bytes(paths.catalog.read_bytes())
    database.refresh(again)
    assert rows(paths) == rows(again)
    assert database.refresh(paths).action == "fresh"


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("final_newline", [True, False])
def test_a_tag_splices_one_paper_and_updates_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, crlf: bool, final_newline: bool
) -> None:
    paths = _layout(tmp_path / "a", crlf, final_newline)
    before = paths.catalog.read_bytes()
    with monkeypatch.context() as patched:
        _no_whole_reading(patched)
        with writer.edit(paths) as session:
            session.add_tags("lai2023adaembed", ["caching"])
    newline = b"\r\n" if crlf else b"\n"
    old = b"      tags: [embedding, training]" + newline
    assert paths.catalog.read_bytes() == before.replace(
        old, b"      tags: [embedding, training, caching]" + newline
    )
    _matches_a_full_build(paths, tmp_path / "b")


def test_a_paper_that_grows_moves_the_lines_of_the_papers_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _layout(tmp_path / "a", False, True)
    with monkeypatch.context() as patched:
        _no_whole_reading(patched)
        with writer.edit(paths) as session:
            session.update("kurniawan2023evstore", summary="One line.\nTwo lines.\n")
            session.update("old2019paper", tags=["training"])
    text = paths.catalog.read_text()
    assert "# checked against the PDF" in text and "tags: [training]" in text
    _matches_a_full_build(paths, tmp_path / "b")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(KEYS), st.sampled_from(TAGS), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    crlf=st.booleans(),
    final_newline=st.booleans(),
)
def test_one_paper_edits_in_a_row_keep_the_index_a_full_build(
    tmp_path_factory: pytest.TempPathFactory,
    edits: list[tuple[str, str, bool]],
    crlf: bool,
    final_newline: bool,
) -> None:
    folder = tmp_path_factory.mktemp("splice")
    paths = _layout(folder / "a", crlf, final_newline)
    for key, tag, add in edits:
        with writer.edit(paths) as session:
            if add:
                session.add_tags(key, [tag])
            else:
                session.remove_tags(key, [tag])
    _matches_a_full_build(paths, folder / "b")
