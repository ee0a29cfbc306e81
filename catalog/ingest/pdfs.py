"""The reader's PDFs: kept in data/pdfs/KEY.pdf, attached by hand or downloaded.

The folder is the reader's, like data/reading.yaml: papers writes a .gitignore into it
that ignores everything, so PDFs never land in the repository, and the site never reads
it. A file is taken only when it starts as a PDF does; a PDF already kept is never
replaced by a different one unless the reader says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO
from urllib.parse import urlsplit

from catalog import files
from catalog.errors import CatalogError, ConcurrentEditError
from catalog.model import Paper, is_http_url
from catalog.paths import Paths, key_file_stem

# A PDF's header ('%PDF-1.7') may follow a little junk: readers look in the first KiB.
PDF_MAGIC = b"%PDF-"
_HEADER_SPAN = 1024
MAX_PDF = 200 << 20
DEADLINE = 300.0
_IGNORE = "# papers keeps your PDFs here; they stay out of git and off the site.\n*\n"


class PdfError(CatalogError):
    """A PDF could not be kept (not a PDF, a different one already kept, no source)."""


def pdf_path(paths: Paths, key: str) -> Path:
    """data/pdfs/KEY.pdf for a valid key (named by key_file_stem); never a path outside
    that folder."""
    try:
        return paths.pdfs / f"{key_file_stem(key)}.pdf"
    except CatalogError as err:
        raise PdfError(str(err)) from None


def local_pdf(paths: Paths, key: str) -> Path | None:
    """The paper's kept PDF, if there is one."""
    path = pdf_path(paths, key)
    return path if path.is_file() else None


def looks_like_pdf(head: bytes) -> bool:
    """True when the first bytes of a file hold a PDF header."""
    return PDF_MAGIC in head[:_HEADER_SPAN]


def _folder(paths: Paths) -> Path:
    """data/pdfs/, made with its .gitignore on first use."""
    folder = paths.pdfs
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        files.atomic_write(ignore, _IGNORE)
    return folder


def _digest(path: Path | IO[bytes]) -> str:
    """The SHA-256 of a file, by its path or from the start of an open one."""
    h = hashlib.sha256()
    with open(path, "rb") if isinstance(path, Path) else contextlib.nullcontext(path) as handle:
        handle.seek(0)
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# What a path that is not a regular file is, to say so.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


@contextlib.contextmanager
def _source(source: Path) -> Iterator[BinaryIO]:
    """The file to attach, open for reading: a regular file of at most files.MAX_READ
    bytes, judged before a byte is read (a pipe is opened without waiting for a writer,
    a sparse file is refused by its size); PdfError says what it is otherwise."""
    try:
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise PdfError(f"{source}: no such file (give the PDF's path)") from None
    except OSError as err:
        raise PdfError(f"{source}: cannot read it ({err.strerror})") from None
    try:
        info = os.fstat(fd)
        kind = next((name for test, name in _KINDS if test(info.st_mode)), None)
        if kind is not None or not stat.S_ISREG(info.st_mode):
            raise PdfError(f"{source} is {kind or 'not a regular file'}, not a PDF file")
        if info.st_size > files.MAX_READ:
            raise PdfError(
                f"{source} is {info.st_size / (1 << 30):.1f} GiB, more than the "
                f"{files.MAX_READ >> 30} GiB papers keeps of one file; nothing was kept"
            )
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield handle


def attach(paths: Paths, key: str, source: Path, replace: bool = False) -> tuple[Path, bool]:
    """Copy a PDF into data/pdfs/KEY.pdf; (its path, whether anything was written)."""
    target = pdf_path(paths, key)
    with _source(source) as handle:
        try:
            head = handle.read(_HEADER_SPAN)
        except OSError as err:
            raise PdfError(f"{source}: cannot read it ({err.strerror})") from None
        if not looks_like_pdf(head):
            raise PdfError(f"{source}: not a PDF (it does not start with %PDF-); nothing was kept")
        if target.exists() and source.resolve() == target.resolve():
            return target, False
        if target.exists() and _digest(target) == _digest(handle):
            return target, False
        if target.exists() and not replace:
            raise PdfError(
                f"{key} already has a different PDF ({paths.display(target)}); pass --replace "
                "to put this one in its place"
            )
        _folder(paths)
        _copy(handle, target)
    return target, True


def _copy(
    handle: IO[bytes], target: Path, expected: bytes | Callable[[Path], bool] | None = None
) -> None:
    """The open file's bytes, from its start, in target's place through the one door for
    files (files.atomic_write): atomic, and (given expected) only over a file that passes
    its test at that instant."""
    handle.seek(0)
    files.atomic_write(target, iter(lambda: handle.read(1 << 20), b""), expected=expected)


def best_link(paper: Paper) -> str | None:
    """The paper's best public link: a PDF URL, its arXiv page, its DOI, its URL. Only an
    http(s) link: what the system opener gets must never be a file, a scheme handler or
    an option."""
    from urllib.parse import quote

    links = [paper.url if _is_pdf_url(paper.url) else None]
    links.append(f"https://arxiv.org/abs/{quote(paper.arxiv)}" if paper.arxiv else None)
    links.append(f"https://doi.org/{quote(paper.doi, safe='/:;()')}" if paper.doi else None)
    links.append(paper.url)
    return next((link for link in links if link and is_http_url(link)), None)


def _is_pdf_url(url: str | None) -> bool:
    return bool(url) and str(url).lower().split("?")[0].endswith(".pdf")


def sources(paper: Paper) -> list[tuple[str, str]]:
    """Where an open-access PDF of the paper may be had, best first: arXiv, a PDF URL."""
    from catalog.ingest.webclient import base_url

    found = []
    if paper.arxiv:
        found.append((f"arXiv {paper.arxiv}", f"{base_url('arxiv-pdf')}/pdf/{paper.arxiv}"))
    if paper.url and _is_pdf_url(paper.url) and is_http_url(paper.url):
        found.append((paper.url, paper.url))
    return found


Progress = Callable[[int, int | None], object]


def download(paths: Paths, paper: Paper, progress: Progress | None = None) -> Path:
    """Download the paper's open-access PDF into data/pdfs/KEY.pdf (arXiv first); PdfError
    naming every source tried and why it failed."""
    from catalog.ingest.webclient import FetchError

    target = pdf_path(paths, paper.key)
    tried = sources(paper)
    if not tried:
        raise PdfError(
            f"{paper.key}: no open-access PDF known (no arXiv id, no URL ending in .pdf); "
            "keep one you have with papers attach KEY FILE"
        )
    failures = []
    for label, url in tried:
        try:
            _fetch(paths, target, url, label, progress)
            return target
        except (FetchError, PdfError) as err:
            failures.append(str(err))
    raise PdfError(f"{paper.key}: no PDF downloaded: " + "; ".join(failures))


def _fetch(paths: Paths, target: Path, url: str, label: str, progress: Progress | None) -> None:
    """One download, held aside (in memory, or a temporary file past a few MB) and
    checked, then put in place; never over a different PDF, even one that appears
    meanwhile."""
    import tempfile

    _folder(paths)
    with tempfile.SpooledTemporaryFile(max_size=16 << 20) as held:
        kind = _http_get(url, held.write, label, MAX_PDF, DEADLINE, progress)
        held.seek(0)
        if "pdf" not in kind.lower() or not looks_like_pdf(held.read(_HEADER_SPAN)):
            raise PdfError(f"{label} sent {kind.split(';')[0] or 'something'}, not a PDF")
        digest = _digest(held)

        def same(old: Path) -> bool:
            return _digest(old) == digest

        try:  # b"": a new file, made only if none appeared meanwhile
            _copy(held, target, same if target.exists() else b"")
        except ConcurrentEditError:
            raise PdfError(
                f"a different PDF appeared at {paths.display(target)}; left it alone"
            ) from None


def _http_get(
    url: str,
    sink: Callable[[bytes], object],
    label: str,
    max_bytes: int,
    deadline: float,
    progress: Callable[[int, int | None], object] | None = None,
) -> str:
    """GET a file into sink, chunk by chunk, and return its content type: redirects
    followed (to http(s) only, at most MAX_REDIRECTS), the whole exchange within deadline
    seconds and max_bytes; progress(done, total) after each chunk. FetchError otherwise."""
    import httpx

    from catalog.ingest.webclient import (
        MAX_REDIRECTS,
        TIMEOUT,
        FetchError,
        bad_redirect,
        user_agent,
    )

    ends = time.monotonic() + deadline
    try:
        with httpx.Client(timeout=TIMEOUT, headers={"User-Agent": user_agent()}) as client:
            for _ in range(MAX_REDIRECTS + 1):
                with client.stream("GET", url) as response:
                    if response.is_redirect:
                        url = str(response.request.url.join(response.headers.get("location", "")))
                        if urlsplit(url).scheme not in ("http", "https"):
                            raise FetchError(f"{label} redirected to a non-web address")
                        continue
                    if response.status_code != 200:
                        raise FetchError(f"{label} answered HTTP {response.status_code}")
                    _stream(response, sink, label, max_bytes, ends, progress)
                    return str(response.headers.get("content-type", ""))
            raise FetchError(f"{label} redirected more than {MAX_REDIRECTS} times")
    except httpx.InvalidURL as err:
        raise FetchError(bad_redirect(label, err)) from None
    except (httpx.TransportError, OSError) as err:
        raise FetchError(f"cannot reach {label} ({type(err).__name__}: {err})") from None


def _stream(
    response: Any,
    sink: Callable[[bytes], object],
    label: str,
    max_bytes: int,
    ends: float,
    progress: Callable[[int, int | None], object] | None,
) -> None:
    """A response's body into sink within the size cap and the deadline."""
    from catalog.ingest.webclient import FetchError

    length = response.headers.get("content-length", "")
    total = int(length) if length.isdigit() else None
    if total is not None and total > max_bytes:
        raise FetchError(f"{label} is {total >> 20} MiB, more than the {max_bytes >> 20} MiB cap")
    done = 0
    for chunk in response.iter_bytes():
        done += len(chunk)
        if done > max_bytes:
            raise FetchError(f"{label} sent more than {max_bytes >> 20} MiB; stopped")
        if time.monotonic() > ends:
            raise FetchError(f"{label} took too long to download; try again later")
        sink(chunk)
        if progress is not None:
            progress(done, total)
