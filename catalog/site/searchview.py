"""What Material's search reads of a generated page: its HTML with the inside of each part
marked data-search-exclude left out, where leaving it out cannot change the index.

Material's search parses every page's whole HTML, and skips what is marked only after
parsing it: the lists of papers on the year, venue, tag and author pages, and a paper
page's facts, downloads and related papers, are most of the site's markup and none of
its search index. The hook hands the search this view and puts the page back before
the theme writes it (catalog.site.hook, on_page_content and on_page_context).

The inside of an excluded element E (tag T) is left out only where Material's parser
(material/plugins/search/plugin.py, Parser) would read it without effect: no heading
(which opens a section even when skipped), no element marked excluded or of tag T
(closing one takes E out of the parser's skip set), no script or style (whose text is
not read as tags), and E is not inside another excluded element. In well-formed
HTML, which the templates write (autoescaped) and nh3 makes of a reading note, the
parser is then in the same state after E as if it had read the inside, so the index is
the same.
"""

from __future__ import annotations

import bisect
import functools
import re

MARK = "data-search-exclude"
# A start tag and its attributes (a quoted value may hold '>' or the mark itself).
_START_RE = re.compile(
    r"<([a-zA-Z][a-zA-Z0-9-]*)"
    r"((?:\s+[^\s=/>\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>\"']+))?)*)\s*/?>"
)
_ATTR_RE = re.compile(r"\s+([^\s=/>\"']+)(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>\"']+))?")
# What inside an excluded element changes the parser's state (see the module's docstring),
# found in the page in lower case.
_UNSAFE_RE = re.compile(rf"<(?:h[1-6]|script|style)|{MARK}")
# Tags without content (Material's list): nothing inside to leave out.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param"}
    | {"source", "track", "wbr"}
)


def search_view(page_html: str) -> str:
    """The page as Material's search needs it (see the module's docstring)."""
    low = page_html.lower()  # tags and attribute names are read in any case
    if MARK not in low or "linenodiv" in low:
        return page_html
    unsafe = [m.start() for m in _UNSAFE_RE.finditer(low)]
    out: list[str] = []
    kept = 0  # page_html[:kept] is in out
    at = 0
    while (found := low.find(MARK, at)) >= 0:
        opening = low.rfind("<", 0, found)
        start = _START_RE.match(low, opening) if opening >= 0 else None
        if not start or start.end() <= found or not _marked(start.group(2)):
            at = found + len(MARK)
            continue
        tag = start.group(1)
        if tag in _VOID:
            at = start.end()
            continue
        end = _element_end(low, tag, start.end())
        if end is None:  # not closed: leave the rest as it is
            break
        inner_end, after, nested = end
        first_unsafe = bisect.bisect_left(unsafe, start.end())
        if not nested and (first_unsafe == len(unsafe) or unsafe[first_unsafe] >= inner_end):
            out.append(page_html[kept : start.end()])
            kept = inner_end
        at = after
    out.append(page_html[kept:])
    return "".join(out)


def _marked(attributes: str) -> bool:
    """Whether a start tag's attributes include the mark as an attribute of its own."""
    return MARK in _ATTR_RE.findall(attributes)


@functools.cache
def _tag_re(tag: str) -> re.Pattern[str]:
    """A start or end tag of one name (in a page in lower case)."""
    return re.compile(rf"<(/?){re.escape(tag)}(?=[\s/>])[^>]*>")


def _element_end(low: str, tag: str, start: int) -> tuple[int, int, bool] | None:
    """Where the element whose start tag ends at `start` closes: its end tag's start and
    end, and whether an element of its tag is inside it; None if it never closes."""
    depth, nested = 1, False
    for m in _tag_re(tag).finditer(low, start):
        depth += -1 if m.group(1) else 1
        nested = nested or depth > 1
        if depth == 0:
            return m.start(), m.end(), nested
    return None
