"""A one-paper tag and untag, paired: papers against papis (and an earlier papers).

    python tools/bench_papis.py --papis /tmp/venv-papis/bin/papis
    python tools/bench_papis.py --papis PAPIS --before /work/main --sizes 1000 10000 100000

papis is not installed by this tool: give the `papis` executable of a throwaway
environment (for instance `python -m venv /tmp/venv-papis && /tmp/venv-papis/bin/pip
install papis==0.16.0`). For each size, tools/synth.py makes the catalog, and the same
papers become a papis library as papis keeps one: a folder per paper with its
info.yaml. papis builds its own cache first (`papis list --all`) and papers its index
(`papers index`), untimed. Then, in turn, each contender tags one paper and untags it
(two whole processes, timed as one run): papers from this checkout, papers from the
checkout given by --before (its own copy of the catalog and its own index), and papis
(`papis tag --add`/`--remove --batch ref:KEY`) up to --papis-max papers; and the
write's floor, Python copying the catalog into a new file with a sync and a rename,
twice (any atomic replace of the file costs that). The ratios are medians of the
rounds' ratios, so that a machine whose speed drifts gives a fair ratio. Peak memory
is the larger of the two processes' resident sets.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench
import synth


def papis_library(papers: list[dict], folder: Path) -> Path:
    """The papers as a papis library: one folder per paper, its info.yaml."""
    library = folder / "papis"
    for paper in papers:
        doc = library / paper["key"]
        doc.mkdir(parents=True)
        info = {
            "ref": paper["key"],
            "title": paper["title"],
            "author": " and ".join(_last_first(a) for a in paper["authors"]),
            "year": paper["year"],
            "journal": paper["venue"],
            "tags": paper["tags"],
            "papis_id": uuid.uuid4().hex,  # as papis adds on first sight (no rewrite then)
            "abstract": paper["abstract"],
            **{k: paper[k] for k in ("doi", "arxiv") if k in paper},
        }
        text = yaml.safe_dump(info, allow_unicode=True, sort_keys=False)
        (doc / "info.yaml").write_text(text, encoding="utf-8")
    return library


def _last_first(name: str) -> str:
    first, _, last = name.rpartition(" ")
    return f"{last}, {first}"


def papis_env(folder: Path, library: Path) -> dict[str, str]:
    """An environment whose papis reads only this library and keeps its cache here."""
    config = folder / "config" / "papis"
    config.mkdir(parents=True)
    (config / "config").write_text(
        f"[settings]\ndefault-library = bench\n\n[bench]\ndir = {library}\n", encoding="utf-8"
    )
    return {
        **os.environ,
        "XDG_CONFIG_HOME": str(folder / "config"),
        "XDG_CACHE_HOME": str(folder / "cache"),
    }


def papers_env(checkout: Path, catalog: Path) -> dict[str, str]:
    """An environment that runs papers from this checkout on this catalog and its index."""
    env = {
        **os.environ,
        "PAPERS_CATALOG": str(catalog),
        "PAPERS_DB": str(catalog.parent.parent / "build" / "catalog.db"),
        "PYTHONPATH": str(checkout),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as an installed package
    return env


def one_key(papers: list[dict]) -> str:
    """A paper in the middle of the catalog whose key is part of no other key (papis's
    `ref:` query matches parts of keys)."""
    keys = [p["key"] for p in papers]
    for key in keys[len(keys) // 2 :]:
        if sum(key in other for other in keys) == 1:
            return key
    raise SystemExit("no key that is part of no other key")


Runner = Callable[[], bench.Run]

# The write's floor: Python copying the catalog to a new file, syncing it and renaming
# it into place beside it (what any atomic replace of the file costs), run in a clean
# interpreter.
COPY_FLOOR = """
import os, shutil, sys
source, copy = sys.argv[1], sys.argv[2]
with open(source, "rb") as a, open(copy + ".tmp", "wb") as b:
    shutil.copyfileobj(a, b, 1 << 20)
    b.flush()
    os.fsync(b.fileno())
os.replace(copy + ".tmp", copy)
"""


def tag_untag(
    tag: list[str], untag: list[str], env: dict[str, str], cwd: Path | None = None
) -> Runner:
    """A run that tags, then untags: their wall and CPU summed, the larger peak. cwd: the
    checkout a papers runs in (`python -m` imports from its folder first)."""

    def go() -> bench.Run:
        a, b = bench.run(tag, env, cwd=cwd), bench.run(untag, env, cwd=cwd)
        return bench.Run(a.wall + b.wall, a.cpu + b.cpu, max(a.peak, b.peak))

    return go


def contenders(
    size: int, folder: Path, papis: Path | None, before: Path | None
) -> dict[str, Runner]:
    """Each contender's tag+untag run, its catalog or library ready and indexed."""
    venues, tags = _venues_and_tags(folder)
    papers = synth.make_papers(size, venues, tags)
    key = one_key(papers)
    held = next(p["tags"] for p in papers if p["key"] == key)
    tag = next(t for t in tags if t not in held)  # a tag of the vocabulary it lacks
    out: dict[str, Runner] = {}
    checkouts = {"papers": bench.REPO, **({"papers before": before} if before else {})}
    for name, checkout in checkouts.items():
        catalog = synth.write(size, folder / name.replace(" ", "-"))
        env = papers_env(checkout, catalog)
        cli = [sys.executable, "-m", "catalog.cli"]
        bench.run([*cli, "index"], env, cwd=checkout)
        tagging = ([*cli, "tag", key, "-t", tag], [*cli, "untag", key, "-t", tag])
        out[name] = tag_untag(*tagging, env, cwd=checkout)
        if name == "papers":
            copy = catalog.parent.parent / "floor.yaml"  # beside data/, not in it
            floor = [sys.executable, "-I", "-c", COPY_FLOOR, str(catalog), str(copy)]
            out["copy floor"] = tag_untag(floor, floor, env)
    if papis is not None:
        library = papis_library(papers, folder)
        env = papis_env(folder, library)
        bench.run([str(papis), "list", "--all"], env)
        query = f"ref:{key}"
        out["papis"] = tag_untag(
            [str(papis), "tag", "--add", tag, "--batch", query],
            [str(papis), "tag", "--remove", tag, "--batch", query],
            env,
        )
    return out


def _venues_and_tags(folder: Path) -> tuple[list[str], list[str]]:
    """The venues and tags synth.write draws from (as it reads them)."""
    probe = folder / "probe"
    synth.write(1, probe)
    from catalog.data.registry import load_tags, load_venues

    venues = [
        short
        for short, venue in load_venues(probe / "data" / "venues.yaml").items()
        if venue.kind != "collection"
    ]
    tags = list(load_tags(probe / "data" / "tags.yaml"))
    shutil.rmtree(probe)
    return venues, tags


def measure(runners: dict[str, Runner], repeat: int) -> dict[str, list[bench.Run]]:
    """Each contender once per round, in turn, for repeat rounds (one warm-up round)."""
    for go in runners.values():
        go()
    runs: dict[str, list[bench.Run]] = {name: [] for name in runners}
    for _ in range(repeat):
        for name, go in runners.items():
            runs[name].append(go())
    return runs


def report(size: int, runs: dict[str, list[bench.Run]]) -> None:
    ours = runs["papers"]
    for name, rs in runs.items():
        wall = statistics.median(r.wall for r in rs)
        cpu = statistics.median(r.cpu for r in rs)
        peak = statistics.median(r.peak for r in rs)
        ratio = statistics.median(a.wall / b.wall for a, b in zip(ours, rs, strict=True))
        print(
            f"{size:>8,}  {name:<14} {wall:>8.3f} {cpu:>8.3f} {peak:>8.0f} {ratio:>6.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papis", type=Path, required=True, help="the papis executable")
    parser.add_argument("--before", type=Path, help="another papers checkout to compare")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--papis-max", type=int, default=10_000, help="the largest size papis runs at"
    )
    args = parser.parse_args()
    if not (args.papis.is_file() and os.access(args.papis, os.X_OK)):
        raise SystemExit(
            f"{args.papis}: no papis executable there; install papis 0.16 in a throwaway "
            "venv (python -m venv /tmp/venv-papis; /tmp/venv-papis/bin/pip install "
            "papis==0.16.0) and give its bin/papis"
        )
    if args.before is not None and not (args.before / "catalog" / "cli.py").is_file():
        raise SystemExit(f"{args.before}: not a papers checkout")
    print(
        f"tag + untag of one paper: medians of {args.repeat} rounds, whole processes; "
        "ratio: papers (this checkout) / the row's, paired by round"
    )
    columns = ("wall s", "cpu s", "peak MiB")
    print(f"{'papers':>8}  {'who':<14} " + " ".join(f"{c:>8}" for c in columns) + "  ratio")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            papis = args.papis if size <= args.papis_max else None
            runners = contenders(size, Path(tmp), papis, args.before)
            report(size, measure(runners, args.repeat))


if __name__ == "__main__":
    main()
