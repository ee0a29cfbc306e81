"""Attack the real `papers` CLI as an adversary would, each case on a fresh copy of the
shipped catalog, and report which attacks held.

    python tools/attacks.py            # every case, a table of outcomes
    python tools/attacks.py -k xss     # the cases whose name contains 'xss'
    python tools/attacks.py --json     # for scripts

A case holds when papers refused or neutralised the attack: no traceback, the exit
code a user should see, and no file lost, replaced or made to carry live script or
LaTeX. tests/test_attacks.py runs every case, so none can come back unnoticed.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
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
            if name in ("href", "src", "action", "formaction") and re.match(
                r"\s*(javascript|data|vbscript):", value, re.I
            ):
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


# ------------------------------------------------------------------ data loss


@case("1", "--db names the catalog itself")
def db_is_the_catalog(tmp: Path) -> str | None:
    root = project(tmp)
    before = snapshot(root / "data")
    run = papers(root, "--db", "data/papers.yaml", "search", "embedding")
    if snapshot(root / "data") != before:
        return "data/papers.yaml was replaced"
    return traceback(run) or (None if run.code != 0 else "exit 0 with a foreign --db")


@case("1", "PAPERS_DB names a user's file (thesis.tex, venues.yaml)")
def db_env_is_a_users_file(tmp: Path) -> str | None:
    root = project(tmp)
    (root / "thesis.tex").write_text("\\documentclass{article}\n", encoding="utf-8")
    for target in ("thesis.tex", "data/venues.yaml"):
        before = (root / target).read_bytes()
        run = papers(root, "list", env={"PAPERS_DB": target})
        if (root / target).read_bytes() != before:
            return f"{target} was replaced"
        if traceback(run) or run.code == 0:
            return traceback(run) or f"exit 0 with PAPERS_DB={target}"
    return None


@case("2", "site build -o data/ (the catalog's folder)")
def site_into_data(tmp: Path) -> str | None:
    root = project(tmp)
    before = snapshot(root / "data")
    run = papers(root, "site", "build", "-o", "data", timeout=300)
    if snapshot(root / "data") != before:
        return "files in data/ were deleted or changed"
    return traceback(run) or (None if run.code != 0 else "exit 0 building into data/")


@case("2", "site build -o a folder holding the user's thesis.tex")
def site_into_users_folder(tmp: Path) -> str | None:
    root = project(tmp)
    victim = root / "victim"
    victim.mkdir()
    (victim / "thesis.tex").write_text("mine\n", encoding="utf-8")
    run = papers(root, "site", "build", "-o", "victim/", timeout=300)
    if not (victim / "thesis.tex").exists():
        return "victim/thesis.tex was deleted"
    return traceback(run) or (None if run.code != 0 else "exit 0 building over thesis.tex")


@case("3", "tag on a symlinked catalog")
def symlinked_catalog(tmp: Path) -> str | None:
    root = project(tmp)
    store = tmp / "store"
    store.mkdir()
    shutil.move(root / "data" / "papers.yaml", store / "papers.yaml")
    (root / "data" / "papers.yaml").symlink_to(Path("..", "..", "store", "papers.yaml"))
    key = first_key(root, store / "papers.yaml")
    run = papers(root, "tag", key, "-t", "gpu")
    if not (root / "data" / "papers.yaml").is_symlink():
        return "the link became a regular file"
    text = (store / "papers.yaml").read_text(encoding="utf-8")
    block = text[text.index(f"key: {key}") :].split("- key:")[0]
    if "gpu" not in block:
        return "the link's target never got the tag"
    return traceback(run) or (None if run.code == 0 else f"exit {run.code}: {run.err[:80]}")


@case("4", "two catalogs in one folder, ten `tag --new` each at once")
def two_catalogs_one_folder(tmp: Path) -> str | None:
    root = project(tmp)
    shutil.copy(root / "data" / "papers.yaml", root / "data" / "other.yaml")
    procs = []
    full = {**os.environ, "PYTHONPATH": str(REPO)}
    for i in range(10):
        for name in ("papers.yaml", "other.yaml"):
            key = first_key(root)
            args = [
                sys.executable,
                "-m",
                "catalog.cli",
                "--catalog",
                f"data/{name}",
                "--db",
                f"build/{name}.db",
                "tag",
                key,
                "-t",
                f"new-{name[:5]}-{i}",
                "--new",
            ]
            procs.append(
                subprocess.Popen(
                    args,
                    cwd=root,
                    env=full,
                    text=True,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )
    errors = []
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        if TRACEBACK in err or proc.returncode != 0:
            errors.append((err.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:160])
    tags = (root / "data" / "tags.yaml").read_text(encoding="utf-8")
    lost = [
        f"new-{n[:5]}-{i}"
        for i in range(10)
        for n in ("papers.yaml", "other.yaml")
        if f"new-{n[:5]}-{i}:" not in tags
    ]
    if lost:
        return f"{len(lost)} of 20 new tags lost" + (f" ({errors[0]})" if errors else "")
    return f"{len(errors)} crashed: {errors[0]}" if errors else None


@case("5", "tag with a corrupted index reports the write")
def tag_with_corrupt_index(tmp: Path) -> str | None:
    root = project(tmp)
    papers(root, "index")
    db = root / "build" / "catalog.db"
    data = bytearray(db.read_bytes())  # the header stays: still papers' index, but broken
    data[100:] = b"\xff" * (len(data) - 100)
    db.write_bytes(bytes(data))
    key = first_key(root)
    run = papers(root, "tag", key, "-t", "gpu")
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    wrote = "gpu" in text[text.index(f"key: {key}") :].split("- key:")[0]
    if wrote and run.code != 0:
        return f"wrote the tag but exited {run.code}"
    if not wrote:
        return "the tag was not written"
    return traceback(run)


# ------------------------------------------------------------------ injection


@case("6", "a title with --> <script> through the reading-note template")
def xss_through_note_template(tmp: Path) -> str | None:
    root = project(tmp)
    title = 'Evil --><script>alert("xss1")</script><!-- x'
    run = papers(
        root,
        "add",
        "--title",
        title,
        "-a",
        "Eve Mallory",
        "--year",
        "2023",
        "--venue",
        "OSDI",
        "--key",
        "mallory2023evil",
    )
    if run.code != 0:
        return None if not traceback(run) else traceback(run)  # refused at the door: held
    note = papers(root, "note", "mallory2023evil", env={"EDITOR": "true", "VISUAL": "true"})
    if traceback(note):
        return traceback(note)
    built, site = build_site(root)
    if built.code != 0:
        return traceback(built) or f"site build failed: {built.err[-120:]}"
    return live_script(site)


@case("7", "add --url javascript:alert(1)")
def javascript_url_by_add(tmp: Path) -> str | None:
    root = project(tmp)
    for url in (
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        " JavaScript:alert(1)",
    ):
        run = papers(
            root,
            "add",
            "--title",
            "Links",
            "-a",
            "Eve Mallory",
            "--year",
            "2023",
            "--venue",
            "OSDI",
            "--url",
            url,
            "--key",
            "mallory2023links",
        )
        if run.code == 0 or traceback(run):
            return traceback(run) or f"accepted url {url!r}"
    return None


@case("7", "a .bib url javascript: imported, then the site built")
def javascript_url_by_import(tmp: Path) -> str | None:
    root = project(tmp)
    bib = tmp / "evil.bib"
    bib.write_text(
        "@inproceedings{mallory2023links,\n  title = {Links everywhere},\n"
        "  author = {Mallory, Eve},\n  booktitle = {OSDI},\n  year = {2023},\n"
        "  url = {javascript:alert(1)}\n}\n",
        encoding="utf-8",
    )
    run = papers(root, "import", str(bib))
    if traceback(run):
        return traceback(run)
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    if "javascript:" in text:
        return "the javascript: url was stored"
    return None


@case("7-8", "hand-edited javascript: url and <img onerror> status on the site")
def hand_edit_on_site(tmp: Path) -> str | None:
    root = project(tmp)
    add_paper(
        root,
        '    - key: mallory2023hand\n      title: "Hand"\n'
        '      authors: [Eve Mallory]\n      url: "javascript:alert(1)"\n'
        '      status: "<img src=x onerror=alert(2)>"\n',
    )
    built, site = build_site(root)
    if traceback(built):
        return traceback(built)
    if built.code != 0:
        return None  # refused to publish it: held
    return live_script(site)


@case("8", "a tag like $\\frac{1}{$ in the chart build")
def mathtext_tag(tmp: Path) -> str | None:
    root = project(tmp)
    key = first_key(root)
    tags = root / "data" / "tags.yaml"
    tags.write_text(tags.read_text(encoding="utf-8") + '"$\\\\frac{1}{$": math\n', encoding="utf-8")
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    text = text.replace(f"key: {key}\n", f"key: {key}\n      # x\n", 1)
    (root / "data" / "papers.yaml").write_text(text, encoding="utf-8")
    run = papers(root, "tag", key, "-t", "$\\frac{1}{$")
    if traceback(run):
        return traceback(run)
    built, _ = build_site(root)
    return traceback(built) or (None if built.code == 0 else f"build failed: {built.err[-100:]}")


@case("9", "add --doi '10.1234/\\input{/some/file}', and the same by hand edit then export")
def latex_injection(tmp: Path) -> str | None:
    root = project(tmp)
    run = papers(
        root,
        "add",
        "--title",
        "Inject",
        "-a",
        "Eve Mallory",
        "--year",
        "2023",
        "--venue",
        "OSDI",
        "--doi",
        "10.1234/\\input{/etc/hostname}",
        "--key",
        "mallory2023inject",
    )
    if run.code == 0 or traceback(run):
        return traceback(run) or "the DOI was accepted"
    add_paper(
        root,
        '    - key: mallory2023hand\n      title: "Hand"\n'
        '      authors: [Eve Mallory]\n      doi: "10.1234/\\\\input{/etc/hostname}"\n'
        '      url: "https://x.org/\\\\input{/etc/hostname}"\n',
    )
    export = papers(root, "export", "key:mallory2023hand")
    if traceback(export):
        return traceback(export)
    return "\\input{ reached the .bib" if "\\input{" in export.out else None


@case("10", "ESC/OSC and NUL in a title, shown in the terminal")
def controls_in_terminal(tmp: Path) -> str | None:
    root = project(tmp)
    add_paper(
        root,
        "    - key: mallory2023esc\n"
        '      title: "Esc \\e]8;;https://evil\\a link \\e[2J\\0 end"\n'
        '      authors: ["Eve \\e[31mMallory"]\n',
    )
    for args in (("show", "mallory2023esc"), ("search", "Esc"), ("list",), ("check",)):
        run = papers(root, *args)
        if traceback(run):
            return traceback(run)
        if TERMINAL_CONTROLS.search(run.out + run.err):
            return f"`papers {' '.join(args)}` printed a control character"
    return None


@case("10", "control characters from a .bib into the catalog and reading notes")
def controls_from_bib(tmp: Path) -> str | None:
    root = project(tmp)
    bib = tmp / "esc.bib"
    bib.write_text(
        "@article{mallory2023esc,\n  title = {Esc \x1b]8;;https://evil\x07 link"
        " \x1b[2J end},\n  author = {Mallory, Eve\x00},\n"
        "  journal = {Proceedings of the VLDB Endowment},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    run = papers(root, "import", str(bib))
    if traceback(run):
        return traceback(run)
    if TERMINAL_CONTROLS.search((root / "data" / "papers.yaml").read_text(encoding="utf-8")):
        return "a control character reached papers.yaml"
    for note in (
        (root / "data" / "readings").glob("*.md") if (root / "data" / "readings").exists() else []
    ):
        if TERMINAL_CONTROLS.search(note.read_text(encoding="utf-8")):
            return f"a control character reached {note.name}"
    return None


@case("11", "papers note on a hand-edited key ../../../x or an absolute path")
def note_path_traversal(tmp: Path) -> str | None:
    for key in ("../../../escaped", "/tmp/papers-attack-escaped"):
        root = project(tmp / key.strip("./").replace("/", "_"))
        add_paper(
            root, f'    - key: "{key}"\n      title: "Traversal"\n      authors: [Eve Mallory]\n'
        )
        run = papers(root, "note", key, env={"EDITOR": "true", "VISUAL": "true"})
        outside = [
            p
            for p in (tmp.parent / "escaped.md", Path(key + ".md"), root.parent / "escaped.md")
            if p.exists()
        ]
        if outside:
            for p in outside:
                p.unlink()
            return f"wrote {outside[0]}"
        if traceback(run):
            return traceback(run)
        if run.code == 0:
            return f"exit 0 for key {key!r}"
    return None


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
        handler = type("Reply", (_Reply,), {"body": body})
        server = http.server.HTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}"
            run = papers(
                root,
                "add",
                "--doi",
                "10.1145/3600006.3613169",
                env={"PAPERS_CROSSREF_URL": url, "PAPERS_DBLP_URL": url, "PAPERS_ARXIV_URL": url},
                timeout=60,
            )
        finally:
            server.shutdown()
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


# ------------------------------------------------------------------ the command line


@case("18", "unknown or misplaced options after search, list and export")
def misplaced_options(tmp: Path) -> str | None:
    root = project(tmp)
    for args in (
        ("search", "embedding", "--jsn"),
        ("search", "embedding", "--catalog", "other.yaml"),
        ("export", "--asci"),
    ):
        run = papers(root, *args)
        if traceback(run) or run.code != 2:
            return traceback(run) or f"`papers {' '.join(args)}` exit {run.code}, not 2"
    run = papers(root, "list", "--limit", "2")
    if run.code != 0 or "0 papers" in run.out:
        return f"`papers list --limit 2`: exit {run.code}: {(run.out + run.err)[:80]}"
    run = papers(root, "search", "embedding", "-caching", "--keys")
    if run.code != 0 or not run.out.strip():
        return "the exclusion `-caching` stopped working"
    return None


@case("19", "-n means one thing across the CLI")
def one_letter_one_meaning(tmp: Path) -> str | None:
    root = project(tmp)
    meanings = {}
    for command in (
        "search",
        "queue",
        "related",
        "tag",
        "status",
        "add",
        "import",
        "rm",
        "list",
        "export",
    ):
        run = papers(root, command, "--help")
        m = re.search(r"-n\b[^\n]*?(--[a-z-]+)|(--[a-z-]+)[ ,]+-n\b", run.out)
        if m:
            meanings[command] = m.group(1) or m.group(2)
    if len(set(meanings.values())) > 1:
        return f"-n means {sorted(set(meanings.values()))}"
    return None


@case("20", "outside a catalog: bib-check anywhere, site build with a clear message")
def outside_a_catalog(tmp: Path) -> str | None:
    root = project(tmp)
    nowhere = tmp / "elsewhere"
    nowhere.mkdir()
    bib = nowhere / "x.bib"
    bib.write_text(
        "@article{a2023b,\n  title = {T},\n  author = {A, B},\n"
        "  journal = {Proceedings of the VLDB Endowment},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    run = papers(root, "bib-check", str(bib), cwd=nowhere)
    if traceback(run) or "no venue registry" in run.err:
        return traceback(run) or "bib-check needs a catalog"
    run = papers(root, "site", "build", cwd=nowhere)
    if traceback(run) or "Aborted with a BuildError" in run.err or run.code == 0:
        return traceback(run) or f"site build outside a catalog: {run.err.strip()[-80:]}"
    deep = root / "data" / "readings"
    deep.mkdir(exist_ok=True)
    run = papers(root, "search", "embedding", cwd=deep)
    if run.code != 0:
        return "a command in a subfolder of the project did not find the catalog"
    return None


# ------------------------------------------------------------------ issue 20: data lost


def _papers_of(path: Path) -> dict[str, object]:
    """Every paper of a catalog file, by key, without its line (read by papers' own reader)."""
    sys.path.insert(0, str(REPO))
    from catalog.data import reader

    return {p.key: {**vars(p), "line": 0} for p in reader.load(path)}


@case("20.1", "U+2028, U+2029 or NEL in a title by hand, then add, rm, tags --rename, check")
def line_separator_in_title(tmp: Path) -> str | None:
    for char, name in (("\u2028", "U+2028"), ("\u2029", "U+2029"), ("\x85", "U+0085")):
        root = project(tmp / name)
        path = root / "data" / "papers.yaml"
        text = path.read_text(encoding="utf-8")
        at = text.index("title: ") + len("title: ") + 1
        path.write_text(text[:at] + char + text[at:], encoding="utf-8")
        before = path.read_bytes()
        second = re.findall(r"- key: (\S+)", text)[1]
        tag = re.search(r"tags: \[([a-z0-9-]+)", text).group(1)  # type: ignore[union-attr]
        for args in (
            [
                "add",
                "--title",
                "A New Paper",
                "-a",
                "Ann Author",
                "--year",
                "2023",
                "--venue",
                "OSDI",
            ],
            ["rm", second, "--yes"],
            ["tags", "--rename", tag, f"{tag}-renamed"],
        ):
            run = papers(root, *args)
            if traceback(run):
                return f"{name}, {args[0]}: {traceback(run)}"
            if path.read_bytes() != before:
                return f"{name}: `{args[0]}` wrote a catalog whose lines it counted two ways"
            if run.code != 1 or name not in run.err:
                return f"{name}: `{args[0]}` said {run.err.strip()[-100:]!r} (exit {run.code})"
        run = papers(root, "check")
        if run.code != 1 or name not in run.out + run.err:
            return f"{name}: check did not report it (exit {run.code})"
    return None


def _unknown_tags(root: Path) -> list[str]:
    """check's findings of tags the vocabulary lacks."""
    run = papers(root, "check")
    return [line for line in (run.out + run.err).splitlines() if "unknown tag" in line]


def _rename_consistent(root: Path, before: list[str]) -> str | None:
    """None when the vocabulary and the papers agree as well as they did before."""
    found = _unknown_tags(root)
    if len(found) > len(before):
        return f"check after the kill: {len(found) - len(before)} more unknown tags"
    return None


@case("20.2", "a kill at each rename of `tags --rename`, then check and the rename again")
def kill_between_files(tmp: Path) -> str | None:
    for point in (
        "before-rename:1",
        "after-rename:1",
        "before-rename:2",
        "after-rename:2",
        "before-rename:3",
        "after-rename:3",
    ):
        root = project(tmp / point.replace(":", "-"))
        tags = (root / "data" / "tags.yaml").read_text(encoding="utf-8")
        catalog = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
        carried = {
            tag.strip()
            for found in re.findall(r"tags: \[([^\]]*)\]", catalog)
            for tag in found.split(",")
        }
        old = next(t for t in re.findall(r"^([a-z0-9-]+):", tags, re.M) if t in carried)
        new = f"{old}-renamed"
        baseline = _unknown_tags(root)
        run = papers(root, "tags", "--rename", old, new, env={"PAPERS_TEST_CRASH": point})
        if traceback(run):
            return f"{point}: {traceback(run)}"
        broke = _rename_consistent(root, baseline)
        if broke:
            return f"killed at {point}: {broke}"
        again = papers(root, "tags", "--rename", old, new)
        done_before = run.code == 0
        if again.code != 0 and not done_before and f"no tag '{old}'" not in again.err:
            return f"killed at {point}: the rename again said {again.err.strip()[-100:]!r}"
        text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
        vocabulary = (root / "data" / "tags.yaml").read_text(encoding="utf-8")
        carried = {
            tag.strip()
            for tags in re.findall(r"tags: \[([^\]]*)\]", text)
            for tag in tags.split(",")
        }
        if old in carried or f"\n{old}:" in vocabulary:
            return f"killed at {point}: '{old}' is left after the rename ran again"
        if _rename_consistent(root, baseline):
            return f"killed at {point}: check fails after the rename ran again"
    return None


@case("20.3", "an editor saving by rename while `tags --rename` runs on 3,000 papers")
def editor_races_the_writer(tmp: Path) -> str | None:
    sys.path.insert(0, str(REPO / "tools"))
    import synth

    lost = 0
    for round_ in range(4):
        folder = tmp / f"round{round_}"
        catalog = synth.write(3000, folder)
        env = {"PAPERS_CATALOG": str(catalog), "PAPERS_DB": str(folder / "build" / "c.db")}
        papers(folder, "index", env=env)
        full = {**os.environ, "PYTHONPATH": str(REPO), **env}
        proc = subprocess.Popen(
            [sys.executable, "-m", "catalog.cli", "tags", "--rename", "caching", f"cache-{round_}"],
            cwd=folder,
            env=full,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        saved = 0
        marker = ""
        while proc.poll() is None:
            saved += 1
            marker = f"# hand edit {round_}.{saved}\n"
            text = catalog.read_text(encoding="utf-8")
            tmp_file = catalog.with_name(".editor-save")
            tmp_file.write_text(text + marker, encoding="utf-8")
            os.replace(tmp_file, catalog)
            time.sleep(0.02)
        _, err = proc.communicate()
        if TRACEBACK in err:
            return f"round {round_}: traceback: {err.strip().splitlines()[-1][:100]}"
        if marker and marker not in catalog.read_text(encoding="utf-8"):
            lost += 1
        check = papers(folder, "check", env=env)
        if check.code != 0 and "unknown tag" in check.out + check.err:
            return f"round {round_}: tags.yaml and papers.yaml disagree after the race"
    return f"the last hand edit was lost in {lost} of 4 rounds" if lost else None


@case("20.6", "/dev/zero and a FIFO given as the catalog, an import, a .bib, an .aux")
def special_files(tmp: Path) -> str | None:
    root = project(tmp)
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    for special in ("/dev/zero", str(fifo)):
        for args in (
            ["--catalog", special, "search", "x"],
            ["import", special],
            ["bib-check", special],
            ["export", "--aux", special],
            ["add", "--bibtex", special],
        ):
            try:
                run = papers(root, *args, timeout=20)
            except subprocess.TimeoutExpired:
                return f"`papers {' '.join(args)}` still reading after 20 s"
            if traceback(run) or run.code != 1 or "not a regular file" not in run.err:
                return traceback(run) or f"`papers {' '.join(args)}`: {run.err.strip()[-90:]!r}"
    return None


@case("20.4", "a 2 MB title, a 280-letter first word and a 99-letter tag, from a .bib and by hand")
def overlong_fields(tmp: Path) -> str | None:
    root = project(tmp)
    word = "x" * 280
    bib = tmp / "long.bib"
    bib.write_text(
        "@inproceedings{huge,\n  title = {" + "A " * 1_000_000 + "},\n  author = {Ann Author},\n"
        "  booktitle = {OSDI},\n  year = {2023}\n}\n"
        "@inproceedings{longword,\n  title = {" + word + " and more},\n"
        "  author = {Bo Author},\n  booktitle = {OSDI},\n  year = {2023}\n}\n",
        encoding="utf-8",
    )
    run = papers(root, "import", str(bib))
    if traceback(run):
        return f"import: {traceback(run)}"
    keys = re.findall(r"- key: (\S+)", (root / "data" / "papers.yaml").read_text("utf-8"))
    if max(map(len, keys)) > 64:
        return f"a key of {max(map(len, keys))} characters was written"
    for key in (k for k in keys if "xxxx" in k):
        run = papers(root, "note", key, "--json", env={"EDITOR": ""})
        if traceback(run) or run.code != 0:
            return f"note {key[:30]}...: {traceback(run) or run.err.strip()[-90:]}"
    run = papers(root, "tag", first_key(root), "-t", "y" * 99, "--new")
    if traceback(run) or run.code == 0:
        return traceback(run) or "a 99-character tag was added"
    add_paper(
        root,
        f"    - key: longtag2023x\n      title: Long Tag\n      authors: [A B]\n"
        f"      tags: [{'z' * 99}]\n",
    )
    run = papers(root, "check")
    if "longer than 40 characters" not in run.out + run.err:
        return "check did not report the 99-character tag"
    built, _ = build_site(root)
    if traceback(built):
        return f"site build: {traceback(built)}"
    return None


@case("20.7", "site sources/build -o inside overrides/, site/ or data/")
def output_inside_inputs(tmp: Path) -> str | None:
    root = project(tmp)
    before = snapshot(root)
    for command in ("sources", "build"):
        for out in ("overrides/x", "site/gen", "data/x", "site/notes/x"):
            extra = ["--no-strict"] if command == "build" else []
            run = papers(root, "site", command, "-o", out, *extra, timeout=300)
            # (mkdocs itself refuses a site_dir inside docs_dir, before the hook runs)
            refused = "inside" in run.err or "docs_dir" in run.err
            if traceback(run) or run.code == 0 or not refused:
                return traceback(run) or f"site {command} -o {out}: {run.err.strip()[-90:]!r}"
    made = sorted(p for p in set(snapshot(root)) - set(before) if not p.startswith("build"))
    return f"files made inside the project's inputs: {made[:3]}" if made else None


@case("20.8", "the inbox: comments through imports and drops, a year written ²⁰²³")
def inbox_by_hand(tmp: Path) -> str | None:
    root = project(tmp)
    first, second = tmp / "first.md", tmp / "second.md"
    first.write_text(
        "## 2023\n\n- [OSDI'23] [A Made-Up System for Caches](https://example.org/a)\n"
        "- [OSDI'23] [Another Made-Up Store](https://example.org/b)\n",
        "utf-8",
    )
    second.write_text("- [SOSP'23] [A Third Made-Up Thing](https://example.org/c)\n", "utf-8")
    run = papers(root, "import", str(first))
    if traceback(run) or run.code != 0:
        return f"import: {traceback(run) or run.err.strip()[-90:]}"
    inbox = root / "data" / "inbox.yaml"
    comment = "# my note on these candidates\n"
    inbox.write_text(inbox.read_text("utf-8") + comment, "utf-8")
    for args in (["import", str(second)], ["inbox", "--json"]):
        run = papers(root, *args)
        if traceback(run) or run.code != 0:
            return f"{args[0]}: {traceback(run) or run.err.strip()[-90:]}"
    ident = json.loads(run.out)[0]["id"]
    run = papers(root, "inbox", "drop", ident)
    if traceback(run) or run.code != 0:
        return f"inbox drop: {traceback(run) or run.err.strip()[-90:]}"
    if comment not in inbox.read_text("utf-8"):
        return "an inbox write dropped the file's comment"
    text = inbox.read_text("utf-8")
    inbox.write_text(re.sub(r"year: \d{4}", "year: ²⁰²³", text, count=1), "utf-8")
    run = papers(root, "inbox")
    if traceback(run) or run.code != 1 or "not a year" not in run.err:
        return traceback(run) or f"a year ²⁰²³: {run.err.strip()[-90:]!r}"
    return None


class _Hostile(http.server.BaseHTTPRequestHandler):
    """A metadata service that misbehaves one way, chosen by the class attribute `how`."""

    how = "loop"

    def do_GET(self) -> None:
        if self.how == "loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.end_headers()
        elif self.how == "elsewhere":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.2:9/works/elsewhere")
            self.end_headers()
        elif self.how == "deep":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"[" * 100_000 + b"]" * 100_000)
        elif self.how == "big":
            self.send_response(200)
            self.end_headers()
            chunk = b" " * (1 << 20)
            for _ in range(200):  # 200 MB of blanks before any JSON
                self.wfile.write(chunk)
        elif self.how == "slow":
            self.send_response(200)
            self.end_headers()
            for _ in range(60):  # one byte every half second: each read is quick
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.5)
        elif self.how == "other-arxiv":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(
                b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
                b"<id>http://arxiv.org/abs/2101.00001v1</id><title>Another Paper</title>"
                b"<published>2021-01-01T00:00:00Z</published>"
                b"<author><name>Ann Other</name></author></entry></feed>"
            )

    def log_message(self, *args: object) -> None:
        pass


@case("20.5", "a metadata service that loops, redirects away, nests, floods, drips or lies")
def hostile_services(tmp: Path) -> str | None:
    root = project(tmp)
    for how in ("loop", "elsewhere", "deep", "big", "slow", "other-arxiv"):
        handler = type("Hostile", (_Hostile,), {"how": how})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        env = {"PAPERS_CROSSREF_URL": url, "PAPERS_DBLP_URL": url, "PAPERS_ARXIV_URL": url}
        args = (
            ["add", "--arxiv", "2305.99999"]
            if how == "other-arxiv"
            else ["add", "--doi", "10.9999/made.up.1"]
        )
        started = time.monotonic()
        try:
            run = papers(root, *args, env=env, timeout=120)
        except subprocess.TimeoutExpired:
            return f"{how}: still waiting after 120 s"
        finally:
            server.shutdown()
        took = time.monotonic() - started
        if traceback(run):
            return f"{how}: {traceback(run)}"
        if run.code == 0:
            return f"{how}: the reply was taken (exit 0)"
        if took > 60:
            return f"{how}: took {took:.0f} s"
    return None


@case("20.9", "distinct: itself, unknown, null, 7, markup; 'and others' editors; {{ }}; a CR")
def small_wrong_results(tmp: Path) -> str | None:
    root = project(tmp)
    key = first_key(root)
    catalog = root / "data" / "papers.yaml"
    catalog.write_text(
        catalog.read_text("utf-8")
        + "2012:\n  OSDI:\n    - key: dist2012x\n      title: Distinct Test\n"
        + "      authors: [A B]\n"
        + f"      distinct: [dist2012x, nosuch2020paper, null, 7, '<b>x</b>', {key}]\n",
        "utf-8",
    )
    run = papers(root, "check")
    out = run.out + run.err
    for expected in (
        "names the paper itself",
        "names no paper 'nosuch2020paper'",
        "'7' is not",
        "'<b>x</b>' is not",
    ):
        if expected not in out:
            return f"check did not say: {expected}"
    bib = tmp / "chapter.bib"
    bib.write_text(
        "@incollection{chap,\n  title = {A Chapter on Caches},\n  author = {Ann Author},"
        "\n  editor = {Bo Editor and others},\n  booktitle = {A Handbook},\n"
        "  publisher = {Springer},\n  year = {2023}\n}\n",
        "utf-8",
    )
    run = papers(root, "import", str(bib))
    if traceback(run) or run.code != 0:
        return f"import: {traceback(run) or run.err.strip()[-90:]}"
    catalog.write_text(catalog.read_text("utf-8").split("2012:\n", 1)[0], "utf-8")
    run = papers(root, "export", "chapter caches")
    if "Editor, Bo and others" not in run.out:
        return "the editors' 'and others' was lost on export"
    root2 = project(tmp / "two")
    path = root2 / "data" / "papers.yaml"
    text = path.read_text("utf-8")
    path.write_text(text.replace('title: "', 'title: "Braces {{ 7*7 }} and ${x} in ', 1), "utf-8")
    built, out_dir = build_site(root2)
    if traceback(built) or built.code != 0:
        return f"site build: {traceback(built) or built.err.strip()[-90:]}"
    pages = "".join(p.read_text("utf-8") for p in out_dir.rglob("*.html"))
    if "{{ 7*7 }} and ${x}" not in pages:
        return "braces and dollars in a title were lost on the site"
    path.write_text("# a comment with a lone \r carriage return\n" + text, "utf-8")
    before = path.read_bytes()
    run = papers(root2, "tag", first_key(root2), "-t", "caching")
    if traceback(run) or path.read_bytes() != before or run.code != 1:
        return traceback(run) or "an edit rewrote a lone CR in a comment"
    return None


# ------------------------------------------------------------------ running


def run_cases(selected: list[Case]) -> list[dict[str, object]]:
    results = []
    for c in selected:
        with tempfile.TemporaryDirectory(prefix=f"attack-{c.name}-") as folder:
            started = time.monotonic()
            try:
                broke = c.run(Path(folder))
            except Exception as err:  # the harness's own failure is an outcome too
                broke = f"harness error: {type(err).__name__}: {err}"[:160]
            results.append(
                {
                    "case": c.name,
                    "item": c.item,
                    "attack": c.what,
                    "held": broke is None,
                    "detail": broke or "",
                    "seconds": round(time.monotonic() - started, 1),
                }
            )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only cases whose name contains this")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    selected = [c for c in CASES if args.k in c.name]
    results = run_cases(selected)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for r in results:
            mark = "held " if r["held"] else "BROKE"
            print(
                f"{mark}  #{r['item']:<4} {r['attack']}"
                + (f"\n         {r['detail']}" if r["detail"] else "")
            )
        held = sum(bool(r["held"]) for r in results)
        print(f"{held} of {len(results)} attacks held")
    return 0 if all(r["held"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
