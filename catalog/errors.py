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
        place = f"{self.file}:{self.line}:" if self.line else f"{self.file}:"
        where = f" {self.where}:" if self.where else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{place}{where} {self.message}{hint}"


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
