"""Our own pieces of page markup, each a Jinja2 template in the theme's overrides folder
(overrides/partials/papers-*.html), autoescaped: Python gives a template its data, and
a site owner can change the markup without touching the code."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

# The theme's overrides of this checkout, as mkdocs.yml names them (custom_dir).
OVERRIDES = Path(__file__).resolve().parents[2] / "overrides"


@functools.cache
def _environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(OVERRIDES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # read once per build: a template is rendered thousands of times
    )


def render(template: str, **values: object) -> str:
    """overrides/partials/TEMPLATE filled with values, every value escaped unless it is
    markupsafe.Markup (HTML we made ourselves)."""
    return _environment().get_template(f"partials/{template}").render(**values)


def trusted(html: str) -> object:
    """HTML made by our own escaping renderers, to put into a template as it is."""
    from markupsafe import Markup

    return Markup(html)
