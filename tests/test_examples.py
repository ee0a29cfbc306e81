"""The console examples of docs/pages/*.md run as the README's are (tools/examples.py): each
page in order on a fresh scratch copy, each command printing what the page shows. The
quick tests here hold the runner's rules: how a page is read, what may differ, and how
--update rewrites a page."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_readme import digest

sys.path.insert(0, str(REPO / "tools"))
import examples
from examples import ELLIPSIS, Outcome, matches, refreshed, rewrite, steps

DOCS = [p for p in examples.PAGES if p.parent.name == "pages"]
RUN = [p for p in DOCS if any(not s.hidden for s in steps(p.read_text(encoding="utf-8")))]

PAGE = """\
Intro.

```console
$ papers search a \\
    --limit 2
one
two

$ papers status x read
x: read (read on 2026-11-30)
```

<!-- run: printf 'x' > f.txt -->

<!-- not run: it needs the network -->

```console
$ papers pdf x
x: data/pdfs/x.pdf
```

```bash
$ not a console block
```

```console
$ papers stats
by year
...
```
"""


def test_a_page_is_read_as_its_steps_in_order():
    found = steps(PAGE)
    assert [(s.line, s.command, s.hidden) for s in found] == [
        (4, "papers search a \\\n    --limit 2", False),
        (9, "papers status x read", False),
        (13, "printf 'x' > f.txt", True),
        (27, "papers stats", False),
    ]
    assert found[0].shown == ["one", "two", ""]
    assert found[2].shown == []
    assert found[3].shown == ["by year", ELLIPSIS]


def test_dates_timings_and_trailing_blank_lines_may_differ():
    assert matches(["read on 2026-11-30", ""], ["read on 2024-01-02"])
    assert matches(["built 9 pages in 17.9 s"], ["built 9 pages in 3 s"])
    assert not matches(["built 9 pages"], ["built 8 pages"])
    assert not matches(["a"], ["a", "b"])


def test_an_ellipsis_line_stands_for_any_lines():
    assert matches(["a", ELLIPSIS], ["a", "b", "c"])
    assert matches(["a", ELLIPSIS], ["a"])
    assert matches([ELLIPSIS, "z"], ["x", "y", "z"])
    assert matches(["a", ELLIPSIS, "m", ELLIPSIS, "z"], ["a", "b", "m", "n", "z"])
    assert not matches(["a", ELLIPSIS, "m", ELLIPSIS, "z"], ["a", "b", "n", "z"])
    assert not matches(["a", ELLIPSIS, "a"], ["a"])


def test_refreshed_keeps_what_still_matches():
    shown = ["x: read (read on 2026-11-30)", "3 of 9 papers", ""]
    printed = ["x: read (read on 2025-01-01)", "3 of 12 papers"]
    assert refreshed(shown, printed) == ["x: read (read on 2026-11-30)", "3 of 12 papers", ""]
    assert refreshed(shown, ["x: read (read on 2025-01-01)", "3 of 9 papers"]) == shown


def test_refreshed_keeps_the_dates_and_times_of_a_changed_line():
    shown = ["built 276 pages into build/site in 21.1 s", "on 2026-12-03 and 2026-12-04"]
    printed = [
        "built 2515 pages into build/site in 139.1 s",
        "on 2025-01-01, 2025-01-02, 2025-01-03",
    ]
    assert refreshed(shown, printed) == [
        "built 2515 pages into build/site in 21.1 s",
        "on 2025-01-01, 2025-01-02, 2025-01-03",  # not as many dates: as printed
    ]


def test_refreshed_keeps_an_ellipsis_with_as_many_lines_around_it():
    shown = ["by year", "  2025  9", ELLIPSIS]
    assert refreshed(shown, ["by year", "  2025  12", "  2024  30", "  2023  7"]) == [
        "by year",
        "  2025  12",
        ELLIPSIS,
    ]
    assert refreshed(["a", ELLIPSIS, "z"], ["b", "z"]) == ["b", "z"]  # nothing left to elide
    with pytest.raises(examples.ExampleError, match="by hand"):
        refreshed(["a", ELLIPSIS, "m", ELLIPSIS, "z"], ["b"])


def test_rewrite_replaces_only_the_outputs_that_differ():
    found = steps(PAGE)
    outcomes = [
        Outcome(found[0], ["one", "three"]),
        Outcome(found[1], ["x: read (read on 2020-01-01)"]),
        Outcome(found[2], ["whatever a hidden step prints"]),
        Outcome(found[3], ["by tag", "  moe  3"]),
    ]
    new = rewrite(PAGE, outcomes)
    assert new == PAGE.replace("one\ntwo\n", "one\nthree\n").replace("by year\n...", "by tag\n...")
    assert steps(new)[0].shown == ["one", "three", ""]
    assert rewrite(PAGE.replace("\n", "\r\n"), outcomes) == new.replace("\n", "\r\n")


def test_every_page_with_console_blocks_is_run():
    shown = {p.name for p in DOCS if "```console" in p.read_text(encoding="utf-8")}
    run = {p.name for p in RUN}
    # promises.md shows only commands that are not run (the attack replay, minutes long).
    assert shown - run <= {"promises.md"}
    assert {"commands.md", "query-language.md", "bibtex.md"} <= run


@pytest.mark.slow
@pytest.mark.parametrize("page", RUN, ids=[p.name for p in RUN])
def test_every_console_block_prints_what_it_shows(page: Path, tmp_path: Path):
    before = digest(REPO / "data")
    differ = examples.differences(page, examples.run_page(page, tmp_path))
    assert not differ, "\n\n".join(differ) + "\n\n(python tools/examples.py --update rewrites)"
    assert digest(REPO / "data") == before, "the examples changed the shipped catalog"
