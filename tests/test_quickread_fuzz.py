"""Differential fuzzing of the fast catalog reader against the PyYAML path.

catalog.quickread must, for any text, either give exactly the papers PyYAML plus
catalog.source's walk give (every value, its type, each paper's line, their order) or
decline (None). Here texts in the usual layout are filled with YAML's hostile corners
(escapes, indicators, YAML 1.1 words, odd line ends and characters, document markers,
anchors, flow lists) or mutated a few characters at a time, and both readers compared:
with libyaml's composer (the one used) and with PyYAML's pure-Python one (the fallback
where libyaml is missing), so what the fast path accepts reads the same under either.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from catalog import quickread, source, yamlio
from catalog.model import FIELDS


class _PureLoader(yaml.SafeLoader):
    """PyYAML's pure-Python parser, every scalar a string as in yamlio._Loader."""

    resolve = yamlio._Loader.resolve


@contextlib.contextmanager
def _loader(loader: type) -> Iterator[None]:
    saved = yamlio._Loader
    yamlio._Loader = loader  # type: ignore[misc]
    try:
        yield
    finally:
        yamlio._Loader = saved  # type: ignore[misc]


def _full(text: str, line_offset: int, loader: type) -> tuple[list[dict], list] | str:
    with _loader(loader):
        try:
            papers, problems = source.parse_yaml(text, "papers.yaml", line_offset)
        except Exception as err:  # a crash is a difference too
            return f"{type(err).__name__}: {err}"
    return [p.__dict__ for p in papers], problems


def check(text: str, line_offset: int = 0) -> bool:
    """True when quickread accepted the text; fails when it read it otherwise than
    PyYAML (either parser) and the walk do."""
    fast = quickread.papers(text, line_offset)
    if fast is None:
        return False
    got = [p.__dict__ for p in fast]
    for loader in (yamlio._Loader, _PureLoader):
        assert _full(text, line_offset, loader) == (got, []), (loader.__name__, text)
    return True


# Pieces of hostile YAML: quotes and escapes, indicators, words YAML 1.1 types, line
# ends and characters YAML reads specially, document markers and directives, anchors.
_TOKENS = [
    "'", '"', "''", '\\"', "\\\\", "\\", "\\u0041", "\\x41", "\\U0001F600", "\\N", "\\_",
    "\\L", "\\P", "\\t", "\\n", "\\ ", "\\0", "\\/", "\\e",
    ": ", ":", " :", " #", "#", "-", "- ", "? ", "?", "&a ", "*a", "&", "*", "!", "!!str ",
    "!t ", "%", "@", "`", "|", ">", "|-", ">+", "[", "]", "{", "}", ",", ", ", "[a, b]",
    "{a: b}", '["x, y", \'z]\']', "[[a]]", "[a, [b]]", "[a,]", "[,]",
    " ", "  ", "\t", "\r", "\r\n", "\ufeff", "\x85", "\u2028", "\u2029", "\x00", "\x07",
    "\x1b", "\x7f", "\x9f", "\u00a0", "\u3000", "\u200b", "\ufffe", "\uffff", "\ud800",
    "\U0001F600", "\U00010000", "é", "東",
    "yes", "no", "on", "off", "y", "n", "null", "Null", "NULL", "~", "true", "False",
    "1e3", "0x10", "0o17", "2020-01-01", ".inf", "-.inf", ".nan", "=", "<<", "1_000",
    "---", "...", "--- ", "%YAML 1.1", "%TAG ! tag:x,2000:",
    "\n", "\n  ", "\n    ", "\n      ", "\n       ", "\n    - ", "\n---\n", "\n...\n",
    "\n# c\n", "\n\n", "\n2024:\n", "\n  SOSP:\n", "\n      title: t", "\n      doi: d",
]
_TOKEN = st.sampled_from(_TOKENS)
_WORD = st.sampled_from(["Caching", "GPU", "Wei Zhang", "a b", "x", "10.1/x", "O'Brien",
                         "C#", "R&D", "a:b", "a#b", "http://x.org/a#f", "Čech", "東京"])
# Values: mostly a word with one hostile piece in it (so that many lines stay in the
# usual layout and the fast path's reading of the piece is what is compared), then
# quoted properly, or not, or quoted around the raw piece (its escapes as written).
_SPICED = st.builds(lambda a, t, b: a + t + b, st.sampled_from(["", "", "a", "Ab "]),
                    _TOKEN, st.sampled_from(["", "", "z", " z"]))
_RAW = st.lists(st.one_of(_WORD, _WORD, _TOKEN), min_size=0, max_size=4).map("".join)


def _double(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _single(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _raw_double(text: str) -> str:
    return '"' + text + '"'  # escapes in the pieces left as they are


def _raw_single(text: str) -> str:
    return "'" + text + "'"


_QUOTES = (_double, _single, _raw_double, _raw_single)
_VALUE = st.one_of(
    _WORD, _WORD, _SPICED, _SPICED, _SPICED,
    *(_SPICED.map(quote) for quote in _QUOTES), *(_SPICED.map(quote) for quote in _QUOTES),
    _RAW, *(_RAW.map(quote) for quote in _QUOTES), _TOKEN)
_ITEM = st.one_of(_WORD, _WORD, _VALUE)
_FLOW = st.builds(lambda items, sep, pad: "[" + pad + sep.join(items) + pad + "]",
                  st.lists(_ITEM, max_size=3), st.sampled_from([", ", ", ", ",", " , "]),
                  st.sampled_from(["", "", " "]))
_TAIL = st.sampled_from([""] * 24 + [" ", "  ", " # c", "  #", "#c", " #: x", "\t", " \t"])
_LIST_NAMES = frozenset({"authors", "editors", "tags", "sources", "distinct"})
_SEP = st.sampled_from([": "] * 30 + [":  ", ":", ":\t", " : "])
# Most lines plain: each paper has a hostile value or two among ordinary ones.
_PLAIN_VALUE = st.one_of(_WORD, _WORD.map(_double), _WORD.map(_single))
_PLAIN_FLOW = st.lists(_PLAIN_VALUE, min_size=1, max_size=3).map(lambda i: "[" + ", ".join(i) + "]")


def _rarely(draw: st.DrawFn, usual: st.SearchStrategy, odd: st.SearchStrategy,
            one_in: int = 6) -> object:
    """usual, or odd about once in one_in draws."""
    return draw(odd if draw(st.integers(1, one_in)) == 1 else usual)


_EXTRA = [name for name in FIELDS if name not in ("key", "title", "authors")]


@st.composite
def _paper(draw: st.DrawFn) -> list[str]:
    names = _rarely(draw, st.just(["key", "title", "authors"]),
                    st.permutations(["key", "title", "authors"]).flatmap(
                        lambda names: st.just(names[: len(names) - 1])
                        | st.just(names)))
    names = [*names, *_rarely(draw, st.lists(st.sampled_from(_EXTRA), max_size=3, unique=True),
                              st.lists(st.sampled_from([*FIELDS, "colour", "<<", '"title"']),
                                       max_size=3))]
    lines = []
    for i, name in enumerate(names):
        if name == "key":
            value = _rarely(draw, st.sampled_from(["a2023x", "b2022y", "k"]), _VALUE)
        elif name in _LIST_NAMES:
            value = _rarely(draw, _PLAIN_FLOW, st.one_of(_FLOW, _FLOW, _FLOW, _VALUE), 3)
        elif name == "et_al":
            value = _rarely(draw, st.sampled_from(["true", "no", "On", "FALSE"]), _VALUE)
        else:
            value = _rarely(draw, _PLAIN_VALUE, _VALUE, 3)
        lead = "    - " if i == 0 else "      "
        sep = _rarely(draw, st.just(": "), _SEP, 10)
        tail = _rarely(draw, st.sampled_from(["", "  # c"]), _TAIL, 10)
        lines.append(f"{lead}{name}{sep}{value}{tail}")
    return lines


_YEAR = st.sampled_from(["2023", "2022", "2021"])
_ODD_YEAR = st.sampled_from(["2023", "0000", "٢٠٢٣", "2023 ", "'2023'", "2023:", "2023-01"])
_VENUE = st.sampled_from(["OSDI", "arXiv", "SOSP", "A.B-c_d"])
_ODD_VENUE = st.sampled_from(["OSDI", "yes", "Null", "y", "'OSDI'", "OSDI ", "O:", "-O"])
_BETWEEN = st.sampled_from(["", "# c", "  # c", "      # c", "   ", "    #", "...", "---",
                            "--- x", "  ...", " ", "-", "?", "!x"])


@st.composite
def _catalog(draw: st.DrawFn) -> str:
    lines = _rarely(draw, st.sampled_from([[], ["# c"]]),
                    st.sampled_from([["---"], ["%YAML 1.1", "---"], ["\ufeff# c"], ["..."]]))
    for year in _rarely(draw, st.lists(_YEAR, min_size=1, max_size=2, unique=True),
                        st.lists(_ODD_YEAR, min_size=1, max_size=2), 10):
        lines.append(f"{year}:{_rarely(draw, st.just(''), _TAIL, 10)}")
        for venue in _rarely(draw, st.lists(_VENUE, max_size=2, unique=True),
                             st.lists(_ODD_VENUE, max_size=2), 10):
            lines.append(f"  {venue}:{_rarely(draw, st.just(''), _TAIL, 10)}")
            for _ in range(draw(st.integers(0, 2))):
                lines.extend(draw(_paper()))
                if draw(st.integers(0, 5)) == 0:
                    lines.append(draw(_BETWEEN))
    end = _rarely(draw, st.just("\n"), st.sampled_from(["", "\n\n", "\n...\n", "\n---\n",
                                                         "\n--- x\n"]))
    return "\n".join(lines) + end


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(_catalog(), st.sampled_from([0, 0, 41]))
@example("2023:\n  OSDI:\n    - key: a\n      title: a\ud800b\n      authors: [A]\n", 0)
def test_hostile_values_read_as_pyyaml_does_or_are_declined(text: str, offset: int) -> None:
    check(text, offset)


# Mutations of catalogs the fast path takes: a few pieces inserted, characters removed
# or lines doubled, so that the text is a near miss of the usual layout.
_BASE = (
    "# papers\n"
    "2023:\n"
    "  OSDI:  # venue\n"
    "    - key: zhang2023fast\n"
    '      title: "FastStore: Caching \\"Hot\\" Rows"\n'
    "      authors: [Wei Zhang, 'O''Brien', \"Li, Jie\"]  # who\n"
    "      et_al: true\n"
    "      doi: 10.1145/1.2\n"
    "      tags: [caching, gpu]\n"
    "\n"
    "    - key: li2023b\n"
    "      title: 'It''s #1'\n"
    "      authors: [Jie Li]\n"
    "      summary: Plain words, a#b and C# here  # a comment\n"
    "      status: read\n"
    "  arXiv:\n"
    "2022:\n"
    "  SOSP:\n"
    "    - key: x2022\n"
    "      title: X\n"
    "      authors: [Ana]\n"
    "      tags: []\n"
    "      url: http://x.org/a#frag\n"
)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = _BASE
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 3))
        at = draw(st.integers(0, len(text)))
        if kind <= 1:
            text = text[:at] + draw(_TOKEN) + text[at:]
        elif kind == 2:
            text = text[:at] + text[at + draw(st.integers(1, 3)):]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
    return text


def test_the_mutated_catalog_is_read_by_the_fast_path() -> None:
    assert check(_BASE)  # else the mutations below would test only declining


@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(_mutated())
def test_near_misses_of_the_usual_layout_read_as_pyyaml_does_or_are_declined(text: str) -> None:
    check(text)


@pytest.mark.parametrize("line_ending", ["\r\n", "\r"])
def test_other_line_ends_are_declined(line_ending: str) -> None:
    assert quickread.papers(_BASE.replace("\n", line_ending)) is None


# Every construct of the review, in a title, a flow list's item, and a line of its own.
_TEMPLATE = "2023:\n  OSDI:\n    - key: a\n      title: {title}\n      authors: {authors}\n"
_HOSTILE_VALUES = [
    "'a''b'", "'a'b'", "'a' #c", "'a'#c", '"a\\"b"', '"a\\\\"', '"a\\\\\\"b"', '"a\\u0041"',
    '"a\\x41"', '"a\\N"', '"a\\_"', '"a\\L"', '"a\\P"', '"a\\ b"', '"a\\/b"', '"a\\tb"',
    '"a', "'a", '"a" b', '"a"#c', '"a" #c', '"a" # c: d', '"a"  ',
    "a: b", "a:b", "a:", "a: ", "a :", "a #b", "a#b", "a #", "- a", "-a", "? a", "?a", ": a",
    ":a", "&a x", "*a", "!x", "!!str x", "%x", "@x", "`x`", "|", "|-", ">", ">-", "[a]",
    "{a: b}", "a, b", "a [b]", "a {b}", ",a", "a ", "a\t", "\ta", "yes", "no", "on", "off",
    "Yes", "NO", "y", "n", "null", "Null", "~", "true", "False", "1e3", "0x10", "0o17",
    "2020-01-01", "2020-01-01 10:00:00", ".inf", "-.inf", ".nan", "<<", "=", "---", "...",
    "--- a", "... a", "a\u00a0#b", "a:\u00a0b", "\u00a0", "\u3000x\u3000", "x\u200b",
    "\U0001F600", "\U00010000x", "a\x00b", "a\x07", "a\x1b[31m", "a\x7f", "a\x85b",
    "a\u2028b", "a\u2029b", "a\ufeffb", "a\ufffe", "a\ud800", "a\rb", "x" * 5000,
    '"' + "x" * 5000 + '"', "'" + "y" * 3000 + "'",
]
_HOSTILE_LISTS = [
    "[]", "[ ]", "[a,]", "[a, ]", "[,a]", "[a,,b]", "[a, [b]]", "[[a]]", "[a, {b: c}]",
    "[a: b]", "[a:b]", "[? a]", "[a?b]", "[a #b]", "[a#b]", "[a] #c", "[a]#c", "[a] b",
    "[a]]", "[[a]", "[a", "['a, b', \"c]d\"]", "['a''b']", "[\"a\\\"b\"]", "[\"a\\u0041\"]",
    "[\"a\\x41\"]", "[a\"b, c]", "[a 'b, c']", "['a'b]", "[\"a\" b]", "[&a x, *a]", "[!x a]",
    "[-a]", "[- a]", "[a -b]", "[%a]", "[@a]", "[`a`]", "[|a]", "[>a]", "[~, null, yes]",
    "[1e3, 0x10, 2020-01-01, .inf]", "[\u00a0]", "[a,\u00a0b]", "[a\tb]", "[\U0001F600]",
    "[" + ", ".join(["z" * 700] * 4) + "]", "a", "~", "'[a]'", "\"[a]\"",
]
_HOSTILE_LINES = [
    "---", "--- #c", "...", "%YAML 1.1", "%TAG ! x", "\ufeff", "  #c", "#c", "    #c",
    "      #c", "        #c", "   ", "\t", "  - x", "    -", "    - ", "      - a: b",
    "       doi: x", "     doi: x", "      doi:", "      doi: ", "      doi:x", "      doi :x",
    "      doi:\tx", "      \"doi\": x", "      'doi': x", "      ? doi\n      : x",
    "      <<: {doi: x}", "      doi: &d x", "      doi: *d", "      colour: red",
    "      title: again", "      key: again", "  OSDI:", "  SOSP:", "  yes:", "  null:",
    "2023:", "2024:", "2024: x", "x", "  x", "        x",
]


def _short(value: str) -> str:
    return ascii(value)[1:-1][:24]


@pytest.mark.parametrize("title", _HOSTILE_VALUES, ids=_short)
def test_a_hostile_value_is_read_as_pyyaml_reads_it_or_declined(title: str) -> None:
    check(_TEMPLATE.format(title=title, authors="[Ana]"))
    check(_TEMPLATE.format(title="T", authors="[Ana]") + f"      doi: {title}\n")


@pytest.mark.parametrize("authors", _HOSTILE_LISTS, ids=_short)
def test_a_hostile_flow_list_is_read_as_pyyaml_reads_it_or_declined(authors: str) -> None:
    check(_TEMPLATE.format(title="T", authors=authors))
    check(_TEMPLATE.format(title="T", authors="[Ana]") + f"      tags: {authors}  # c\n")


@pytest.mark.parametrize("line", _HOSTILE_LINES, ids=_short)
def test_a_hostile_line_is_read_as_pyyaml_reads_it_or_declined(line: str) -> None:
    text = _TEMPLATE.format(title="T", authors="[Ana]")
    lines = text.split("\n")
    for at in range(len(lines) + 1):
        check("\n".join([*lines[:at], line, *lines[at:]]))


# Regressions: each input below once made the fast path differ from PyYAML.

def test_a_lone_surrogate_is_left_to_pyyaml() -> None:
    # No UTF-8 file has one, but any str may: the fast path read the title, while
    # libyaml's reader cannot even encode the text.
    text = _TEMPLATE.format(title="a\ud800b", authors="[Ana]")
    assert quickread.papers(text) is None
    assert quickread.papers(_TEMPLATE.format(title="T", authors="['\udfff']")) is None


def test_a_run_of_blanks_in_a_flow_item_is_read_in_one_pass() -> None:
    # A lazy plain item was retried after each blank: 30,000 spaces took 9 s, a million
    # (read here) would have taken hours; PyYAML, and now the fast path, take a moment.
    item = "a" + " " * 1_000_000 + "b"
    text = _TEMPLATE.format(title="T", authors=f'["x", {item}  ]')
    assert check(text)
    assert quickread.papers(text)[0].authors == ["x", item]
    assert quickread.papers(_TEMPLATE.format(title="T", authors=f'["x", {item}]]')) is None
