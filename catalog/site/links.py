"""The site's URIs, links and page text: every page's address and the escaping of what it shows."""

from __future__ import annotations

import functools
import html
import json
import logging
import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from urllib.parse import quote

from catalog.bib.latex import readable
from catalog.data.notes import Note
from catalog.errors import CatalogError
from catalog.paths import RESERVED_NAMES, page_name

LOG_NAME = "mkdocs.plugins.papers"  # under "mkdocs", so --strict counts our warnings
log = logging.getLogger(LOG_NAME)

# Pages listed in the nav; every other generated page is reachable from them.
ALL_URI = "papers/index.md"
AUTHORS_INDEX = "authors/index.md"
NAV_PAGES = (
    ALL_URI,
    "years/index.md",
    "venues/index.md",
    "tags/index.md",
    AUTHORS_INDEX,
    "notes/index.md",
)
CHART_DIR = "assets/charts"
# Every paper's entry data for the All-papers page's filters, as a script (not JSON
# fetched at run time, which browsers refuse to pages opened from file://).
DATA_JS = "assets/papers-data.js"
STEM_JS = "javascripts/stem.js"
RANK_JS = "javascripts/rank.js"  # the Words box's search, on stem.js
ARXIV_ABS = "https://arxiv.org/abs/"
ARXIV_PDF = "https://arxiv.org/pdf/"
LATEST = 10
# Weights in the site's search dialog (Material's `search: boost`), which lists pages:
# `papers search` lists papers only, so a paper's page weighs most, a hand-written note
# (no boost) less and a list of papers (a tag, year, venue, author, an index) least.
PAPER_BOOST = 1e4
LIST_BOOST = 0.5
# Markers in the hand-written home page (site/index.md) that the hook fills in.
MARKERS = ("search", "counts", "charts", "latest", "notes")
MARKER_RE = re.compile(r"<!--\s*papers:(\w+)\s*-->")
_SLUG_RE = re.compile(r"[^a-z0-9_-]+")
# Python-Markdown's backslash-escapable characters that could start markup inline.
_MD_ESCAPE_RE = re.compile(r"([\\`*_{}\[\]()#+!|~])")
HEADING_RE = re.compile(r"^(#{1,4})(?=\s)")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}\Z")


class SiteError(CatalogError):
    """The site could not be built."""


# ---------------------------------------------------------------- text and links


def plain(text: str) -> str:
    """Catalog text as a page shows it: LaTeX left in it read as text (bib.latex.readable,
    the rule the plain-text citation formats share)."""
    return readable(text)


def md(text: str) -> str:
    """Plain text made safe inside Markdown: HTML escaped, markup characters escaped."""
    escaped = html.escape(plain(text), quote=False)
    return _MD_ESCAPE_RE.sub(r"\\\1", escaped).replace("\n", " ")


def slug(name: str) -> str:
    """A readable, file-name-safe, lower-case form of a venue's or an author's name (not
    one name's alone: unique_stems tells apart the names that share one)."""
    return _SLUG_RE.sub("-", name.lower()).strip("-") or "-"


def unique_stems(names: Iterable[str], base: Callable[[str], str]) -> dict[str, str]:
    """Each name's page name: base(name), or base(name)-2, -3 ... where a name before it
    (in the order given) took that one. Never a list page's name ('index') or one Windows
    reserves, so every name has a page of its own."""
    taken = {*RESERVED_NAMES, "index"}
    out: dict[str, str] = {}
    for name in names:
        if name in out:
            continue
        first = stem = base(name)
        n = 1
        while stem in taken:
            n += 1
            stem = f"{first}-{n}"
        taken.add(stem)
        out[name] = stem
    return out


def venue_stems(venues: Iterable[str]) -> dict[str, str]:
    """Each venue's page name: its short name in lower case ('osdi'), told apart from
    another venue's where two share one ('A.B' and 'A-B'), the same in every build."""
    return unique_stems(sorted(set(venues), key=lambda v: (slug(v), v)), slug)


def paper_uri(key: str) -> str:
    return f"papers/{page_name(key)}.md"


def year_uri(year: int) -> str:
    return f"years/{year}.md"


def tag_uri(tag: str) -> str:
    return f"tags/{page_name(tag)}.md"


def note_uri(note: Note) -> str:
    return f"notes/{note.path.name}"


def href(from_uri: str, to_uri: str) -> str:
    """A relative link from one page's source path to another's (what mkdocs validates)."""
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")


def safe_href(url: str) -> str:
    """An external URL safe inside a Markdown link target."""
    return quote(url, safe=":/?#[]@!$&'*+,;=%~-._")


def front(
    title: str,
    body: list[str],
    search_tags: Sequence[str] = (),
    meta: dict[str, str | list[str]] | None = None,
    searchable: bool = True,
    boost: float = 1.0,
) -> str:
    """A page: its title (the words its search entry is tagged with, its weight in the
    site's search, and other meta values for the template) in front matter, then its
    Markdown lines.

    mkdocs would take the title from the first heading and Material would print
    it into <title> unescaped ('|striptags' turns &lt; back into <); a title in
    the page's meta is printed as given, so we give it HTML-escaped.
    """
    head: dict[str, object] = {"title": html.escape(plain(title), quote=False)}
    if search_tags:
        # Material's search indexes a page's tags (and boosts them); no template shows
        # them without its tags plugin, which the site does not use.
        head["tags"] = [plain(t) for t in search_tags]
    if not searchable:
        head["search"] = {"exclude": True}
    elif boost != 1.0:
        # Material's search multiplies the page's score by it (every section's).
        head["search"] = {"boost": int(boost) if float(boost).is_integer() else boost}
    head.update(meta or {})
    return f"---\n{_front_matter(head)}\n---\n\n" + "\n".join(body) + "\n"


def _front_matter(head: dict[str, object]) -> str:
    """Front matter as JSON: YAML reads it as the same mapping (mkdocs does, for a page of
    the sources as files), and json reads it back fast (read_front)."""
    # JSON is YAML, but for the characters YAML folds as line breaks (NEL, U+2028/9) or
    # refuses (other controls, BOM): written as escapes, both read the same text.
    return _YAML_UNSAFE_RE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(head, ensure_ascii=False, indent=1)
    )


def read_front(page: str) -> tuple[str, dict[str, object]]:
    """A page front() wrote, read back: its body and its meta values, as mkdocs's front
    matter reader gives them."""
    head, _, body = page.removeprefix("---\n").partition("\n---\n")
    return body.lstrip("\n"), json.loads(head)


_YAML_UNSAFE_RE = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def page_url(uri: str, directory_urls: bool = True) -> str:
    """The URL path mkdocs gives a page's source path ('papers/x.md' -> 'papers/x/')."""
    if not uri.endswith(".md"):
        return uri
    stem = uri[:-3]
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[:-5]
    return stem + "/"


def _relpath(path: str, start: str) -> str:
    """posixpath.relpath for two paths relative to the site root, by string alone (the
    build's working folder has nothing to do with them)."""
    to = [part for part in path.split("/") if part not in ("", ".")]
    at = [part for part in start.split("/") if part not in ("", ".")]
    same = 0
    while same < min(len(to), len(at)) and to[same] == at[same]:
        same += 1
    return "/".join([".."] * (len(at) - same) + to[same:]) or "."


# A list's entries are written from one stand-in page per folder (markup.paper_item), so
# most links of a build are asked for again and again.
@functools.lru_cache(maxsize=1 << 16)
def url(from_uri: str, to_uri: str, directory_urls: bool = True) -> str:
    """A relative URL, as in the built site, from one page to another page or file."""
    here, there = page_url(from_uri, directory_urls), page_url(to_uri, directory_urls)
    base = here.rstrip("/") if here.endswith("/") or not here else posixpath.dirname(here)
    rel = _relpath(there.rstrip("/") or ".", base or ".")
    if there.endswith("/") or not there:
        rel = "./" if rel == "." else rel + "/"
    return rel
