"""The typer app shared by every command module, and the one error boundary."""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from catalog import __version__
from catalog.errors import CatalogError, UsageError
from catalog.model import strip_controls
from catalog.paths import CATALOG_ENV, DB_ENV, Paths, resolve


class Group(TyperGroup):
    """A command group that says where a command's option goes when it is written before
    the command's name (papers -n 3 search x)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        misplaced = _misplaced_option(self, ctx, args)
        if misplaced:
            raise OptionError(misplaced, ctx=ctx)
        return super().parse_args(ctx, args)


app = typer.Typer(
    name="papers",
    cls=Group,
    help="A curated catalog of recommendation-system and ML-systems papers.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


NO_CATALOG = (
    "no catalog here: papers runs inside a catalog's folder (one holding "
    "data/papers.yaml, or any folder below it); cd there, or name the catalog "
    "before the command: papers --catalog PATH/papers.yaml {command}, or set "
    "PAPERS_CATALOG=PATH/papers.yaml"
)


@dataclass
class State:
    catalog: Path | None = None
    db: Path | None = None
    command: str = "COMMAND"  # the running sub-command as typed after `papers` ('site build')

    @property
    def paths(self) -> Paths:
        """The chosen catalog's files; outside any catalog, an error that says how to pick one."""
        paths = self.found()
        if paths is None:
            raise CatalogError(NO_CATALOG.format(command=self.command))
        return paths

    def found(self) -> Paths | None:
        """The chosen catalog's files, or None when none was named and none was found by
        walking up from the working folder (as git finds its repository)."""
        paths = resolve(self.catalog, self.db)
        if self.catalog is None and not paths.catalog.exists():
            return None
        return paths


state = State()


# Whole escape sequences (CSI "ESC [ ... m", OSC "ESC ] ... BEL", their one-byte C1 forms,
# and two-byte ESC x) go first so no "[31m" is left behind; strip_controls takes the rest.
_ESCAPE_RE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?"
)


def for_terminal(text: str) -> str:
    """Text safe to print: no control character (C0, C1, DEL), escape sequence or bidi
    override, tabs as spaces; newlines kept. Every string from the data passes here."""
    if text.isprintable():  # no control, escape, bidi override, tab or newline: as it is
        return text
    text = _ESCAPE_RE.sub("", text)
    return "\n".join(strip_controls(line) for line in text.split("\n"))


def echo(message: str = "", err: bool = False, nl: bool = True, **style: Any) -> None:
    """typer.echo (or secho with a style) through the terminal sanitizer."""
    if style:
        typer.secho(for_terminal(message), err=err, nl=nl, **style)
    else:
        typer.echo(for_terminal(message), err=err, nl=nl)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"papers {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    catalog: Annotated[
        Path | None,
        typer.Option(
            "--catalog",
            envvar=CATALOG_ENV,
            help="Catalog file [default: data/papers.yaml].",
            show_default=False,
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            envvar=DB_ENV,
            help="Index database [default: build/catalog.db].",
            show_default=False,
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """A curated catalog of recommendation-system and ML-systems papers."""
    state.catalog, state.db = catalog, db


def command(*args: Any, group: typer.Typer | None = None, **kwargs: Any) -> Callable[[F], F]:
    """app.command (or group.command), with our exceptions turned into a message on stderr
    and an exit code."""

    def decorate(fn: F) -> F:
        kwargs.setdefault("cls", Command)
        (group or app).command(*args, **kwargs)(guarded(fn))
        return fn

    return decorate


def guarded(fn: F) -> F:
    """fn with our exceptions turned into a message on stderr and an exit code."""

    @functools.wraps(fn)
    def wrapper(*a: Any, **k: Any) -> Any:
        try:
            return _run_repairing_index(fn, a, k)
        except UsageError as err:
            echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None
        except CatalogError as err:
            echo(f"error: {err}" if "\n" not in str(err) else str(err), err=True)
            raise typer.Exit(1) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None

    return wrapper  # type: ignore[return-value]


def _run_repairing_index(fn: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    """Run a command; if the index turns out damaged while in use ('database disk image is
    malformed'), rebuild it (it is derived from the YAML) and run the command once more."""
    try:
        return fn(*args, **kwargs)
    except sqlite3.DatabaseError as err:
        if "locked" in str(err):
            raise CatalogError(
                f"{state.paths.display(state.paths.db)}: the index is busy "
                f"({err}); try again in a moment"
            ) from None
        from catalog.index import database

        database.rebuild(state.paths)
    try:
        return fn(*args, **kwargs)
    except sqlite3.DatabaseError as err:
        raise CatalogError(
            f"{state.paths.display(state.paths.db)}: the index is damaged and "
            f"rebuilding it did not help ({err}); remove it and run "
            "`papers index`"
        ) from None


def connect() -> sqlite3.Connection:
    """The fresh index of the chosen catalog."""
    from catalog.index import database

    return database.connect(state.paths)


# Characters JSON may carry raw that a terminal would still act on: C1 controls, DEL and
# bidi overrides (json.dumps already escapes C0). Escaped, the JSON means the same.
_JSON_UNSAFE_RE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def echo_json(data: Any) -> None:
    """Data as JSON; every control character escaped (\\u001b), none printed raw."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    typer.echo(_JSON_UNSAFE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))


def complete_key(incomplete: str) -> list[str]:
    """Shell completion for citation keys, read from the index."""
    try:
        from catalog.index.query import keys

        return keys(connect(), incomplete)
    except Exception:  # completion must never print a traceback
        return []


# Options of `papers` itself, which a user may put after the command by mistake.
GLOBAL_OPTIONS = ("--catalog", "--db", "--version")


def _own_options(command: TyperCommand | TyperGroup, ctx: Any) -> dict[str, bool]:
    """The command's option strings, each mapped to whether it takes a value."""
    options: dict[str, bool] = {}
    for param in command.get_params(ctx):
        if getattr(param, "param_type_name", "") == "option":
            flag = getattr(param, "is_flag", False) or getattr(param, "count", False)
            for name in (*param.opts, *param.secondary_opts):
                options[name] = not flag
    return options


def _global_first(name: str, args: list[str], command: str) -> str:
    """The command line with the global option moved before the command."""
    import shlex

    rest = list(args)
    at = next((i for i, a in enumerate(rest) if a.split("=", 1)[0] == name), None)
    moved = []
    if at is not None:
        takes_value = name != "--version" and "=" not in rest[at]
        moved, rest[at : at + 1 + takes_value] = rest[at : at + 1 + takes_value], []
    return "papers " + shlex.join([*moved, *command.split(), *rest])


def unknown_option(
    name: str, options: list[str], command: str, args: list[str], query: bool = False
) -> str:
    """The message for an option the command lacks: a close option, or where a global option
    goes, or (for a query command) how to search for the word itself."""
    import difflib

    message = f"no such option: {name}"
    if name in GLOBAL_OPTIONS:
        return (
            f"{message} ({name} is an option of papers itself and goes before the "
            f"command: {_global_first(name, args, command)})"
        )
    close = difflib.get_close_matches(name, [o for o in options if o.startswith("--")], n=1)
    if close:
        return f"{message} (did you mean {close[0]}?)"
    hint = "its options are " + ", ".join(o for o in options if o.startswith("--"))
    if query:
        hint += f"; to search for '{name}' itself, put it after --: papers {command} -- {name}"
    return f"{message} ({hint})"


def _misplaced_option(group: TyperGroup, ctx: Any, args: list[str]) -> str | None:
    """The hint for an option of a later command written before it, else None."""
    own = _own_options(group, ctx)
    rest = iter(enumerate(args))
    for at, arg in rest:
        name = arg.split("=", 1)[0]
        if not arg.startswith("-") or arg == "--":
            return None
        if name in own:
            if own[name] and "=" not in arg:
                next(rest, None)
            continue
        return _option_of_command(group, ctx, args, at)
    return None


def _option_of_command(group: TyperGroup, ctx: Any, args: list[str], at: int) -> str | None:
    """'-n is an option of papers search ...' when a command named later has the option."""
    name = args[at].split("=", 1)[0]
    path: list[int] = []  # where the command's name (and a sub-command's) stand in args
    command: Any = group
    for index in range(at + 1, len(args)):
        found = command.get_command(ctx, args[index])
        if found is None:
            continue
        path.append(index)
        command = found
        if not isinstance(command, TyperGroup):
            break
    options = {} if command is group else _own_options(command, ctx)
    if name not in options:
        return None
    taken = 2 if options[name] and "=" not in args[at] and at + 1 < len(args) else 1
    moved = list(range(at, at + taken))
    names = [args[i] for i in path]
    rest = [a for i, a in enumerate(args) if i not in path and i not in moved]
    import shlex

    where = " ".join([ctx.command_path, *names])
    line = shlex.join([*where.split(), *(args[i] for i in moved), *rest])
    return f"{name} is an option of `{where}` and goes after the command: {line}"


class OptionError(typer.BadParameter):
    """A usage error whose message is shown as it is (no 'Invalid value:' before it), made
    safe for the terminal (it quotes what the user typed, escape sequences too)."""

    def format_message(self) -> str:
        return for_terminal(self.message)


class Command(TyperCommand):
    """A command whose unknown-option error names the closest option, and says that
    --catalog and --db go before the command."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        state.command = _ctx_path(ctx)
        options = _own_options(self, ctx)
        rest = iter(args)
        for arg in rest:
            if arg == "--":
                break
            name = arg.split("=", 1)[0]
            if name in options:
                if options[name] and "=" not in arg:
                    next(rest, None)  # its value, which may start with '-'
            elif arg.startswith("--") and len(name) > 2:
                raise OptionError(
                    unknown_option(name, list(options), state.command, list(args)), ctx=ctx
                )
        return super().parse_args(ctx, args)


def _ctx_path(ctx: Any) -> str:
    """A context's command path after the program name ('site build')."""
    names = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


class QueryCommand(Command):
    """A command whose arguments are query words, which may start with '-' (-inference,
    -tag:moe). A '--word' that is not one of its options is an error, not a query word
    (write it after '--' to search for it)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        state.command = _ctx_path(ctx)
        options = _own_options(self, ctx)
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
                    value = next(rest, None)
                    if value is None:
                        raise OptionError(f"option {name} needs a value", ctx=ctx)
                    flags.append(value)
            elif arg.startswith("--") and len(name) > 2:
                raise OptionError(
                    unknown_option(name, list(options), state.command, list(args), query=True),
                    ctx=ctx,
                )
            else:
                words.append(arg)
        return TyperCommand.parse_args(self, ctx, [*flags, "--", *words])


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Show what would change; write nothing.")
]
