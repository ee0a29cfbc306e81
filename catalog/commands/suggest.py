"""`papers suggest`: what to read next, ranked by fit to the catalog, a tag, a note or
the papers read; `--eval` measures the model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from catalog.commands import JsonOpt, command, connect, echo, echo_json, state


@command("suggest")
def suggest_(
    source: Annotated[
        Path | None,
        typer.Argument(
            help="A .bib file, a Markdown list, or a saved arXiv feed (.xml) or listing "
            "page (.html) [default: the inbox]. Read, never imported.",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
    tag: Annotated[str | None, typer.Option("--tag", help="Rank by fit to this tag.")] = None,
    note: Annotated[
        str | None, typer.Option("--note", help="Rank by fit to this note (its slug).")
    ] = None,
    read: Annotated[
        bool, typer.Option("--read", help="Rank by fit to the papers you have read.")
    ] = False,
    count: Annotated[
        int, typer.Option("--limit", "-n", min=1, help="How many candidates to show.")
    ] = 20,
    evaluate: Annotated[
        bool,
        typer.Option(
            "--eval",
            help="Measure the model instead: held-out P@10 and recall@10 on every note and "
            "tag beside the centroid baseline; with SOURCE, a tenth of the catalog hidden "
            "in it and the share of it ranked in the top tenth.",
        ),
    ] = False,
    take: Annotated[
        int | None,
        typer.Option(
            "--take",
            min=1,
            help="Import the best N through `papers import` (from a .bib file or a list): "
            "every rule of import, the catalog or the inbox.",
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="With --take: show what would change.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Candidates ranked by how well they fit the catalog (or a tag, a note, your reading).

    Each says why: the nearest catalog papers and the words that weigh most. The model
    (TF-IDF of title, summary, tags and authors; a linear SVM per target) is trained on
    the catalog as it runs.

    \b
    Examples:
      papers suggest
      papers suggest awesome-list.md --note moe-serving -n 10
      papers suggest listing.xml --tag caching --json
      papers suggest refs.bib --note embedding-systems --take 5
      papers suggest --eval
    """
    from catalog.index import query
    from catalog.suggest import suggestions

    conn = connect()
    papers = query.all_papers(conn)
    if evaluate:
        _evaluate(papers, source, as_json)
        return
    reading = {k: r[1] for k, r in query.reading_states(conn).items()}
    goal = suggestions.target(papers, state.paths, tag, note, read, reading)
    found = suggestions.read_candidates(state.paths, source)
    ranked = suggestions.suggest(papers, goal, found, take or count)
    if take is not None:
        shown = state.paths.display(source) if source else ""
        report = suggestions.take(state.paths, source, ranked, dry_run, shown)
        if as_json:
            echo_json(report.to_dict())
            return
        for o in sorted(report.outcomes, key=lambda o: o.line):
            key = f" {o.key}" if o.key else ""
            reason = f" — {o.reason}" if o.reason else ""
            echo(f"{report.file}:{o.line}: {o.action}{key}: {o.title}{reason}")
        echo(report.summary())
        return
    if as_json:
        echo_json(
            {"target": goal.name, "candidates": len(found), "ranked": [s.to_dict() for s in ranked]}
        )
        return
    if not found:
        echo("no candidates to rank" + ("" if source else ": the inbox is empty"), err=True)
        return
    echo(f"{len(found)} candidates ranked by fit to {goal.name}; the best {len(ranked)}:")
    for s in ranked:
        known = f"  (in the catalog: {s.known})" if s.known else ""
        echo(f"{s.rank:>3}. {s.score:+.3f}  {s.candidate.label}{known}", bold=True)
        echo(f"      {s.candidate.where}")
        if s.nearest:
            echo("      near: " + ", ".join(p.key for p, _ in s.nearest))
        if s.words:
            echo("      words: " + ", ".join(s.words))


def _evaluate(papers: list, source: Path | None, as_json: bool) -> None:
    """Print the held-out measure, or the hidden-papers measure on a list."""
    from catalog.data.notes import load_notes
    from catalog.suggest import evaluate
    from catalog.suggest.suggestions import read_candidates

    if source is not None:
        mix = evaluate.mixed_back(papers, read_candidates(state.paths, source))
        if as_json:
            echo_json(mix.to_dict())
            return
        echo(
            f"{mix.hidden} catalog papers hidden among {mix.candidates} candidates: "
            f"{mix.in_top} of them in the top {mix.top} ({mix.in_top / mix.hidden:.0%}); "
            f"centroid baseline {mix.base_in_top} ({mix.base_in_top / mix.hidden:.0%})"
        )
        return
    measures = evaluate.held_out(papers, load_notes(state.paths))
    if as_json:
        echo_json([m.to_dict() for m in measures])
        return
    echo(f"{'target':32} {'papers':>6}  {'P@10':>5} {'R@10':>5}   centroid P@10 R@10")
    for kind in ("note", "tag"):
        rows = [m for m in measures if m.kind == kind]
        for m in rows:
            echo(
                f"{kind + ' ' + m.name:32} {m.papers:>6}  {m.precision:5.2f} {m.recall:5.2f}"
                f"   {m.base_precision:13.2f} {m.base_recall:4.2f}"
            )
        if rows:
            mean = evaluate.mean(rows)
            echo(
                f"{'mean of the ' + kind + 's':32} {'':>6}  {mean.precision:5.2f} "
                f"{mean.recall:5.2f}   {mean.base_precision:13.2f} {mean.base_recall:4.2f}",
                bold=True,
            )
