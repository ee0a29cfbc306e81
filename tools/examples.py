"""Run the console examples of README.md and docs/pages/*.md and compare what each command
prints with what the page shows; --update rewrites the shown outputs from real runs.

    python tools/examples.py                      # every page: what differs, exit 1 if any
    python tools/examples.py docs/pages/bibtex.md # one page
    python tools/examples.py --update             # rewrite the shown outputs in place

tests/test_readme.py and tests/test_examples.py run every page this way. How a page is
written for it:

- Each ```console block's `$ COMMAND` lines run in order through `sh`, in one scratch
  folder per page (a trailing backslash continues a command on the next line). A page
  whose first command is `papers demo /tmp/papers-tour` (the README's tour) starts in the
  repository and makes its own copy; any other page starts in a fresh such copy.
  `cd DIR` alone changes the folder for the commands after it.
- The lines after a command are what it prints, stdout and stderr together. They are
  compared with these allowances, for what no two runs print alike: a date YYYY-MM-DD
  matches any date, a time such as `17.9 s` any time, the scratch folder is shown as
  /tmp/papers-tour, and a line `...` alone stands for any number of lines.
- `<!-- run: COMMAND -->` on a line of its own runs COMMAND at that point without showing
  it (a file an example reads, a hand edit an example reports); it must succeed.
- `<!-- not run: REASON -->` just before a block shows the block without running it:
  for commands that need the network or run until stopped. Say why.

Commands run with this checkout's `papers` first on PATH, no PAPERS_* variables, a HOME of
their own in the scratch folder, EDITOR=true (an editor that saves at once), COLUMNS=200,
and every HTTP(S) request sent to a closed port, so no example reaches the network.
`--update` keeps each shown line that still matches, the dates and times of a line that
changed as they were written, and a `...` with as many lines before and after it.
Review its diff: an example that now fails shows its error message as its output.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import site
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs" / "pages").glob("*.md"))]
# The scratch folder as pages write it; each run puts its own in its place.
SCRATCH = "/tmp/papers-tour"
ELLIPSIS = "..."
_MASKS = [
    (re.compile(r"\b\d{4}-\d{2}-\d{2}\b"), "DATE"),
    (re.compile(r"\b\d+(?:\.\d+)? s\b"), "N s"),
]
_RUN = re.compile(r"^<!-- run: (.+) -->\s*$")
_NOT_RUN = re.compile(r"^<!-- not run: (.+) -->\s*$")
# Where no example may reach: the discard port, closed on any machine that runs these.
_NOWHERE = "http://127.0.0.1:9"
TIMEOUT = 900


class ExampleError(Exception):
    """A page's examples cannot be run or rewritten as written."""


@dataclass
class Step:
    """One command of a page: its line, its text and the lines shown after it."""

    line: int  # 1-based line of the command in the page
    command: str
    shown: list[str] = field(default_factory=list)
    hidden: bool = False  # a <!-- run: --> step: run, never compared


@dataclass
class Outcome:
    """What a step printed (the scratch folder written as SCRATCH)."""

    step: Step
    printed: list[str]

    @property
    def holds(self) -> bool:
        return self.step.hidden or matches(self.step.shown, self.printed)


def steps(text: str) -> list[Step]:
    """Every command of the page's console blocks and <!-- run: --> lines, in order."""
    found: list[Step] = []
    lines = text.splitlines()
    inside = skipped = False
    previous = ""  # the last non-blank line outside a block
    pending: Step | None = None
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            if inside:
                inside = skipped = False
            else:
                inside = line.strip() == "```console"
                skipped = inside and bool(_NOT_RUN.match(previous))
            previous = ""
            continue
        if not inside:
            if run := _RUN.match(line):
                found.append(Step(number, run.group(1), hidden=True))
            if line.strip():
                previous = line
            continue
        if skipped:
            continue
        if pending is not None:
            pending.command += "\n" + line
            if not line.endswith("\\"):
                pending = None
            continue
        if line.startswith("$ "):
            found.append(Step(number, line[2:]))
            if line.endswith("\\"):
                pending = found[-1]
        elif found and not found[-1].hidden:
            found[-1].shown.append(line)
    return found


def _masked(lines: Iterable[str]) -> list[str]:
    out = []
    for line in lines:
        for pattern, mark in _MASKS:
            line = pattern.sub(mark, line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def _segments(shown: list[str]) -> list[list[str]]:
    """The shown lines cut at each `...` line."""
    parts: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == ELLIPSIS:
            parts.append([])
        else:
            parts[-1].append(line)
    return parts


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are what the page shows, with the allowances above."""
    parts = _segments(_masked(shown))
    got = _masked(printed)
    if len(parts) == 1:
        return parts[0] == got
    first, *middle, last = parts
    if len(first) + len(last) > len(got) or got[: len(first)] != first:
        return False
    if last and got[len(got) - len(last) :] != last:
        return False
    at, end = len(first), len(got) - len(last)
    for part in middle:
        while at + len(part) <= end and got[at : at + len(part)] != part:
            at += 1
        if at + len(part) > end:
            return False
        at += len(part)
    return True


def refreshed(shown: list[str], printed: list[str]) -> list[str]:
    """The lines to show for a step that printed `printed`: the shown ones where they
    still match, a `...` kept with as many lines around it, the rest as printed."""
    if matches(shown, printed):
        return shown
    end = len(shown)
    while end and not shown[end - 1].strip():
        end -= 1
    body, trailing = shown[:end], shown[end:]
    got = [line.rstrip() for line in printed]
    while got and not got[-1]:
        got.pop()
    parts = _segments(body)
    if len(parts) > 2:
        raise ExampleError("more than one `...` in an output that changed: rewrite it by hand")
    new = got
    if len(parts) == 2 and len(parts[0]) + len(parts[1]) < len(got):
        tail = got[len(got) - len(parts[1]) :] if parts[1] else []
        new = [*got[: len(parts[0])], ELLIPSIS, *tail]
    return _keep_alike(body, new) + trailing


def _keep_alike(old: list[str], new: list[str]) -> list[str]:
    """new, with each line that matches its counterpart in old written as in old, and the
    dates and times of a changed line as old had them (no run's own are worth a diff)."""
    out = list(new)
    matcher = difflib.SequenceMatcher(a=_masked_each(old), b=_masked_each(new), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out[j1:j2] = old[i1:i2]
        elif tag == "replace" and i2 - i1 == j2 - j1:
            out[j1:j2] = [_carried(a, b) for a, b in zip(old[i1:i2], new[j1:j2], strict=True)]
    return out


def _carried(old: str, new: str) -> str:
    """new with its dates and times replaced by old's, where both have as many of each."""
    for pattern, _ in _MASKS:
        shown = pattern.findall(old)
        printed = list(pattern.finditer(new))
        if shown and len(shown) == len(printed):
            for value, hit in reversed(list(zip(shown, printed, strict=True))):
                new = new[: hit.start()] + value + new[hit.end() :]
    return new


def _masked_each(lines: list[str]) -> list[str]:
    return [_masked([line])[0] if line.strip() else "" for line in lines]


def environment(folder: Path) -> dict[str, str]:
    """The commands' environment (see the module's docstring), its files in folder."""
    bin_dir, home = folder / "bin", folder / "home"
    bin_dir.mkdir(parents=True, exist_ok=True)
    home.mkdir(exist_ok=True)
    shim = bin_dir / "papers"
    # As pip writes the `papers` script, so usage messages name `papers`.
    shim.write_text(
        f"#!{sys.executable}\nimport sys\nfrom catalog.cli import main\nsys.exit(main())\n"
    )
    shim.chmod(0o755)
    proxies = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PAPERS_")
        and k.lower() not in proxies
        and k not in ("VISUAL", "XDG_CACHE_HOME")
    }
    env |= {name.upper(): _NOWHERE for name in proxies[:3]}
    env |= {name: _NOWHERE for name in proxies[:3]}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(REPO)
    # A HOME of their own keeps the user's caches and settings out; Python's user
    # packages stay where they were.
    env.setdefault("PYTHONUSERBASE", site.getuserbase())
    env["HOME"] = str(home)
    env["EDITOR"] = "true"
    env["COLUMNS"] = "200"
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


def _shell(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
    )


def run_page(page: Path, folder: Path) -> list[Outcome]:
    """Run every step of page in a scratch folder under folder (made there, left there)."""
    env = environment(folder)
    scratch = folder / "tour"
    found = steps(page.read_text(encoding="utf-8"))
    cwd = REPO
    if not (found and found[0].command.startswith(f"papers demo {SCRATCH}")):
        made = _shell(f"papers demo {shlex.quote(str(scratch))}", REPO, env)
        if made.returncode:
            raise ExampleError(f"cannot make the scratch copy: {made.stdout}")
        cwd = scratch
    outcomes = []
    for step in found:
        command = step.command.replace(SCRATCH, str(scratch))
        if command.startswith("cd ") and "&&" not in command and ";" not in command:
            cwd = Path(command[3:].strip())
            outcomes.append(Outcome(step, []))
            continue
        done = _shell(command, cwd, env)
        printed = done.stdout.replace(str(scratch), SCRATCH).splitlines()
        if step.hidden and done.returncode:
            raise ExampleError(
                f"{_name(page)}:{step.line}: <!-- run: {step.command} --> failed:\n"
                + "\n".join(printed)
            )
        outcomes.append(Outcome(step, printed))
    return outcomes


def _name(page: Path) -> str:
    return str(page.relative_to(REPO)) if page.is_relative_to(REPO) else str(page)


def differences(page: Path, outcomes: list[Outcome]) -> list[str]:
    """Each step whose output differs from the page's: its place, a diff of shown and got."""
    out = []
    for o in outcomes:
        if o.holds:
            continue
        diff = difflib.unified_diff(o.step.shown, o.printed, "shown", "printed", lineterm="", n=2)
        out.append(f"{_name(page)}:{o.step.line}: $ {o.step.command}\n" + "\n".join(diff))
    return out


def rewrite(text: str, outcomes: list[Outcome]) -> str:
    """The page's text with each differing step's shown lines replaced (refreshed())."""
    lines = text.splitlines(keepends=True)
    ending = "\r\n" if text.endswith("\r\n") else "\n"
    for o in sorted(outcomes, key=lambda o: o.step.line, reverse=True):
        if o.holds:
            continue
        start = o.step.line + o.step.command.count("\n")  # the first shown line, 0-based
        new = refreshed(o.step.shown, o.printed)
        lines[start : start + len(o.step.shown)] = [line + ending for line in new]
    return "".join(lines)


def main() -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", type=Path, help="pages to run (default: all)")
    parser.add_argument("--update", action="store_true", help="rewrite the shown outputs")
    args = parser.parse_args()
    pages = [p.resolve() for p in args.pages] or PAGES
    failed = False
    for page in pages:
        original = page.read_bytes()
        with tempfile.TemporaryDirectory(prefix="papers-examples-") as folder:
            try:
                outcomes = run_page(page, Path(folder))
            except ExampleError as err:
                print(err, file=sys.stderr)
                failed = True
                continue
        differ = differences(page, outcomes)
        if not differ:
            print(f"{_name(page)}: {len(outcomes)} commands, all as shown")
        elif args.update:
            if page.read_bytes() != original:
                print(f"{_name(page)}: changed while its examples ran; run again", file=sys.stderr)
                failed = True
                continue
            try:
                page.write_bytes(rewrite(original.decode("utf-8"), outcomes).encode("utf-8"))
            except ExampleError as err:
                print(f"{_name(page)}: {err}", file=sys.stderr)
                failed = True
                continue
            print(f"{_name(page)}: rewrote {len(differ)} outputs")
        else:
            print("\n\n".join(differ))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
