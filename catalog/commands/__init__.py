"""The typer app shared by every command module, and the one error boundary."""

from __future__ import annotations

import functools
import importlib
import json
import re
import shlex
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from typer._click import Command as ClickCommand
from typer._click import Context
from typer._click.exceptions import NoSuchOption
from typer._click.exceptions import UsageError as ClickUsageError
from typer._click.parser import _OptionParser, _ParsingState
from typer.core import TyperCommand, TyperGroup

from catalog import __version__
from catalog.errors import CatalogError, UsageError
from catalog.model import strip_controls
from catalog.paths import CATALOG_ENV, DB_ENV, Paths, resolve

# The module that registers each command, imported when click asks for the command (so
# `papers search` imports and builds only the reading commands: typer builds every
# registered command before it runs one, and a one-paper edit at 1,000 papers misses its
# 0.3 s target building all of them, tools/bench.py). tests/test_docs.py holds it to the
# modules' own commands.
MODULES = {
    **dict.fromkeys(("search", "show", "list", "stats", "check", "index"), "reading"),
    **dict.fromkeys(("tag", "untag", "tags"), "tagging"),
    **dict.fromkeys(("note", "rm", "edit"), "curate"),
    **dict.fromkeys(("add", "import"), "adding"),
    **dict.fromkeys(("status", "queue", "open", "attach", "pdf"), "personal"),
    **dict.fromkeys(("export", "cite", "bib-check"), "bib"),
    "inbox": "inbox",
    "venues": "venues",
    "authors": "authors",
    "demo": "demo",
    "update": "update",
    **dict.fromkeys(("site", "notes", "related"), "site"),
}


def load_commands(name: str | None) -> None:
    """Import the module of the named command; every module when name is None."""
    module = MODULES.get(name or "")
    for each in [module] if module else sorted(set(MODULES.values())):
        importlib.import_module(f"catalog.commands.{each}")


# ---------------------------------------------------------------- usage mistakes
# typer carries its own copy of click (typer._click): its parser and its usage errors are
# the ones at work here. Each is made safe for the terminal (it quotes what was typed, and
# click escapes C0 and C1 controls but not bidi overrides), and a hint added to its
# NoSuchOption, in one place: `_parse` (every group and command of papers parses its
# arguments through it) and Group.resolve_command (a command's name).


def _parse(
    parse: Callable[[Context, list[str]], list[str]],
    command: TyperCommand | TyperGroup,
    ctx: Context,
    args: list[str],
) -> list[str]:
    """parse(ctx, args); click's usage error made safe, with a hint when there is one."""
    try:
        return parse(ctx, list(args))  # click's parser takes words off the list it is given
    except ClickUsageError as err:
        hint = _hint(command, ctx, args, err) if isinstance(err, NoSuchOption) else None
        if hint is not None:
            raise ClickUsageError(for_terminal(f"{err.message} ({hint})"), ctx=ctx) from None
        err.message = for_terminal(err.message)
        raise


def _hint(
    command: TyperCommand | TyperGroup, ctx: Context, args: list[str], err: NoSuchOption
) -> str | None:
    """Where the option goes (after a command named later; before the command, for an
    option of papers itself), click's close option, or how to search for a --word."""
    name, root = err.option_name, ctx.find_root()
    if isinstance(command, TyperGroup) and (later := _of_a_later_command(command, ctx, args, name)):
        return later
    if ctx is not root and (option := _option(root.command, root, name)) is not None:
        return (
            f"{name} is an option of papers itself and goes before the command: "
            f"{_global_first(ctx, args, name, takes_value=not option.is_flag)}"
        )
    if err.possibilities:
        return f"did you mean {' or '.join(err.possibilities)}?"
    if isinstance(command, QueryCommand) and name.startswith("--"):
        return f"to search for '{name}' itself, put it after --: {ctx.command_path} -- {name}"
    return None


def _option(command: ClickCommand, ctx: Context, name: str) -> Any:
    """The command's option written `name`, or None."""
    for param in command.get_params(ctx):
        if param.param_type_name == "option" and name in (*param.opts, *param.secondary_opts):
            return param
    return None


def _of_a_later_command(group: TyperGroup, ctx: Context, args: list[str], name: str) -> str | None:
    """'-n is an option of `papers search` and goes after the command: papers search -n 3 x'
    when a command named in args has the option (its name, and a sub-command's, are moved
    to just before the option); else None."""
    command: ClickCommand = group
    names: list[int] = []  # where the command's name (and a sub-command's) stand in args
    for at, word in enumerate(args):
        found = command.get_command(ctx, word) if isinstance(command, TyperGroup) else None
        if found is not None:
            command, names = found, [*names, at]
    if not names or _option(command, ctx, name) is None:
        return None
    path = [args[at] for at in names]
    rest = [word for at, word in enumerate(args) if at not in names]
    at = next((at for at, word in enumerate(rest) if word.startswith(name)), 0)  # -n3, --x=1
    line = shlex.join([*rest[:at], *path, *rest[at:]])
    where = " ".join([ctx.command_path, *path])
    return f"{name} is an option of `{where}` and goes after the command: {ctx.command_path} {line}"


def _global_first(ctx: Context, args: list[str], name: str, takes_value: bool) -> str:
    """The command line with papers' own option (and its value) moved before the command."""
    at = [arg.partition("=")[0] for arg in args].index(name)
    end = at + 1 + (takes_value and "=" not in args[at])
    moved, rest = args[at:end], args[:at] + args[end:]
    line = [ctx.find_root().info_name or "papers", shlex.join(moved), _path(ctx), shlex.join(rest)]
    return " ".join(line).rstrip()


def _path(ctx: Context) -> str:
    """A context's command path after the program's name ('site build')."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


class Group(TyperGroup):
    """A group of commands that says where an option goes when it is written before the
    command that has it (papers -n 3 search x)."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return _parse(super().parse_args, self, ctx, args)

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, ClickCommand | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except ClickUsageError as err:  # No such command '...'
            err.message = for_terminal(err.message)
            raise


class Papers(Group):
    """papers itself: a command's module is imported when click asks for the command."""

    def get_command(self, ctx: Context, cmd_name: str) -> ClickCommand | None:
        self._load(cmd_name if cmd_name in MODULES else None)  # None: to suggest a command
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: Context) -> list[str]:
        self._load(None)  # help and shell completion list every command
        return super().list_commands(ctx)

    def _load(self, name: str | None) -> None:
        """Import the named command's module (every module for None) and take the commands
        registered so far, built by typer as it builds any group."""
        if ({name} if name else set(MODULES)) <= set(self.commands):
            return
        load_commands(name)
        built = typer.main.get_command(app)
        assert isinstance(built, TyperGroup)
        self.commands = built.commands


class Command(TyperCommand):
    """A command whose unknown-option error says where papers' own options go and names
    click's close option."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return _parse(super().parse_args, self, ctx, args)

    def invoke(self, ctx: Context) -> Any:
        state.command = _path(ctx)
        return super().invoke(ctx)


class _WordParser(_OptionParser):
    """click's parser, except that a word after '-' is a query word (-inference, -tag:moe)
    unless it is a short option alone or with a number (-n, -n5)."""

    def _match_short_opt(self, arg: str, parsing: _ParsingState) -> None:
        if arg[:2] in self._short_opt and (len(arg) == 2 or arg[2:].isdigit()):
            super()._match_short_opt(arg, parsing)
        else:
            parsing.largs.append(arg)  # a query word, in its place among the others


class QueryCommand(Command):
    """A command whose arguments are query words, which may start with '-'. A '--word' that
    is not one of its options is an error that says how to search for it (after '--')."""

    def make_parser(self, ctx: Context) -> _OptionParser:
        parser = _WordParser(ctx)
        for param in self.get_params(ctx):
            param.add_to_parser(parser, ctx)
        return parser


app = typer.Typer(
    name="papers",
    cls=Papers,
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


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Show what would change; write nothing.")
]


KeyArg = Annotated[
    str, typer.Argument(help="Citation key.", autocompletion=complete_key, show_default=False)
]
KeysArg = Annotated[
    list[str],
    typer.Argument(help="Citation keys.", autocompletion=complete_key, show_default=False),
]
TagsOpt = Annotated[
    list[str], typer.Option("--tag", "-t", help="A tag (repeat for more).", show_default=False)
]


def on_terminal() -> bool:
    """Whether a person is at the keyboard (stdin and stdout a terminal): only then ask."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def show_diff(diff: str) -> None:
    """A dry run's diff, or 'no change'."""
    echo(diff.rstrip("\n") if diff else "no change")


def warn(result: Any) -> None:
    """An edit's or an import's warnings, on stderr."""
    for problem in result.warnings:
        echo(f"warning: {problem}", err=True)
