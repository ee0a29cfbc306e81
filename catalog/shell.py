"""Page shells: the theme's page template rendered once for many pages of one shape.

Material's main.html costs about a millisecond and a half a page, nearly all of it
in the parts every generated page shares: the header, the nav (in which no
generated page appears, so none is marked current), the scripts and the
configuration. Paper pages differ only in their title, URL and body, and in a
table of contents that takes one of a few forms. So for each shape (the page's
folder, its table of contents, ...) the template is rendered once with marker
strings in place of those values, and each page of that shape is the shell with
its own values put in: the same bytes as its own render, for a string join.

A shell is trusted only once a real render of a page agrees with it; a template
that used the page in another way (a filter on the title, a branch on the URL)
gives no match, and pages of that shape are then rendered one by one as before.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

log = logging.getLogger("mkdocs.plugins.papers")

# The template name the hook gives the pages that may share a shell.
TEMPLATE = "papers-shell.html"
# The theme's template those pages would otherwise use.
BASE_TEMPLATE = "main.html"

# Markers for the page's own values. Each holds characters that any escaping,
# stripping, encoding or case filter would change, so a template that filters a
# value leaves a changed marker, no match, and no shell. The "<h1" keeps the
# theme's test for a heading in the body ("add one if none") as for our pages.
_MARK = "\x1fpp-{}-&lt;<h1>&amp;'\"\x1f"
_FIELDS = ("title", "content", "url", "canonical_url", "abs_url")
MARKS = {name: _MARK.format(name) for name in _FIELDS}
_MARK_RE = re.compile("|".join(re.escape(m) for m in MARKS.values()))
_FIELD_OF = {mark: name for name, mark in MARKS.items()}


class _Probe:
    """A page as the template sees it, with markers in place of its own values."""

    def __init__(self, page: Any) -> None:
        self._page = page
        self.title = MARKS["title"]
        self.meta = {**page.meta, "title": MARKS["title"]}
        self.content = MARKS["content"]
        # The marker stands for the page's name in its URL: the URL stays in the page's
        # folder, so links relative to it are the same as from the page.
        folder, _, tail = _url_parts(page.url)
        self.url = folder + MARKS["url"] + tail
        self.canonical_url = MARKS["canonical_url"] if page.canonical_url else None
        self.abs_url = MARKS["abs_url"] if page.abs_url else None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)


def _url_parts(url: str) -> tuple[str, str, str]:
    """A page's URL as (folder with its slash, name, ending): 'a/b/' -> ('a/', 'b', '/')."""
    tail = "/" if url.endswith("/") else ".html" if url.endswith(".html") else ""
    folder, _, name = url[:len(url) - len(tail)].rpartition("/")
    return (folder + "/" if folder else ""), name, tail


def _values(page: Any) -> dict[str, str]:
    return {"title": page.meta["title"], "url": _url_parts(page.url)[1],
            "content": page.content or "",
            "canonical_url": page.canonical_url or "", "abs_url": page.abs_url or ""}


def _toc_key(items: Any) -> tuple[Any, ...]:
    return tuple((i.id, i.title, i.level, _toc_key(i.children)) for i in items)


def shape(page: Any) -> tuple[Any, ...]:
    """What, besides the marked values, the page's render may depend on."""
    folder, _, tail = _url_parts(page.url)
    meta = tuple(sorted((k, repr(v)) for k, v in page.meta.items() if k != "title"))
    return ("title" in page.meta, folder, tail, _toc_key(page.toc),
            "<h1" in (page.content or ""), meta, page.canonical_url is None,
            page.abs_url is None, page.edit_url,
            page.previous_page is None, page.next_page is None, page.parent is None,
            page.is_homepage)


class Shells:
    """The shells of one build, by shape; None for a shape whose shell did not match."""

    def __init__(self, render: Callable[[dict[str, Any]], str]) -> None:
        self._render = render  # the theme's page template, for a context
        self._shells: dict[tuple[Any, ...], list[str] | None] = {}
        self._seen: set[tuple[Any, ...]] = set()
        self.hits = 0  # pages filled from a shell
        self.pages = 0

    def __str__(self) -> str:
        shared = sum(1 for parts in self._shells.values() if parts is not None)
        return f"{self.hits} of {self.pages} pages filled from {shared} shells"

    def page(self, context: dict[str, Any]) -> str:
        """The page's HTML: its shape's shell filled in, else its own render."""
        page = context["page"]
        self.pages += 1
        key = shape(page)
        if not key[0]:  # the title comes from elsewhere than the page's meta
            return self._render(context)
        parts = self._shells.get(key)
        if parts is not None:
            self.hits += 1
            return fill(parts, _values(page))
        own = self._render(context)
        if key in self._seen and key not in self._shells:
            # A second page of this shape: worth a shell, if the shell gives its bytes.
            parts = split(self._render({**context, "page": _Probe(page)}))
            self._shells[key] = parts if fill(parts, _values(page)) == own else None
            if self._shells[key] is None:
                log.debug("papers: the theme's page differs from its shell for %s", page.url)
        self._seen.add(key)
        return own


def split(shell: str) -> list[str]:
    """The shell as alternating text and field names (text, field, text, ...)."""
    parts: list[str] = []
    at = 0
    for found in _MARK_RE.finditer(shell):
        parts += [shell[at:found.start()], _FIELD_OF[found.group()]]
        at = found.end()
    parts.append(shell[at:])
    return parts


def fill(parts: list[str], values: dict[str, str]) -> str:
    out = parts[:]
    for i in range(1, len(out), 2):
        out[i] = values[out[i]]
    return "".join(out)
