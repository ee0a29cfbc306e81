"""Benchmark the catalog core on synthetic catalogs: medians of whole-process runs.

    python tools/bench.py                 # 1,000 / 10,000 / 100,000 papers
    python tools/bench.py --sizes 10000 --repeat 7

Reports, per size: a full index build (`papers index`), a cold `papers search
embedding` on a fresh index, the no-op freshness check (in-process), the
refresh after a one-paper edit, and the one-paper edits themselves (`status`,
`tag`, `tag --new`, each with its re-index); beside each, the baseline of Python
starting and running one FTS5 query with sqlite3 alone, and the target at
10,000 papers (issue 12).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synth

# The console script itself, not a shell shim (pyenv's adds ~50 ms of bash).
PAPERS = Path(sysconfig.get_path("scripts")) / "papers"
TARGETS = {"build": 1.5, "search": 0.12, "noop": 0.01, "edit": 0.3, "status": 0.3,
           "tag": 0.3, "tag_new": 0.5}
BASELINE = ("import sqlite3; c = sqlite3.connect({db!r}); "
            "c.execute(\"select key from papers_fts f join papers p on p.rowid = f.rowid "
            "where papers_fts match 'embedding' order by rank limit 20\").fetchall()")


def run(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def median_of(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def edit_one_paper(catalog: Path, n: int) -> None:
    """Change one title in a year block in the middle of the file."""
    text = catalog.read_text(encoding="utf-8")
    at = text.index("title: ", len(text) // 2)
    end = text.index("\n", at)
    catalog.write_text(text[:at] + f'title: "Edited {n}: A Changed Title"' + text[end:],
                       encoding="utf-8")


def bench_size(size: int, repeat: int, folder: Path) -> dict[str, float]:
    catalog = synth.write(size, folder)
    db = folder / "build" / "catalog.db"
    env = {**os.environ, "PAPERS_CATALOG": str(catalog), "PAPERS_DB": str(db)}
    # Bytecode as an installed package has it: with PYTHONDONTWRITEBYTECODE set (as on
    # some CI and sandbox shells) every run would recompile each module (~40 ms).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    papers = str(PAPERS)
    out: dict[str, float] = {}
    out["build"] = median_of(lambda: run([papers, "index"], env), max(3, repeat // 2))
    out["search"] = median_of(lambda: run([papers, "search", "embedding"], env), repeat)
    out["baseline"] = median_of(
        lambda: run([sys.executable, "-c", BASELINE.format(db=str(db))], env), repeat)

    from catalog import index
    from catalog.paths import Paths

    paths = Paths(catalog, db)

    def noop() -> float:
        started = time.perf_counter()
        assert index.refresh(paths).action == "fresh"
        return time.perf_counter() - started

    out["noop"] = median_of(noop, repeat)
    counter = iter(range(10**6))

    def edit() -> float:
        edit_one_paper(catalog, next(counter))
        return run([papers, "search", "embedding"], env)

    out["edit"] = median_of(edit, repeat)
    key = next(line.split()[-1] for line in catalog.read_text(encoding="utf-8").splitlines()
               if line.lstrip().startswith("- key: "))
    flip = iter(range(10**6))
    out["status"] = median_of(lambda: run([papers, "status", key, ("read", "reading")[
        next(flip) % 2]], env), repeat)
    out["tag"] = median_of(lambda: run([papers, "tag" if next(flip) % 2 else "untag", key,
                                        "-t", "caching"], env), repeat)
    out["tag_new"] = median_of(lambda: run([papers, "tag", key, "-t", f"bench-{next(flip)}",
                                            "--new"], env), repeat)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            print(f"… {size:,} papers", file=sys.stderr)
            rows.append((size, bench_size(size, args.repeat, Path(tmp) / str(size))))
    print(f"\nmedians of whole-process runs (noop: in-process), {args.repeat} runs each")
    print(f"{'papers':>8}  {'index build':>12}  {'search':>8}  {'python+FTS5':>11}  "
          f"{'ratio':>5}  {'noop check':>10}  {'after 1 edit':>12}")
    for size, r in rows:
        print(f"{size:>8,}  {r['build']:>11.3f}s  {r['search']:>7.3f}s  {r['baseline']:>10.3f}s  "
              f"{r['search'] / r['baseline']:>5.2f}  {r['noop']:>9.4f}s  {r['edit']:>11.3f}s")
    print(f"{'target':>8}  {TARGETS['build']:>11.3f}s  {TARGETS['search']:>7.3f}s  "
          f"{'':>11}  {'':>5}  {TARGETS['noop']:>9.4f}s  {TARGETS['edit']:>11.3f}s"
          "   (at 10,000 papers)")
    print(f"\n{'papers':>8}  {'status':>8}  {'tag/untag':>9}  {'tag --new':>9}")
    for size, r in rows:
        print(f"{size:>8,}  {r['status']:>7.3f}s  {r['tag']:>8.3f}s  {r['tag_new']:>8.3f}s")
    print(f"{'target':>8}  {TARGETS['status']:>7.3f}s  {TARGETS['tag']:>8.3f}s  "
          f"{TARGETS['tag_new']:>8.3f}s   (at 10,000 papers)")


if __name__ == "__main__":
    main()
