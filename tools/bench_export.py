"""Benchmark BibTeX export on a synthetic catalog: medians of several runs.

    python tools/bench_export.py                  # 10,000 papers, 7 runs
    python tools/bench_export.py --size 10000 --repeat 7

Reports catalog.bib.bibtex.export in-process, in the default UTF-8 mode and with
--ascii (pylatexenc for every non-ASCII character), and the whole command
`papers export -o FILE` on a fresh index. The papers come from tools/synth.py
(fixed seed), with page ranges added to half of them, also from a fixed seed.
Target: under 0.5 s in-process for 10,000 papers in the default mode.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import synth

from catalog.bib import bibtex, latex
from catalog.bib.options import ExportOptions
from catalog.data.registry import load_venues
from catalog.model import Paper

REPO = Path(__file__).resolve().parent.parent
PAPERS = Path(sysconfig.get_path("scripts")) / "papers"
TARGET = 0.5


def make_papers(n: int, venues: list[str], tags: list[str]) -> list[Paper]:
    """n synthetic Papers (synth.py's records, plus pages for half of them)."""
    rng = random.Random(7)
    papers = []
    for record in synth.make_papers(n, venues, tags):
        if rng.random() < 0.5:
            first = rng.randint(1, 900)
            record["pages"] = f"{first}-{first + rng.randint(8, 20)}"
        papers.append(Paper(**record))
    return papers


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    import yaml

    venues = load_venues(REPO / "data" / "venues.yaml")
    tags = list(yaml.safe_load((REPO / "data" / "tags.yaml").read_text(encoding="utf-8")))
    terms = bibtex.load_protected_terms(REPO / "data" / "protected-terms.txt")
    # (a book chapter's venue needs a book title synth does not make)
    shorts = [s for s, v in venues.items() if v.kind != "collection"]
    papers = make_papers(args.size, shorts, tags)
    non_ascii = sum(not (p.title + "".join(p.authors)).isascii() for p in papers)

    utf8_options = ExportOptions(protected=tuple(terms))
    ascii_options = ExportOptions(ascii=True, protected=tuple(terms))

    def utf8() -> float:
        return timed(lambda: bibtex.export(papers, venues, utf8_options))

    def ascii_() -> float:
        latex._encodable.cache_clear()  # each run pays for its own look-ups
        return timed(lambda: bibtex.export(papers, venues, ascii_options))

    # Worst case for --ascii: no name repeats, and each one has a non-ASCII letter.
    distinct = [
        Paper(**{**p.__dict__, "authors": [f"{a} Ø{i}x{j}" for j, a in enumerate(p.authors)]})
        for i, p in enumerate(papers)
    ]

    def ascii_distinct() -> float:
        latex._encodable.cache_clear()
        return timed(lambda: bibtex.export(distinct, venues, ascii_options))

    ascii_()  # import pylatexenc and build its tables once, outside the timings
    results = {
        "export (UTF-8)": statistics.median(utf8() for _ in range(args.repeat)),
        "export --ascii": statistics.median(ascii_() for _ in range(args.repeat)),
        "export --ascii, every name distinct": statistics.median(
            ascii_distinct() for _ in range(args.repeat)
        ),
    }
    with tempfile.TemporaryDirectory() as tmp:
        catalog = synth.write(args.size, Path(tmp))
        env = {
            **os.environ,
            "PAPERS_CATALOG": str(catalog),
            "PAPERS_DB": str(Path(tmp) / "build" / "catalog.db"),
        }
        out = str(Path(tmp) / "refs.bib")
        subprocess.run([str(PAPERS), "index"], env=env, check=True, stdout=subprocess.DEVNULL)
        results["papers export -o FILE (whole process)"] = statistics.median(
            timed(
                lambda: subprocess.run(
                    [str(PAPERS), "export", "-o", out],
                    env=env,
                    check=True,
                    stderr=subprocess.DEVNULL,
                )
            )
            for _ in range(args.repeat)
        )
    print(
        f"{args.size:,} synthetic papers ({non_ascii:,} with non-ASCII names or titles), "
        f"medians of {args.repeat} runs"
    )
    for name, seconds in results.items():
        print(f"  {name:40} {seconds:7.3f} s")
    print(f"  {'target, export (UTF-8)':40} {TARGET:7.3f} s")


if __name__ == "__main__":
    main()
