"""The mkdocs hook: hands the generated pages and charts to mkdocs as in-memory files.

mkdocs.yml names this file under `hooks:`. Nothing generated is ever written into site/."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.plugins import event_priority

from catalog.data.notes import Note
from catalog.errors import CatalogError
from catalog.paths import CATALOG_ENV, Paths
from catalog.site.home import fill_charts, fill_home
from catalog.site.htmlpage import HtmlPage
from catalog.site.links import NAV_PAGES, log, note_uri
from catalog.site.outdir import check_site_dir, mark_site_dir
from catalog.site.render import (
    generate,
    is_html_page,
    link_papers,
    note_page,
)
from catalog.site.sitedata import SiteData, flag, load, safe_url
from catalog.site.weight import squeeze

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

# ---------------------------------------------------------------- the mkdocs hook


@dataclass
class _Build:
    """State of one mkdocs build, set in on_config and used by later events."""

    paths: Paths
    notes: list[Note]
    data: SiteData | None = None
    pages_written: int = 0  # pages written as an index.html (on_post_page)


_build: _Build | None = None


def catalog_paths(config_file: str | None) -> Paths:
    """The catalog to build: PAPERS_CATALOG if set, else the one beside mkdocs.yml."""
    from catalog.paths import find_catalog, resolve

    if os.environ.get(CATALOG_ENV) or not config_file:
        return resolve()
    return resolve(find_catalog(Path(config_file).parent))


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Find the catalog, check it can be read, and list the notes in the nav."""
    from mkdocs.exceptions import PluginError

    from catalog.data.notes import load_notes
    from catalog.index import database

    global _build
    paths = catalog_paths(config.config_file_path)
    try:
        # Before mkdocs empties site_dir: `mkdocs build -d DIR` is guarded as well.
        check_site_dir(Path(config.site_dir), paths, source_folders(config))
        database.refresh(paths)
        notes = load_notes(paths)
    except CatalogError as err:
        raise PluginError(f"papers: cannot build the site:\n{err}") from None
    _build = _Build(paths, notes)
    if config.nav:
        config.nav = nav_with_notes(config.nav, notes)
    return config


def source_folders(config: MkDocsConfig) -> list[Path]:
    """The folders a build reads from: docs_dir, the theme's overrides and the folder of
    mkdocs.yml."""
    folders = [Path(config.docs_dir)]
    if config.theme.custom_dir:
        folders.append(Path(config.theme.custom_dir))
    if config.config_file_path:
        folders.append(Path(config.config_file_path).parent)
    return folders


def on_post_build(*, config: MkDocsConfig) -> None:
    """Mark the output folder as ours, so the next build may empty it; leave out what
    the theme ships that no reader of this site loads."""
    site = Path(config.site_dir)
    drop_unused_assets(site, search_languages(config))
    mark_site_dir(site)


def search_languages(config: MkDocsConfig) -> list[str]:
    """The languages the search index is built for (the theme's, unless set)."""
    for name in ("material/search", "search"):
        plugin = config.plugins.get(name)
        lang = getattr(getattr(plugin, "config", None), "lang", None)
        if lang:
            return [lang] if isinstance(lang, str) else list(lang)
    theme_lang = config.theme.get("language") if config.theme else None
    return [theme_lang or "en"]


def drop_unused_assets(site: Path, languages: list[str]) -> None:
    """Source maps (for debugging the theme) and, for an English-only index, the
    search's other languages and word segmenters: over 2 MB no page asks for."""
    import shutil

    scripts = site / "assets" / "javascripts"
    for path in (site / "assets").rglob("*.map"):
        path.unlink()
    if languages == ["en"]:
        shutil.rmtree(scripts / "lunr", ignore_errors=True)


def nav_with_notes(nav: list[Any], notes: list[Note]) -> list[Any]:
    """The nav with its 'notes/index.md' entry grown into a section listing every note."""
    out = []
    for item in nav:
        if isinstance(item, dict) and len(item) == 1:
            ((title, target),) = item.items()
            if target == "notes/index.md":
                item = {title: ["notes/index.md", *({n.title: note_uri(n)} for n in notes)]}
        out.append(item)
    return out


def nav_titles(nav: list[Any] | None) -> dict[str, str]:
    """The title the nav gives each page it names (which mkdocs prefers to the page's
    own), by source path."""
    out: dict[str, str] = {}
    for item in nav or []:
        for title, target in item.items() if isinstance(item, dict) else ():
            if isinstance(target, str):
                out[target] = title
            elif isinstance(target, list):
                out.update(nav_titles(target))
    return out


def on_files(files: Files, *, config: MkDocsConfig) -> Files:
    """Add every generated page and chart to the site as an in-memory file."""
    from mkdocs.structure.files import File, InclusionLevel

    assert _build is not None, "on_config runs first"
    started = time.perf_counter()
    timings: dict[str, float] = {}
    try:
        data, problems = load(
            _build.paths,
            _build.notes,
            timings=timings,
            directory_urls=config.use_directory_urls,
            readings=flag(site_settings(config).get("show_readings")),
            template_dir=theme_folder(config),
        )
    except CatalogError as err:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"papers: cannot build the site:\n{err}") from None
    data.directory_urls = config.use_directory_urls
    data.show_status = flag(site_settings(config).get("show_status"))
    data.suggest_url = suggest_url(site_settings(config).get("suggest_url"), config.repo_url)
    use_markdown(data, config)
    data.site_url = safe_url(config.site_url or "")
    _build.data = data
    for problem in problems:
        log.warning("%s", problem)
    _use_catalog_notes(files, config, _build.paths, _build.notes)
    count = 0
    titles = nav_titles(config.nav)
    for uri, content in generate(data).items():
        if files.get_file_from_path(uri) is not None:
            log.warning(
                "%s/%s is hand-written where a generated page goes; remove it", config.docs_dir, uri
            )
            continue
        level = InclusionLevel.INCLUDED if uri in NAV_PAGES else InclusionLevel.NOT_IN_NAV
        file = File.generated(config, uri, content=content, inclusion=level)
        files.append(file)
        if is_html_page(uri):
            HtmlPage(titles.get(uri), file, config)  # mkdocs takes a page a plugin gives
        count += 1
    timings["total"] = time.perf_counter() - started
    log.info(
        "generated %d pages and charts from %s in %.2f s (%s)",
        count,
        _build.paths.display(),
        timings["total"],
        ", ".join(f"{k} {v:.2f} s" for k, v in timings.items() if k != "total"),
    )
    return files


def suggest_url(setting: Any, repo_url: str | None) -> str | None:
    """Where readers propose a paper: the setting, else the repository's Suggest-a-paper
    issue form (.github/ISSUE_TEMPLATE/suggest-paper.yml)."""
    if isinstance(setting, str) and safe_url(setting):
        return setting
    repo = safe_url(repo_url or "")
    if repo and "github.com/" in repo:
        return repo.rstrip("/") + "/issues/new?template=suggest-paper.yml"
    return None


def site_settings(config: MkDocsConfig) -> dict[str, Any]:
    """Our settings in mkdocs.yml, under extra: papers:."""
    extra: dict[str, Any] = dict(config.extra or {})
    found = extra.get("papers") or {}
    return found if isinstance(found, dict) else {}


def use_markdown(data: SiteData, config: MkDocsConfig) -> None:
    """Reading notes converted with the site's own Markdown extensions (SiteData.note_html)."""
    data.markdown_extensions = list(config.markdown_extensions)
    data.mdx_configs = dict(config.mdx_configs)


def theme_folder(config: MkDocsConfig) -> Path | None:
    """The theme's overrides folder, whose templates render the pages and charts
    (catalog.site.templates)."""
    return Path(config.theme.custom_dir) if config.theme.custom_dir else None


def _use_catalog_notes(files: Files, config: MkDocsConfig, paths: Paths, notes: list[Note]) -> None:
    """Show the catalog's notes, when they are not the ones in docs_dir/notes."""
    from mkdocs.structure.files import File

    docs_notes = Path(config.docs_dir, "notes")
    if paths.notes.resolve() == docs_notes.resolve():
        return
    for file in list(files):
        if file.src_uri.startswith("notes/") and file.src_uri.endswith(".md"):
            files.remove(file)
    for note in notes:
        files.append(
            File(
                note_uri(note), str(paths.notes.parent), config.site_dir, config.use_directory_urls
            )
        )


def on_page_markdown(markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill the home page's markers and turn [[key]] links in notes into paper links."""
    if _build is None or _build.data is None:
        return markdown
    uri = page.file.src_uri
    if uri == "index.md":
        return fill_home(markdown, _build.data)
    if uri.startswith("notes/") and not page.file.generated_by:
        note = next((n for n in _build.notes if note_uri(n) == uri), None)
        if note is None:
            return link_papers(markdown, uri, _build.data)
        return note_page(markdown, uri, note, _build.data)
    return markdown


def on_page_content(html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The home page with its charts."""
    if _build is not None and _build.data is not None and page.file.src_uri == "index.md":
        return fill_charts(html, _build.data)
    return html


@event_priority(-100)  # after the search has read the page (Material's runs at 0)
def on_page_context(
    context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
) -> TemplateContext:
    """The page's whole body back, for the theme to write (the search's change to the
    view, taking out data-search-* attributes with values, has nothing to take out of
    the templates' HTML)."""
    if isinstance(page, HtmlPage):
        page.content = page.body
    return context


@event_priority(-100)  # the page as written, after any other plugin's change
def on_post_page(output: str, *, page: Page, config: MkDocsConfig) -> str:
    """Count the pages mkdocs writes (it skips an empty one) as an index.html; drop the
    templates' indentation (catalog.site.weight)."""
    if _build is not None and output.strip() and page.file.dest_uri.endswith("index.html"):
        _build.pages_written += 1
    return squeeze(output)
