"""The one door for writes: every file papers writes goes through a session opened here.

`edit()` takes the lock of every file a catalog's edit may write, reads them, yields a
`Session` (catalog.edit.session) for the edits, then judges and writes them in order and
refreshes the index; `edit_reading()` does the same for the reader's file alone. The
parts, one job each: catalog.edit.session (the edit operations and the commit),
catalog.edit.document and catalog.edit.keyed (the files cut into blocks),
catalog.edit.snapshot (the papers as the session found them), catalog.edit.validation
(whether the new texts may be written) and catalog.files (the atomic write, the locks).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from catalog import files
from catalog.data import yamlfile
from catalog.edit.keyed import write_in_order
from catalog.edit.session import Session
from catalog.edit.validation import InvalidEditError
from catalog.errors import CatalogError, LockTimeoutError, Problem
from catalog.model import DEFAULT_STATUS, STATUSES, is_date
from catalog.paths import Paths

# Seconds to wait for another papers process to finish its write.
LOCK_TIMEOUT = 120.0
__all__ = ["InvalidEditError", "LockTimeoutError", "Session"]  # re-exported for callers

if TYPE_CHECKING:
    from catalog.data.readingstate import Entry
    from catalog.edit.readingfile import ReadingSession


# ---------------------------------------------------------------- lock and atomic write


def lock_path(paths: Paths) -> Path:
    """The lock file of the catalog itself (beside it, hidden)."""
    return files.lock_file(paths.catalog)


def _data_files(paths: Paths) -> list[Path]:
    """Every file an edit may write: the catalog, the registries it shares with any other
    catalog in its folder, and the files that name its papers."""
    from catalog.ingest.inbox import inbox_path
    from catalog.ingest.keymap import keymap_path

    return [
        paths.catalog,
        paths.venues,
        paths.tags,
        paths.authors,
        paths.reading,
        keymap_path(paths),
        inbox_path(paths),
    ]


@contextlib.contextmanager
def locked(paths: Paths, timeout: float | None = None) -> Iterator[None]:
    """Hold the write lock of the catalog and of each registry (one lock per file, taken in a
    fixed order), so writers of two catalogs sharing tags.yaml exclude each other there."""
    wait = LOCK_TIMEOUT if timeout is None else timeout
    with files.locked(_data_files(paths), wait, paths.display()):
        yield


@contextlib.contextmanager
def edit(paths: Paths, dry_run: bool = False, refresh: bool = True) -> Iterator[Session]:
    """An edit session: lock, read, yield for edits, then validate, write and re-index.

    An exception inside the block leaves every file as it was.
    """
    with locked(paths):
        for folder in {p.resolve().parent for p in _data_files(paths)}:
            files.remove_dead_temporaries(folder)
        session = Session(paths)
        try:
            yield session
            session.result = session.commit(dry_run)
        finally:
            session.close()
        if refresh and not dry_run and session.result.changed:
            session.result.warnings += _refresh_index(paths, session)


def _refresh_index(paths: Paths, session: Session | None = None) -> list[Problem]:
    """Bring the index up to date after a write (still under the lock, so writers do not
    race each other's index updates): with what the session says it changed when the
    index held the file it read, else by a refresh. The write has happened and is what
    the user hears about: an index that cannot follow is rebuilt, or, failing that, a
    warning says so (the index is derived; the next command refreshes it again)."""
    import sqlite3

    from catalog.index import database

    try:
        written = session.written if session is not None else None
        if (
            session is None
            or written is None
            or not database.apply(paths, session.snapshot.digest, written)
        ):
            database.refresh(paths)
        return []
    except (sqlite3.Error, OSError):
        with contextlib.suppress(CatalogError, sqlite3.Error, OSError):
            database.rebuild(paths)  # e.g. a damaged file; a reader holding it too long
            return []
    except CatalogError as err:
        return [
            Problem(
                paths.display(paths.db),
                0,
                "",
                f"the index was not refreshed: {err}",
                "the catalog was written; fix this, then any command re-indexes",
            )
        ]
    return [
        Problem(
            paths.display(paths.db),
            0,
            "",
            "the index could not be refreshed",
            "the catalog was written; run `papers index` to rebuild it",
        )
    ]


# ---------------------------------------------------------------- the reader's file


@contextlib.contextmanager
def edit_reading(paths: Paths, dry_run: bool = False) -> Iterator[ReadingSession]:
    """A session on the reader's file (data/reading.yaml) alone: lock, read, yield for
    changes, then write it through the one door and bring the index's reading state up to
    date. The catalog is not touched. An exception inside the block leaves the file as it
    was."""
    from catalog.edit.readingfile import ReadingSession

    name = paths.display(paths.reading)
    with files.locked([paths.reading], LOCK_TIMEOUT, name):
        files.remove_dead_temporaries(paths.reading.resolve().parent, paths.reading.name)
        session = ReadingSession(paths)
        yield session
        if not session.changed:
            return
        text = session.written = session.render()
        if text == session.file.text:
            return
        session.check(text)
        if not dry_run and write_in_order([session.file], None, lambda key: True):
            _refresh_index(paths)


@dataclass
class Migration:
    """What move_reading_state did: the entries it wrote into the reader's file, the papers
    whose reading state it removed from the catalog, and those it left there (a status no
    reader's file takes: check names them, the reader fixes them by hand)."""

    moved: list[Entry] = field(default_factory=list)
    cleared: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


def move_reading_state(paths: Paths) -> Migration:
    """Move the status and read_on values the catalog still holds into the reader's file,
    in one session: the reader's file is written first (an entry it has already wins),
    then the catalog loses them, so a kill between the two loses nothing and running it
    again finishes the job (and says what it did: the catalog's lines it removed count,
    though the file had them)."""
    from catalog.data import reader
    from catalog.data.readingstate import Entry

    done = Migration()
    if not reader.retired_values(yamlfile.read_text(paths.catalog, paths.display()), ""):
        return done
    with edit(paths) as session:
        reading = session.reading
        found = reader.retired_values(session.text, session.filename)  # as locked
        for key, values in found.items():
            status = values.get("status") or DEFAULT_STATUS
            read_on = values.get("read_on") or None
            if status not in STATUSES or (read_on is not None and not is_date(read_on)):
                done.left.append(key)
                continue
            if reading.entry(key) is None and (status != DEFAULT_STATUS or read_on):
                entry = Entry(key, status, read_on=read_on)
                reading.put(entry)
                done.moved.append(entry)
            done.cleared.append(key)
            session.drop_retired(key)
    return done
