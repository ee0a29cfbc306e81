"""The reviewed list of primary records (data/records.yaml): the hosts whose pages a paper's
sources may name, each with its kind and what it is."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from catalog.data import yamlfile
from catalog.errors import Problem
from catalog.model import has_controls

# What a primary record is: the publisher's or the proceedings' page, a preprint server,
# a bibliography of record (DBLP, doi.org, Crossref, OpenAlex), the conference's own site
# or programme, the authors' institution's publication record, the authors' own page or
# their repository.
KINDS: tuple[str, ...] = (
    "publisher",
    "proceedings",
    "preprint",
    "bibliography",
    "conference",
    "institution",
    "author",
    "repository",
)
_FIELDS = ("kind", "note", "subdomains")
# A host as links name it: lower-case labels of letters, digits and hyphens, a dot between
# them, a top-level domain that is no number (so no IP address); then, optionally, a path
# of plain URL characters with no '..', '?', '#' or trailing '/'.
_HOST_RE = re.compile(
    r"^(?=[^/]{1,253}(?:/|$))(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
    r"[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?"
    r"((?:/(?!\.\.?(?:/|$))[A-Za-z0-9._~%+\-]+)*)$"
)


@dataclass(frozen=True)
class Record:
    """One reviewed entry: a host (and, unless subdomains is false, every host under it),
    and when path is given only the pages under that path."""

    host: str
    path: str  # '' or '/prefix'
    kind: str
    note: str
    subdomains: bool = True
    line: int = 0

    def covers(self, path: str) -> bool:
        """Whether a link's path (on a host this entry names) is under the entry's path."""
        return not self.path or path == self.path or path.startswith(self.path + "/")


@dataclass
class Records:
    """The list by host; problems: the entries left out of it, each with its line."""

    by_host: dict[str, list[Record]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    found: bool = True  # False: the catalog has no records.yaml

    def lookup(self, host: str, path: str) -> Record | None:
        """The entry a link on host with path is a page of, or None if none is."""
        labels = host.split(".")
        for start in range(len(labels) - 1):  # the host, then each domain above it
            for record in self.by_host.get(".".join(labels[start:]), ()):
                if (start == 0 or record.subdomains) and record.covers(path):
                    return record
        return None

    def paths_under(self, host: str) -> list[str]:
        """The paths the list accepts on a host it lists only under paths."""
        return [r.path for r in self.by_host.get(host, ()) if r.path]


def load_records(path: Path, filename: str) -> Records:
    """The records registry; a file that is not there is an empty list (found False). A
    file YAML cannot read raises InvalidCatalogError; a bad entry is left out, with its
    problem."""
    try:
        text = yamlfile.read_text(path, filename)
    except FileNotFoundError:
        return Records(found=False)
    root = yamlfile.compose(text, filename)
    records = Records()
    if root is None:
        return records
    if not isinstance(root, yamlfile.MappingNode):
        records.problems.append(
            Problem(
                filename,
                root.start_mark.line + 1,
                "",
                "expected a mapping of hosts at the top level",
                "write 'host: {kind: KIND, note: what it is}' entries",
            )
        )
        return records
    seen: dict[str, int] = {}
    for key_node, value_node in root.value:
        entry = yamlfile.name_of(key_node)
        line = key_node.start_mark.line + 1
        record, trouble = _record(entry, yamlfile.construct(value_node), line)
        if trouble is None and entry in seen:
            trouble = (f"listed twice (also line {seen[entry]})", "keep one entry")
        if trouble is not None or record is None:
            message, hint = trouble or ("", "")
            records.problems.append(Problem(filename, line, entry[:80], message, hint))
            continue
        seen[entry] = line
        records.by_host.setdefault(record.host, []).append(record)
    return records


def _record(entry: str, value: object, line: int) -> tuple[Record | None, tuple[str, str] | None]:
    """An entry as a Record, or the (message, hint) of what is wrong with it."""
    if has_controls(entry):
        return None, ("control character in the host", "write the host as plain text")
    m = _HOST_RE.match(entry)
    if not m:
        return None, (
            f"not a host: {entry[:60]!r}",
            "write the host in lower case, without scheme, port, query or trailing '/' "
            "(example.org, or example.org/path for the pages under a path)",
        )
    host = entry[: len(entry) - len(m.group(1))]
    if host.startswith("www."):
        return None, (
            "a host written with www.",
            f"write {entry[4:]}: links are compared without www.",
        )
    if not isinstance(value, dict):
        return None, ("entry is not a mapping", "write {kind: KIND, note: what it is}")
    unknown = [str(name) for name in value if name not in _FIELDS]
    kind, note, subdomains = value.get("kind"), value.get("note"), value.get("subdomains", True)
    if unknown:
        return None, (
            f"unknown field '{unknown[0][:40]}'",
            "an entry has kind, note and (optionally) subdomains",
        )
    if kind not in KINDS:
        return None, (f"unknown kind {str(kind)[:40]!r}", "use one of " + ", ".join(KINDS))
    if not isinstance(note, str) or not note.strip():
        return None, ("no note", "say in one line what the site is (whose page, which venue)")
    if has_controls(note):
        return None, ("control character in the note", "write the note as one line of text")
    if not isinstance(subdomains, bool):
        return None, ("subdomains is not true or false", "write subdomains: false, or leave it out")
    return Record(host, m.group(1), kind, note, subdomains, line), None
