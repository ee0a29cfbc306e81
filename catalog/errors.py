"""Our exceptions and the Problem record; messages are written for the user."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One finding about the catalog, with its place: file:line: where: message (hint)."""

    file: str
    line: int
    where: str
    message: str
    hint: str = ""
    blocking: bool = False  # True when the data cannot be read at all

    def __str__(self) -> str:
        return describe(self.file, self.line, self.where, self.message, self.hint)


def describe(
    file: str, line: int, where: str, message: str, hint: str = "", blocking: bool = False
) -> str:
    """A problem's line from its fields (Problem's, or check's tuples of them)."""
    place = f"{file}:{line}:" if line else f"{file}:"
    where = f" {where}:" if where else ""
    hint = f" ({hint})" if hint else ""
    return f"{place}{where} {message}{hint}"


class CatalogError(Exception):
    """Any error we report to the user (exit code 1)."""


class InvalidCatalogError(CatalogError):
    """The catalog cannot be read; carries every blocking problem."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class PaperNotFound(CatalogError):
    """No paper with the given key."""


class QueryError(CatalogError):
    """A search query we cannot run."""


class UsageError(CatalogError):
    """Bad usage of a command (exit code 2)."""


class LockTimeoutError(CatalogError):
    """Another process holds a lock on the catalog (or its index) for too long."""


class IndexPathError(CatalogError):
    """The index path names something papers must not write: a file it did not make,
    a folder, or a place it cannot write to."""


class ConcurrentEditError(CatalogError):
    """Another program changed a file while papers was writing it; papers left it alone."""
