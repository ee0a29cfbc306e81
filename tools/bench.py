"""Benchmark the catalog core on synthetic catalogs: medians of whole-process runs.

    python tools/bench.py                          # 1,000 / 10,000 / 100,000 papers
    python tools/bench.py --sizes 10000 --repeat 7

For each size (tools/synth.py: 2-8 authors, tags, a summary and an abstract of about
800 characters), every row of the benchmark table but the site build
(tools/bench_site.py): a full index build (`papers index`), a cold `papers search
embedding` (top 20) beside its floor (Python starting and running the same FTS5
query with sqlite3 alone), the same for `papers search embedding cache`, the no-op
freshness check (in-process), `papers export --abstracts` beside its floor (the
same entries formatted with f-strings from the same index), `papers check`, a
search right after a one-paper edit, and the edits `status`, `tag`/`untag`, `tag
--new` and `tags --rename` (of a one-paper tag, and `1/8` of a tag on one paper in
eight), each with its re-index. `--rows` picks rows.

A command and its floor run in turn (A B A B ...) and the ratio is the median of the
pairs' ratios, so that a machine whose speed drifts during the run still gives a fair
ratio. Peak memory is the largest resident set of the command's process (wait4, from a
small launcher process: it cannot read below about 10 MiB).
The commands run as `python -m catalog.cli` from the checkout this file is in, with
bytecode caching on, as an installed package runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# This checkout's catalog (not an installed one) and its tools.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth

REPO = Path(__file__).resolve().parent.parent
PAPERS = [sys.executable, "-m", "catalog.cli"]
# The targets (issue 19): seconds at 1,000 and at 10,000 papers, a ratio to the floor at
# 10,000 (None: no target). 100,000 papers are measured and reported, not a target.
TARGETS: dict[str, tuple[float | None, float | None, float | None]] = {
    "index build": (None, None, None),
    "search (cold)": (None, None, 4.0),
    "search 2 words (cold)": (None, None, 4.0),
    "freshness": (None, None, None),
    "export --abstracts": (None, None, 5.0),
    "check": (None, None, None),
    "search after 1 edit": (None, None, None),
    "status": (0.3, 1.0, None),
    "tag/untag": (0.3, 1.0, None),
    "tag --new": (0.3, 1.0, None),
    "tags --rename": (0.3, 1.0, None),
    "tags --rename 1/8": (None, None, None),
}
# Floors run in a clean interpreter (-I: no site-packages, no environment), as Python
# alone would start.
# The index holds Snowball stems (catalog.index.words): "embedding" is "embed" there.
SEARCH_FLOOR = (
    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
    'c.execute("select key from papers_fts f join papers p on p.rowid = f.rowid '
    'where papers_fts match ? order by rank limit 20", (sys.argv[2],)).fetchall()'
)
# The export's floor: the entries' fields read from the index and formatted with
# f-strings, no escaping, no title protection, no registry, written to a file.
EXPORT_FLOOR = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
entries = []
for key, authors, title, venue, year, pages, doi, arxiv, url, abstract in conn.execute(
        "select key, authors, title, venue_name, year, pages, doi, arxiv, url, abstract "
        "from papers order by key"):
    fields = [("author", " and ".join(json.loads(authors))), ("title", title),
              ("booktitle", venue), ("year", str(year))]
    for name, value in (("pages", pages), ("doi", doi), ("eprint", arxiv), ("url", url),
                        ("abstract", abstract)):
        if value:
            fields.append((name, value))
    body = ",\\n".join(f"  {name:<9} = {{{value}}}" for name, value in fields)
    entries.append(f"@inproceedings{{{key},\\n{body}\\n}}\\n")
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("\\n".join(entries))
"""


@dataclass
class Run:
    """One whole-process run: wall seconds, CPU seconds, peak resident MiB."""

    wall: float
    cpu: float
    peak: float


# Runs one command and prints its wall and CPU seconds, peak resident KiB and exit code.
# A separate small process: a child counts, in its peak, the pages of the process it was
# forked (or vforked) from until it execs, and this one holds a whole synthetic catalog
# (hundreds of MiB at 100k papers); this launcher holds about 10 MiB, the reading's floor.
LAUNCHER = """
import json, os, sys, time
errors = open(sys.argv[1], "wb")
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(errors.fileno(), 2)
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
print(json.dumps([time.perf_counter() - started, usage.ru_utime + usage.ru_stime,
                  usage.ru_maxrss, os.waitstatus_to_exitcode(status)]))
"""


def run(
    args: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,), cwd: Path | None = None
) -> Run:
    """Run a command to its end, its output thrown away; its own rusage via wait4. cwd:
    the folder it runs in (`python -m` imports from there first)."""
    with tempfile.NamedTemporaryFile() as errors:
        launched = subprocess.run(
            [sys.executable, "-c", LAUNCHER, errors.name, *args],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
        wall, cpu, peak_kib, code = json.loads(launched.stdout)
        if code not in ok:
            raise SystemExit(
                f"{' '.join(args)} exited {code}:\n{Path(errors.name).read_text(errors='replace')}"
            )
    return Run(wall, cpu, peak_kib / 1024)


@dataclass
class Row:
    """The runs of one piece of work, with its floor's when it has one."""

    runs: list[Run] = field(default_factory=list)
    floor: list[Run] = field(default_factory=list)

    def median(self, attr: str = "wall", floor: bool = False) -> float:
        return statistics.median(getattr(r, attr) for r in (self.floor if floor else self.runs))

    def ratio(self) -> float | None:
        if not self.floor:
            return None
        return statistics.median(
            a.wall / b.wall for a, b in zip(self.runs, self.floor, strict=True)
        )


def repeated(fn: Callable[[], Run], times: int) -> Row:
    return Row([fn() for _ in range(times)])


def paired(fn: Callable[[], Run], floor: Callable[[], Run], times: int) -> Row:
    row = Row()
    for _ in range(times):
        row.runs.append(fn())
        row.floor.append(floor())
    return row


def edit_one_paper(catalog: Path, n: int) -> None:
    """Change one title in a year block in the middle of the file."""
    text = catalog.read_text(encoding="utf-8")
    at = text.index("title: ", len(text) // 2)
    end = text.index("\n", at)
    catalog.write_text(
        text[:at] + f'title: "Edited {n}: A Changed Title"' + text[end:], encoding="utf-8"
    )


def bench_size(
    size: int, repeat: int, folder: Path, rows: set[str] | None = None
) -> dict[str, Row]:
    catalog = synth.write(size, folder)
    db = folder / "build" / "catalog.db"
    env = {
        **os.environ,
        "PAPERS_CATALOG": str(catalog),
        "PAPERS_DB": str(db),
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    # Bytecode as an installed package has it: with PYTHONDONTWRITEBYTECODE set (as on
    # some CI and sandbox shells) every run would recompile each module (~40 ms).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    slow = max(2, repeat // 3) if size >= 100_000 else repeat  # whole-catalog work
    out: dict[str, Row] = {}
    say = lambda what: print(f"  {size:,}: {what}", file=sys.stderr, flush=True)  # noqa: E731

    def want(name: str) -> bool:
        return rows is None or name in rows

    say("index build")
    if want("index build"):
        out["index build"] = repeated(lambda: run([*PAPERS, "index"], env), slow)
    else:  # the rows chosen time the work on an index, not its first build
        run([*PAPERS, "index"], env)
    say("search")
    if want("search (cold)"):
        out["search (cold)"] = paired(
            lambda: run([*PAPERS, "search", "embedding"], env),
            lambda: run([sys.executable, "-I", "-c", SEARCH_FLOOR, str(db), "embed"], env),
            repeat,
        )
    if want("search 2 words (cold)"):  # the words side by side rank higher: one more match
        out["search 2 words (cold)"] = paired(
            lambda: run([*PAPERS, "search", "embedding", "cache"], env),
            lambda: run([sys.executable, "-I", "-c", SEARCH_FLOOR, str(db), "embed cach"], env),
            repeat,
        )
    say("freshness")
    if want("freshness"):
        out["freshness"] = repeated(lambda: _freshness(catalog, db), repeat)
    say("export")
    bib, floor_bib = folder / "refs.bib", folder / "floor.bib"
    if want("export --abstracts"):
        out["export --abstracts"] = paired(
            lambda: run([*PAPERS, "export", "--abstracts", "-o", str(bib)], env),
            lambda: run([sys.executable, "-I", "-c", EXPORT_FLOOR, str(db), str(floor_bib)], env),
            slow,
        )
    say("check")
    if want("check"):
        out["check"] = repeated(lambda: run([*PAPERS, "check"], env, ok=(0, 1)), slow)

    counter = iter(range(10**6))

    def search_after_edit() -> Run:
        edit_one_paper(catalog, next(counter))
        return run([*PAPERS, "search", "embedding"], env)

    say("edits")
    if want("search after 1 edit"):
        out["search after 1 edit"] = repeated(search_after_edit, repeat)
    key = next(
        line.split()[-1]
        for line in catalog.read_text(encoding="utf-8").splitlines()
        if line.lstrip().startswith("- key: ")
    )
    flip = iter(range(10**6))
    if want("status"):
        out["status"] = repeated(
            lambda: run([*PAPERS, "status", key, ("read", "reading")[next(flip) % 2]], env), repeat
        )
    if want("tag/untag"):
        out["tag/untag"] = repeated(
            lambda: run([*PAPERS, "tag" if next(flip) % 2 else "untag", key, "-t", "caching"], env),
            repeat,
        )
    new_tags = iter(range(10**6))
    if want("tag --new"):
        out["tag --new"] = repeated(
            lambda: run([*PAPERS, "tag", key, "-t", f"bench-{next(new_tags)}", "--new"], env),
            repeat,
        )
    elif want("tags --rename"):  # the tag it renames
        run([*PAPERS, "tag", key, "-t", "bench-0", "--new"], env)
    names = iter(range(10**6))

    def rename() -> Run:  # bench-0 -> renamed-1 -> renamed-2 ...: a tag a paper carries
        n = next(names)
        return run(
            [*PAPERS, "tags", "--rename", f"renamed-{n}" if n else "bench-0", f"renamed-{n + 1}"],
            env,
        )

    if want("tags --rename"):
        out["tags --rename"] = repeated(rename, repeat)
    # The tag synth gives about one paper in eight, renamed there and back: every run
    # rewrites the same papers' lines and re-indexes their full text.
    common = iter(range(10**6))
    if want("tags --rename 1/8"):
        out["tags --rename 1/8"] = repeated(
            lambda: run(
                [
                    *PAPERS,
                    "tags",
                    "--rename",
                    *(("caching", "cache-x") if next(common) % 2 == 0 else ("cache-x", "caching")),
                ],
                env,
            ),
            repeat,
        )
    return out


def _freshness(catalog: Path, db: Path) -> Run:
    """The no-op freshness check in this process (what every command pays first)."""
    from catalog.index import database
    from catalog.paths import Paths

    started = time.perf_counter()
    cpu = time.process_time()
    assert database.refresh(Paths(catalog, db)).action == "fresh"
    return Run(time.perf_counter() - started, time.process_time() - cpu, 0.0)


def _cell(value: float | None, fmt: str) -> str:
    return format(value, fmt) if value is not None else ""


def report(rows: list[tuple[int, dict[str, Row]]], repeat: int) -> None:
    print(
        f"\nmedians of whole-process runs ({repeat} runs each; at 100,000 papers the index "
        "build, export and check run fewer); freshness in-process; ratio: paired runs "
        "against the floor"
    )
    header = (
        f"{'papers':>8}  {'work':<20} {'seconds':>8} {'peak MiB':>8} {'floor s':>8} "
        f"{'ratio':>6}   {'target s':>8} {'ratio':>6} {'MiB':>5}"
    )
    print(header)
    for size, out in rows:
        for name, row in out.items():
            seconds, ratio_target, peak_target = _targets(name, size)
            peak = row.median("peak") if row.runs[0].peak else None
            floor = row.median(floor=True) if row.floor else None
            print(
                f"{size:>8,}  {name:<20} {row.median():>8.3f} {_cell(peak, '8.0f'):>8} "
                f"{_cell(floor, '8.3f'):>8} {_cell(row.ratio(), '6.2f'):>6}   "
                f"{_cell(seconds, '8.2f'):>8} {_cell(ratio_target, '6.1f'):>6} "
                f"{_cell(peak_target, '5.0f'):>5}"
            )
        print()


def _targets(name: str, size: int) -> tuple[float | None, float | None, float | None]:
    """(seconds, ratio, peak MiB) targets that apply at this size."""
    at1, at10, ratio = TARGETS[name]
    if size == 1_000:
        return at1, None, None
    if size == 10_000:
        return at10, ratio, None
    return None, None, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--rows",
        nargs="+",
        choices=list(TARGETS),
        metavar="ROW",
        help=f"time only these rows (of: {', '.join(TARGETS)})",
    )
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            print(f"… {size:,} papers", file=sys.stderr, flush=True)
            rows.append(
                (
                    size,
                    bench_size(
                        size,
                        args.repeat,
                        Path(tmp) / str(size),
                        set(args.rows) if args.rows else None,
                    ),
                )
            )
    report(rows, args.repeat)


if __name__ == "__main__":
    main()
