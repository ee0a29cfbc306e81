"""The generated pages' HTML from Jinja2 templates in the theme's overrides/papers/ folder,
escaped by default (autoescape): a site owner overrides one by putting its namesake in
their own theme folder."""

from __future__ import annotations

import functools
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template

from catalog.paths import SHIPPED
from catalog.site.links import plain, safe_href

# The project's own templates (shipped in the package): the fallback for any a site's
# theme folder does not hold.
OVERRIDES = (SHIPPED / "overrides").resolve()


@functools.cache
def environment(folder: Path | None = None) -> Environment:
    """The Jinja2 environment of a theme folder (then ours), autoescaping everything."""
    folders = [str(folder)] if folder and folder.resolve() != OVERRIDES else []
    env = Environment(
        loader=FileSystemLoader([*folders, str(OVERRIDES)]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["plain"] = plain
    env.filters["safe_href"] = safe_href
    return env


def template(name: str, folder: Path | None = None) -> Template:
    """One template of papers/ (compiled once per folder)."""
    return environment(folder).get_template(f"papers/{name}")


def render(name: str, theme_dir: Path | None = None, **context: object) -> str:
    """A template of papers/ rendered with the values given."""
    return template(name, theme_dir).render(**context)
