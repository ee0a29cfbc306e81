"""Attacks at the edges (issue 29, part 1): patterns fed 80-100 KB of hostile text, paths
that lead back into what is copied, two site builds at once, redirects to non-web
addresses, keys and names that are not file names, odd files to attach, venues that
carry controls."""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from attacklib import (
    REPO,
    TERMINAL_CONTROLS,
    add_paper,
    build_site,
    case,
    first_key,
    papers,
    project,
    serving,
    snapshot,
    traceback,
)
from attacklib.bounds import timed

# A hostile input must be read within this many seconds (papers' start-up included): each
# pattern took from tens of seconds to minutes on these inputs before it was bounded.
LIMIT = 10.0


def _slow_or_broken(root: Path, *args: str, codes: tuple[int, ...] = (0, 1)) -> str | None:
    """What went wrong with `papers ARGS` on a hostile input: too slow, a traceback, or an
    exit code other than those given."""
    run, seconds = timed(root, *args, limit=LIMIT)
    if run is None:
        return f"`papers {args[0]}` still running after {seconds:.0f} s"
    if traceback(run):
        return f"`papers {args[0]}`: {traceback(run)}"
    if run.code not in codes:
        return f"`papers {args[0]}` exit {run.code}: {run.err.strip()[-100:]}"
    return None


# ------------------------------------------------------------------ bounded patterns


@case("29.1", "a list line of 80 KB of 'a@' (the venue-tag pattern) imported")
def tag_pattern_bounded(tmp: Path) -> str | None:
    root = project(tmp)
    for name, line in (
        ("at", "a@" * 40_000),
        ("dots", "a." * 40_000 + "'x"),
        ("quotes", "a'1" * 30_000),
    ):
        md = tmp / f"{name}.md"
        md.write_text(f"- {line}\n- [A Paper](https://x.org/p) OSDI 2023\n", encoding="utf-8")
        if broke := _slow_or_broken(root, "import", str(md), "--dry-run"):
            return f"{name}: {broke}"
    return None


@case("29.1", "a note of 80 KB of '[[' (the [[key]] link pattern): check, notes")
def note_link_pattern_bounded(tmp: Path) -> str | None:
    root = project(tmp)
    notes = root / "site" / "notes"
    for name, text in (
        ("open", "[[" * 40_000),
        ("piped", "[[a|" * 20_000),
        ("nested", "[[a|[b" * 15_000),
    ):
        (notes / "hostile.md").write_text(f"# Hostile\n\n{text}\n", encoding="utf-8")
        for args in (("check",), ("notes",)):
            if broke := _slow_or_broken(root, *args):
                return f"{name}: {broke}"
    reading = root / "data" / "readings"
    reading.mkdir(parents=True, exist_ok=True)
    (reading / f"{first_key(root)}.md").write_text("[[" * 40_000, encoding="utf-8")
    return _slow_or_broken(root, "check")


@case("29.1", "a note of 80 KB of '<!--' never closed (the comment pattern)")
def note_comment_pattern_bounded(tmp: Path) -> str | None:
    root = project(tmp)
    key = first_key(root)
    (root / "site" / "notes" / "hostile.md").write_text(
        "# Hostile\n\n" + "<!--" * 20_000 + f"\n[[{key}]]\n", encoding="utf-8"
    )
    for args in (("check",), ("notes",)):
        if broke := _slow_or_broken(root, *args):
            return broke
    run = papers(root, "notes", "--json")
    if key not in run.out:
        return "a link after an unclosed '<!--' was lost"
    return None


def _bib(tmp: Path, name: str, field: str, value: str) -> Path:
    """A .bib file of one entry whose field holds value."""
    fields = {
        "title": "A Paper About Hostile Fields",
        "author": "Ann Lee",
        "booktitle": "Proceedings of OSDI",
        "year": "2023",
        field: value,
    }
    body = "".join(f"  {k} = {{{v}}},\n" for k, v in fields.items())
    path = tmp / f"{name}.bib"
    path.write_text(f"@inproceedings{{x{name}2023,\n{body}}}\n", encoding="utf-8")
    return path


@case("29.1", "80 KB .bib fields for the venue, arXiv, date and page patterns")
def bib_patterns_bounded(tmp: Path) -> str | None:
    root = project(tmp)
    for name, field, value in (
        ("months", "booktitle", "Proceedings of X, " + "jan " * 20_000),
        ("acronyms", "booktitle", "A&" * 40_000 + "B'21"),
        ("capitals", "booktitle", "Proc, " + "AA-" * 27_000 + ", June 28 2021"),
        ("arxiv", "journal", "arxiv" * 16_000),
        ("pages", "pages", "1-" * 40_000 + " 2"),
    ):
        bib = _bib(tmp, name, field, value)
        for args in (("bib-check", str(bib)), ("import", str(bib), "--dry-run")):
            if broke := _slow_or_broken(root, *args):
                return f"{name}: {broke}"
    return None


class _HostileRecord(http.server.BaseHTTPRequestHandler):
    """Crossref (and DBLP) replies whose venue names and abstract are 80 KB of what the
    patterns that read them scan: blanks, '(' and '<'."""

    def do_GET(self) -> None:
        names = ["(" * 80_000, "a" + " " * 80_000 + "b", "ICML" + "\t" * 80_000]
        work = {
            "title": ["A Paper With a Hostile Record"],
            "author": [{"given": "Ann", "family": "Lee"}],
            "issued": {"date-parts": [[2023]]},
            "type": "proceedings-article",
            "container-title": names,
            "event": {"name": " " * 80_000 + "x"},
            "abstract": "<" * 80_000,
        }
        body = json.dumps({"message": work}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@case("29.1", "a Crossref record with 80 KB venue names and abstract of blanks, '(' and '<'")
def service_patterns_bounded(tmp: Path) -> str | None:
    root = project(tmp)
    with serving(_HostileRecord) as url:
        env = {f"PAPERS_{s}_URL": url for s in ("CROSSREF", "DBLP", "ARXIV", "DOI")}
        started = time.monotonic()
        try:
            run = papers(root, "add", "--doi", "10.9999/hostile.1", "--dry-run", env=env)
        except subprocess.TimeoutExpired:
            return "add --doi still running after 120 s"
        seconds = time.monotonic() - started
    if traceback(run):
        return f"add --doi: {traceback(run)}"
    return f"add --doi took {seconds:.0f} s" if seconds > LIMIT else None


# ------------------------------------------------------------------ demo


@case("29.1", "demo into a folder inside data/ or site/, and into a dangling symlink")
def demo_into_itself(tmp: Path) -> str | None:
    root = project(tmp)
    before = snapshot(root / "data")
    (root / "dangling").symlink_to(tmp / "nowhere" / "at-all")
    for target, said in (
        ("data/sub", "inside"),
        ("site/notes/tour", "inside"),
        ("data", "not a new or empty folder"),
        ("dangling", "does not exist"),
    ):
        run, seconds = timed(root, "demo", target, limit=60)
        if run is None:
            return f"demo {target}: still copying after {seconds:.0f} s"
        if traceback(run):
            return f"demo {target}: {traceback(run)}"
        if run.code != 2 or said not in run.err:
            return f"demo {target}: exit {run.code}: {run.err.strip()[-100:]!r}"
    if snapshot(root / "data") != before:
        return "data/ changed"
    if (root / "site" / "notes" / "tour").exists() or (tmp / "nowhere").exists():
        return "a refused demo left a folder behind"
    run = papers(root, "demo", str(tmp / "tour"))
    if run.code != 0 or not (tmp / "tour" / "data" / "papers.yaml").is_file():
        return f"a demo into a new folder failed: {run.err.strip()[-100:]}"
    return None


# ------------------------------------------------------------------ site builds


def _start_build(root: Path, out: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    env.pop("PAPERS_CATALOG", None)
    env.pop("PAPERS_DB", None)
    return subprocess.Popen(
        [sys.executable, "-m", "catalog.cli", "site", "build", "-o", str(out), "--no-strict"],
        cwd=root,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _beside(out: Path) -> list[str]:
    """What lies beside the site folder besides the site and the builds' lock."""
    return sorted(
        p.name
        for p in out.parent.iterdir()
        if p.name.startswith(f".{out.name}.") and p.name != f".{out.name}.lock"
    )


@case("29.1", "two site builds of one folder at once")
def two_site_builds(tmp: Path) -> str | None:
    root = project(tmp)
    out = root / "build" / "site"
    procs = [_start_build(root, out) for _ in range(2)]
    results = []
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        results.append((proc.returncode, err))
    for code, err in results:
        if "Traceback (most recent call last)" in err:
            return f"traceback: {err.strip().splitlines()[-1][:120]}"
        if code not in (0, 1):
            return f"exit {code}: {err.strip()[-100:]}"
    codes = sorted(code for code, _ in results)
    if codes[0] != 0:
        return f"neither build finished: {results[0][1].strip()[-100:]}"
    refused = [err for code, err in results if code == 1]
    if refused and "another papers process" not in refused[0]:
        return f"the second build said: {refused[0].strip()[-120:]!r}"
    if not (out / "index.html").is_file() or not (out / ".papers-site").is_file():
        return "no complete site after the two builds"
    left = _beside(out)
    return f"left beside the site: {left}" if left else None


@case("29.1", "a site build killed while building, and the leftovers of killed swaps")
def killed_site_build(tmp: Path) -> str | None:
    root = project(tmp)
    built, out = build_site(root)
    if built.code != 0:
        return traceback(built) or f"site build: {built.err.strip()[-100:]}"
    before = snapshot(out)
    proc = _start_build(root, out)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if any(any(s.rglob("*.html")) for s in out.parent.glob(f".{out.name}.building-*")):
            break
        time.sleep(0.02)
    killed = proc.poll() is None  # else it finished first: nothing to compare
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    if killed and snapshot(out) != before:
        return "the site changed after a build was killed"
    # What a build killed in its swap leaves: the previous site where the staging folder
    # was (an exchange done, its removal not), and a previous-site folder of old builds.
    for name in (f".{out.name}.building-999999", f".{out.name}.previous-999999"):
        (out.parent / name).mkdir()
        (out.parent / name / ".papers-site").write_text("a site\n", encoding="utf-8")
        (out.parent / name / "index.html").write_text("old\n", encoding="utf-8")
    built, _ = build_site(root)
    if built.code != 0:
        return traceback(built) or f"the build after: {built.err.strip()[-100:]}"
    left = _beside(out)
    if left:
        return f"a later build left the killed builds' folders: {left}"
    return None if (out / "index.html").is_file() else "no site after the later build"


# ------------------------------------------------------------------ downloads


class _JavascriptRedirect(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(302)
        self.send_header("Location", "javascript:alert(1)")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def _arxiv_key(root: Path) -> str:
    """A paper of the catalog with an arXiv id (so `pdf` asks arXiv for it)."""
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    for block in text.split("- key: ")[1:]:
        if "\n      arxiv: " in block:
            return block.split()[0]
    raise AssertionError("no paper with an arXiv id")


@case("29.1", "a service redirects to javascript: (pdf, add --arxiv, add --doi, update)")
def javascript_redirect(tmp: Path) -> str | None:
    root = project(tmp)
    key = _arxiv_key(root)
    with serving(_JavascriptRedirect) as url:
        env = {
            **{f"PAPERS_{s}_URL": url for s in ("CROSSREF", "DBLP", "ARXIV", "DOI")},
            "PAPERS_ARXIV_PDF_URL": url,
            "XDG_CACHE_HOME": str(tmp / "cache"),
        }
        for args, code in (
            (("pdf", key), 1),
            (("add", "--arxiv", "2305.99999"), 1),
            (("add", "--doi", "10.9999/made.up.1"), 1),
            # update reports a service's bad reply and goes on with the rest (exit 0)
            (("update", f"key:{key}", "--no-cache"), 0),
        ):
            run = papers(root, *args, env=env, timeout=120)
            if traceback(run):
                return f"{args[0]}: {traceback(run)}"
            if run.code != code or "not a web address" not in run.err:
                return f"{' '.join(args)}: exit {run.code}: {run.err.strip()[-120:]!r}"
    return None


# ------------------------------------------------------------------ keys and names


class _Pdf(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/pdf")
        self.end_headers()
        self.wfile.write(b"%PDF-1.4\n% a made-up PDF\n")

    def log_message(self, *args: object) -> None:
        pass


DBLP_KEY = "DBLP:conf/osdi/Sima22"


@case("29.1", "a DBLP-style key with '/' and ':': add, attach, pdf, note, search, site")
def slash_key_files(tmp: Path) -> str | None:
    root = project(tmp)
    run = papers(
        root,
        *("add", "--key", DBLP_KEY, "--title", "Ekko: A Paper Filed Under a DBLP Key"),
        *("-a", "Chijun Sima", "--year", "2022", "--venue", "OSDI", "--url"),
        "https://www.usenix.org/conference/osdi22/presentation/sima",
    )
    if run.code != 0:
        return f"add --key {DBLP_KEY}: {traceback(run) or run.err.strip()[-100:]}"
    pdf = tmp / "ekko.pdf"
    pdf.write_bytes(b"%PDF-1.4\n% attached\n")
    for args, env in (
        (("attach", DBLP_KEY, str(pdf)), {}),
        (("note", DBLP_KEY), {"EDITOR": "true", "VISUAL": "true"}),
        (("show", DBLP_KEY), {}),
    ):
        run = papers(root, *args, env=env)
        if traceback(run) or run.code != 0:
            return f"{args[0]}: {traceback(run) or run.err.strip()[-100:]}"
    data = root / "data"
    made = sorted(str(p.relative_to(data)) for p in data.rglob("*Sima22*"))
    if made != ["pdfs/DBLP%3Aconf%2Fosdi%2FSima22.pdf", "readings/DBLP%3Aconf%2Fosdi%2FSima22.md"]:
        return f"the key's files: {made}"
    note = data / "readings" / "DBLP%3Aconf%2Fosdi%2FSima22.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nzebrafinch\n", encoding="utf-8")
    run = papers(root, "search", "note:zebrafinch", "--keys")
    if run.out.split() != [DBLP_KEY]:
        return f"the reading note is not the key's: {run.out.strip()[:80]!r}"
    (data / "pdfs" / "DBLP%3Aconf%2Fosdi%2FSima22.pdf").unlink()
    path = data / "papers.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "https://www.usenix.org/conference/osdi22/presentation/sima", "URL/ekko.pdf"
        ),
        encoding="utf-8",
    )
    with serving(_Pdf) as url:
        path.write_text(path.read_text(encoding="utf-8").replace("URL", url), encoding="utf-8")
        run = papers(root, "pdf", DBLP_KEY)
    if traceback(run) or run.code != 0:
        return f"pdf: {traceback(run) or run.err.strip()[-100:]}"
    if not (data / "pdfs" / "DBLP%3Aconf%2Fosdi%2FSima22.pdf").is_file():
        return "pdf did not keep the download under the key's file name"
    for bad in ("../../etc/passwd", ".hidden", "con"):
        run = papers(root, "attach", bad, str(pdf))
        if traceback(run) or run.code == 0:
            return f"attach {bad}: {traceback(run) or 'exit 0'}"
    return None


@case("29.1", "a paper key, tag, author and venue named index (any case) each get a page")
def pages_named_index(tmp: Path) -> str | None:
    root = project(tmp)
    venues = root / "data" / "venues.yaml"
    venues.write_text(
        venues.read_text(encoding="utf-8")
        + "\nIndex:\n  kind: conference\n  name: The Index Conference\n",
        encoding="utf-8",
    )
    tags = root / "data" / "tags.yaml"
    tags.write_text(tags.read_text(encoding="utf-8") + "index: Papers about indexes.\n", "utf-8")
    add_paper(
        root,
        "    - key: index\n      title: A Paper Keyed index\n      authors: [Index]\n"
        "      tags: [index]\n    - key: Index2\n      title: Another Paper\n"
        "      authors: [Ann Other]\n",
        venue="Index",
    )
    built, site = build_site(root)
    if traceback(built) or built.code != 0:
        return f"site build: {traceback(built) or built.err.strip()[-120:]}"
    pages = {
        str(p.parent.relative_to(site)): p.read_text(encoding="utf-8")
        for p in site.rglob("index.html")
    }
    for folder, title in (
        ("papers", "All papers"),
        ("tags", "Papers by tag"),
        ("venues", "Papers by venue"),
        ("authors", "Authors"),
    ):
        if title not in pages.get(folder, ""):
            return f"{folder}/ is no longer the list page"
    for folder, what in (
        ("papers", "A Paper Keyed index"),
        ("tags", "Tag: index"),
        ("venues", "The Index Conference"),
        ("authors", "A Paper Keyed index"),
    ):
        own = [p for f, p in pages.items() if f.startswith(f"{folder}/") and what in p]
        if not own:
            return f"no page of its own in {folder}/ for the name 'index' ({what!r})"
    return None


# ------------------------------------------------------------------ attach


@case("29.1", "attach a FIFO, a folder, /dev/zero and a sparse 2 GiB file")
def attach_odd_files(tmp: Path) -> str | None:
    root = project(tmp)
    key = first_key(root)
    fifo = tmp / "pipe.pdf"
    os.mkfifo(fifo)
    folder = tmp / "folder.pdf"
    folder.mkdir()
    sparse = tmp / "sparse.pdf"
    with open(sparse, "wb") as handle:
        handle.write(b"%PDF-1.4\n")
        handle.truncate(2 << 30)
    for source, said in (
        (fifo, "named pipe"),
        (folder, "folder"),
        (Path("/dev/zero"), "device"),
        (sparse, "GiB"),
    ):
        run, seconds = timed(root, "attach", key, str(source), limit=LIMIT)
        if run is None:
            return f"attach {source.name}: still running after {seconds:.0f} s"
        if traceback(run) or run.code != 1 or said not in run.err:
            return f"attach {source.name}: {traceback(run) or run.err.strip()[-100:]!r}"
    if (root / "data" / "pdfs").exists() and any((root / "data" / "pdfs").glob("*.pdf")):
        return "something was kept"
    return None


# ------------------------------------------------------------------ the venue registry

# (short name, extra options) that venues add must refuse, and the registry entry that
# carries the same value by hand, which check must report.
_HOSTILE_VENUES = (
    ("EVIL\n", (), '"EVIL\\n":\n  kind: conference\n  name: Evil One\n'),
    (
        "EVILA",
        ("--alias", "E\x1b[31mVIL"),
        'EVILA:\n  kind: conference\n  name: Evil Two\n  aliases: ["E\\e[31mVIL"]\n',
    ),
    (
        "EVILP",
        ("--publisher", "Evil \u202ePress"),
        'EVILP:\n  kind: conference\n  name: Evil Three\n  publisher: "Evil \\u202EPress"\n',
    ),
    (
        "EVILS",
        ("--source", "javascript:alert(1)"),
        'EVILS:\n  kind: conference\n  name: Evil Four\n  sources: ["javascript:alert(1)"]\n',
    ),
    ("Index", (), "Index:\n  kind: conference\n  name: Evil Five\n"),
)


@case("29.1", "venues add and a hand edit: a newline, ESC, U+202E, javascript:, Index")
def hostile_venues(tmp: Path) -> str | None:
    root = project(tmp)
    registry = root / "data" / "venues.yaml"
    before = registry.read_bytes()
    for n, (short, extra, _) in enumerate(_HOSTILE_VENUES):
        name = f"Hostile Venue Number {'ABCDE'[n]}"
        run = papers(root, "venues", "add", short, "--kind", "conference", "--name", name, *extra)
        if traceback(run) or run.code != 2:
            return f"venues add {short!r} {extra}: {traceback(run) or f'exit {run.code}'}"
        if TERMINAL_CONTROLS.search(run.err):
            return f"venues add {short!r}: the refusal printed a control character"
    if registry.read_bytes() != before:
        return "venues.yaml changed"
    for short, _, entry in _HOSTILE_VENUES:
        registry.write_bytes(before + b"\n" + entry.encode("utf-8"))
        run = papers(root, "check")
        if traceback(run) or run.code != 1:
            return f"check of a hand-added {short!r}: {traceback(run) or f'exit {run.code}'}"
        if TERMINAL_CONTROLS.search(run.out + run.err):
            return f"check of {short!r} printed a control character"
        if not any(line.startswith("data/venues.yaml:") for line in run.out.splitlines()):
            return f"check says nothing of the registry entry {short!r}"
    return None
