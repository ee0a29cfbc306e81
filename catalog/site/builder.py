"""papers site build and serve: mkdocs run on the catalog; the sources as files."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalog.paths import CATALOG_ENV, DB_ENV, Paths
from catalog.site.home import fill_charts, fill_home
from catalog.site.hook import (
    nav_with_notes,
    site_settings,
    source_folders,
    suggest_url,
    theme_folder,
    use_markdown,
)
from catalog.site.links import SiteError, note_uri
from catalog.site.outdir import building, check_site_dir, mark_site_dir, staging_dir, swap_in
from catalog.site.render import generate, is_html_page, note_page
from catalog.site.sitedata import flag, load, safe_url

# ---------------------------------------------------------------- papers site build / serve


@dataclass
class BuildResult:
    """What a site build made."""

    site_dir: Path
    pages: int
    seconds: float
    warnings: list[str]


def default_config(paths: Paths) -> Path:
    """The project's mkdocs.yml: beside the catalog's data folder, else this checkout's."""
    for candidate in (
        paths.root / "mkdocs.yml",
        Path(__file__).resolve().parents[2] / "mkdocs.yml",
    ):
        if candidate.is_file():
            return candidate
    raise SiteError(
        f"no mkdocs.yml in {paths.root}: `papers init {paths.root}` adds one (it keeps "
        "every file there), or give one with --config-file"
    )


@contextlib.contextmanager
def _catalog_env(paths: Paths) -> Iterator[None]:
    """PAPERS_CATALOG / PAPERS_DB set for the hook, restored afterwards."""
    saved = {name: os.environ.get(name) for name in (CATALOG_ENV, DB_ENV)}
    os.environ[CATALOG_ENV] = str(paths.catalog.resolve())
    os.environ[DB_ENV] = str(paths.db.resolve())
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def build(
    paths: Paths, config_file: Path | None = None, site_dir: Path | None = None, strict: bool = True
) -> BuildResult:
    """Build the site with mkdocs; SiteError lists the warnings when --strict stops it."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    config_file = config_file or default_config(paths)
    collect = _Collect()
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(collect)
    started = time.perf_counter()
    try:
        with _catalog_env(paths):
            config = load_config(
                str(config_file),
                strict=strict,
                site_dir=str(site_dir.resolve()) if site_dir else None,
            )
            out = Path(config.site_dir)
            check_site_dir(out, paths, source_folders(config))
            with building(out):
                _build_and_swap(config, out)
    except (MkDocsException, SystemExit) as err:
        detail = "".join(f"\n  {m}" for m in collect.messages)
        raise SiteError(f"site build failed: {err}{detail}") from None
    finally:
        mkdocs_log.removeHandler(collect)
    return BuildResult(
        out, _pages_written(config, out), time.perf_counter() - started, collect.messages
    )


def _build_and_swap(config: Any, out: Path) -> None:
    """mkdocs builds into a folder beside out, which replaces out only when complete:
    an error or Ctrl-C on the way leaves the previous site untouched."""
    import shutil

    from mkdocs.commands.build import build as mkdocs_build

    staging = staging_dir(out)
    config["site_dir"] = str(staging)
    try:
        config.plugins.on_startup(command="build", dirty=False)
        try:
            mkdocs_build(config)
        finally:
            config.plugins.on_shutdown()
        swap_in(staging, out)
    finally:
        config["site_dir"] = str(out)
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _pages_written(config: Any, out: Path) -> int:
    """The index.html pages of the build: as the hook counted them while mkdocs wrote
    them, else by a walk of the output folder."""
    for plugin in config.plugins.values():
        counted = getattr(getattr(plugin, "_build", None), "pages_written", None)
        if isinstance(counted, int):
            return counted
    return sum(1 for _ in out.rglob("index.html"))


# ---------------------------------------------------------------- sources as files


def write_sources(paths: Paths, out: Path, config_file: Path | None = None) -> int:
    """The whole site as plain sources in a folder: out/docs and out/mkdocs.yml.

    The hook builds in memory, which is fast but ties the site to mkdocs's plugin
    API. This writes the same pages as files (the hand-written pages copied, the
    generated ones added, [[key]] links and the home page's markers resolved)
    with a mkdocs.yml that needs no hook, so any builder that reads mkdocs.yml
    and Markdown with raw HTML (mkdocs today, a successor later) can build them.
    Returns the number of files written.
    """
    from mkdocs.config import load_config

    config_file = config_file or default_config(paths)
    with _catalog_env(paths):
        config = load_config(str(config_file))
    check_site_dir(out, paths, source_folders(config))
    with building(out):
        return _write_sources(paths, out, config_file, config)


def _write_sources(paths: Paths, out: Path, config_file: Path, config: Any) -> int:
    """write_sources under the output folder's lock."""
    import shutil

    import yaml

    from catalog.data.notes import load_notes
    from catalog.index import database

    if out.exists():
        shutil.rmtree(out)  # only a folder we marked, or an empty one (checked before)
    docs = out / "docs"
    database.refresh(paths)
    notes = load_notes(paths)
    settings = site_settings(config)
    data, _ = load(
        paths,
        notes,
        directory_urls=config.use_directory_urls,
        readings=flag(settings.get("show_readings")),
        template_dir=theme_folder(config),
    )
    use_markdown(data, config)
    data.site_url = safe_url(config.site_url or "")
    data.show_status = flag(settings.get("show_status"))
    data.suggest_url = suggest_url(settings.get("suggest_url"), config.repo_url)
    shutil.copytree(config.docs_dir, docs, ignore=shutil.ignore_patterns(".*"))
    if paths.notes.resolve() != Path(config.docs_dir, "notes").resolve():
        shutil.rmtree(docs / "notes", ignore_errors=True)
        for note in notes:
            (docs / "notes").mkdir(parents=True, exist_ok=True)
            shutil.copy(note.path, docs / note_uri(note))
    count = 0
    for note in notes:
        target = docs / note_uri(note)
        target.write_text(
            note_page(target.read_text(encoding="utf-8"), note_uri(note), note, data),
            encoding="utf-8",
        )
    home = docs / "index.md"
    if home.is_file():
        filled = fill_home(home.read_text(encoding="utf-8"), data)
        home.write_text(fill_charts(filled, data), encoding="utf-8")
    for uri, content in generate(data).items():
        target = docs / uri
        target.parent.mkdir(parents=True, exist_ok=True)
        if is_html_page(uri):  # one raw HTML block for any Markdown reader
            content = content.replace("\n\n", "\n")
        target.write_text(content, encoding="utf-8")
        count += 1
    raw = yaml.safe_load(_plain_yaml(config_file)) or {}
    raw.pop("hooks", None)
    if "papers" in config.plugins:  # the plugin's theme and assets, as files
        from catalog.site.plugin import write_sources as plugin_sources

        plugin_sources(raw, out / "overrides", docs)
    custom_dir = config.theme.custom_dir
    if custom_dir and isinstance(raw.get("theme"), dict):
        # The theme's overrides (search setup, templates) travel with the pages.
        ignore = shutil.ignore_patterns(".*")
        shutil.copytree(custom_dir, out / "overrides", ignore=ignore, dirs_exist_ok=True)
        raw["theme"]["custom_dir"] = "overrides"
    raw.update(
        docs_dir="docs",
        site_dir="site",
        site_url=config.site_url or "",
        repo_url=config.repo_url or "",
    )
    if raw.get("nav"):
        raw["nav"] = nav_with_notes(raw["nav"], notes)
        # Reached from the index pages, not from the nav (as the hook marks them).
        raw["not_in_nav"] = "".join(
            f"/{d}/*.md\n!/{d}/index.md\n" for d in ("papers", "years", "venues", "tags", "authors")
        )
    (out / "mkdocs.yml").write_text(
        "# Written by `papers site sources`: the site's sources, no hook needed.\n"
        + yaml.safe_dump(raw, sort_keys=False, allow_unicode=True),
        encoding="utf-8",
    )
    mark_site_dir(out)
    return count


def _plain_yaml(config_file: Path) -> str:
    """mkdocs.yml with its !ENV tags read as their default values, for PyYAML."""
    text = config_file.read_text(encoding="utf-8")

    def value(m: re.Match[str]) -> str:
        names = [n.strip() for n in m.group(1).split(",")]
        for name in names[:-1]:
            if os.environ.get(name):
                return json.dumps(os.environ[name])
        return names[-1]

    return re.sub(r"!ENV\s*\[([^\[\]]*)\]", value, text)  # stops at a '[': one pass


def serve(paths: Paths, config_file: Path | None = None, dev_addr: str = "127.0.0.1:8000") -> None:
    """Serve the site with live reload, rebuilding when the catalog or notes change."""
    from mkdocs.commands.serve import serve as mkdocs_serve
    from mkdocs.exceptions import MkDocsException

    config_file = config_file or default_config(paths)
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    # The whole data folder, so reading notes written after the server started count too.
    watch = [str(p) for p in (paths.data_dir, paths.notes) if p.exists()]
    try:
        with _catalog_env(paths):
            mkdocs_serve(str(config_file), dev_addr=dev_addr, watch=watch)
    except MkDocsException as err:
        raise SiteError(f"site server stopped: {err}") from None
    finally:
        mkdocs_log.removeHandler(handler)
