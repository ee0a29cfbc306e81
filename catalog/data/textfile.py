"""Reading a text file the user hands us: UTF-8, or what its byte-order mark names."""

from __future__ import annotations

from pathlib import Path

from catalog.errors import CatalogError

# A byte-order mark says how a file is encoded; Windows editors (Notepad, Excel) save
# "Unicode" text as UTF-16 with one. UTF-32 marks first: they begin with UTF-16's.
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


# The most papers reads of a file a user hands it (a .bib, a list, an .aux).
MAX_TEXT = 256 << 20


class TextFileError(CatalogError):
    """A file that is missing or not text we can decode; the message names its line."""


def decode_text(data: bytes, name: str) -> str:
    """A file's text: UTF-8, or the encoding its byte-order mark names (the mark dropped)."""
    encoding, skip = "utf-8", 0
    for bom, bom_encoding in _BOMS:
        if data.startswith(bom):
            encoding, skip = bom_encoding, len(bom)
            break
    try:
        return data[skip:].decode(encoding)
    except UnicodeDecodeError as err:
        newline = b"\n" if encoding == "utf-8" else "\n".encode(encoding)
        line = data[: skip + err.start].count(newline) + 1
        if encoding == "utf-8":
            raise TextFileError(f"{name}:{line}: not UTF-8 text (save it as UTF-8)") from None
        raise TextFileError(
            f"{name}:{line}: broken {encoding.upper()} text (the file starts "
            f"with its byte-order mark; save it as UTF-8)"
        ) from None


def read_text(path: Path, name: str | None = None) -> str:
    """The decoded text of a file; TextFileError names a missing or unreadable one."""
    name = name or str(path)
    from catalog.files import NotAFileError, read_file

    try:
        data = read_file(path, MAX_TEXT)
    except FileNotFoundError:
        raise TextFileError(f"{name}: no such file") from None
    except NotAFileError as err:
        raise TextFileError(f"{name}: {str(err).rpartition(': ')[2]}; name a file") from None
    except OSError as err:
        raise TextFileError(f"{name}: cannot read ({err.strerror})") from None
    return decode_text(data, name)
