"""Attacks on time, memory and messages: bombs, encodings, odd files, services."""

from __future__ import annotations

import http.server
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from attacklib import (
    REPO,
    TRACEBACK,
    Run,
    case,
    first_key,
    papers,
    project,
    serving,
    traceback,
)

# ------------------------------------------------------------------ bounded time, messages

BOMB = (
    'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def timed(root: Path, *args: str, limit: float = 20) -> tuple[Run | None, float]:
    started = time.monotonic()
    try:
        run = papers(root, *args, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, limit
    return run, time.monotonic() - started


@case("12", "a YAML alias bomb in tags.yaml and in venues.yaml")
def alias_bombs(tmp: Path) -> str | None:
    for name in ("tags.yaml", "venues.yaml"):
        root = project(tmp / name)
        (root / "data" / name).write_text(BOMB, encoding="utf-8")
        run, seconds = timed(root, "search", "embedding")
        if run is None:
            return f"{name}: still running after {seconds:.0f} s"
        if traceback(run) or run.code == 0:
            return traceback(run) or f"{name}: exit 0"
    return None


@case("13", "a 100 KB Markdown line ('#', 50,000 spaces, 50,000 '#', 'x') imported")
def quadratic_markdown(tmp: Path) -> str | None:
    root = project(tmp)
    md = tmp / "list.md"
    md.write_text(
        "#" + " " * 50_000 + "#" * 50_000 + "x\n- [A paper](https://x.org) OSDI 2023\n",
        encoding="utf-8",
    )
    run, seconds = timed(root, "import", str(md), limit=20)
    if run is None:
        return f"import still running after {seconds:.0f} s"
    return traceback(run)


@case("14", ".bib brace nesting of 300")
def deep_braces(tmp: Path) -> str | None:
    root = project(tmp)
    bib = tmp / "deep.bib"
    bib.write_text(
        "@article{deep2023x,\n  title = {"
        + "{" * 300
        + "x"
        + "}" * 300
        + "},\n  author = {Deep, Dee},\n  journal = {Proceedings of the VLDB "
        "Endowment},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    for args in (("import", str(bib)), ("bib-check", str(bib))):
        run = papers(root, *args)
        if traceback(run):
            return f"{args[0]}: {traceback(run)}"
    return None


@case("14", "invalid UTF-8 in tags.yaml")
def bad_utf8_tags(tmp: Path) -> str | None:
    root = project(tmp)
    path = root / "data" / "tags.yaml"
    path.write_bytes(path.read_bytes() + b"broken: caf\xe9\n")
    for args in (("search", "embedding"), ("check",), ("tag", first_key(root), "-t", "gpu")):
        run = papers(root, *args)
        if traceback(run):
            return f"{args[0]}: {traceback(run)}"
        if run.code == 0:
            return f"{args[0]}: exit 0 on an unreadable tags.yaml"
    return None


@case("14", "tag on a UTF-16 and on a Latin-1 catalog")
def foreign_encodings(tmp: Path) -> str | None:
    for encoding in ("utf-16", "latin-1"):
        root = project(tmp / encoding)
        path = root / "data" / "papers.yaml"
        key = first_key(root)
        text = path.read_text(encoding="utf-8").replace("Gunawi", "Günawi", 1)
        path.write_bytes(text.encode(encoding, errors="replace"))
        before = path.read_bytes()
        run = papers(root, "tag", key, "-t", "gpu")
        if traceback(run):
            return f"{encoding}: {traceback(run)}"
        after = path.read_bytes()
        if after != before:
            try:
                after.decode(encoding)
            except UnicodeDecodeError:
                return f"{encoding}: the catalog was corrupted"
            if encoding == "latin-1" and b"\xc3" in after:
                return "latin-1: rewritten with mixed encodings"
    return None


@case("14", "the catalog path is a directory; --db a directory or an unwritable place")
def paths_that_are_not_files(tmp: Path) -> str | None:
    root = project(tmp)
    (root / "adir").mkdir()
    for args in (
        ("--catalog", "adir", "list"),
        ("--db", "adir", "list"),
        ("--db", "/proc/papers.db", "list"),
    ):
        run = papers(root, *args)
        if traceback(run):
            return f"{' '.join(args)}: {traceback(run)}"
        if run.code == 0:
            return f"{' '.join(args)}: exit 0"
    stray = [p.name for p in (root / "adir").iterdir()]
    return f"stray files in adir: {stray}" if stray else None


class _Reply(http.server.BaseHTTPRequestHandler):
    body = b"{}"

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args: object) -> None:
        pass


@case("14", "malformed Crossref replies to add --doi")
def malformed_crossref(tmp: Path) -> str | None:
    root = project(tmp)
    bodies = [
        b'{"message": []}',
        b'{"message": {"title": 7, "author": "x"}}',
        b"[1, 2",
        b'{"message": {"title": ["T"], "author": [{"family": null}], '
        b'"issued": {"date-parts": [["x"]]}}}',
        b"null",
    ]
    for body in bodies:
        with serving(type("Reply", (_Reply,), {"body": body})) as url:
            run = papers(
                root,
                "add",
                "--doi",
                "10.1145/3600006.3613169",
                env={"PAPERS_CROSSREF_URL": url, "PAPERS_DBLP_URL": url, "PAPERS_ARXIV_URL": url},
                timeout=60,
            )
        if traceback(run):
            return f"reply {body[:30]!r}: {traceback(run)}"
        if run.code == 0:
            return f"reply {body[:30]!r}: exit 0"
    return None


@case("15", "readers and writers at once on a fresh index; killed rebuilds' temp files")
def readers_on_a_fresh_index(tmp: Path) -> str | None:
    root = project(tmp)
    full = {**os.environ, "PYTHONPATH": str(REPO)}
    key = first_key(root)
    procs = []
    for i in range(24):
        args = (
            ["tag", key, "-t", "gpu" if i % 2 else "caching"]
            if i % 6 == 0
            else ["search", "embedding"]
        )
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "catalog.cli", *args],
                cwd=root,
                env=full,
                text=True,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        )
    crashed = []
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        if TRACEBACK in err or proc.returncode not in (0,):
            crashed.append((err.strip().splitlines() or ["exit " + str(proc.returncode)])[-1])
    if crashed:
        return f"{len(crashed)} of {len(procs)} failed: {crashed[0][:100]}"
    build = root / "build"
    (build / ".catalog.db.999999.tmp").write_bytes(b"x" * 1000)  # a dead rebuild's file
    papers(root, "index")
    left = [p.name for p in build.glob(".catalog.db.*.tmp")]
    return f"dead rebuilds' temp files left: {left}" if left else None


@case("16", "a partly corrupted index (pages overwritten, header intact)")
def partly_corrupt_index(tmp: Path) -> str | None:
    root = project(tmp)
    papers(root, "index")
    db = root / "build" / "catalog.db"
    data = bytearray(db.read_bytes())
    page = sqlite3.connect(db).execute("pragma page_size").fetchone()[0]
    for start in range(page * 2, len(data), page * 3):
        data[start : start + page // 2] = b"\x5a" * (page // 2)
    db.write_bytes(bytes(data))
    for args in (
        ("search", "embedding"),
        ("show", first_key(root)),
        ("list",),
        ("stats",),
        ("venues",),
        ("tags",),
        ("queue",),
        ("export",),
    ):
        run = papers(root, *args)
        if traceback(run) or run.code != 0:
            return f"{args[0]}: {traceback(run) or run.err.strip()[-100:]}"
    return None


@case("17", "a CRLF catalog keeps CRLF through an edit")
def crlf_kept(tmp: Path) -> str | None:
    root = project(tmp)
    path = root / "data" / "papers.yaml"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    run = papers(root, "tag", first_key(root), "-t", "gpu")
    if traceback(run) or run.code != 0:
        return traceback(run) or f"exit {run.code}: {run.err[:100]}"
    data = path.read_bytes()
    lone = data.count(b"\n") - data.count(b"\r\n")
    return f"{lone} lines rewritten to LF" if lone else None
