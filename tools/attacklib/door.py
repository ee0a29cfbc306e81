"""Attacks on the files added around the catalog: the reader's file, the key map, the
inbox and authors.yaml, each written through the one door."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from attacklib import (
    REPO,
    TRACEBACK,
    build_site,
    case,
    first_key,
    imported,
    papers,
    project,
    traceback,
)

READING = """\
# my reading plan
# (kept by hand: papers must not lose these lines)
papers:
  {a}: {{status: reading, started_on: 2024-01-02}}  # the one I am on

queue:
  # next up
  - {b}
# end of the file
"""


def _keys(root: Path, n: int) -> list[str]:
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    return re.findall(r"- key: (\S+)", text)[:n]


def _comments(text: str) -> list[str]:
    return [ln.strip() for ln in text.lstrip("\ufeff").splitlines() if ln.strip().startswith("#")]


@case("29.1", "status and queue --top keep the reader's comments, BOM and CRLF; an emptied queue")
def reading_file_kept(tmp: Path) -> str | None:
    for bom, newline in (("", "\n"), ("\ufeff", "\r\n")):
        root = project(tmp / f"bom{bool(bom)}")
        a, b, c = _keys(root, 3)
        path = root / "data" / "reading.yaml"
        text = bom + READING.format(a=a, b=b).replace("\n", newline)
        path.write_bytes(text.encode("utf-8"))
        wanted = _comments(READING)
        for args in (("status", c, "read"), ("queue", "--top", a), ("status", b, "reading")):
            if args[0] == "queue":  # a is reading: make it to-read first, then top it
                papers(root, "status", a, "to-read")
            run = papers(root, *args)
            if run.code != 0 or traceback(run):
                return f"papers {' '.join(args)}: {traceback(run) or run.err.strip()[-120:]}"
            data = path.read_bytes()
            now = data.decode("utf-8")
            if bom and not now.startswith(bom):
                return f"after papers {' '.join(args)}: the byte-order mark was dropped"
            if newline == "\r\n" and data.count(b"\n") != data.count(b"\r\n"):
                return f"after papers {' '.join(args)}: CRLF became LF"
            lost = [ln for ln in wanted if ln not in _comments(now)]
            if lost:
                return f"after papers {' '.join(args)}: comments lost: {lost}"
        if papers(root, "check").code not in (0, 1) or "reading.yaml" in papers(root, "check").out:
            return "check finds a problem in the reading file papers wrote"
    return None


def _bib(key: str, title: str) -> str:
    return (
        f"@inproceedings{{{key},\n  title = {{{title}}},\n"
        "  author = {Ann Author and Bo Writer},\n  booktitle = {OSDI},\n  year = {2023},\n}\n"
    )


KEYMAP = '# my key map\r\n# (hand notes)\r\n"oldkey2020x": "{key}"\r\n'


@case("29.1", "an import that renames keys keeps keymap.yaml's comments and CRLF")
def keymap_file_kept(tmp: Path) -> str | None:
    root = project(tmp)
    taken = first_key(root)
    path = root / "data" / "keymap.yaml"
    path.write_bytes(KEYMAP.format(key=taken).encode("utf-8"))
    run = imported(
        root, tmp / "lib.bib", _bib(taken, "A Different Made-Up Paper on Sharded Queues")
    )
    if run.code != 0 or traceback(run):
        return f"import: {traceback(run) or run.err.strip()[-160:]}"
    data = path.read_bytes()
    text = data.decode("utf-8")
    if data.count(b"\n") != data.count(b"\r\n"):
        return "keymap.yaml: CRLF became LF"
    if "# my key map" not in text or "# (hand notes)" not in text:
        return "keymap.yaml: comments lost"
    if f"{taken}:" not in text and f'"{taken}":' not in text:
        return f"keymap.yaml does not record the renamed key {taken}"
    return None


@case("29.1", "a kill at each write of an import that renames keys leaves the files agreeing")
def keymap_in_step(tmp: Path) -> str | None:
    for point in ("after-rename:1", "after-rename:2", "before-rename:2", "before-rename:3"):
        root = project(tmp / point.replace(":", "-"))
        taken = first_key(root)
        run = imported(
            root,
            tmp / f"{point.replace(':', '-')}.bib",
            _bib(taken, "A Different Made-Up Paper on Sharded Queues"),
            env={"PAPERS_TEST_CRASH": point},
        )
        if traceback(run):
            return f"{point}: {traceback(run)}"
        check = papers(root, "check")
        if "keymap.yaml" in check.out + check.err:
            return f"killed at {point}: check: {(check.out + check.err).strip()[-160:]}"
        keys = set(_keys(root, 100_000))
        keymap = root / "data" / "keymap.yaml"
        named = (
            re.findall(r': "?([^"\s]+)"?$', keymap.read_text("utf-8"), re.M)
            if keymap.exists()
            else []
        )
        if set(named) - keys:
            return f"killed at {point}: keymap.yaml names {sorted(set(named) - keys)}, no paper"
        aux = tmp / f"{point.replace(':', '-')}.aux"
        aux.write_text(f"\\citation{{{taken}}}\n", encoding="utf-8")
        out = root / "out.bib"
        export = papers(root, "export", "--keymap", "--aux", str(aux), "-o", str(out))
        if traceback(export):
            return f"killed at {point}: export: {traceback(export)}"
        if export.code == 0:
            got = re.findall(r"@\w+\{([^,]+),", out.read_text(encoding="utf-8"))
            if got != [taken]:
                return f"killed at {point}: export --keymap --aux cited {got}, not [{taken}]"
    return None


@case("29.1", "keys 'on', 'Yes', 'True' and an author 'Yes': read back as the words they are")
def keys_that_look_like_booleans(tmp: Path) -> str | None:
    root = project(tmp)
    run = imported(
        root,
        tmp / "words.bib",
        "".join(
            _bib(key, title)
            for key, title in (
                ("on", "Queues of Apples in Orchards"),
                ("Yes", "Sharding Pears Across Baskets"),
                ("True", "Caching Plums Near the Door"),
            )
        ),
    )
    if run.code != 0 or traceback(run):
        return f"import: {traceback(run) or run.err.strip()[-160:]}"
    for key, status in (("on", "read"), ("Yes", "reading")):
        run = papers(root, "status", key, status)
        if run.code != 0:
            return f"status {key} {status}: {run.err.strip()[-120:]}"
    reading = papers(root, "list", "status:reading", "--keys")
    read = papers(root, "list", "status:read", "--keys")
    if reading.out.split() != ["Yes"] or read.out.split() != ["on"]:
        return f"status:reading lists {reading.out.split()}, status:read {read.out.split()}"
    check = papers(root, "check")
    if "reading.yaml" in check.out:
        return f"check: {check.out.strip()[-160:]}"
    # A person whose display name is a YAML 1.1 boolean keeps it on the site.
    (root / "data" / "authors.yaml").write_text("Yes: [Ann Author]\n", encoding="utf-8")
    run, site = build_site(root)
    if run.code != 0:
        return f"site build: {run.err.strip()[-160:]}"
    titles = [
        m.group(1)
        for page in (site / "authors").rglob("*.html")
        for m in re.finditer(r"<h[12][^>]*>([^<]*)<", page.read_text(encoding="utf-8"))
    ]
    if "True" in titles or "Yes" not in titles:
        return f"the author page of 'Yes' is titled {[t for t in titles if t in ('True', 'Yes')]}"
    return None


@case("29.1", "keymap.yaml keys that close a BibTeX entry, ESC and U+202E from a .bib key")
def keymap_injection(tmp: Path) -> str | None:
    root = project(tmp)
    taken = first_key(root)
    path = root / "data" / "keymap.yaml"
    evil = "x2020x,}\\n@misc{evil, note={\\input{/etc/hostname}}"
    path.write_text(f'"{evil}": "{taken}"\n', encoding="utf-8")
    out = root / "out.bib"
    export = papers(root, "export", "--keymap", "-o", str(out))
    if traceback(export):
        return f"export: {traceback(export)}"
    if out.exists() and "\\input" in out.read_text(encoding="utf-8"):
        return "a keymap key wrote \\input into the export"
    if export.code == 0:
        return "export --keymap took a key map line that is not a citation key"
    if "keymap.yaml:1" not in export.err:
        return f"the error does not name keymap.yaml's line: {export.err.strip()[-160:]}"
    if "keymap.yaml:1" not in papers(root, "check").out:
        return "check does not report the key map's bad line"
    path.unlink()
    hostile = _bib("evil\x1b[2J\u202e2023", "A Made-Up Paper With a Hostile Key")
    run = imported(root, tmp / "controls.bib", hostile)
    if traceback(run):
        return f"import: {traceback(run)}"
    for file in (path, out):
        if file.exists() and re.search("[\x1b\u202e]", file.read_text(encoding="utf-8")):
            return f"{file.name} holds the .bib key's ESC or U+202E"
    papers(root, "export", "--keymap", "-o", str(out))
    if out.exists() and re.search("[\x1b\u202e]", out.read_text(encoding="utf-8")):
        return "the export holds the .bib key's ESC or U+202E"
    return None


@case("29.1", "a FIFO at keymap.yaml: export --keymap and import end with an error, never hang")
def keymap_fifo(tmp: Path) -> str | None:
    root = project(tmp)
    os.mkfifo(root / "data" / "keymap.yaml")
    bib = tmp / "one.bib"
    bib.write_text(_bib(first_key(root), "A Different Made-Up Paper on Sharded Queues"), "utf-8")
    for args in (("export", "--keymap", "-o", str(tmp / "o.bib")), ("import", str(bib))):
        started = time.monotonic()
        try:
            run = papers(root, *args, timeout=30)
        except subprocess.TimeoutExpired:
            return f"papers {args[0]} hung on the FIFO"
        if traceback(run):
            return f"papers {args[0]}: {traceback(run)}"
        if run.code == 0 and args[0] == "export":
            return "export --keymap read a FIFO as the key map"
        if time.monotonic() - started > 20:
            return f"papers {args[0]} took {time.monotonic() - started:.0f} s"
    return None


@case("29.1", "a duplicate key or read_on: 2024-13-45 in reading.yaml: status, queue, migrate")
def reading_file_broken_by_hand(tmp: Path) -> str | None:
    root = project(tmp)
    a, b = _keys(root, 2)
    path = root / "data" / "reading.yaml"
    cases = {
        "twice": f"papers:\n  {a}: {{status: read}}\n  {a}: {{status: reading}}\n",
        "bad date": f"papers:\n  {a}: {{status: read, read_on: 2024-13-45}}\n",
    }
    for name, text in cases.items():
        for args in (
            ("status", a, "read"),
            ("status", b, "reading"),
            ("queue", "--top", b),
            ("queue",),
            ("status", "--migrate"),
        ):
            path.write_text(text, encoding="utf-8")
            run = papers(root, *args)
            if traceback(run):
                return f"{name}: papers {' '.join(args)}: {traceback(run)}"
            if run.code not in (0, 1):
                return f"{name}: papers {' '.join(args)} exited {run.code}"
            if run.code == 1 and "reading.yaml" not in run.err:
                return f"{name}: papers {' '.join(args)}: {run.err.strip()[-120:]!r}"
    return None


@case("29.1", "rm of a paper you have read (and queued, and renamed by import) leaves check clean")
def rm_what_you_read(tmp: Path) -> str | None:
    root = project(tmp)
    a, b = _keys(root, 2)
    for args in (("status", a, "read"), ("queue", "--top", b)):
        papers(root, *args)
    run = papers(root, "rm", a, b, "--yes")
    if run.code != 0 or traceback(run):
        return f"rm: {traceback(run) or run.err.strip()[-120:]}"
    check = papers(root, "check")
    if "reading.yaml" in check.out or "keymap.yaml" in check.out:
        return f"check after rm: {check.out.strip()[-160:]}"
    return None


@case("29.1", "an editor saves reading.yaml while status is about to replace it (rename held)")
def editor_saves_in_the_gap(tmp: Path) -> str | None:
    if shutil.which("strace") is None:
        return "strace is not installed: this case needs it to hold the rename"
    root = project(tmp)
    a = _keys(root, 1)[0]
    path = root / "data" / "reading.yaml"
    path.write_text("papers:\n", encoding="utf-8")
    papers(root, "index")
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1"}
    env.pop("PAPERS_CATALOG", None)
    hold = "inject=rename,renameat,renameat2:delay_enter=1500000"
    held = "trace=rename,renameat,renameat2"
    strace = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", held, "-e", hold]
    proc = subprocess.Popen(
        [*strace, sys.executable, "-m", "catalog.cli", "status", a, "read"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    marker = "# saved by an editor during the write\n"
    deadline = time.monotonic() + 60
    while not list(path.parent.glob(".reading.yaml.*.tmp")):
        if proc.poll() is not None or time.monotonic() > deadline:
            break
        time.sleep(0.005)
    else:
        time.sleep(0.5)  # the write's own checks are done: it waits at the held rename
        save = path.with_name(".editor-save")
        save.write_text(path.read_text(encoding="utf-8") + marker, encoding="utf-8")
        os.replace(save, path)
    _, err = proc.communicate(timeout=120)
    if TRACEBACK in err:
        return f"traceback: {err.strip().splitlines()[-1][:120]}"
    if marker not in path.read_text(encoding="utf-8"):
        said = "succeeded" if proc.returncode == 0 else f"exited {proc.returncode}"
        return f"the editor's save was lost (the command {said})"
    return None
