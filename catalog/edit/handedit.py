"""papers edit: the catalog edited by hand in the user's editor, saved through the writer.

The user edits a copy, opened at the paper's line. When the editor closes, the copy
replaces the catalog through `writer.edit` (lock, check, atomic write, re-index), unless
the catalog changed meanwhile (the copy is then kept, to merge by hand). A copy that
would make the catalog invalid is kept too; on a terminal the user may edit it again.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from catalog.data import yamlfile
from catalog.edit import writer
from catalog.errors import CatalogError, InvalidCatalogError, Problem, UsageError
from catalog.paths import Paths

# Whether to open a refused copy again (given the refusal); None off a terminal.
Again = Callable[[CatalogError], bool]


@dataclass
class HandEdit:
    """What a hand edit did: whether it saved a change, and the problems `papers check`
    finds after it (they were there before: the writer refuses any it adds)."""

    key: str
    changed: bool
    problems: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "changed": self.changed,
            "problems": [p.__dict__ for p in self.problems],
        }


def editor_command() -> list[str] | None:
    """The user's editor ($VISUAL, else $EDITOR) as a command's words, or None."""
    value = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    return shlex.split(value) if value else None


def run_editor(editor: list[str], path: Path, line: int | None = None) -> None:
    """Open path in the editor (at the line, as +LINE) and wait for it to close."""
    args = [*editor, *([f"+{line}"] if line else []), str(path)]
    try:
        code = subprocess.call(args)
    except OSError as err:
        raise CatalogError(
            f"cannot run the editor {editor[0]!r}: {err.strerror} "
            "(set $EDITOR to your editor's command)"
        ) from None
    if code != 0:
        raise CatalogError(f"the editor {editor[0]!r} exited with status {code}")


def hand_edit(paths: Paths, key: str, again: Again | None = None) -> HandEdit:
    """Edit a copy of the catalog in the user's editor at the paper's line, then save it
    through the writer; a refused copy is kept (its path in the error), or opened again
    while again() says so."""
    from catalog.index import database, query

    editor = editor_command()
    if editor is None:
        raise UsageError("set $EDITOR (or $VISUAL) to the command of your editor")
    line = query.get(database.connect(paths), key).line  # PaperNotFound with a close key
    original = yamlfile.read_bytes(paths.catalog, paths.display())
    folder = Path(tempfile.mkdtemp(prefix="papers-edit-"))
    copy = folder / paths.catalog.name
    copy.write_bytes(original)  # byte for byte: its BOM and line endings too
    while True:
        run_editor(editor, copy, line)
        edited = copy.read_bytes()
        if edited == original:
            break
        try:
            _save(paths, original, yamlfile.decode(edited, str(copy)), copy)
            break
        except (writer.InvalidEditError, InvalidCatalogError) as err:  # or a copy not UTF-8
            if again is None:
                raise CatalogError(f"{err}\nyour version is kept at {copy}") from None
            if not again(err):
                raise CatalogError(f"not saved; your version is kept at {copy}") from None
            line = err.problems[0].line or line
    copy.unlink()
    folder.rmdir()
    if edited == original:
        return HandEdit(key, changed=False)
    from catalog.check import rules

    return HandEdit(key, changed=True, problems=rules.check(paths))


def _save(paths: Paths, original: bytes, text: str, copy: Path) -> None:
    """The edited text in place of the catalog, unless the catalog changed since it was
    copied (CatalogError: the copy is kept to merge by hand)."""
    with writer.edit(paths) as session:
        if session.data != original:
            raise CatalogError(
                f"{paths.display()} changed while you were editing; "
                f"your version is kept at {copy} (merge it by hand)"
            )
        session.replace_text(text)
