"""Commands for the static site and the notes: site build/serve, notes, related."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from catalog.commands import (
    Group,
    JsonOpt,
    app,
    command,
    complete_key,
    connect,
    echo,
    echo_json,
    state,
)

site_app = typer.Typer(
    name="site",
    cls=Group,
    help="Build or serve the static site (mkdocs, Material theme).\n\n\b\nExamples:\n"
    "  papers site build\n  papers site serve",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(site_app)


ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config-file",
        "-f",
        help="mkdocs.yml to use [default: the project's].",
        show_default=False,
        dir_okay=False,
    ),
]


@command("build", group=site_app)
def site_build(
    site_dir: Annotated[
        Path | None,
        typer.Option(
            "--site-dir",
            "-o",
            help="Output folder [default: build/site].",
            show_default=False,
            file_okay=False,
        ),
    ] = None,
    config_file: ConfigOpt = None,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict/--no-strict", help="Fail on any warning (broken link, unknown [[key]])."
        ),
    ] = True,
) -> None:
    """Build the static site from the catalog, its notes and reading notes.

    \b
    Examples:
      papers site build
      papers site build -o /tmp/papers-site
    """
    from catalog.site import builder

    try:
        result = builder.build(state.paths, config_file, site_dir, strict)
    except KeyboardInterrupt:
        echo("interrupted: the site was not built; any previous site is kept", err=True)
        raise typer.Exit(130) from None
    for warning in result.warnings:
        echo(f"warning: {warning}", err=True)
    echo(
        f"built {result.pages} pages into {state.paths.display(result.site_dir)} "
        f"in {result.seconds:.1f} s"
    )


@command("sources", group=site_app)
def site_sources(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Folder for docs/ and mkdocs.yml [default: build/site-src].",
            show_default=False,
            file_okay=False,
        ),
    ] = Path("build/site-src"),
    config_file: ConfigOpt = None,
) -> None:
    """Write the site's sources as files (no hook needed to build them).

    \b
    Examples:
      papers site sources -o build/site-src
      mkdocs build -f build/site-src/mkdocs.yml
    """
    from catalog.site import builder

    count = builder.write_sources(state.paths, out, config_file)
    typer.echo(
        f"wrote {count} generated files and the hand-written pages into "
        f"{state.paths.display(out)}; build them with: mkdocs build -f "
        f"{state.paths.display(out / 'mkdocs.yml')}"
    )


@command("serve", group=site_app)
def site_serve(
    dev_addr: Annotated[
        str, typer.Option("--dev-addr", "-a", help="IP:PORT to serve on.")
    ] = "127.0.0.1:8000",
    config_file: ConfigOpt = None,
) -> None:
    """Serve the site locally, rebuilding it when the catalog or notes change.

    \b
    Examples:
      papers site serve
      papers site serve --dev-addr 127.0.0.1:8001
    """
    from catalog.site import builder

    builder.serve(state.paths, config_file, dev_addr)


@command("notes")
def notes_(as_json: JsonOpt = False) -> None:
    """List the hand-written notes (site/notes) and the papers each one discusses.

    \b
    Examples:
      papers notes
      papers notes --json
    """
    from catalog.data import notes
    from catalog.index import query

    found = notes.load_notes(state.paths)
    papers = {p.key: p for p in query.all_papers(connect())} if found else {}
    if as_json:
        echo_json(
            [
                {
                    "note": n.slug,
                    "title": n.title,
                    "path": state.paths.display(n.path),
                    "papers": [
                        {"key": k, "title": papers[k].title if k in papers else None}
                        for k in n.keys
                    ],
                }
                for n in found
            ]
        )
        return
    if not found:
        echo(f"no notes in {state.paths.display(state.paths.notes)}", err=True)
        return
    for note in found:
        echo(f"{note.slug}  {note.title}", bold=True)
        echo(f"  {state.paths.display(note.path)}, {len(note.keys)} papers")
        for key in note.keys:
            title = papers[key].short_title if key in papers else "(unknown paper)"
            echo(f"    {key:28} {title}")


@command("related")
def related_(
    key: Annotated[str, typer.Argument(help="Citation key.", autocompletion=complete_key)],
    count: Annotated[
        int, typer.Option("--limit", "--count", "-n", min=1, help="How many papers to show.")
    ] = 5,
    as_json: JsonOpt = False,
) -> None:
    """The papers most like one paper in title, summary, tags, authors and system name.

    \b
    Examples:
      papers related xie2022fleche
      papers related he2021fastmoe -n 3
    """
    from catalog.index import query, related

    hits = related.related(query.all_papers(connect()), key, count)
    if as_json:
        echo_json([{**p.to_dict(), "score": round(score, 4)} for p, score in hits])
        return
    if not hits:
        echo(f"no paper shares enough words with {key}", err=True)
        return
    for paper, score in hits:
        echo(f"{score:5.2f}  {paper.key:28} {paper.title} ({paper.venue} {paper.year})")
