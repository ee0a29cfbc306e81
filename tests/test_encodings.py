"""papers import of files saved in other encodings: a byte-order mark is followed, else UTF-8."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog.data.textfile import TextFileError, decode_text

# An excerpt of a .bib as Windows "Save as Unicode" writes it: UTF-16 with a byte-order mark.
BIB = """\
@inproceedings{lai2021oort,
  title = {Oort: Efficient Federated Learning via Guided Participant Selection},
  author = {Lai, Fan and M\u00fcller, J\u00fcrgen},
  booktitle = {15th USENIX Symposium on Operating Systems Design and Implementation (OSDI 21)},
  year = {2021},
}
"""


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig", "utf-32"])
def test_a_file_with_a_byte_order_mark_is_read_in_its_encoding(encoding: str) -> None:
    data = BIB.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data  # Python writes no mark for an explicit byte order
    assert decode_text(data, "refs.bib") == BIB


def test_a_utf16_bib_imports_like_its_utf8_twin(run, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_bytes(BIB.replace("\n", "\r\n").encode("utf-16"))
    result = run("import", str(bib), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would add 1" in result.output
    assert "J\u00fcrgen M\u00fcller" in result.output


def test_a_utf16_markdown_list_is_read(run, tmp_path: Path) -> None:
    md = tmp_path / "list.md"
    md.write_bytes(
        "## OSDI 2021\n\n- [Oort: Efficient Federated Learning via Guided "
        "Participant Selection](https://example.org/oort)\n".encode("utf-16")
    )
    result = run("import", str(md), "--dry-run")
    assert "list.md:3:" in result.output  # the entry is found: it is the list, not the bytes


def test_latin1_without_a_mark_is_refused_with_its_line() -> None:
    data = BIB.encode("latin-1")
    with pytest.raises(
        TextFileError,
        match=r"^refs.bib:3: not UTF-8 text \(save it as "
        r"UTF-8\)$",
    ):
        decode_text(data, "refs.bib")


def test_broken_utf16_after_its_mark_is_refused_with_its_line() -> None:
    data = b"\xff\xfe" + "@misc{a,\n title = {x}}\n".encode("utf-16-le") + b"\x00\xd8"
    with pytest.raises(
        TextFileError,
        match=r"^refs.bib:3: broken UTF-16-LE text .*"
        r"save it as UTF-8\)$",
    ):
        decode_text(data, "refs.bib")
