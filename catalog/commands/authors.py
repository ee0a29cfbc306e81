"""The people behind author names: `papers authors` lists likely splits (a report, never
a merge), `papers authors same` and `papers authors different` record a curator's
decision in data/authors.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from catalog.commands import (
    DryRunOpt,
    Group,
    JsonOpt,
    app,
    command,
    echo,
    echo_json,
    guarded,
    show_diff,
    state,
    warn,
)

if TYPE_CHECKING:
    from catalog.check.splits import Proposal, Someone
    from catalog.edit.people import Decision

authors_app = typer.Typer(
    name="authors",
    cls=Group,
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(authors_app)

NameArg = Annotated[str, typer.Argument(help="An author's name as papers.yaml writes it.")]
LimitOpt = Annotated[
    int, typer.Option("--limit", "-n", min=0, help="Show at most this many (0: all).")
]


@authors_app.callback()
def authors(ctx: typer.Context, as_json: JsonOpt = False, limit: LimitOpt = 0) -> None:
    """List likely splits: two author pages that may be one person, for you to confirm.

    Two names with the same family name and compatible given names (accents, case,
    initials, a middle name added), most shared co-authors first; pairs on one paper or
    already decided in data/authors.yaml are left out. Nothing is merged: confirm a pair
    with `papers authors same`, or record `papers authors different`.

    \b
    Examples:
      papers authors
      papers authors --json
      papers authors same "Misha Smelyanskiy" "Mikhail Smelyanskiy"
      papers authors different "Jun Yang" "June Yang"
    """
    if ctx.invoked_subcommand is None:
        guarded(_list)(as_json, limit)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _list(as_json: bool, limit: int) -> None:
    from catalog.check.splits import likely

    found = likely(state.paths)
    shown = found[:limit] if limit else found
    if as_json:
        echo_json([p.to_dict() for p in shown])
        return
    for proposal in shown:
        echo(_line(proposal))
    echo(
        f"{plural(len(found), 'likely split')}"
        + (f" ({len(shown)} shown)" if len(shown) < len(found) else "")
        + (
            ": confirm one with `papers authors same A B`, or record "
            "`papers authors different A B` (nothing is merged until you do)"
            if found
            else ""
        ),
        err=True,
    )


def _line(proposal: Proposal) -> str:
    shared = (
        f"{plural(len(proposal.shared), 'shared co-author')} ({', '.join(proposal.shared[:5])}"
        + (", ..." if len(proposal.shared) > 5 else "")
        + ")"
        if proposal.shared
        else "no shared co-author"
    )
    return f"{_who(proposal.a)} ~ {_who(proposal.b)}: {proposal.why}; {shared}"


def _who(someone: Someone) -> str:
    """'"Name" (id x; also Other) on key1, key2 and 3 more'."""
    about = [f"id {someone.id}"] if someone.id else []
    about += [f"also {s}" for s in someone.spellings if s != someone.name]
    more = len(someone.papers) - 3
    papers = ", ".join(someone.papers[:3]) + (f" and {more} more" if more > 0 else "")
    return f'"{someone.name}"' + (f" ({'; '.join(about)})" if about else "") + f" on {papers}"


@command("same", group=authors_app)
def same(
    first: NameArg, second: NameArg, dry_run: DryRunOpt = False, as_json: JsonOpt = False
) -> None:
    """Record in data/authors.yaml that two names are one person.

    The entry that holds either name grows; with none, a new entry shows the first name.
    Refused, with nothing written, when papers.yaml writes neither name, when the two
    are authors of one paper, or when they are recorded as different people.

    \b
    Examples:
      papers authors same "Mikhail Smelyanskiy" "Misha Smelyanskiy"
      papers authors same "Ed H. Chi" "Ed Chi" --dry-run
    """
    from catalog.edit.people import same as join

    _report(join(state.paths, first, second, dry_run), first, second, dry_run, as_json)


@command("different", group=authors_app)
def different(
    first: NameArg, second: NameArg, dry_run: DryRunOpt = False, as_json: JsonOpt = False
) -> None:
    """Record in data/authors.yaml that two alike names are two people.

    `papers authors` then proposes the pair no more. Written on the first name's entry
    (made if it has none).

    \b
    Examples:
      papers authors different "Jun Yang" "June Yang"
      papers authors different "Yu Emma Wang" "Yu Wang" --dry-run
    """
    from catalog.edit.people import different as apart

    _report(apart(state.paths, first, second, dry_run), first, second, dry_run, as_json)


def _report(decision: Decision, first: str, second: str, dry_run: bool, as_json: bool) -> None:
    """What a decision wrote (or would write)."""
    if as_json:
        echo_json(
            {
                "names": [first, second],
                "decision": decision.note,
                "entry": decision.key,
                "value": decision.value,
                "removed": decision.removed,
                "changed": decision.value is not None,
                "dry_run": dry_run,
            }
        )
        return
    if decision.value is None:
        echo(f"'{first}' and '{second}': {decision.note}; nothing to write")
        return
    verb = "would record" if dry_run else "recorded"
    folded = f" (entry '{decision.removed[0]}' folded into it)" if decision.removed else ""
    echo(f"{verb} '{first}' and '{second}' as {decision.note}: entry '{decision.key}'{folded}")
    if dry_run:
        show_diff(decision.result.diff)
    warn(decision.result)
