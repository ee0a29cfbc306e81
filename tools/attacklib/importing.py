"""Attacks on import's last few percent (issue 33): hostile .bib entries and list lines
that would invent a venue, an author or a paper, or grow the inbox on every run."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from attacklib import TERMINAL_CONTROLS, case, imported, papers, project, traceback

_NOT_PAPERS = """\
@article{blog2019, title = {Better Language Models}, author = {Doe, Jane},
  year = 2019, journal = {Open{AI} {B}log}}
@misc{cs231n, title = {Convolutional Networks for Visual Recognition},
  author = {Roe, Rick}, year = 2020, howpublished = {Stanford University}}
@article{news2020, title = {A Chip Story}, author = {Poe, Pat}, year = 2020,
  journal = {The New York Times}}
@misc{evil\x1b[2J, title = {Evil\u202e Notes}, author = {Eve, Evil}, year = 2021,
  howpublished = {Evil\x1b[31m Corp Research Lab}}
@inproceedings{good2021, title = {A Good Paper}, author = {Doe, Jane}, year = 2021,
  booktitle = {{ACM} {SIGOPS} Operating Systems Review}}
"""


def _venues(root: Path) -> dict[str, dict[str, object]]:
    data = yaml.safe_load((root / "data" / "venues.yaml").read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


@case("33.7-33.12", "non-papers in a .bib never enter the catalog nor make a venue")
def bib_non_papers(tmp: Path) -> str | None:
    root = project(tmp)
    before = set(_venues(root))
    run = imported(root, tmp / "refs.bib", _NOT_PAPERS, "--json")
    if traceback(run):
        return traceback(run)
    if TERMINAL_CONTROLS.search(run.out + run.err):
        return "a control character reached the terminal"
    report = json.loads(run.out)
    added = [o["title"] for o in report["outcomes"] if o["action"] == "added"]
    if added != ["A Good Paper"]:
        return f"added {added}, expected only the paper"
    new = {s: v for s, v in _venues(root).items() if s not in before}
    if set(new) != {"OSR"} or new["OSR"].get("kind") != "journal":
        return f"new venues {new}: expected journal OSR alone"
    return None


@case("33.10", "a .bib entry with no comma after its key stops nothing else")
def bib_broken_entry(tmp: Path) -> str | None:
    root = project(tmp)
    run = imported(
        root,
        tmp / "refs.bib",
        "@inproceedings{good2023x,\n  title = {A Good Entry},\n  author = {Doe, Jane},\n"
        "  booktitle = {OSDI},\n  year = {2023}\n}\n\n@misc{broken2023\n  title = {x},\n"
        "  author = {Roe, Rick},\n  year = {2023}\n}\n",
    )
    if traceback(run):
        return traceback(run)
    if "added good2023x" not in run.out or "refs.bib:8: refused: broken2023" not in run.out:
        return f"exit {run.code}: the readable entry not added, or the broken one not named"
    return None


@case("33.9", "a list imported three times files its inbox candidates once")
def list_reimport(tmp: Path) -> str | None:
    root = project(tmp)
    source = tmp / "list.md"
    source.write_text(
        "# Systems\n\n- [Widgetflow: Serving Many Models](https://arxiv.org/abs/2401.00011)"
        " arXiv 2024\n- [Widgetflow: Serving Many Models](https://example.org/w) NSDI'25\n"
        "- **Multi-Component Graph Convolutional Collaborative Filtering.** AAAI, 2020.\n",
        encoding="utf-8",
    )
    inbox = root / "data" / "inbox.yaml"
    sizes = []
    for _ in range(3):
        run = papers(root, "import", str(source))
        if traceback(run):
            return traceback(run)
        sizes.append(inbox.read_bytes())
    if sizes[0] != sizes[1] or sizes[1] != sizes[2]:
        return "the inbox changed on a re-import"
    return None
