"""Fast YAML reading that keeps line numbers (PyYAML's C composer, our own walk)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from catalog.errors import InvalidCatalogError, Problem

try:  # libyaml's C composer where it is installed
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class _Loader(_Loader):  # type: ignore[no-redef,misc,valid-type]
    """Skips PyYAML's regex-based implicit typing (most of the load time in Python):
    every scalar stays a string, and is_null / is_bool read plain scalars ourselves."""

    def resolve(self, kind: type, value: object, implicit: object) -> str:
        if kind is yaml.ScalarNode:
            return "tag:yaml.org,2002:str"
        if kind is yaml.SequenceNode:
            return "tag:yaml.org,2002:seq"
        return "tag:yaml.org,2002:map"


# Plain scalars read as YAML 1.2's core schema reads them: 'on', 'yes' and 'no' are words
# (YAML 1.1 made them booleans, so a paper keyed 'on' read back as True).
NULLS = frozenset(("", "~", "null", "Null", "NULL"))  # the plain scalars YAML reads as null
TRUE = frozenset(("true", "True", "TRUE"))
FALSE = frozenset(("false", "False", "FALSE"))

from yaml import MappingNode, Node, ScalarNode, SequenceNode  # noqa: E402  (re-exported)


def syntax_problem(
    err: yaml.YAMLError, filename: str, line_offset: int = 0, text: str = ""
) -> Problem:
    """A YAML error as a Problem with line and column (and where the construct began)."""
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    line = mark.line + 1 + line_offset if mark else 0
    column = f" at column {mark.column + 1}" if mark else ""
    detail = getattr(err, "problem", None) or str(err)
    context, context_mark = getattr(err, "context", None), getattr(err, "context_mark", None)
    if context:
        started = f" started at line {context_mark.line + 1 + line_offset}" if context_mark else ""
        detail += f", {context}{started}"
    hint = "fix the YAML syntax; quote values that contain ': ' or start with a symbol"
    lines = text.splitlines()
    if mark is not None and mark.line < len(lines) and "\t" in lines[mark.line][: mark.column + 1]:
        hint = "YAML does not allow tabs for indentation: indent with spaces"
    return Problem(filename, line, "", f"YAML syntax error{column}: {detail}", hint, blocking=True)


def _plain(node: Node) -> bool:
    # libyaml marks plain scalars with style '', the pure-Python parser with None.
    return isinstance(node, ScalarNode) and not node.style


def is_null(node: Node) -> bool:
    """A plain scalar that YAML reads as null (an empty value, ~ or null)."""
    return _plain(node) and node.value in NULLS


def is_bool(node: Node) -> bool:
    """A plain scalar that YAML reads as a boolean."""
    return _plain(node) and (node.value in TRUE or node.value in FALSE)


# What could be a YAML anchor ('&name' after a space, '[', '{', ',' or at a line's start):
# only a text that has one can hold an alias, so only such a text is walked for them.
# Searched for the '&' alone and the character before it checked after (a pattern that
# begins with the look-back tries it at every position of the text).
_AMPERSAND_RE = re.compile(r"&[^\s,\[\]{}]")
_FLOW_OPENERS = "[{,"
_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


def may_hold_anchor(text: str) -> bool:
    """True if the text has what could be a YAML anchor ('&name' at a value's start)."""
    for m in _AMPERSAND_RE.finditer(text):
        at = m.start()
        before = text[at - 1] if at else "\n"
        if before.isspace() or before in _FLOW_OPENERS:
            return True
    return False


def compose(text: str, filename: str, line_offset: int = 0) -> Node | None:
    """The node tree of a YAML document; a syntax error or an alias becomes
    InvalidCatalogError.

    Every file papers reads goes through here. Aliases are refused: no data file needs
    them, and a few lines of nested aliases (an "alias bomb") expand to billions of nodes
    in any code that walks the tree as data."""
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as err:
        raise InvalidCatalogError([syntax_problem(err, filename, line_offset, text)]) from None
    except RecursionError:
        raise InvalidCatalogError(
            [
                Problem(
                    filename,
                    0,
                    "",
                    "YAML nested too deeply",
                    "write the data as plain entries",
                    True,
                )
            ]
        ) from None
    if root is not None and may_hold_anchor(text):
        _refuse_aliases(root, filename, line_offset)
    return root


def _refuse_aliases(root: Node, filename: str, line_offset: int) -> None:
    """InvalidCatalogError at the first node reached twice (an alias shares its anchor's
    node); linear in the number of distinct nodes, so a bomb is refused at once."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            line = node.start_mark.line + 1 + line_offset
            raise InvalidCatalogError(
                [
                    Problem(
                        filename,
                        line,
                        "",
                        "YAML anchors and aliases (&name, *name) are not supported",
                        "write each value out in full",
                        True,
                    )
                ]
            )
        seen.add(id(node))
        if isinstance(node, MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)


def read_bytes(path: Path, filename: str) -> bytes:
    """A data file's bytes; InvalidCatalogError for a folder or an unreadable file
    (FileNotFoundError is left to the caller, who knows what the missing file is for)."""
    from catalog.files import read_file

    with read_errors(filename):
        data = read_file(path)
    return data


@contextlib.contextmanager
def read_errors(filename: str) -> Iterator[None]:
    """read_bytes' errors around any read of a data file (catalog.files.OpenFile too)."""
    from catalog.files import NotAFileError

    try:
        yield
    except FileNotFoundError:
        raise
    except NotAFileError as err:
        why = str(err).rpartition(": ")[2]
        raise InvalidCatalogError(
            [
                Problem(
                    filename, 0, "", why, "name the YAML file itself, e.g. data/papers.yaml", True
                )
            ]
        ) from None
    except IsADirectoryError:
        raise InvalidCatalogError(
            [
                Problem(
                    filename,
                    0,
                    "",
                    "is a folder with no data/papers.yaml in it",
                    "name the catalog's project folder or its YAML file, e.g. data/papers.yaml",
                    True,
                )
            ]
        ) from None
    except OSError as err:
        raise InvalidCatalogError(
            [
                Problem(
                    filename,
                    0,
                    "",
                    f"cannot read ({err.strerror})",
                    "check the file's permissions",
                    True,
                )
            ]
        ) from None


# The characters YAML counts as line breaks besides LF and CRLF. A line of papers is what
# ends at LF (as in git and every editor), so a data file may not hold them raw.
_OTHER_BREAKS = {
    "\r": "carriage return (CR) without a line feed after it",
    "\x85": "next-line character (NEL, U+0085)",
    "\u2028": "line separator (U+2028)",
    "\u2029": "paragraph separator (U+2029)",
}
_OTHER_BREAK_RE = re.compile("[\r\x85\u2028\u2029]")


def decode(data: bytes, filename: str) -> str:
    """A data file's text: UTF-8 (a UTF-8 byte-order mark is kept), lines ending in '\\n'
    whatever the file uses; InvalidCatalogError names the line of a byte that is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        for bom, name in _BOMS.items():
            if data.startswith(bom):
                raise InvalidCatalogError(
                    [
                        Problem(
                            filename,
                            1,
                            "",
                            f"{name} text, not UTF-8",
                            "save the file as UTF-8 (papers reads and writes UTF-8 only)",
                            True,
                        )
                    ]
                ) from None
        line = data[: err.start].count(b"\n") + 1
        raise InvalidCatalogError(
            [Problem(filename, line, "", "not valid UTF-8 text", "save the file as UTF-8", True)]
        ) from None
    if "\r" in text:  # CRLF is one line end; a CR alone is refused below
        text = text.replace("\r\n", "\n")
    found = _OTHER_BREAK_RE.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise InvalidCatalogError(
            [
                Problem(
                    filename,
                    line,
                    "",
                    f"a {_OTHER_BREAKS[found.group()]} inside the text: YAML readers end a "
                    "line there, other tools do not, so the file's lines would be counted "
                    "two ways",
                    "replace it with a space (or end the line with LF); a double-quoted "
                    "value may write it as an escape, \\u2028",
                    True,
                )
            ]
        )
    return text


def newline_of(data: bytes) -> str:
    """The line ending a file uses (that of its first line), to write it back the same."""
    end = data.find(b"\n")
    return "\r\n" if end > 0 and data[end - 1 : end] == b"\r" else "\n"


def read_text(path: Path, filename: str) -> str:
    """read_bytes, then decode."""
    return decode(read_bytes(path, filename), filename)


def construct(node: Node) -> Any:
    """Plain Python data from a node: scalars stay the strings they were written as,
    except the YAML null and booleans; a mapping's keys are always strings."""
    if isinstance(node, ScalarNode):
        if is_null(node):
            return None
        if is_bool(node):
            return node.value in TRUE
        return node.value
    if isinstance(node, SequenceNode):
        return [construct(item) for item in node.value]
    if isinstance(node, MappingNode):
        return {name_of(k): construct(v) for k, v in node.value}
    return None  # pragma: no cover


def name_of(node: Node) -> str:
    """A mapping key or a list item that names something (a paper's key, a person, a
    section) as the text it was written as: never a boolean, a number or a null."""
    if isinstance(node, ScalarNode):
        return str(node.value)
    return str(construct(node))


def load_mapping_with_lines(path: Path) -> tuple[dict[str, Any], dict[str, int]]:
    """A small top-level mapping file and the 1-based line of each key."""
    text = read_text(path, str(path))
    node = compose(text, str(path))
    if node is None:
        return {}, {}
    if not isinstance(node, MappingNode):
        raise InvalidCatalogError(
            [
                Problem(
                    str(path),
                    node.start_mark.line + 1,
                    "",
                    "expected a mapping at the top level",
                    "write 'name: value' entries",
                    True,
                )
            ]
        )
    data: dict[str, Any] = {}
    lines: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = name_of(key_node)
        data[key] = construct(value_node)
        lines[key] = key_node.start_mark.line + 1
    return data, lines
