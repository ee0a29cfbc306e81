"""Score an import by hand-checked samples: fields right, wrong or invented, per file.

    python tools/importscore.py CATALOG FILE... --labels labels.json [--sample 20]
    python tools/importscore.py CATALOG FILE... --labels labels.json --code /work/main

Each FILE is imported with default flags into a fresh copy of the catalog folder
CATALOG (its papers and inbox left as they are), by `python -m catalog import FILE
--json` run from the folder of the code to score (--code, default this checkout), so
that the code before and after a change is scored on the same files and samples. A
seeded sample of the papers and inbox records the import made (`--sample` per file) is
read back from data/papers.yaml and data/inbox.yaml, and each of its fields (title,
authors, venue, year) is looked up in the labels file: a verdict given by hand for that
file, line, field and value ('right', 'wrong' or 'invented'). A value not yet judged is
written to PENDING (the labels file with '.pending.tsv' after it) with its source lines,
for the user to fill in the verdict column and merge back with --merge. The figures
count judged fields only; the unjudged are counted apart, never guessed. A re-import
of each file into the same copy is checked to add nothing.

The labels and pending files hold text from the files scored: keep them outside the
repository when those files are not yours.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
FIELDS = ("title", "authors", "venue", "year")
VERDICTS = ("right", "wrong", "invented")


def _import(code: Path, catalog: Path, source: Path) -> dict[str, object]:
    """The --json report of one default import run in catalog."""
    env = {"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin", "HOME": str(catalog)}
    done = subprocess.run(
        [sys.executable, "-m", "catalog", "import", str(source), "--json"],
        cwd=catalog,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if not done.stdout.strip():
        return {"error": done.stderr.strip()[-500:], "outcomes": []}
    report: dict[str, object] = json.loads(done.stdout)
    return report


def _records(catalog: Path) -> dict[str, dict[str, object]]:
    """Every paper and inbox record of the catalog copy, by key or inbox id."""
    out: dict[str, dict[str, object]] = {}
    papers = yaml.safe_load((catalog / "data/papers.yaml").read_text(encoding="utf-8")) or {}
    for year, venues in papers.items():
        for venue, items in (venues or {}).items():
            for paper in items or []:
                out[str(paper["key"])] = {**paper, "venue": venue, "year": year}
    inbox = yaml.safe_load((catalog / "data/inbox.yaml").read_text(encoding="utf-8")) or {}
    for key, record in inbox.items():
        if isinstance(record, dict):
            out[str(key)] = record
    return out


def _value(record: dict[str, object], name: str) -> str:
    value = record.get(name)
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return "" if value is None else str(value)


def score_file(
    code: Path, template: Path, source: Path, labels: dict[str, str], sample: int, seed: int
) -> tuple[dict[str, int], list[list[str]]]:
    """Counts of verdicts for one file's sample, and its unjudged fields."""
    counts = dict.fromkeys((*VERDICTS, "unjudged", "sampled", "reimport_added"), 0)
    pending: list[list[str]] = []
    lines = source.read_text(encoding="utf-8", errors="replace").splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp) / "catalog"
        shutil.copytree(template, catalog)
        report = _import(code, catalog, source)
        records = _records(catalog)
        outcomes = [
            o
            for o in report.get("outcomes", [])  # type: ignore[union-attr]
            if isinstance(o, dict) and o.get("action") in ("added", "inbox") and o.get("key")
        ]
        _import(code, catalog, source)
        counts["reimport_added"] = len(_records(catalog)) - len(records)
    # each line's place in the sample depends on the line alone, so the code before and
    # after a change is scored on the same lines wherever both file them
    outcomes.sort(
        key=lambda o: hashlib.sha256(f"{seed}:{source.name}:{o['line']}".encode()).hexdigest()
    )
    for outcome in outcomes[:sample]:
        record = records.get(str(outcome["key"]), {})
        line = int(outcome.get("line") or 0)
        counts["sampled"] += 1
        for name in FIELDS:
            value = _value(record, name)
            key = f"{source.name}:{line}:{name}:{value}"
            verdict = labels.get(key)
            if verdict in VERDICTS:
                counts[verdict] += 1
            else:
                counts["unjudged"] += 1
                near = " / ".join(lines[max(line - 1, 0) : line + 3])
                pending.append([key, name, value, near[:600], ""])
    return counts, pending


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", type=Path, help="a catalog folder to copy for each file")
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout to score")
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--merge", action="store_true", help="merge the filled pending file")
    args = parser.parse_args()
    labels: dict[str, str] = (
        json.loads(args.labels.read_text(encoding="utf-8")) if args.labels.exists() else {}
    )
    pending_path = args.labels.with_name(args.labels.name + ".pending.tsv")
    if args.merge:
        with pending_path.open(encoding="utf-8", newline="") as f:
            for row in csv.reader(f, delimiter="\t"):
                if len(row) == 5 and row[4].strip() in VERDICTS:
                    labels[row[0]] = row[4].strip()
        args.labels.write_text(json.dumps(labels, indent=1, ensure_ascii=False), encoding="utf-8")
    pending: list[list[str]] = []
    total = dict.fromkeys((*VERDICTS, "unjudged"), 0)
    for source in args.files:
        counts, more = score_file(
            args.code, args.catalog, source.resolve(), labels, args.sample, args.seed
        )
        pending += more
        for k in total:
            total[k] += counts[k]
        judged = sum(counts[v] for v in VERDICTS)
        share = f"{100 * counts['right'] / judged:.1f}%" if judged else "-"
        print(
            f"{source.name}: {counts['sampled']} records, {counts['right']}/{judged} right"
            f" ({share}), {counts['wrong']} wrong, {counts['invented']} invented,"
            f" {counts['unjudged']} unjudged; re-import filed {counts['reimport_added']}"
        )
    judged = sum(total[v] for v in VERDICTS)
    if judged:
        print(
            f"all: {total['right']}/{judged} right ({100 * total['right'] / judged:.1f}%),"
            f" {total['wrong']} wrong, {total['invented']} invented, {total['unjudged']} unjudged"
        )
    with pending_path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter="\t").writerows(pending)
    if pending:
        print(f"{len(pending)} fields to judge in {pending_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
