"""Pages filled into a shared shell are byte for byte the theme's own render of them."""

from __future__ import annotations

import copy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from catalog import shell, site
from catalog.paths import Paths
from tests.conftest import REPO, write_catalog
from tests.test_site_build import write_note
from tests.test_site_hostile import catalogs, write


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file()}


def _build_both(paths: Paths, out: Path, monkeypatch: pytest.MonkeyPatch,
                config: Path | None = None) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The site built with shells, then with every page rendered on its own."""
    made: list[shell.Shells] = []
    with monkeypatch.context() as patch:
        init = shell.Shells.__init__
        patch.setattr(shell.Shells, "__init__",
                      lambda self, render: made.append(self) or init(self, render))
        result = site.build(paths, config, out / "shells", strict=False)
    assert made and made[0].hits > 0  # the pages did share shells
    # The hook counts the pages as mkdocs writes them: as many as the folder holds.
    assert result.pages == sum(1 for _ in (out / "shells").rglob("index.html")) > 0
    with monkeypatch.context() as patch:
        patch.setattr(shell.Shells, "page", lambda self, context: self._render(context))
        site.build(paths, config, out / "own", strict=False)
    return _files(out / "shells"), _files(out / "own")


def test_shelled_site_equals_the_theme_render(shipped, tmp_path, monkeypatch):
    paths = shipped
    write_note(paths)
    paths.readings.mkdir(parents=True)
    (paths.readings / "lai2023adaembed.md").write_text("## Why\n\nPruning.\n",
                                                       encoding="utf-8")
    shelled, own = _build_both(paths, tmp_path / "out", monkeypatch)
    assert shelled.keys() == own.keys()
    assert [name for name in own if shelled[name] != own[name]] == []


def test_shelled_site_equals_the_theme_render_with_other_settings(tmp_path, monkeypatch):
    """Canonical URLs (site_url) and .html URLs put the page's URL into the page."""
    paths = write_catalog(tmp_path)
    write_note(paths)
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for name in ("site", "overrides", "catalog/site.py"):
        text = text.replace(f" {name}\n", f" {REPO / name}\n", 1)
    text = text.replace("site_url: !ENV [PAPERS_SITE_URL, \"\"]",
                        "site_url: https://example.org/sub/\nuse_directory_urls: false")
    config = tmp_path / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    shelled, own = _build_both(paths, tmp_path / "out", monkeypatch, config)
    paper = shelled["papers/lai2023adaembed.html"].decode()
    assert '<link rel="canonical" href="https://example.org/sub/papers/lai2023adaembed.html">' \
        in paper
    assert [name for name in own if shelled[name] != own[name]] == []


@pytest.mark.slow
@settings(max_examples=4, deadline=None, derandomize=True, phases=[Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(drawn=catalogs())
def test_hostile_catalogs_shelled_equal_the_theme_render(tmp_path_factory, monkeypatch,
                                                         drawn):
    folder = tmp_path_factory.mktemp("hostile-shell")
    # Each paper three times (other keys): pages of one shape beyond the one that checks it.
    drawn["papers"] += [{**copy.deepcopy(p), "key": f"{c}{p['key']}"} for c in "qr" for p in drawn["papers"]]
    shelled, own = _build_both(write(folder, drawn), folder / "out", monkeypatch)
    assert [name for name in own if shelled[name] != own[name]] == []


# ---------------------------------------------------------------- Shells on its own


def _page(url: str, title: str, body: str, toc: tuple[str, ...] = ()) -> Any:
    items = [SimpleNamespace(id=a, title=a, level=2, children=[]) for a in toc]
    return SimpleNamespace(url=url, title=title, meta={"title": title}, content=body,
                           toc=items, canonical_url=None, abs_url=None, edit_url=None,
                           previous_page=None, next_page=None, parent=None,
                           is_homepage=False)


PAGE = ("<title>{{ page.meta.title }}</title><a href=\"{{ 'x.css' | u }}\">"
        "{% for t in page.toc %}<li>{{ t.title }}</li>{% endfor %}{{ page.content }}")


def _shells(source: str) -> tuple[shell.Shells, jinja2.Template, list[str]]:
    env = jinja2.Environment()
    env.filters["u"] = lambda v: "../" * v.count("/") + v  # stands in for mkdocs's url
    template = env.from_string(source)
    calls: list[str] = []

    def render(context: dict[str, Any]) -> str:
        calls.append(context["page"].url)
        return template.render(context)

    return shell.Shells(render), template, calls


def test_pages_of_one_shape_share_a_shell():
    shells, template, calls = _shells(PAGE)
    pages = [_page(f"p/{i}/", f"T{i} &lt;b&gt;", f"<h1>{i}</h1>", ("a", "b")) for i in range(5)]
    assert [shells.page({"page": p}) for p in pages] == [template.render(page=p) for p in pages]
    # Rendered: the first page, the second (to check its shell), and the shell.
    assert len(calls) == 3 and shells.hits == 3


def test_another_table_of_contents_is_another_shape():
    shells, template, _ = _shells(PAGE)
    pages = [_page(f"p/{i}/", "T", "<h1>x</h1>", (str(i),)) for i in range(2)] * 2
    assert [shells.page({"page": p}) for p in pages] == [template.render(page=p) for p in pages]
    assert shells.hits == 0


@pytest.mark.parametrize("use", ["{{ page.title | upper }}", "{{ page.title | striptags }}",
                                 "{{ page.meta.title | e }}", "{{ page.url | urlencode }}",
                                 "{{ page.content | length }}"])
def test_a_template_that_filters_the_page_values_gets_no_shell(use):
    """The shell's markers come out changed, so it never matches: each page on its own."""
    shells, template, _ = _shells(PAGE + use)
    pages = [_page(f"p/{i}/", f"T{i} &lt;b&gt;", f"<h1>{i}</h1>") for i in range(4)]
    assert [shells.page({"page": p}) for p in pages] == [template.render(page=p) for p in pages]
    assert shells.hits == 0


@pytest.mark.parametrize("url", ["p/{}/", "p/{}.html", "a/p/{}/"])
def test_the_page_url_as_printed(url):
    shells, template, _ = _shells(PAGE + "{{ page.url }}|{{ page.url | u }}|{{ page.canonical_url }}")
    pages = [_page(url.format(i), "T", "<h1>x</h1>") for i in range(4)]
    for p in pages:
        p.canonical_url = "https://example.org/" + p.url
    assert [shells.page({"page": p}) for p in pages] == [template.render(page=p) for p in pages]
    assert shells.hits == 2
