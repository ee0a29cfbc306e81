"""A "Suggest a paper" issue into a catalog change, for a pull request to review.

    python tools/suggestion.py ISSUE.md --issue N --body PR.md [--catalog data/papers.yaml]

The workflow .github/workflows/suggestion.yml runs it when a maintainer labels a
suggestion `add-paper`. It reads the answers of the issue form (whose questions
.github/ISSUE_TEMPLATE/suggest-paper.yml names), adds the paper as `papers add --doi`
or `--arxiv` does (its record fetched, each service asked at its own pace through the
HTTP cache, as `papers update` asks them), and writes the pull request's text: the
report and the diff of data/. Every line that comes from the issue or a service is
indented, so GitHub shows it as code: no markup, link or mention in it acts. Exit 0
when the paper was added; 1 when not, with the text saying why (the workflow posts it
on the issue).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from catalog.errors import CatalogError
from catalog.model import strip_controls
from catalog.paths import Paths, resolve

REPO = Path(__file__).resolve().parent.parent
FORM = REPO / ".github" / "ISSUE_TEMPLATE" / "suggest-paper.yml"
# What GitHub writes under a question left unanswered.
NO_RESPONSE = "_No response_"
_HEADING_RE = re.compile(r"^### (.+?)\s*$")
_TAG_SPLIT_RE = re.compile(r"[\s,;]+")


@dataclass
class Suggestion:
    """The form's answers: the paper (a DOI, an arXiv id or a URL), why, and tags."""

    paper: str
    why: str = ""
    tags: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    """What the run did: added or not, the report's lines and the diff of data/."""

    added: bool
    lines: list[str]
    diff: str = ""


def questions(form: Path = FORM) -> dict[str, str]:
    """The form's questions: each answer's id to the label GitHub heads it with."""
    body = yaml.safe_load(form.read_text(encoding="utf-8"))["body"]
    return {item["id"]: item["attributes"]["label"] for item in body if "id" in item}


def read_form(text: str, form: Path = FORM) -> Suggestion:
    """The answers of an issue written through the form (CatalogError without a paper)."""
    by_label: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.replace("\r\n", "\n").split("\n"):
        heading = _HEADING_RE.match(line)
        if heading:
            current = by_label.setdefault(heading.group(1), [])
        elif current is not None:
            current.append(line)
    answers = {}
    for ident, label in questions(form).items():
        answer = "\n".join(by_label.get(label, [])).strip()
        answers[ident] = "" if answer == NO_RESPONSE else answer
    if not answers.get("paper"):
        raise CatalogError(
            "the issue names no paper: edit it to give the DOI, arXiv id or URL under "
            f"'{questions(form)['paper']}' (the Suggest a paper form asks for it)"
        )
    tags = [t.lower() for t in _TAG_SPLIT_RE.split(answers.get("tags", "")) if t]
    return Suggestion(answers["paper"], answers.get("why", ""), tags)


def identify(text: str) -> tuple[str | None, str | None]:
    """The DOI and the arXiv id a suggestion names: the first word of it that is one,
    bare, prefixed ('doi:', 'arXiv:') or in a link."""
    for word in strip_controls(text).split():
        found = _ids(word.strip(".,;()<>"))
        if found != (None, None):
            return found
    return None, None


def _ids(word: str) -> tuple[str | None, str | None]:
    """The DOI and arXiv id of one word (None, None when it names neither)."""
    from catalog.ingest.listfields import Entry, with_ids
    from catalog.model import ARXIV_NEW_RE, ARXIV_OLD_RE, arxiv_doi, read_doi

    doi = read_doi(word)
    if doi:  # arXiv's own DOI names the preprint: its id, as papers add --arxiv takes it
        return (None, arxiv_doi(doi)) if arxiv_doi(doi) else (doi, None)
    bare = re.sub(r"^arxiv:", "", word, flags=re.IGNORECASE)
    if ARXIV_NEW_RE.match(bare) or ARXIV_OLD_RE.match(bare):
        return None, re.sub(r"v\d+$", "", bare)
    entry = with_ids(Entry(0, "", None, None), word)
    return (None if arxiv_doi(entry.doi) else entry.doi), entry.arxiv


def add(paths: Paths, suggestion: Suggestion) -> Outcome:
    """The suggested paper added through papers add's own call, politely."""
    from catalog.data.registry import load_tags
    from catalog.ingest import adding, webclient
    from catalog.update.updater import CACHE_TTL, cache_folder

    doi, arxiv = identify(suggestion.paper)
    if not doi and not arxiv:
        return Outcome(
            False,
            [
                f"not added: no DOI or arXiv id in {suggestion.paper!r}; papers looks a paper "
                "up by one of them: edit the issue to give it, then label it again"
            ],
        )
    vocabulary = load_tags(paths.tags)
    known = [t for t in dict.fromkeys(suggestion.tags) if t in vocabulary]
    lines = [f"not in {paths.tags.name}, left out: {t}" for t in suggestion.tags if t not in known]
    before = _data_files(paths)
    try:
        with webclient.politely(cache_folder(), CACHE_TTL):
            added = adding.add(paths, adding.Wanted(doi=doi, arxiv=arxiv, tags=known))
    except CatalogError as err:
        return Outcome(False, [*lines, f"not added: {err}"])
    lines += [f"warning: {note}" for note in added.notes]
    lines += [f"warning: {problem}" for problem in added.report.warnings]
    if added.refusal:
        return Outcome(False, [*lines, added.refusal])
    paper, outcome = added.paper, added.report.outcomes[0]
    lines.insert(0, f"added {outcome.key}: {paper.title} [{paper.venue} {paper.year}]")
    for venue in added.report.venues_added:
        lines.append(f"added venue {venue.short} ({venue.kind}: {venue.name}): review it")
    return Outcome(True, lines, _diff(paths, before))


def _data_files(paths: Paths) -> dict[Path, str]:
    """The text of every file in the catalog's data folder that papers add may write."""
    found = sorted(paths.data_dir.glob("*.yaml"))
    return {p: p.read_text(encoding="utf-8") for p in found if p.is_file()}


def _diff(paths: Paths, before: dict[Path, str]) -> str:
    """A unified diff of the data files from before to now."""
    out = []
    for path, now in _data_files(paths).items():
        was = before.get(path, "")
        if was != now:
            name = f"{paths.data_dir.name}/{path.name}"
            lines = was.splitlines(keepends=True), now.splitlines(keepends=True)
            out += difflib.unified_diff(*lines, f"a/{name}", f"b/{name}")
    return "".join(out)


def pull_request_text(issue: int, suggestion: Suggestion, outcome: Outcome) -> str:
    """The pull request's text (or, when nothing was added, the issue comment's)."""
    head = (
        f"The paper suggested in #{issue}, added by `papers add` from its public record. "
        "Check the fields against the record and the reason it belongs before merging."
        if outcome.added
        else f"`papers add` did not add the paper suggested in #{issue}:"
    )
    parts = [head, "", "What was suggested:", "", _code(suggestion.paper)]
    if suggestion.why:
        parts += ["", "Why it belongs:", "", _code(suggestion.why)]
    parts += ["", "What papers add said:", "", _code("\n".join(outcome.lines))]
    if outcome.diff:
        parts += ["", "The diff:", "", _code(outcome.diff.rstrip("\n"))]
    if outcome.added:
        parts += ["", f"Closes #{issue}."]
    return "\n".join(parts) + "\n"


def _code(text: str, limit: int = 30000) -> str:
    """Text as an indented code block, cut to limit characters (GitHub's body is capped)."""
    if len(text) > limit:
        text = text[:limit] + "\n[cut]"
    return "\n".join("    " + strip_controls(line) for line in text.split("\n"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("issue_body", type=Path, help="the issue's text, as a file")
    parser.add_argument("--issue", type=int, required=True, help="the issue's number")
    parser.add_argument("--body", type=Path, required=True, help="where the PR text goes")
    parser.add_argument("--catalog", default=None, help="the catalog [default: data/]")
    args = parser.parse_args(argv)
    text = args.issue_body.read_text(encoding="utf-8")
    try:
        suggestion = read_form(text)
        outcome = add(resolve(args.catalog), suggestion)
    except CatalogError as err:
        suggestion, outcome = Suggestion(""), Outcome(False, [str(err)])
    args.body.parent.mkdir(parents=True, exist_ok=True)
    args.body.write_text(pull_request_text(args.issue, suggestion, outcome), encoding="utf-8")
    print("\n".join(outcome.lines), file=sys.stderr)
    return 0 if outcome.added else 1


if __name__ == "__main__":
    sys.exit(main())
