"""Benchmark the static site build: time and peak memory, against plain mkdocs.

    python tools/bench_site.py                     # shipped catalog, 1,000, 5,000, 10,000 papers
    python tools/bench_site.py --sizes 1000 --plain    # one size, no plain-page baseline
    python tools/bench_site.py --sizes 1000 5000 --runs 3   # paired runs, medians

Each build runs in a fresh Python process (so peak RSS is that build's own)
doing what `papers site build` does: mkdocs build --strict with our hook. The
baseline in the same run is mkdocs-material alone on N plain Markdown pages
with the same theme, search and a short nav, so the ratio shows what our page
generation, charts and related papers add to mkdocs's own work. The target is
a 1,000-paper site in under twice the 1,000-plain-page time; issues 11 and 12 ask
for 1,000 papers in 7 s, 5,000 in 30 s and 10,000 in 60 s (whole process, 2 cores).
Besides wall seconds it prints CPU seconds (user + system), which a machine shared
with other work inflates far less. With --runs N the plain build and the site build
of each size run in turn N times (paired: each pair sees the same load), and each
figure is the median, the ratios the median of the pairs' ratios. Page weights are
per page type, raw and gzip-compressed (as a web server sends them); the site's
total is its bytes and its size on disk (4 KB blocks, as du counts).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

PLAIN_CONFIG = """\
site_name: plain
docs_dir: docs
theme:
  name: material
  font: false
  features: [content.code.copy, navigation.indexes, search.highlight, search.suggest]
plugins: [search]
markdown_extensions: [attr_list, md_in_html, tables, toc, pymdownx.highlight,
                      pymdownx.superfences]
nav:
  - Home: index.md
not_in_nav: |
  /p/
"""

PLAIN_PAGE = """\
# Plain page {i}: A System for Scaling Embedding Tables with Learned Caching

- **Authors:** Ana Zhang, Wei Chen and Priya Kumar
- **Venue:** ASPLOS, 2022, pages 1-14
- **Tags:** embedding, caching, training

## Summary

Keeps hot embedding rows in GPU memory and spills cold rows to host memory, with
a cost model that balances load across devices. Page {i} of the baseline.

## Related papers

- [Plain page {j}](../p{j}/) (OSDI 2021)
"""


def _plain_site(folder: Path, n: int) -> Path:
    docs = folder / "docs"
    (docs / "p").mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(PLAIN_CONFIG, encoding="utf-8")
    (docs / "index.md").write_text("# Plain\n\nA baseline site.\n", encoding="utf-8")
    for i in range(n):
        page = PLAIN_PAGE.format(i=i, j=(i + 1) % n).replace("](../p", "](p")
        page = page.replace(f"](p{(i + 1) % n}/)", f"]({(i + 1) % n}.md)")
        (docs / "p" / f"{i}.md").write_text(page, encoding="utf-8")
    return folder / "mkdocs.yml"


def child(kind: str, target: str, out: str) -> None:
    """Run one build in this process and print its figures as JSON."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    generated: dict[str, float] = {}

    class Timings(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage().startswith("generated "):
                generated["seconds"] = float(record.args[2])  # type: ignore[index]

    logging.getLogger("mkdocs").setLevel(logging.INFO)  # our hook reports its timings at INFO
    logging.getLogger("mkdocs.plugins.papers").addHandler(Timings())
    warnings: list[str] = []

    class Warnings(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            warnings.append(record.getMessage())

    logging.getLogger("mkdocs").addHandler(Warnings(logging.WARNING))
    if kind == "site":
        from catalog.paths import CATALOG_ENV, DB_ENV

        os.environ[CATALOG_ENV] = target
        os.environ[DB_ENV] = str(Path(out).parent / "catalog.db")
        config_file = str(REPO / "mkdocs.yml")
    else:
        config_file = target
    started = time.perf_counter()
    cpu_started = time.process_time()
    config = load_config(config_file, site_dir=out, strict=True)
    config.plugins.on_startup(command="build", dirty=False)
    build(config)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    pages = sum(1 for _ in Path(out).rglob("index.html"))
    files = [p.stat().st_size for p in Path(out).rglob("*") if p.is_file()]
    total_mb = sum(files) / 1e6
    disk_mb = sum(-(-size // 4096) * 4096 for size in files) / 1e6
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu,
                "peak_mb": peak_mb,
                "pages": pages,
                "total_mb": total_mb,
                "disk_mb": disk_mb,
                "generate_s": generated.get("seconds"),
                "warnings": len(warnings),
                "weights": page_weights(Path(out)) if kind == "site" else {},
            }
        )
    )


# Page types of the built site: (label, glob of their HTML under the output folder).
PAGE_TYPES = [
    ("home", "index.html"),
    ("all papers", "papers/index.html"),
    ("paper", "papers/*/index.html"),
    ("year", "years/*/index.html"),
    ("venue", "venues/*/index.html"),
    ("tag", "tags/*/index.html"),
    ("author", "authors/*/index.html"),
    ("authors index", "authors/index.html"),
    ("note", "notes/*/index.html"),
]
EXTRA_FILES = [
    ("all-papers data", "assets/papers-data.js"),
    ("BibTeX data (loaded on demand)", "assets/cite-data/bibtex.js"),
    ("feed", "feeds/all.xml"),
    ("search index", "search/search_index.json"),
]


def page_weights(out: Path) -> dict[str, dict[str, float]]:
    """Median and largest size in KB of each page type's HTML, and of the big data files,
    and the median compressed (gzip -6, as web servers commonly send them)."""
    import gzip
    import statistics

    weights = {}
    for label, pattern in PAGE_TYPES + EXTRA_FILES:
        files = sorted(out.glob(pattern))
        sizes = [p.stat().st_size / 1024 for p in files]
        if sizes:
            # The compressed median from a sample: gzip of 10,000 pages adds little.
            sample = files[:: max(1, len(files) // 50)]
            zipped = [len(gzip.compress(p.read_bytes(), 6)) / 1024 for p in sample]
            weights[label] = {
                "count": len(sizes),
                "median_kb": statistics.median(sizes),
                "max_kb": max(sizes),
                "gzip_kb": statistics.median(zipped),
            }
    return weights


def measure(kind: str, target: Path, work: Path) -> dict:
    out = work / f"out-{kind}-{target.stem}"
    run = subprocess.run(
        [sys.executable, __file__, "--child", kind, str(target), str(out)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    if run.returncode:
        sys.exit(f"{kind} build of {target} failed:\n{run.stdout}\n{run.stderr}")
    shutil.rmtree(out, ignore_errors=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def _median(runs: list[dict]) -> dict:
    """Each number's median over runs; the rest (weights) from the first."""
    out = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[key] = statistics.median(r[key] for r in runs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[1000, 5000, 10000],
        help="synthetic catalog sizes (default: 1000 5000 10000)",
    )
    parser.add_argument(
        "--plain",
        type=int,
        nargs="*",
        default=None,
        help="plain-page baselines (default: the same sizes as --sizes)",
    )
    parser.add_argument("--runs", type=int, default=1, help="paired runs per size (median)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    import synth

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
        work = Path(tmp)
        plain_sizes = args.sizes if args.plain is None else args.plain
        rows.append(
            ("site, shipped catalog", None, measure("site", REPO / "data" / "papers.yaml", work))
        )
        for n in sorted(set(args.sizes) | set(plain_sizes)):
            config = _plain_site(work / f"plain{n}", n) if n in plain_sizes else None
            catalog = synth.write(n, work / f"synth{n}") if n in args.sizes else None
            plains, sites = [], []
            for _ in range(args.runs):  # in turn: each pair sees the same machine load
                if config:
                    plains.append(measure("plain", config, work))
                if catalog:
                    sites.append(measure("site", catalog, work))
            if plains:
                rows.append((f"mkdocs-material alone, {n} plain pages", n, _median(plains)))
            if sites:
                site = _median(sites)
                if plains:
                    for key in ("seconds", "cpu"):
                        site[f"{key}_ratio"] = statistics.median(
                            s[key] / p[key] for s, p in zip(sites, plains, strict=True)
                        )
                rows.append((f"site, {n:,} synthetic papers", n, site))
    print(
        f"{'build':42} {'pages':>6} {'seconds':>8} {'cpu s':>7} {'peak MB':>8} "
        f"{'ours s':>7} {'MB':>6} {'disk MB':>8} {'wall x':>7} {'cpu x':>6}"
    )
    for label, _n, r in rows:
        ours = f"{r['generate_s']:.2f}" if r["generate_s"] is not None else ""
        wall_x = f"{r['seconds_ratio']:.2f}" if "seconds_ratio" in r else ""
        cpu_x = f"{r['cpu_ratio']:.2f}" if "cpu_ratio" in r else ""
        print(
            f"{label:42} {r['pages']:6} {r['seconds']:8.2f} {r['cpu']:7.2f} "
            f"{r['peak_mb']:8.0f} {ours:>7} {r['total_mb']:6.1f} {r['disk_mb']:8.1f} "
            f"{wall_x:>7} {cpu_x:>6}"
        )
        if r["warnings"]:
            print(f"  ({r['warnings']} warnings)")
    print(
        f"medians of {args.runs} run(s); ours s: our hook's page generation, related papers "
        "and charts, inside 'seconds'; wall x, cpu x: site / plain pages of the same count, "
        "paired"
    )
    print("\npage weight (HTML or file, KB: median / largest, median gzipped, count)")
    for label, _, r in rows:
        if r.get("weights"):
            print(f"  {label}")
            for kind, w in r["weights"].items():
                print(
                    f"    {kind:18} {w['median_kb']:8.1f} / {w['max_kb']:8.1f}  "
                    f"gzip {w['gzip_kb']:7.1f}  ({w['count']})"
                )


if __name__ == "__main__":
    main()
