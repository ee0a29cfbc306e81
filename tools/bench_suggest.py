"""Benchmark `papers suggest` on a long list: medians of whole-process runs, paired.

    python tools/bench_suggest.py LIST.md [LIST.md ...] --entries 2000 --repeat 5

The lists' entries (read by the same reader suggest uses) are written out as one
Markdown list of `--entries` entries, each a linked title; when the lists hold fewer,
their entries are repeated, and the report says how many were distinct. Then
`papers suggest LIST -n 20` on the shipped catalog runs in turn with its floor (Python
starting and importing scikit-learn's SVM, numpy and scipy alone), and the medians of
wall and CPU seconds are printed, with the median of the pairs' wall ratios. With
--eval, the hidden-papers measure of `papers suggest LIST --eval` on the lists as given
is printed too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import paired, run

REPO = Path(__file__).resolve().parent.parent
# What suggest cannot do without: the linear SVM and the sparse matrices of the features.
FLOOR = "import sklearn.svm, scipy.sparse, numpy"


def entries(lists: list[Path]) -> list[str]:
    """The titles of every list's entries, in order, as suggest reads them."""
    sys.path.insert(0, str(REPO))
    from catalog.paths import resolve
    from catalog.suggest.candidates import from_file

    paths = resolve(REPO / "data" / "papers.yaml")
    return [c.title for path in lists for c in from_file(paths, path)]


def write_list(titles: list[str], count: int, target: Path) -> None:
    """A Markdown list of `count` linked titles, the given ones repeated as needed."""
    lines = ["# Papers", ""]
    for i in range(count):
        title = titles[i % len(titles)].replace("[", "(").replace("]", ")")
        lines.append(f"- [{title}](https://example.org/{i})")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lists", nargs="+", type=Path)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--eval", action="store_true")
    args = parser.parse_args()
    titles = entries(args.lists)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    catalog = ["--catalog", str(REPO / "data" / "papers.yaml")]
    with tempfile.TemporaryDirectory() as scratch:
        listing = Path(scratch) / "list.md"
        write_list(titles, args.entries, listing)
        db = ["--db", str(Path(scratch) / "catalog.db")]
        command = [sys.executable, "-m", "catalog", *catalog, *db]
        run([*command, "index"], env)  # the index built once, as a user's is
        row = paired(
            lambda: run([*command, "suggest", str(listing), "-n", "20"], env),
            lambda: run([sys.executable, "-c", FLOOR], env),
            args.repeat,
        )
        print(
            f"{args.entries} entries ({len(set(titles))} distinct, from {len(args.lists)} "
            f"lists), {args.repeat} pairs"
        )
        print(
            f"suggest: wall {row.median():.2f} s, CPU {row.median('cpu'):.2f} s; floor: wall "
            f"{row.median(floor=True):.2f} s, CPU {row.median('cpu', floor=True):.2f} s; "
            f"ratio {row.ratio():.1f}; slowest suggest {max(r.wall for r in row.runs):.2f} s"
        )
        if args.eval:
            write_list(titles, len(titles), listing)
            out = subprocess.run(
                [*command, "suggest", str(listing), "--eval"],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            print("hidden papers:", out.stdout.strip())


if __name__ == "__main__":
    main()
