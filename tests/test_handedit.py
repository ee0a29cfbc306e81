"""catalog.edit.handedit, the work of papers edit: a copy edited by hand, saved through the
writer; a change made meanwhile, a refused copy, the file's own bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.data import reader
from catalog.edit import handedit
from catalog.errors import CatalogError, PaperNotFound, UsageError
from catalog.paths import Paths
from tests.test_curate import editor  # noqa: F401  (the fixture)


def _lines(code: str) -> str:
    """A snippet of several lines for the editor fixture (which takes one)."""
    return f"exec({code!r})"


def _kept(err: pytest.ExceptionInfo[CatalogError]) -> Path:
    """The copy an error says was kept."""
    return Path(str(err.value).rsplit("kept at ", 1)[1].split()[0])


def test_a_change_made_while_editing_is_kept_and_the_copy_too(paths: Paths, editor) -> None:
    # The editor saves the copy, and someone else's save lands in the catalog meanwhile.
    editor(
        _lines(
            "path.write_text(text.replace('Adaptive Embedding', 'Adapted Embedding'))\n"
            f"other = pathlib.Path({str(paths.catalog)!r})\n"
            "other.write_text(other.read_text() + '# theirs\\n')"
        )
    )
    with pytest.raises(CatalogError, match="changed while you were editing") as err:
        handedit.hand_edit(paths, "lai2023adaembed")
    assert paths.catalog.read_text(encoding="utf-8").endswith("# theirs\n")
    assert "Adaptive Embedding" in paths.catalog.read_text(encoding="utf-8")
    assert "Adapted Embedding" in _kept(err).read_text(encoding="utf-8")


def test_the_files_bom_and_line_endings_stay(paths: Paths, editor) -> None:
    # An editor that saves with LF: the catalog keeps its CRLF and its byte-order mark.
    crlf = b"\xef\xbb\xbf" + paths.catalog.read_bytes().replace(b"\n", b"\r\n")
    paths.catalog.write_bytes(crlf)
    editor("path.write_text(text.replace('Adaptive Embedding', 'Adapted Embedding'))")
    done = handedit.hand_edit(paths, "lai2023adaembed")
    assert done.changed and done.to_dict()["changed"] is True
    assert paths.catalog.read_bytes() == crlf.replace(b"Adaptive Embedding", b"Adapted Embedding")


def test_a_copy_that_is_not_utf8_is_refused_and_kept(paths: Paths, editor) -> None:
    editor("path.write_bytes(text.replace('FastMoE', 'Fast\\u00e9MoE').encode('latin-1'))")
    before = paths.catalog.read_bytes()
    with pytest.raises(CatalogError, match="not valid UTF-8") as err:
        handedit.hand_edit(paths, "he2021fastmoe")
    assert "Fast\xe9MoE" in _kept(err).read_text(encoding="latin-1")
    assert paths.catalog.read_bytes() == before


def test_a_refused_copy_is_opened_again_while_the_user_says_so(paths: Paths, editor) -> None:
    # The first save breaks the catalog; the second, at the problem's line, mends it.
    log = editor(
        _lines(
            "if 'NOPE:' in text:\n"
            "    path.write_text(text.replace('NOPE:', 'OSDI:').replace('Adaptive', 'Adapted'))\n"
            "else:\n"
            "    path.write_text(text.replace('OSDI:', 'NOPE:'))"
        )
    )
    refusals: list[str] = []

    def again(refusal: CatalogError) -> bool:
        refusals.append(str(refusal))
        return True

    done = handedit.hand_edit(paths, "lai2023adaembed", again=again)
    assert done.changed and len(refusals) == 1 and "unknown venue 'NOPE'" in refusals[0]
    assert len(log.read_text().splitlines()) == 2  # opened again
    paper = {p.key: p for p in reader.load(paths.catalog)}["lai2023adaembed"]
    assert paper.venue == "OSDI" and paper.title.startswith("AdaEmbed: Adapted Embedding")
    editor("path.write_text(text.replace('OSDI:', 'NOPE:'))")
    with pytest.raises(CatalogError, match=r"^not saved; your version is kept at "):
        handedit.hand_edit(paths, "lai2023adaembed", again=lambda refusal: False)


def test_no_editor_or_no_such_paper(paths: Paths, editor, monkeypatch) -> None:
    editor()
    with pytest.raises(PaperNotFound, match="did you mean 'he2021fastmoe'"):
        handedit.hand_edit(paths, "he2021fastmo")
    monkeypatch.delenv("EDITOR")
    with pytest.raises(UsageError, match=r"set \$EDITOR"):
        handedit.hand_edit(paths, "he2021fastmoe")
