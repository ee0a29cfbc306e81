"""The typer app shared by every command module, and the one error boundary."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand

from catalog import __version__
from catalog.errors import CatalogError, UsageError
from catalog.paths import CATALOG_ENV, DB_ENV, Paths, resolve

app = typer.Typer(
    name="papers",
    help="A curated catalog of recommendation-system and ML-systems papers.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class State:
    catalog: Path | None = None
    db: Path | None = None

    @property
    def paths(self) -> Paths:
        return resolve(self.catalog, self.db)


state = State()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"papers {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    catalog: Annotated[Path | None, typer.Option(
        "--catalog", envvar=CATALOG_ENV, help="Catalog file [default: data/papers.yaml].",
        show_default=False)] = None,
    db: Annotated[Path | None, typer.Option(
        "--db", envvar=DB_ENV, help="Index database [default: build/catalog.db].",
        show_default=False)] = None,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Show the version.")] = False,
) -> None:
    """A curated catalog of recommendation-system and ML-systems papers."""
    state.catalog, state.db = catalog, db


def command(*args: Any, group: typer.Typer | None = None, **kwargs: Any) -> Callable[[F], F]:
    """app.command (or group.command), with our exceptions turned into a message on stderr
    and an exit code."""

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*a: Any, **k: Any) -> Any:
            try:
                return _run_repairing_index(fn, a, k)
            except UsageError as err:
                typer.echo(f"error: {err}", err=True)
                raise typer.Exit(2) from None
            except CatalogError as err:
                typer.echo(f"error: {err}" if "\n" not in str(err) else str(err), err=True)
                raise typer.Exit(1) from None
            except BrokenPipeError:
                raise typer.Exit(0) from None

        (group or app).command(*args, **kwargs)(wrapper)
        return fn

    return decorate


def _run_repairing_index(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """Run a command; if the index turns out damaged while in use ('database disk image is
    malformed'), rebuild it (it is derived from the YAML) and run the command once more."""
    try:
        return fn(*args, **kwargs)
    except sqlite3.DatabaseError as err:
        if "locked" in str(err):
            raise CatalogError(f"{state.paths.display(state.paths.db)}: the index is busy "
                               f"({err}); try again in a moment") from None
        from catalog import index

        index.rebuild(state.paths)
    try:
        return fn(*args, **kwargs)
    except sqlite3.DatabaseError as err:
        raise CatalogError(f"{state.paths.display(state.paths.db)}: the index is damaged and "
                           f"rebuilding it did not help ({err}); remove it and run "
                           "`papers index`") from None


def connect() -> sqlite3.Connection:
    """The fresh index of the chosen catalog."""
    from catalog import index

    return index.connect(state.paths)


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def complete_key(incomplete: str) -> list[str]:
    """Shell completion for citation keys, read from the index."""
    try:
        from catalog.query import keys

        return keys(connect(), incomplete)
    except Exception:  # completion must never print a traceback
        return []


class QueryCommand(TyperCommand):
    """A command whose arguments are query words, which may start with '-' (-inference,
    -tag:moe): anything that is not one of the command's own options is a query word."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        options: dict[str, bool] = {}  # option string -> takes a value
        for param in self.get_params(ctx):
            if getattr(param, "param_type_name", "") == "option":
                for name in (*param.opts, *param.secondary_opts):
                    flag = getattr(param, "is_flag", False) or getattr(param, "count", False)
                    options[name] = not flag
        flags: list[str] = []
        words: list[str] = []
        rest = iter(args)
        for arg in rest:
            if arg == "--":
                words.extend(rest)
                break
            name = arg.split("=", 1)[0]
            if arg[:2] in options and options[arg[:2]] and arg[2:].isdigit():
                flags.append(arg)  # -n5
            elif name in options:
                flags.append(arg)
                if options[name] and "=" not in arg:
                    flags.append(next(rest, ""))
            else:
                words.append(arg)
        return super().parse_args(ctx, [*flags, "--", *words])


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
