"""Generate synthetic catalogs (fixed seed) for benchmarks.

    python tools/synth.py 10000 /tmp/synth10k     # writes /tmp/synth10k/data/*.yaml

The papers look like the real ones (system-name titles, 2-8 authors, tags from
the vocabulary, a summary, an abstract of about 800 characters, arXiv ids and
DOIs for some) but are made up: they
exist only to measure speed and never enter data/.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FIRST = [
    "Wei",
    "Jiaao",
    "Carole-Jean",
    "Mosharaf",
    "Fan",
    "Minhui",
    "Xupeng",
    "Udit",
    "Geet",
    "Saurabh",
    "Chijun",
    "Yuanxing",
    "Daniar",
    "Haojie",
    "Muhammad",
    "Hongju",
    "Dheevatsa",
    "Weijie",
    "Ana",
    "José",
    "Zoë",
    "Łukasz",
    "Søren",
    "Ines",
    "Priya",
    "Kenji",
    "Olga",
    "Mark",
    "Shivaram",
    "Christos",
    "Jongsoo",
    "Yao",
    "Lin",
    "Hailin",
    "Bin",
    "Jie",
]
LAST = [
    "Zhang",
    "Wang",
    "Li",
    "Chen",
    "Wu",
    "Gupta",
    "Sethi",
    "Kozyrakis",
    "Lai",
    "Xie",
    "Miao",
    "Agarwal",
    "Sima",
    "Kurniawan",
    "Ye",
    "Adnan",
    "Kal",
    "Mudigere",
    "Zhao",
    "He",
    "Zhai",
    "Müller",
    "García",
    "Nguyen",
    "Ødegaard",
    "Park",
    "Brooks",
    "Venkataraman",
    "Cui",
    "Shu",
    "Lu",
    "Mai",
    "Tang",
    "Huang",
    "Liu",
    "Kumar",
]
PREFIX = [
    "Fast",
    "Hyper",
    "Flex",
    "Ada",
    "Rec",
    "Emb",
    "Deep",
    "Mega",
    "Turbo",
    "Swift",
    "Lazy",
    "Sharp",
    "Neo",
    "Hot",
    "Cold",
    "Tier",
    "Pipe",
    "Shard",
    "Quant",
    "Zip",
]
SUFFIX = [
    "Store",
    "Cache",
    "Shard",
    "Embed",
    "PS",
    "Pipe",
    "MoE",
    "Serve",
    "Rec",
    "Train",
    "Flow",
    "Mem",
    "Net",
    "Sys",
    "Graph",
    "Dedup",
    "Sched",
    "Comm",
    "Scale",
    "Grid",
]
VERBS = [
    "Scaling",
    "Accelerating",
    "Optimizing",
    "Rethinking",
    "Understanding",
    "Taming",
    "Serving",
    "Training",
    "Compressing",
    "Sharding",
    "Caching",
    "Pipelining",
]
OBJECTS = [
    "Embedding Tables",
    "Deep Recommendation Models",
    "Mixture-of-Experts Training",
    "Parameter Servers",
    "Large Language Models",
    "GPU Memory Hierarchies",
    "Sparse Feature Lookups",
    "Online Model Updates",
    "Distributed Data Loading",
    "Expert Parallelism",
    "Click-Through Rate Prediction",
    "Heterogeneous Memory",
]
HOW = [
    "with Learned Caching",
    "via Hybrid Parallelism",
    "at Datacenter Scale",
    "on Commodity Hardware",
    "with Near-Memory Processing",
    "through Deduplication",
    "using Adaptive Precision",
    "across Thousands of GPUs",
    "with Low-Latency Updates",
    "for Industry-Scale Workloads",
]
SUMMARY = [
    "Keeps hot {o} in GPU memory and spills cold rows to host memory.",
    "Splits {o} across devices with a cost model that balances load.",
    "Overlaps communication with computation when {v} {o}.",
    "Removes duplicated work in {o} before it reaches the accelerator.",
    "Schedules experts and tokens to cut all-to-all traffic for {o}.",
]
ABSTRACT = [
    "{s} is a system for {v} {o} in production recommendation models.",
    "Existing designs leave most of the accelerator idle because {o} are bound by "
    "memory bandwidth rather than compute.",
    "We observe that access frequencies follow a power law and that the hot set "
    "drifts slowly over hours.",
    "{s} keeps a small, adaptive working set close to the compute and prefetches the "
    "rest along the data pipeline.",
    "It overlaps communication with computation and balances load with a cost model fitted online.",
    "On industry-scale workloads {s} improves throughput by {x}x and reduces tail "
    "latency by {y}% over strong baselines.",
    "Our evaluation on {g} GPUs shows that the design scales without loss of model quality.",
]


def make_papers(n: int, venues: list[str], tags: list[str], seed: int = 1) -> list[dict]:
    """n synthetic paper records, the same for the same seed."""
    rng = random.Random(seed)
    papers = []
    used: set[str] = set()
    for i in range(n):
        system = rng.choice(PREFIX) + rng.choice(SUFFIX)
        verb, obj = rng.choice(VERBS), rng.choice(OBJECTS)
        title = f"{system}: {verb} {obj} {rng.choice(HOW)}"
        authors = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(rng.randint(2, 8))]
        year = rng.randint(2012, 2025)
        base = f"{authors[0].split()[-1].lower()}{year}{system.lower()}"
        base = "".join(c for c in base if c.isascii() and c.isalnum())
        key = base
        suffix = 0
        while key in used:
            suffix += 1
            key = f"{base}{suffix}"
        used.add(key)
        paper = {
            "key": key,
            "title": title,
            "authors": authors,
            "year": year,
            "venue": rng.choice(venues),
            "tags": sorted(rng.sample(tags, rng.randint(1, 4))),
            "summary": rng.choice(SUMMARY).format(o=obj.lower(), v=verb.lower()),
            "abstract": " ".join(
                a.format(
                    s=system,
                    o=obj.lower(),
                    v=verb.lower(),
                    x=rng.randint(2, 9),
                    y=rng.randint(10, 90),
                    g=rng.choice((8, 64, 128, 1024)),
                )
                for a in ABSTRACT
            ),
        }
        if rng.random() < 0.5:
            paper["doi"] = f"10.{rng.randint(1000, 9999)}/synth.{i}"
        if rng.random() < 0.4:
            paper["arxiv"] = f"{year % 100:02d}{rng.randint(1, 12):02d}.{i % 100000:05d}"
        papers.append(paper)
    return papers


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def to_yaml(papers: list[dict]) -> str:
    """Catalog text in the shipped file's style."""
    grouped: dict[int, dict[str, list[dict]]] = {}
    for p in papers:
        grouped.setdefault(p["year"], {}).setdefault(p["venue"], []).append(p)
    out = ["# Synthetic catalog for benchmarks (tools/synth.py); not real papers.\n"]
    for year in sorted(grouped, reverse=True):
        out.append(f"{year}:\n")
        for venue in sorted(grouped[year]):
            out.append(f"  {venue}:\n")
            for p in grouped[year][venue]:
                out.append(f"    - key: {p['key']}\n      title: {_q(p['title'])}\n")
                out.append(f"      authors: [{', '.join(p['authors'])}]\n")
                if "doi" in p:
                    out.append(f"      doi: {p['doi']}\n")
                if "arxiv" in p:
                    out.append(f'      arxiv: "{p["arxiv"]}"\n')
                out.append(f"      tags: [{', '.join(p['tags'])}]\n")
                out.append(f"      summary: {_q(p['summary'])}\n")
                out.append(f"      abstract: {_q(p['abstract'])}\n")
    return "".join(out)


def write(n: int, folder: Path, seed: int = 1) -> Path:
    """A synthetic catalog of n papers in folder/data/, with the shipped registries."""
    sys.path.insert(0, str(REPO))  # read the registries as papers reads them
    from catalog.data.registry import load_tags, load_venues

    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name in ("venues.yaml", "tags.yaml", "records.yaml", "protected-terms.txt"):
        if (REPO / "data" / name).exists():
            shutil.copy(REPO / "data" / name, data / name)
    # Not a book's venue: a chapter needs its book's title and publisher too.
    venues = [
        short
        for short, venue in load_venues(data / "venues.yaml").items()
        if venue.kind != "collection"
    ]
    tags = list(load_tags(data / "tags.yaml"))
    path = data / "papers.yaml"
    path.write_text(to_yaml(make_papers(n, venues, tags, seed)), encoding="utf-8")
    return path


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python tools/synth.py N FOLDER")
    print(write(int(sys.argv[1]), Path(sys.argv[2])))
