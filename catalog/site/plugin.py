"""The mkdocs plugin `papers`: the hook's events, with the site's assets from the package.

A catalog made by `papers init` names it in mkdocs.yml (`plugins: [search, papers]`), so
its site builds with what the installed package ships (the theme's templates and search
scripts, the pages' scripts and styles): its own folder holds only the pages it writes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin, event_priority

from catalog.paths import SHIPPED
from catalog.site import hook

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.utils.templates import TemplateContext

# The theme's overrides (templates, search setup and worker) and the folders of site/
# whose files every page loads (mkdocs.yml's extra_css and extra_javascript).
THEME = SHIPPED / "overrides"
ASSETS = SHIPPED / "site"
ASSET_FOLDERS = ("javascripts", "stylesheets")


class Settings(Config):
    """The plugin's settings in mkdocs.yml: none (extra: papers: holds the site's)."""


class PapersPlugin(BasePlugin[Settings]):
    """The catalog's pages, charts and notes (catalog.site.hook), and the package's assets
    where the site has none of its own (its custom_dir and docs_dir come first)."""

    @property
    def _build(self) -> object:
        """The build's state, which `papers site build` reads its page count from."""
        return hook._build

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        dirs = config.theme.dirs
        if str(THEME) not in dirs:
            dirs.insert(1 if config.theme.custom_dir else 0, str(THEME))
        return hook.on_config(config)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        from mkdocs.structure.files import File

        files = hook.on_files(files, config=config)
        for folder in ASSET_FOLDERS:
            for path in sorted((ASSETS / folder).rglob("*")):
                uri = path.relative_to(ASSETS).as_posix()
                if path.is_file() and files.get_file_from_path(uri) is None:
                    files.append(File(uri, str(ASSETS), config.site_dir, config.use_directory_urls))
        return files

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        return hook.on_page_markdown(markdown, page=page, config=config, files=files)

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        return hook.on_page_content(html, page=page, config=config, files=files)

    @event_priority(-100)  # after the search has read the page
    def on_page_context(
        self, context: TemplateContext, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        return hook.on_page_context(context, page=page, config=config, nav=nav)

    @event_priority(-100)  # the page as written, after any other plugin's change
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        return hook.on_post_page(output, page=page, config=config)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        hook.on_post_build(config=config)


def write_sources(raw: dict[str, Any], overrides: Path, docs: Path) -> None:
    """The plugin's part of a site written as plain sources (`papers site sources`): the
    theme into overrides (the site's own custom_dir is copied over it), the assets docs
    lacks into docs, and the plugin taken out of the raw mkdocs.yml."""
    ignore = shutil.ignore_patterns(".*")
    shutil.copytree(THEME, overrides, ignore=ignore, dirs_exist_ok=True)
    theme = raw.get("theme")
    raw["theme"] = {**(theme if isinstance(theme, dict) else {"name": theme})}
    raw["theme"]["custom_dir"] = overrides.name
    for folder in ASSET_FOLDERS:
        if not (docs / folder).exists():
            shutil.copytree(ASSETS / folder, docs / folder, ignore=ignore)
    plugins = raw.get("plugins") or []
    raw["plugins"] = [p for p in plugins if p != "papers" and not _names_papers(p)]


def _names_papers(entry: object) -> bool:
    """Whether a plugins: entry of mkdocs.yml is the papers plugin with its settings."""
    return isinstance(entry, dict) and "papers" in entry
