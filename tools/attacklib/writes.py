"""Attacks on the writer: odd line breaks, kills, racing editors, the inbox."""

from __future__ import annotations

import http.server
import json
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
    add_paper,
    build_site,
    case,
    first_key,
    imported,
    papers,
    project,
    serving,
    snapshot,
    traceback,
)

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

    # Every round races on the same catalog, made and indexed once and copied.
    made = tmp / "made"
    synth.write(3000, made)
    papers(
        made,
        "index",
        env={
            "PAPERS_CATALOG": str(made / "data" / "papers.yaml"),
            "PAPERS_DB": str(made / "build" / "c.db"),
        },
    )
    lost = 0
    for round_ in range(4):
        folder = tmp / f"round{round_}"
        shutil.copytree(made, folder)
        catalog = folder / "data" / "papers.yaml"
        env = {"PAPERS_CATALOG": str(catalog), "PAPERS_DB": str(folder / "build" / "c.db")}
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
    run = imported(
        root,
        tmp / "long.bib",
        "@inproceedings{huge,\n  title = {" + "A " * 1_000_000 + "},\n  author = {Ann Author},\n"
        "  booktitle = {OSDI},\n  year = {2023}\n}\n"
        "@inproceedings{longword,\n  title = {" + word + " and more},\n"
        "  author = {Bo Author},\n  booktitle = {OSDI},\n  year = {2023}\n}\n",
    )
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
    second = tmp / "second.md"
    second.write_text("- [SOSP'23] [A Third Made-Up Thing](https://example.org/c)\n", "utf-8")
    run = imported(
        root,
        tmp / "first.md",
        "## 2023\n\n- [OSDI'23] [A Made-Up System for Caches](https://example.org/a)\n"
        "- [OSDI'23] [Another Made-Up Store](https://example.org/b)\n",
    )
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
        args = (
            ["add", "--arxiv", "2305.99999"]
            if how == "other-arxiv"
            else ["add", "--doi", "10.9999/made.up.1"]
        )
        started = time.monotonic()
        with serving(type("Hostile", (_Hostile,), {"how": how})) as url:
            env = {"PAPERS_CROSSREF_URL": url, "PAPERS_DBLP_URL": url, "PAPERS_ARXIV_URL": url}
            try:
                run = papers(root, *args, env=env, timeout=120)
            except subprocess.TimeoutExpired:
                return f"{how}: still waiting after 120 s"
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
    run = imported(
        root,
        tmp / "chapter.bib",
        "@incollection{chap,\n  title = {A Chapter on Caches},\n  author = {Ann Author},"
        "\n  editor = {Bo Editor and others},\n  booktitle = {A Handbook},\n"
        "  publisher = {Springer},\n  year = {2023}\n}\n",
    )
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
