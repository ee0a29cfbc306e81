"""The page mkdocs makes of a generated HTML page: its front matter read back as front()
wrote it, its body taken as it is, without a Markdown converter made and run for it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from catalog.site.links import read_front
from catalog.site.markup import page_toc
from catalog.site.searchview import search_view

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

# The templates write every attribute value in double quotes (Jinja2 autoescape).
_ID_RE = re.compile(r'\sid="([^"]+)"')


class HtmlPage(Page):
    """A generated page whose body is HTML (catalog.site.render.is_html_page). The hook
    gives it to the page's file in on_files; mkdocs takes a page a plugin has set."""

    body = ""

    def read_source(self, config: MkDocsConfig) -> None:
        """Its front matter and body, read back by json (links.read_front): what mkdocs's
        YAML reader would give, for less (a paper's meta values hold its abstract)."""
        from mkdocs.utils.meta import get_data

        source = config.plugins.on_page_read_source(page=self, config=config)
        if source is None:  # as the hook made it
            self.markdown, self.meta = read_front(self.file.content_string)
        else:  # as another plugin gives it
            self.markdown, self.meta = get_data(source)

    def render(self, config: MkDocsConfig, files: Files) -> None:
        """The body as the page's content, in the view Material's search reads
        (catalog.site.searchview) until the hook's on_page_context puts it back."""
        self.body = self.markdown or ""
        self.content = search_view(self.body)
        self.toc = get_toc(page_toc(self.body))
        self.present_anchor_ids = set(_ID_RE.findall(self.body))
