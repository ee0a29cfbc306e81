"""The fast reader of the catalog's usual layout reads exactly what PyYAML reads.

catalog.quickread reads papers.yaml line by line when it has the layout papers
writes, and gives up (None) on anything else. Whatever it accepts must give the
papers PyYAML plus the full walk give, with no problem: checked on the shipped
catalogs, a synthetic one, and generated text full of YAML's corner cases.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog import quickread, source
from tests.conftest import PAPERS

REPO = Path(__file__).resolve().parent.parent


def full_read(text: str) -> tuple[list, list]:
    papers, problems = source.parse_yaml(text, "papers.yaml")
    return [p.__dict__ for p in papers], problems


def agrees(text: str, line_offset: int = 0) -> bool:
    """True when the fast reader accepted the text; fails the test when its papers differ."""
    fast = quickread.papers(text, line_offset)
    if fast is None:
        return False
    papers, problems = source.parse_yaml(text, "papers.yaml", line_offset)
    assert problems == []
    assert [p.__dict__ for p in fast] == [p.__dict__ for p in papers]
    return True


def test_reads_the_shipped_catalogs_as_pyyaml_does():
    for path in (REPO / "data" / "papers.yaml", REPO / "tests" / "data" / "seed-papers.yaml"):
        text = path.read_text(encoding="utf-8")
        assert agrees(text), path
        for chunk in source.split_chunks(text) or []:
            assert agrees(chunk.text, chunk.start - 1)
    assert agrees(PAPERS)


def test_reads_a_synthetic_catalog_as_pyyaml_does():
    import sys

    sys.path.insert(0, str(REPO / "tools"))
    import synth

    papers = synth.make_papers(300, ["OSDI", "SOSP", "arXiv"],
                               ["caching", "embedding", "moe", "gpu", "training"])
    assert agrees(synth.to_yaml(papers))


def test_gives_up_on_what_it_does_not_read():
    unusual = [
        "2023:\n  OSDI:\n  - key: a\n    title: T\n    authors: [A]\n",  # other indentation
        '2023:\n  OSDI:\n    - key: a\n      title: "T\\u0041"\n      authors: [A]\n',
        "2023:\n  OSDI:\n    - key: a\n      title: T\n        more\n      authors: [A]\n",
        "2023:\n  OSDI:\n    - key: &k a\n      title: T\n      authors: [A]\n",
        "2023:\n  OSDI:\n    - key: a\n      title: T\n      authors: [A]\n      color: red\n",
        "2023:\n  OSDI:\n    - key: a\n      title: T\n      title: U\n      authors: [A]\n",
        "2023:\n  OSDI:\n    - key: a\n      title: ~\n      authors: [A]\n",
        "2023:\n  OSDI:\n    - key: a\n      title: T\n      authors: [A]\n      et_al: 'true'\n",
        "2023:\n  OSDI:\n    - key: a\n      title: a: b\n      authors: [A]\n",
        "2023:\n  OSDI:\n    - key: a\n      title: T\n      authors: [A, [B]]\n",
        "2023:\n  OSDI:\n    - key: a\n      title: T\x07\n      authors: [A]\n",
        "2023:\n  OSDI:\n    - key: a\n      title: T\n      authors: [A]\n2023:\n",
    ]
    for text in unusual:
        assert quickread.papers(text) is None, text


# Values in the forms the catalog writes and in YAML's corner cases around them: plain
# words that stay plain (a#b, C#, R&D, O'Brien), ones YAML reads otherwise (a: b, a #b,
# ~, true), and every word quoted both ways.
_PLAIN = st.sampled_from([
    "Caching", "GPU", "Ekko", "O'Brien", "a:b", "a#b", "C#", "back\\slash", "50%", "R&D",
    "x,y", "a [x]", "a {x}", "Čech", "Preußer", "東京", "\u00a0nb", "2023-01-02", "1e3",
    "0x1F", ".5", "a'b''c", "http://x.org/a#f", "a  b", "x y z", "Wei Zhang", "3D-Stacked",
])
_ODD = st.sampled_from([
    "a: b", "a #b", "~", "null", "Null", "true", "no", "On", "", " ", "  padded  ", "-1",
    "- x", "?x", ":x", "end:", "#hash", "*star", "&amp", "!bang", "|pipe", ">gt", "'q'",
    '"d"', "%pct", "@at", "`tick`", "[x]", "{x}", "x ", "tab\there", "new\nline",
    "bell\x07", "del\x7f", "nel\x85", "ls\u2028", "bom\ufeff", "cr\rx",
])
_WORDS = st.one_of(*[_PLAIN] * 12, _ODD)


def _double(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _single(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_QUOTED = st.one_of(_WORDS.map(_double), _WORDS.map(_single))
_SCALAR = st.one_of(
    *[_WORDS, _QUOTED, _QUOTED] * 10,
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]),
            max_size=12),
)
_ITEM = st.one_of(_WORDS, _QUOTED)
_LIST = st.one_of(
    st.lists(_ITEM, max_size=4).map(lambda items: "[" + ", ".join(items) + "]"),
    st.lists(_ITEM, max_size=4).map(lambda items: "[ " + " ,".join(items) + " ]"),
    st.lists(_ITEM, max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
    _SCALAR,
)
_COMMENT = st.sampled_from(["", "", "", "  # note", " #", "#x", "   "])
_NAMES = st.sampled_from(["tags", "doi", "et_al", "sources", "summary", "status", "pages",
                          "distinct", "url", "abstract", "editors", "booktitle"] * 3
                         + ["colour", "title"])
_REQUIRED = {"key": st.sampled_from(["a2023x", "b2022y", "c", '"q2023"']),
             "title": _SCALAR, "authors": _LIST}


@st.composite
def _paper(draw: st.DrawFn) -> list[str]:
    names = draw(st.lists(_NAMES, max_size=4, unique=True))
    if draw(st.integers(0, 20)):  # most papers have the required fields
        names = [*draw(st.permutations(list(_REQUIRED))), *names]
    lines = []
    for i, name in enumerate(names):
        if name in _REQUIRED:
            value = draw(_REQUIRED[name])
        elif name in ("tags", "sources", "distinct", "editors"):
            value = draw(_LIST)
        elif name == "et_al":
            value = draw(st.sampled_from(["true", "false", "yes", "Off"] * 3 + ['"true"', "maybe"]))
        else:
            value = draw(_SCALAR)
        lead = "    - " if i == 0 else draw(st.sampled_from(["      "] * 60 + ["     ", "       "]))
        lines.append(f"{lead}{name}: {value}{draw(_COMMENT)}")
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", "# between", "      # indented", "  "])))
    return lines


@st.composite
def _catalog(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from([[], ["# leading comment"], ["", "# c", ""]]))
    years = st.sampled_from(["2023", "2022", "2021"] * 5 + ["2022 ", "99"])
    for year in draw(st.lists(years, min_size=1, max_size=3, unique=True)):
        lines.append(f"{year}:{draw(_COMMENT)}")
        venues = st.sampled_from(["OSDI", "arXiv", "SOSP", "MLSys"] * 4 + ["null", "Yes"])
        for venue in draw(st.lists(venues, max_size=3, unique=True)):
            lines.append(f"  {venue}:{draw(_COMMENT)}")
            for _ in range(draw(st.integers(0, 2))):
                lines.extend(draw(_paper()))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_catalog())
def test_what_it_accepts_pyyaml_reads_the_same(text):
    agrees(text)


# Text in the usual layout with values that are all valid there: the fast path must
# take it (else the comparison above would say little) and read it as PyYAML does.
_PRINTABLE = _WORDS.filter(lambda w: not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]", w))
_FLOW_SAFE = _PLAIN.filter(lambda w: not set(w) & set(",[]{}#:") and w == w.strip(" "))
_CLEAN_ITEM = st.one_of(_FLOW_SAFE, _PRINTABLE.map(_double), _PRINTABLE.map(_single))
_CLEAN = {
    "list": st.lists(_CLEAN_ITEM, min_size=1, max_size=4).map(
        lambda items: "[" + ", ".join(items) + "]"),
    "scalar": st.one_of(_PLAIN.filter(lambda w: w.strip() and "#" not in w[:1]),
                        *(_PRINTABLE.filter(str.strip).map(quote) for quote in (_double, _single))),
}


_CLEAN_COMMENT = st.sampled_from(["", "  # note", " #", "   "])


@st.composite
def _clean_catalog(draw: st.DrawFn) -> str:
    lines = ["# a catalog"]
    for year in draw(st.lists(st.sampled_from(["2023", "2022", "2021"]), min_size=1,
                              unique=True)):
        lines.append(f"{year}:")
        for venue in draw(st.lists(st.sampled_from(["OSDI", "arXiv", "SOSP"]), unique=True)):
            lines.append(f"  {venue}:  # venue")
            for n in range(draw(st.integers(0, 3))):
                lines.append(f"    - key: k{year}{venue}{n}")
                lines.append(f"      title: {draw(_CLEAN['scalar'])}")
                lines.append(f"      authors: {draw(_CLEAN['list'])}{draw(_CLEAN_COMMENT)}")
                if draw(st.booleans()):
                    lines.append(f"      tags: {draw(_CLEAN['list'])}")
                if draw(st.booleans()):
                    lines.append("      # a note between fields")
                if draw(st.booleans()):
                    lines.append(f"      doi: {draw(st.sampled_from(['~', 'null', '10.1/x']))}")
                if draw(st.booleans()):
                    lines.append(f"      et_al: {draw(st.sampled_from(['true', 'No', 'off']))}")
                if draw(st.booleans()):
                    lines.append(f"      summary: {draw(_CLEAN['scalar'])}"
                                 f"{draw(_CLEAN_COMMENT)}")
                if draw(st.booleans()):
                    lines.append("")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_clean_catalog())
def test_reads_every_value_the_usual_layout_allows(text):
    assert agrees(text), text
