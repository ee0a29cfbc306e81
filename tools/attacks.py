"""Attack the real `papers` CLI as an adversary would, each case on a fresh copy of the
shipped catalog, and report which attacks held.

    python tools/attacks.py            # every case, a table of outcomes
    python tools/attacks.py -k xss     # the cases whose name contains 'xss'
    python tools/attacks.py --json     # for scripts

A case holds when papers refused or neutralised the attack: no traceback, the exit
code a user should see, and no file lost, replaced or made to carry live script or
LaTeX. tests/test_attacks.py runs every case, so none can come back unnoticed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from attacklib import (  # noqa: F401  (they register cases)
    CASES,
    Case,
    bounds,
    door,
    edges,
    injection,
    paths,
    records,
    rules,
    status,
    usage,
    writes,
)

# ------------------------------------------------------------------ running


def run_cases(selected: list[Case]) -> list[dict[str, object]]:
    results = []
    for c in selected:
        with tempfile.TemporaryDirectory(prefix=f"attack-{c.name}-") as folder:
            started = time.monotonic()
            try:
                broke = c.run(Path(folder))
            except Exception as err:  # the harness's own failure is an outcome too
                broke = f"harness error: {type(err).__name__}: {err}"[:160]
            results.append(
                {
                    "case": c.name,
                    "item": c.item,
                    "attack": c.what,
                    "held": broke is None,
                    "detail": broke or "",
                    "seconds": round(time.monotonic() - started, 1),
                }
            )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only cases whose name contains this")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    selected = [c for c in CASES if args.k in c.name]
    results = run_cases(selected)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for r in results:
            mark = "held " if r["held"] else "BROKE"
            print(
                f"{mark}  #{r['item']:<4} {r['attack']}"
                + (f"\n         {r['detail']}" if r["detail"] else "")
            )
        held = sum(bool(r["held"]) for r in results)
        print(f"{held} of {len(results)} attacks held")
    return 0 if all(r["held"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
