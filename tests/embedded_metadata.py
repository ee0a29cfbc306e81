"""A reader of a page's Highwire Press citation_* tags as Zotero's Embedded Metadata
translator reads them (its documented mapping and rules, written again here: the tag to
field table, the item type from the container tag, authors split and cleaned as
Zotero.Utilities.cleanAuthor does, pages from first and last), giving the fields as
CSL-JSON names them, so a test can compare a page with `papers export --format
csl-json`."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Tag -> Zotero field, in the translator's order (a later tag of one field wins).
HIGHWIRE = {
    "citation_title": "title",
    "citation_publication_date": "date",
    "citation_cover_date": "date",
    "citation_date": "date",
    "citation_journal_title": "publicationTitle",
    "citation_journal_abbrev": "journalAbbreviation",
    "citation_inbook_title": "publicationTitle",
    "citation_book_title": "bookTitle",
    "citation_volume": "volume",
    "citation_issue": "issue",
    "citation_series_title": "series",
    "citation_conference_title": "conferenceName",
    "citation_conference": "conferenceName",
    "citation_dissertation_institution": "university",
    "citation_technical_report_institution": "institution",
    "citation_technical_report_number": "number",
    "citation_publisher": "publisher",
    "citation_abstract": "abstractNote",
    "citation_doi": "DOI",
    "citation_public_url": "url",
}
# The tag that decides the item type (the last one on the page wins).
TYPE_TAGS = {
    "citation_journal_title": "journalArticle",
    "citation_technical_report_institution": "report",
    "citation_conference_title": "conferencePaper",
    "citation_conference": "conferencePaper",
    "citation_book_title": "bookSection",
    "citation_inbook_title": "bookSection",
    "citation_dissertation_institution": "thesis",
}
# Zotero's item types and fields as CSL-JSON names them (Zotero's CSL mappings; the
# conference name and the book title are the container a CSL processor cites).
CSL_TYPES = {
    "journalArticle": "article-journal",
    "conferencePaper": "paper-conference",
    "bookSection": "chapter",
    "report": "report",
    "thesis": "thesis",
}
CSL_FIELDS = {
    "title": "title",
    "publicationTitle": "container-title",
    "conferenceName": "container-title",
    "bookTitle": "container-title",
    "journalAbbreviation": "container-title-short",
    "series": "collection-title",
    "volume": "volume",
    "issue": "issue",
    "pages": "page",
    "publisher": "publisher",
    "institution": "publisher",
    "university": "publisher",
    "number": "number",
    "DOI": "DOI",
    "url": "URL",
    "abstractNote": "abstract",
}


class _Head(HTMLParser):
    """Every <meta name content> of a page, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "meta" and found.get("name") and found.get("content"):
            self.meta.append((str(found["name"]), str(found["content"])))


def meta_tags(page: str) -> list[tuple[str, str]]:
    """The (name, content) of every meta tag of an HTML page."""
    head = _Head()
    head.feed(page)
    return head.meta


def _trim(text: str) -> str:
    return re.sub(r"[\xa0\r\n\s]+", " ", text).strip()


def _first(meta: list[tuple[str, str]], name: str) -> str | None:
    # The translator matches a tag whose name ends with the name (prefixed tags too).
    return next((v for n, v in meta if n.endswith(name) and v.strip()), None)


def fix_case(name: str) -> str:
    """A name written all in one case, capitalised word by word (the translator's fixCase)."""
    if name in (name.upper(), name.lower()):
        return " ".join(
            re.sub(r"(^|[^\w])(\w)", lambda m: m.group(1) + m.group(2).upper(), w.lower())
            for w in name.split(" ")
        )
    return name


def clean_author(author: str, comma: bool) -> dict[str, str]:
    """A creator string as Zotero.Utilities.cleanAuthor splits it."""
    author = re.sub(r"^[\s\xa0.,/\[\]:]+", "", author)
    author = re.sub(r"[\s\xa0.,/\[\]:]+$", "", author)
    author = re.sub(r"[\s\xa0]+", " ", author, count=1)
    if comma:
        author = re.sub(r"\.([^ ])", r". \1", author, count=1)
        parts = re.split(r"[,،] ?", author)
        last, first = (parts[0], parts[1]) if len(parts) > 1 else (author, "")
    else:
        space = len(author)
        while True:
            space = author.rfind(" ", 0, space)
            last, first = author[space + 1 :], author[:space] if space > 0 else ""
            if not last or last[0].isalpha() or space <= 0:
                break
    initials = first and re.fullmatch(r"[A-Z\u0400-\u042f]+", first) and len(first) < 4
    if initials and (len(first) == 1 or last.upper() != last):
        first = " ".join(c + "." for c in first)
    if first:
        text = re.sub(r"^[\s.]+", "", first)
        text = re.sub(r"[\s,]+$", "", text)
        text = re.sub(r"\s*([\u002d\u00ad\u2010-\u2015\u2212\u2e3a\u2e3b])\s*", r"-", text, count=1)
        names = re.split(r"[\s.]+|(?=-)", text)
        first = " ".join(n + "." if re.fullmatch(r"-?[A-Z\u0400-\u042f]", n) else n for n in names)
        first = first.replace(" -", "-").strip()
    return {"family": last, "given": first}


def creators(meta: list[tuple[str, str]], role: str) -> list[dict[str, str]]:
    """The authors (or editors) of citation_author (citation_authors) tags."""
    nodes = [v for n, v in meta if n.endswith(f"citation_{role}")]
    if not nodes:
        nodes = [v for n, v in meta if n.endswith(f"citation_{role}s")]
    out, last = [], None
    for node in nodes:
        names = re.split(r"\s*;\s*", node)
        if len(names) == 1 and len(nodes) == 1:
            by_comma = re.split(r"\s*,\s*", names[0])
            if len(by_comma) > 1 and " " in by_comma[0] and " " in by_comma[1]:
                names = by_comma
        for name in names:
            name = name.strip()
            if not name or not re.search(r"[^\s,\-.;]", name) or name == last:
                continue
            last = name
            person = clean_author(name, "," in name)
            if person["given"]:
                person = {k: fix_case(v) for k, v in person.items()}
            out.append(person)
    return out


def zotero_item(page: str) -> dict[str, object]:
    """The Zotero item the translator makes of a page's citation_* tags."""
    meta = meta_tags(page)
    item_type = "journalArticle" if any(n == "citation_title" for n, _ in meta) else None
    for name, _ in meta:
        item_type = TYPE_TAGS.get(name, item_type)
    item: dict[str, object] = {"itemType": item_type}
    for tag, field in HIGHWIRE.items():
        value = _first(meta, tag)
        if value:
            item[field] = _trim(value)
    item["creators"] = creators(meta, "author") + creators(meta, "editor")
    item["editors"] = creators(meta, "editor")
    item["authors"] = creators(meta, "author")
    first = _first(meta, "citation_firstpage")
    last = _first(meta, "citation_lastpage")
    if first:
        item["pages"] = first.strip() + (f"-{last.strip()}" if last else "")
    pdf = _first(meta, "citation_pdf_url")
    if pdf:
        item["pdf"] = pdf
    return item


def as_csl(item: dict[str, object]) -> dict[str, object]:
    """A Zotero item's fields under their CSL-JSON names."""
    out: dict[str, object] = {"type": CSL_TYPES.get(str(item["itemType"]), item["itemType"])}
    for field, name in CSL_FIELDS.items():
        if item.get(field):
            out[name] = item[field]
    if item.get("authors"):
        out["author"] = item["authors"]
    if item.get("editors"):
        out["editor"] = item["editors"]
    date = str(item.get("date", ""))
    if date:
        out["issued"] = {"date-parts": [[int(date[:4])]]}
    return out
