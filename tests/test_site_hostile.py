"""Hostile strings in every field end up as text on the built site, never as markup.

Hypothesis writes small catalogs whose every field (title, authors, tags and their
descriptions, venue names in the registry, summary, abstract, url, code, checked,
added, sources, a chapter's book title, editors and publisher, reading notes) holds strings built from known attack payloads. The
site is built (one mkdocs build per example) and every HTML page, chart and the
search index is parsed with an HTML parser: no <script> the theme did not put
there, no on* attribute, no href/src of a scheme other than http(s)/mailto/relative
that the theme did not put there.
"""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from unittest import mock

import pytest
import yaml
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from catalog.paths import Paths
from catalog.site import builder, home, render, sitedata
from tests.conftest import write_catalog

pytestmark = pytest.mark.slow

PAYLOADS = [
    "<script>alert(1)</script>",
    "--><script>alert(2)</script><!--",
    '"><img src=x onerror=alert(3)>',
    "'><svg onload=alert(4)>",
    "<img src=x onerror=alert(5)>",
    "javascript:alert(6)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCg3KTwvc2NyaXB0Pg==",
    "[x](javascript:alert(8))",
    '<a href="javascript:alert(9)">x</a>',
    '{: onclick="alert(10)" }',
    "<iframe src=javascript:alert(11)>",
    "$\\frac{1}{$",
    "$x$ and $$",
    "{{ config }} {% raw %}",
    "&lt;script&gt;alert(12)&lt;/script&gt;",
    "]]> <![CDATA[ x ]]>",
    "</textarea></title></code></pre><script>alert(13)</script>",
    "<style>*{display:none}</style>",
    "\\u003cscript\\u003e",
    "`code` *em* _u_ | table | <!-- c -->",
    "\u2028\u2029",
]
URLS = [
    "javascript:alert(14)",
    "JaVaScRiPt:alert(15)",
    " javascript:alert(16)",
    "data:text/html,<script>alert(17)</script>",
    "vbscript:msgbox(1)",
    'https://example.org/"><script>alert(18)</script>',
    "//evil.example/x",
    "https://example.org/ok",
]

KINDS = ["conference", "journal", "preprint", "workshop", "collection"]
_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12)
hostile = st.one_of(
    st.sampled_from(PAYLOADS),
    st.builds(lambda a, p, b: f"{a}{p}{b}", _text, st.sampled_from(PAYLOADS), _text),
).filter(lambda s: s.strip())
names = st.lists(hostile, min_size=1, max_size=3)


@st.composite
def catalogs(draw: st.DrawFn) -> dict:
    """Papers, registry, vocabulary and reading notes, every string hostile."""
    venues = draw(st.lists(hostile, min_size=1, max_size=2, unique=True))
    tags = draw(st.lists(hostile, min_size=1, max_size=3, unique=True))
    papers = []
    for i in range(draw(st.integers(2, 4))):
        papers.append(
            {
                "key": f"p{i}2022paper",
                "title": draw(hostile),
                "authors": draw(names),
                "tags": draw(st.lists(st.sampled_from(tags), max_size=2, unique=True)),
                "summary": draw(hostile),
                "abstract": draw(hostile),
                "url": draw(st.sampled_from(URLS)),
                "code": draw(st.sampled_from(URLS)),
                "checked": draw(hostile),
                "added": draw(hostile),
                "pages": draw(hostile),
                # a book chapter's book (shown on its page and in every list entry)
                "booktitle": draw(hostile),
                "editors": draw(names),
                "publisher": draw(hostile),
                "chapter": draw(hostile),
                "venue": draw(st.sampled_from(venues)),
                "note": draw(hostile),
            }
        )
    # The kind is checked against a closed list before anything is built.
    registry = {
        v: {"kind": draw(st.sampled_from(KINDS)), "name": draw(hostile), "publisher": draw(hostile)}
        for v in venues
    }
    vocabulary = {t: draw(hostile) for t in tags}
    return {"papers": papers, "venues": registry, "tags": vocabulary}


def write(folder: Path, drawn: dict) -> Paths:
    tree: dict = {}
    for paper in drawn["papers"]:
        record = {k: v for k, v in paper.items() if k not in ("venue", "note")}
        tree.setdefault(2022, {}).setdefault(paper["venue"], []).append(record)
    # Double-quoted, so that line separators (U+2028, NEL ...) are written as escapes: a
    # data file may not hold them raw (they would end a line for YAML 1.1 alone).
    dump = {"width": 10_000, "allow_unicode": True, "sort_keys": False, "default_style": '"'}
    paths = write_catalog(
        folder,
        yaml.safe_dump(tree, **dump),
        yaml.safe_dump(drawn["venues"], **dump),
        yaml.safe_dump(drawn["tags"], **dump),
    )
    paths.readings.mkdir()
    for paper in drawn["papers"]:
        # As the note template once wrote it: the title inside an HTML comment.
        text = (
            f'<!-- Reading note for {paper["key"]}: "{paper["title"]}" -->\n\n'
            f"{paper['note']}\n\n## Mine\n\n{paper['note']} [link](javascript:alert(19))"
            "\n\n<img src=x onerror=alert(20)> [ok](https://example.org/)"
            '{: onclick="alert(21)" }\n'
        )
        (paths.readings / f"{paper['key']}.md").write_text(text, encoding="utf-8")
    return paths


class Audit(HTMLParser):
    """Every script, event handler and link scheme of one HTML document."""

    URL_ATTRS = frozenset(
        {
            "href",
            "src",
            "action",
            "formaction",
            "xlink:href",
            "data",
            "poster",
            "srcset",
            "background",
        }
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self.links: list[str] = []
        self.tags: set[str] = set()
        self._in_script: list[str] | None = None
        self._script_src = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"<{tag} {name}={value!r}>")
            if name in self.URL_ATTRS and value is not None:
                self.links.append(value)
        if tag == "script":
            self._in_script, self._script_src = [], dict(attrs).get("src") or ""

    def handle_data(self, data: str) -> None:
        if self._in_script is not None:
            self._in_script.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_script is not None:
            self.scripts.append(self._script_src or "inline:" + "".join(self._in_script))
            self._in_script = None


def audit(text: str) -> Audit:
    parser = Audit()
    parser.feed(text)
    parser.close()
    return parser


_SCHEME_RE = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9+.\-]*):")


def bad_links(links: list[str]) -> list[str]:
    out = []
    for link in links:
        # Browsers drop tabs and newlines inside a scheme: "java\tscript:" is javascript:.
        m = _SCHEME_RE.match(re.sub(r"[\t\n\r]", "", link))
        if m and m.group(1).lower() not in sitedata.SAFE_SCHEMES:
            out.append(link)
    return out


def _script_id(script: str) -> str:
    """A script as the theme writes it, with the hashed bundle names made generic."""
    return re.sub(r"(\.\./)+", "", re.sub(r"\.[0-9a-f]{8}\.min\.", ".min.", script))


def theme_parts(out: Path) -> tuple[set[str], set[str]]:
    """The scripts and element names on a site's pages: the theme's and our own."""
    scripts: set[str] = set()
    tags: set[str] = set()
    for page in out.rglob("*.html"):
        found = audit(page.read_text(encoding="utf-8"))
        scripts |= {_script_id(s) for s in found.scripts}
        tags |= found.tags
    return scripts, tags


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[str], set[str]]:
    """What a benign catalog's site has."""
    tmp = tmp_path_factory.mktemp("benign")
    paths = write_catalog(tmp)
    builder.build(paths, site_dir=tmp / "out", strict=False)
    return theme_parts(tmp / "out")


# Elements that load or run something; only where the theme has them (its search form).
ACTIVE = frozenset(
    {
        "script",
        "iframe",
        "object",
        "embed",
        "form",
        "base",
        "frame",
        "frameset",
        "applet",
        "meta",
        "link",
        "style",
        "svg",
        "math",
        "input",
        "button",
        "textarea",
        "select",
        "video",
        "audio",
        "source",
    }
)


def check_site(out: Path, allowed: tuple[set[str], set[str]]) -> list[str]:
    scripts, tags = allowed
    problems = []
    for page in sorted(out.rglob("*.html")) + sorted(out.rglob("*.svg")):
        found = audit(page.read_text(encoding="utf-8"))
        where = page.relative_to(out)
        problems += [
            f"{where}: script {s[:80]!r}" for s in found.scripts if _script_id(s) not in scripts
        ]
        problems += [f"{where}: handler {h[:80]}" for h in found.handlers]
        problems += [f"{where}: link {link[:80]!r}" for link in bad_links(found.links)]
        if page.suffix == ".html":
            problems += [f"{where}: <{t}>" for t in sorted(found.tags & ACTIVE - tags)]
    index = json.loads((out / "search" / "search_index.json").read_text(encoding="utf-8"))
    for doc in index["docs"]:
        for part in ("title", "text"):
            # Material puts both into the results list as HTML.
            found = audit(doc.get(part) or "")
            problems += [f"search {doc['location']}: {part} has <script>" for _ in found.scripts]
            problems += [f"search {doc['location']}: {h}" for h in found.handlers]
            problems += [
                f"search {doc['location']}: link {link!r}" for link in bad_links(found.links)
            ]
            problems += [
                f"search {doc['location']}: <{t}>" for t in sorted(found.tags & (ACTIVE | {"a"}))
            ]
    return problems


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    phases=[Phase.generate],
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(drawn=catalogs())
def test_hostile_fields_are_inert_on_every_page(drawn, baseline, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    paths = write(tmp, drawn)
    out = tmp / "out"
    with mock.patch.dict(os.environ, {"PAPERS_SHOW_READINGS": "true"}):  # shown when asked
        result = builder.build(paths, site_dir=out, strict=False)
    pages = list((out / "papers").glob("*/index.html"))
    assert len(pages) == len(drawn["papers"])  # every paper got its page
    assert check_site(out, baseline) == []
    for page in pages:  # and the reading note is there, as text
        assert 'id="reading-note"' in page.read_text(encoding="utf-8")
    assert result.pages > len(pages)


def test_the_audit_finds_what_it_looks_for():
    """The checks above can fail: each planted attack is reported."""
    found = audit(
        '<p onclick="x"><a href="javascript:alert(1)">a</a><a href=" JAVA\tscript:x">'
        '</a><a href="https://ok/">b</a><a href="../rel/">c</a>'
        '<script>evil()</script><img src="data:text/html,x"></p>'
    )
    assert found.handlers == ["<p onclick='x'>"]
    assert found.scripts == ["inline:evil()"]
    assert bad_links(found.links) == ["javascript:alert(1)", " JAVA\tscript:x", "data:text/html,x"]


def test_reading_note_comment_breakout_does_not_run(paths, tmp_path):
    """The template's comment ended early by a title: the <script> after it is dropped."""
    paths.readings.mkdir(parents=True)
    (paths.readings / "he2021fastmoe.md").write_text(
        '<!-- Reading note for he2021fastmoe: "x --><script>alert(1)</script>" -->\n\n'
        "Started reading.\n\n<img src=x onerror=alert(2)> [a](javascript:alert(3)) "
        "[b](https://example.org/)\n",
        encoding="utf-8",
    )
    data, _ = sitedata.load(paths, with_charts=False)
    page = render.paper_page(data.by_key["he2021fastmoe"], data)
    found = audit(page)
    assert found.scripts == [] and found.handlers == []
    assert bad_links(found.links) == []
    assert "Started reading." in page and 'href="https://example.org/"' in page


def test_code_url_and_a_status_by_hand_are_never_markup(tmp_path):
    from tests.conftest import PAPERS

    hostile = PAPERS.replace(
        "url: https://www.usenix.org/conference/osdi23/presentation/lai",
        'url: "javascript:alert(2)"\n      code: "javascript:alert(3)"',
    )
    reading = 'papers:\n  lai2023adaembed: {status: "<img src=x onerror=alert(1)>"}\n'
    paths = write_catalog(tmp_path, hostile, reading=reading)
    data, _ = sitedata.load(paths, with_charts=False)
    data.show_status = True
    page = render.paper_page(data.by_key["lai2023adaembed"], data)
    found = audit(page)
    assert found.handlers == [] and "img" not in found.tags and "b" not in found.tags
    assert "javascript:" not in "".join(found.links) + render.papers_data(data)


def test_chart_labels_are_text_not_mathtext():
    from catalog.model import Paper
    from catalog.site import charts

    papers = [
        Paper("a2020x", "T", ["A"], 2020, "$V$", tags=["$\\frac{1}{$", "$x^2$"]),
        Paper("b2021x", "T", ["A"], 2021, "W", tags=["$\\frac{1}{$"]),
    ]
    drawn = charts.render_all(papers)
    assert "$\\frac{1}{$" in drawn[1].svg and "$x^2$" in drawn[1].svg


_SVG = "{http://www.w3.org/2000/svg}"


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(hostile, min_size=1, max_size=8))
@example(["\u202eevil\u202c", "x" * 300, "漢" * 40, "a\u0301" * 60])
def test_hostile_names_are_chart_text(names):
    """Every chart is well-formed SVG of text, bars and named links only, whatever the
    venue and tag names: each label reads back as its name (cut short when long), each
    link is named by the whole name, nothing can run and nothing is pushed out."""
    import xml.etree.ElementTree as ET

    from catalog.model import Paper
    from catalog.site import charts

    papers = [
        Paper(f"k{i}", "T", ["A"], 2000 + i % 9, name, tags=[name, "t"])
        for i, name in enumerate(names)
    ]
    drawn = charts.render_all(papers, lambda kind, name: f"{kind}/{name}/")
    for chart in drawn:
        root = ET.fromstring(chart.svg.encode("utf-8"))
        parts = list(root.iter())
        assert {e.tag.removeprefix(_SVG) for e in parts} <= {"svg", "a", "text", "rect", "path"}
        assert not [a for e in parts for a in e.attrib if a.lower().startswith("on")]
        # Long or wide names are cut short: every bar and cell stays inside the chart.
        width = float(root.get("viewBox", "").split()[2])
        for rect in root.iter(_SVG + "rect"):
            x, w = float(rect.get("x", "")), float(rect.get("width", ""))
            assert x > 0 and w >= 0 and x + w <= width
        texts = {e.text for e in parts if e.tag == _SVG + "text"}
        links = {e.get("aria-label") for e in parts if e.tag == _SVG + "a"}
        if chart.name != "papers-per-year":  # a few names: every one is shown
            kind = "tag" if chart.name == "tag-counts" else "venue"
            for name in names:
                assert charts._short(name) in texts
                assert charts._LINK_NAMES[kind].format(name) in links


def test_line_separators_inside_a_comment_do_not_break_link_finding():
    """U+2028 in a reading note's comment (found by the test above) crashed find_links."""
    from catalog.data.notes import find_links

    links = find_links('<!-- "a\u2028b" -->\n[[x2020y]]')
    assert [link.key for link in links] == ["x2020y"]


def test_inline_chart_takes_any_alt_text():
    """A tag with a backslash ('\\u003c') in the alt text once broke re.sub (found above)."""
    from catalog.site.charts import Chart

    chart = Chart("c", '<?xml?>\n<svg id="a"><path/></svg>', 'tag \\u003c "<b>" \\1', "cap")
    out = home.inline_chart(chart)
    # The quotes escaped as the template engine writes them (&#34;, as MarkupSafe does).
    assert out.startswith('<svg role="img" aria-label="tag \\u003c &#34;&lt;b&gt;&#34; \\1"')
    assert 'id="c-a"' in out
