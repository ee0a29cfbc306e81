"""The attack harness: the Case registry and the helpers every attack module uses."""

from __future__ import annotations

import contextlib
import http.server
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
TRACEBACK = "Traceback (most recent call last)"
# The catalog each case attacks a copy of (the tests point it at their small seed catalog).
CATALOG = REPO / "data" / "papers.yaml"
# Controls a terminal acts on (ESC, BEL, C1, bidi overrides); newline and tab are text.
TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@dataclass
class Case:
    name: str
    item: str  # the issue-8 item it reproduces
    what: str
    run: Callable[[Path], str | None]  # None when the attack held, else what broke


CASES: list[Case] = []


def case(item: str, what: str) -> Callable[[Callable[[Path], str | None]], Callable]:
    def register(fn: Callable[[Path], str | None]) -> Callable:
        CASES.append(Case(fn.__name__, item, what, fn))
        return fn

    return register


# ------------------------------------------------------------------ helpers


@dataclass
class Run:
    code: int
    out: str
    err: str


def papers(
    root: Path,
    *args: str,
    env: dict[str, str] | None = None,
    input: str | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> Run:
    """`papers ARGS` from this checkout, in root (the catalog's project folder)."""
    full = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    full.pop("PAPERS_CATALOG", None) if "PAPERS_CATALOG" not in (env or {}) else None
    full.pop("PAPERS_DB", None) if "PAPERS_DB" not in (env or {}) else None
    done = subprocess.run(
        [sys.executable, "-m", "catalog.cli", *args],
        cwd=cwd or root,
        env=full,
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def added(
    root: Path,
    title: str,
    *extra: str,
    author: str = "Eve Mallory",
    year: str = "2023",
    venue: str = "OSDI",
) -> Run:
    """`papers add` of a paper given by hand (a title, one author, year and venue), with
    the extra options after them."""
    return papers(
        root, "add", "--title", title, "-a", author, "--year", year, "--venue", venue, *extra
    )


def imported(
    root: Path, source: Path, text: str, *extra: str, env: dict[str, str] | None = None
) -> Run:
    """Write text (a .bib file or a list) to source, then `papers import` it."""
    source.write_text(text, encoding="utf-8")
    return papers(root, "import", str(source), *extra, env=env)


@contextlib.contextmanager
def serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A stand-in web service answering with handler on a free local port, as its address."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def traceback(run: Run) -> str | None:
    if TRACEBACK in run.err or TRACEBACK in run.out:
        last = (run.err or run.out).strip().splitlines()[-1]
        return f"traceback: {last[:120]}"
    return None


def project(tmp: Path) -> Path:
    """A copy of the shipped project (data/, site/, overrides/, mkdocs.yml) in tmp/proj."""
    root = tmp / "proj"
    root.mkdir(parents=True)
    shutil.copytree(REPO / "data", root / "data")
    shutil.copy(CATALOG, root / "data" / "papers.yaml")
    (root / "catalog").symlink_to(REPO / "catalog")  # mkdocs.yml's hook path
    shutil.copytree(REPO / "site", root / "site")
    shutil.copytree(REPO / "overrides", root / "overrides")  # mkdocs.yml's custom_dir
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def first_key(root: Path, catalog: Path | None = None) -> str:
    text = (catalog or root / "data" / "papers.yaml").read_text(encoding="utf-8")
    return re.search(r"- key: (\S+)", text).group(1)  # type: ignore[union-attr]


def add_paper(root: Path, yaml_lines: str, year: str = "2023", venue: str = "OSDI") -> None:
    """Append a hand-written paper (a hand edit: no door checks it) under year/venue."""
    path = root / "data" / "papers.yaml"
    text = path.read_text(encoding="utf-8")
    anchor = f"{year}:\n"
    block = f"  {venue}:\n" if f"{anchor}  {venue}:\n" not in text else ""
    head = text.index(anchor) + len(anchor)
    if block:
        text = text[:head] + block + yaml_lines + text[head:]
    else:
        at = text.index(f"  {venue}:\n", head) + len(f"  {venue}:\n")
        text = text[:at] + yaml_lines + text[at:]
    path.write_text(text, encoding="utf-8")


class _Live(HTMLParser):
    """What would run in a built page: payload-calling scripts and handlers, and links
    with a scheme other than http(s). Every payload here calls alert(), so the theme's
    own scripts are told apart by that."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_script = tag == "script"
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") and "alert" in value:
                self.found.append(f"<{tag} {name}={value[:40]}>")
            # The site writes no data: link (its citation files are joined in the
            # browser from data scripts): any is live.
            live = re.match(r"\s*(javascript|data|vbscript):", value, re.I)
            if name in ("href", "src", "action", "formaction") and live:
                self.found.append(f"<{tag} {name}={value[:40]}>")

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and "alert(" in data:
            self.found.append(f"<script>{data.strip()[:40]}")


def live_script(site: Path) -> str | None:
    """The first page of a built site where the data put something that would run."""
    for page in sorted(site.rglob("*.html")):
        parser = _Live()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        if parser.found:
            return f"{page.relative_to(site)}: {parser.found[0]}"
    return None


def build_site(root: Path, *extra: str) -> tuple[Run, Path]:
    out = root / "build" / "site"
    # Not strict: the notes may name papers a small test catalog lacks; the attack is
    # what matters here, not a note's broken link.
    run = papers(root, "site", "build", "-o", str(out), "--no-strict", *extra, timeout=300)
    return run, out
