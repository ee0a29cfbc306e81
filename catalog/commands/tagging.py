"""Commands that tag papers and look after the tag vocabulary: tag, untag, tags.

Each change goes through catalog.edit.writer, the one door for writes.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from catalog.commands import (
    DryRunOpt,
    JsonOpt,
    KeysArg,
    TagsOpt,
    command,
    connect,
    echo,
    echo_json,
    show_diff,
    state,
    warn,
)
from catalog.errors import UsageError


@command("tag")
def tag(
    keys: KeysArg,
    tags: TagsOpt,
    new: Annotated[
        bool,
        typer.Option(
            "--new",
            help="Add tags missing from the vocabulary (data/tags.yaml) instead of refusing them.",
        ),
    ] = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add tags to papers.

    Example: papers tag sima2022ekko xie2022fleche -t caching -t inference
    """
    from catalog.edit import writer

    if not tags:
        raise UsageError("give at least one tag with -t TAG")
    changed: dict[str, list[str]] = {}
    with writer.edit(state.paths, dry_run=dry_run) as session:
        known = set(session.vocabulary)
        for key in keys:
            changed[key] = session.add_tags(key, tags, new=new)
        added_vocabulary = [t for t in session.vocabulary if t not in known]
    result = session.result
    warn(result)
    if as_json:
        echo_json(
            {
                "tagged": [{"key": k, "added": v} for k, v in changed.items()],
                "vocabulary_added": added_vocabulary,
                "dry_run": dry_run,
            }
        )
        return
    if dry_run:
        show_diff(result.diff)
        return
    for tag_name in added_vocabulary:
        echo(
            f"added tag '{tag_name}' to {state.paths.display(state.paths.tags)} "
            "(give it a description there)"
        )
    for key, added in changed.items():
        echo(f"{key}: " + (" ".join(f"+{t}" for t in added) if added else "already tagged"))


@command("untag")
def untag(
    keys: KeysArg, tags: TagsOpt, dry_run: DryRunOpt = False, as_json: JsonOpt = False
) -> None:
    """Remove tags from papers.

    Example: papers untag sima2022ekko -t scheduling
    """
    from catalog.edit import writer

    if not tags:
        raise UsageError("give at least one tag with -t TAG")
    changed: dict[str, list[str]] = {}
    with writer.edit(state.paths, dry_run=dry_run) as session:
        for key in keys:
            changed[key] = session.remove_tags(key, tags)
    if as_json:
        echo_json(
            {"untagged": [{"key": k, "removed": v} for k, v in changed.items()], "dry_run": dry_run}
        )
    elif dry_run:
        show_diff(session.result.diff)
    else:
        for key, gone in changed.items():
            echo(
                f"{key}: "
                + (" ".join(f"-{t}" for t in gone) if gone else "had none of " + ", ".join(tags))
            )


@command("tags")
def tags_(
    rename: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--rename",
            metavar="OLD NEW",
            help="Rename a tag in the vocabulary and on every "
            "paper (merging into NEW if it exists).",
            show_default=False,
        ),
    ] = None,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """List every tag with its paper count, or rename one across the catalog.

    Example: papers tags --rename caching cache
    """
    if rename:
        from catalog.edit import writer

        old, new = rename
        with writer.edit(state.paths, dry_run=dry_run) as session:
            changed = session.rename_tag(old, new)
        if as_json:
            echo_json({"renamed": old, "to": new, "papers": changed, "dry_run": dry_run})
        elif dry_run:
            show_diff(session.result.diff)
        else:
            echo(
                f"renamed tag '{old}' to '{new}' on {len(changed)} paper{'s' * (len(changed) != 1)}"
            )
        return
    from catalog.data.registry import load_tags
    from catalog.index import query

    counts = query.stats(connect())["tag"]
    vocabulary = load_tags(state.paths.tags)
    rows: list[dict[str, Any]] = [
        {"tag": t, "count": counts.get(t, 0), "description": d, "in_vocabulary": True}
        for t, d in vocabulary.items()
    ]
    rows += [
        {"tag": t, "count": n, "description": "", "in_vocabulary": False}
        for t, n in counts.items()
        if t not in vocabulary
    ]
    rows.sort(key=lambda r: (-r["count"], r["tag"]))
    if as_json:
        echo_json(rows)
        return
    width = max((len(r["tag"]) for r in rows), default=0)
    for r in rows:
        note = "" if r["in_vocabulary"] else "  (not in the vocabulary)"
        echo(f"{r['tag']:{width}}  {r['count']:4}  {r['description']}{note}".rstrip())
