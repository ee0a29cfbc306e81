"""One Markdown list entry read by its shape: a bullet, lines, a table row. Pure."""

from __future__ import annotations

import re
from collections.abc import Collection

from catalog.ingest.listfields import (
    ARXIV_WORD_RE,
    AUTHORED_RE,
    BOLD_RE,
    BR_RE,
    CODE_NOTE_RE,
    DATE_RE,
    EMPH_TAG_RE,
    ITALIC_LINE_RE,
    LINK_GROUP_RE,
    LINK_LABELS,
    LINK_RE,
    LINK_WORDS,
    MARKER_RE,
    NOT_PAPER_HOSTS,
    NOTE_PREFIX_RE,
    PAREN_RE,
    TAG_RE,
    WHOLE_BOLD_RE,
    YEAR_AUTHOR_RE,
    YEAR_RE,
    Context,
    Entry,
    authors_before,
    clean_title,
    continued,
    links_of,
    looks_like_title,
    names_of,
    open_brackets,
    parse_label,
    plain_names,
    strip_annotations,
    strip_links,
    tail_label,
    trailing_fields,
    unescape,
    with_ids,
    year_of,
)
from catalog.model import kept_url


def _record(
    number: int,
    parts: list[str],
    label: tuple[str, int | None, str | None] | None,
    body: str,
    context: Context,
) -> tuple[Entry | None, str]:
    """A record of hard-broken lines: '**Title**' / '_A. Author, B. Author_' / 'Venue,
    [[Paper](url)]' / '8 Aug 2024'. Notes before the bold title are left out."""
    at = next(
        (
            i
            for i, p in enumerate(parts)
            if WHOLE_BOLD_RE.fullmatch(p)
            or (
                LINK_RE.match(p)
                and LINK_RE.match(p).group(1).casefold()  # type: ignore
                not in LINK_WORDS
            )
        ),
        None,
    )
    if at is None:
        return None, "lines joined by line breaks, but none is a bold or linked title"
    bold = WHOLE_BOLD_RE.fullmatch(parts[at])
    inner = bold.group(2).strip() if bold else parts[at]
    note = NOTE_PREFIX_RE.fullmatch(inner)
    inner = note.group(3) if note else inner
    link = LINK_RE.match(inner)
    title, url = (link.group(1), link.group(2)) if link else (inner, None)
    authors: list[str] = []
    et_al, year, notes = False, None, []
    for part in parts[at + 1 :]:
        italic = ITALIC_LINE_RE.match(part)
        date = DATE_RE.fullmatch(part.strip())
        if italic and not authors and not et_al:
            names, et_al = names_of(italic.group(2))
            authors = names or []
            if not names:
                notes.append(
                    f"author line {italic.group(2)[:60]!r} is not plainly a list of names: not used"
                )
        elif date:
            year = year or int(date.group(1))
        elif label is None:
            label = _part_label(part, context.known)
    if label is not None and label[1] is None and year:
        label = (label[0], year, label[2])  # 'arXiv, [[Paper](...)]' dated '8 Aug 2024'
    elif label is None and year:
        label = ("", year, None)
    url = (
        url
        if url and url.startswith("http")
        else paper_url([lk for p in parts[at:] for lk in links_of(p)])
    )
    entry, reason = entry_of(number, title, label, url, body, context)
    if entry is not None:
        entry.authors, entry.et_al = authors, et_al and bool(authors)
        entry.notes += notes
    return entry, reason


def _part_label(part: str, known: Collection[str]) -> tuple[str, int | None, str | None] | None:
    """The venue of a record's venue line: 'ICLR 2022, [[Paper](url)]', 'arXiv, [[Paper]]',
    'Neural Computation, [[Paper](url)]' (a short name as written)."""
    text = strip_links(part).strip(" \t,;.-–—")
    if not text or re.match(r"[^:]{1,30}:\s", text):  # 'KeyWords: ...' names another field
        return None
    label = parse_label(text) or trailing_fields(text, known)[1]
    if label:
        return label
    words = text.split()
    if len(words) <= 8 and text[0].isupper() and not re.search(r"[.!?]\s", text):
        return text, None, None
    return None


def _trim_title(title: str) -> str:
    """A plain title without the notes lists put after it: '[also in [1.2](#x)]', '(`PAI`)'.

    Walks back from the end with an index (no slicing or search per note): linear."""

    def back_over_spaces(end: int) -> int:
        while end > 0 and title[end - 1].isspace():
            end -= 1
        return end

    end = back_over_spaces(len(title))
    while end > 0:
        if title[end - 1] == ")":
            start = title.rfind("(", 0, end)
            if (
                start > 0
                and title[start - 1].isspace()
                and CODE_NOTE_RE.fullmatch(title, start, end)
            ):
                end = back_over_spaces(start)
                continue
        if title[end - 1] != "]":
            break
        depth, i = 0, end - 1
        while i >= 0:
            depth += {"]": 1, "[": -1}.get(title[i], 0)
            if depth == 0:
                break
            i -= 1
        if depth != 0 or i <= 0 or not title[i - 1].isspace():
            break
        end = back_over_spaces(i)
    return title[:end]


def list_item(number: int, body: str, context: Context) -> tuple[Entry | None, str]:
    """The entry of a top-level list item, or None and why it is not one."""
    body = unescape(body)
    tags, at = [], 0
    # '[OSDI'23] [Survey] ...', '[**CSUR'18**] ...', '**[Arxiv'25]** ...': pos, not slices
    while (tag := TAG_RE.match(body, at) or EMPH_TAG_RE.match(body, at)) is not None:
        tags.append(tag.group(1) if tag.re is TAG_RE else tag.group(2))
        at = tag.end()
    rest = body[at:]
    label = next((lb for lb in map(parse_label, tags) if lb), None)
    if BR_RE.search(rest):
        return _record(number, [p.strip() for p in BR_RE.split(rest)], label, body, context)
    url: str | None = None
    title: str | None = None
    linked = False  # the title links to a page, or a bold title has a paper link after it
    tail = ""
    authors: tuple[list[str], bool] = ([], False)
    link = LINK_RE.match(rest)
    if link and link.group(1).strip().casefold() in LINK_WORDS:
        link = None
    bold = BOLD_RE.match(rest)
    before = None if link or bold else authors_before(rest)
    if before is not None:
        # Shuai Zhang, Lina Yao. [Title](url), *CSUR*, 2018.
        authors, link = (before[0], before[1]), before[2]
    if link:
        # - [Title](url) ...   or   - [Name](url): rest of the title | VENUE'YY
        title, url, tail = link.group(1), link.group(2), rest[link.end() :]
        title, tail = continued(title, tail)
        linked = url.startswith("http")
    elif bold:
        # + **Title** [[pdf](url)] arXiv 2021   or   - **Name**: rest of the title [[link]](url)
        inner, tail = bold.group(2).strip(), rest[bold.end() :]
        inner_link = LINK_RE.fullmatch(inner)
        title, url = (inner_link.group(1), inner_link.group(2)) if inner_link else (inner, None)
        title, tail = continued(title, tail)
        url = url if url and url.startswith("http") else paper_url(links_of(tail))
        linked = bool(url) or any(u.startswith("http") for _t, u in links_of(tail))
    elif rest.startswith("[") and open_brackets(rest) > 0:
        return None, "a link that is never closed"
    else:
        # * Title ([SOSP 2023](link)) [[Paper](url)]   or   * Title (arXiv 2212.00939)
        for m in PAREN_RE.finditer(rest):
            paren = parse_label(m.group(1) or m.group(2))
            if not paren:
                continue
            head = rest[: m.start()].strip()
            links = links_of(head)
            if links and head.startswith("[") and head.endswith(")"):
                title, url = links[0]
            else:
                title = LINK_RE.sub(r"\1", head)
            url = url or paper_url(links_of(rest[m.end() :]))
            return entry_of(number, title, label or paren, url, body, context)
        if label is None:
            return _plain_item(number, rest, body, context)
        # - [OSDI'23] Title [[pdf](url)]   or   - [TIST'15] Title, *TIST*, 2015.
        cut = LINK_GROUP_RE.search(rest)
        title, tail = (rest[: cut.start()], rest[cut.start() :]) if cut else (rest, "")
        title = _trim_title(LINK_RE.sub(r"\1", title).strip())
        head, restated = trailing_fields(title, context.known)
        title = head if restated is not None and head else title
        url = paper_url(links_of(body))
    label = label or tail_label(tail, context.known)
    # '- [Title](notes.md)' under '## OSDI 2023' is that venue's paper; a bold line is not
    if label is None and not linked and not (link and context.venue and context.year):
        if url and not url.startswith("http"):
            return None, "a link within the site, not to a paper"
        return None, "no venue, year or link to a paper"
    if url and not url.startswith("http"):
        url = paper_url(links_of(tail))
    entry, reason = entry_of(number, title, label, url, body, context)
    if entry is not None:
        entry.authors, entry.et_al = authors
    return entry, reason


def _plain_item(number: int, rest: str, body: str, context: Context) -> tuple[Entry | None, str]:
    """A plain item: 'Title. VENUE YEAR' with annotations after it, or 'Title (YEAR,
    Author)'. A near miss (no space before the venue, a three-digit year) is reported,
    never guessed."""
    url = paper_url(links_of(rest))
    text = strip_annotations(rest)
    m = YEAR_AUTHOR_RE.search(text)
    if m:
        title = text[: m.start()]
        return entry_of(
            number,
            title,
            (None, int(m.group(1)), None),
            url,
            body,
            context,
        )
    tokens = text.split()
    for width in (1, 2):  # 'KDD 2018', 'RecSys Workshop 2019'
        if len(tokens) < width + 2 or not tokens[-width - 2].endswith("."):
            continue
        venue, year = " ".join(tokens[-width - 1 : -1]), tokens[-1]
        if not re.match(r"^[A-Za-z][\w&@\-']*$", tokens[-width - 1]) or not any(
            c.isupper() for c in venue
        ):
            continue
        if YEAR_RE.match(year):
            return entry_of(
                number, " ".join(tokens[: -width - 1]), (venue, int(year), None), url, body, context
            )
        if year.isdigit():
            return None, (
                f"looks like 'Title. VENUE YEAR' but '{year}' is not a year: fix "
                "the list (never guessed)"
            )
    if (
        len(tokens) >= 2
        and YEAR_RE.match(tokens[-1])
        and re.search(r"[a-z]\.[A-Z][\w&\-]*$", tokens[-2])
    ):
        return None, (
            f"looks like 'Title. VENUE YEAR' but '{tokens[-2]}' has no space "
            "before the venue: fix the list (never guessed)"
        )
    return None, "no venue, year or link to a paper"


def _not_paper_site(url: str | None) -> str | None:
    """What a link points to when that is plainly not a paper (a repository, a video...)."""
    if not url:
        return None
    host_path = re.sub(r"^https?://(?:www\.|m\.)?", "", url.lower())
    for site, what in NOT_PAPER_HOSTS:
        if host_path.startswith(site + "/") or host_path == site:
            if site.endswith("github.com") and re.search(r"\.pdf$|/releases/", host_path):
                return None  # a PDF kept in a repository is a paper's file
            return what
    return None


def only_links(line: str) -> bool:
    """True for a line of nothing but links ('[[pdf]](url) [[code]](url)')."""
    return bool(links_of(line)) and not strip_links(line).strip(" \t-–—|,;")


def authored_line(number: int, line: str, context: Context) -> Entry | None:
    """'Title (2009), Y. Koren, R. Bell, C. Volinsky, et al.': a paper with its authors."""
    m = AUTHORED_RE.match(line.strip())
    if not m:
        return None
    names, et_al = m.group(3).strip().rstrip("."), False
    tail = re.search(r",?\s*et\.?\s*al$", names)
    if tail:
        names, et_al = names[: tail.start()], True
    authors = plain_names(names)
    title = clean_title(m.group(1))
    if not authors or not looks_like_title(title):
        return None
    return Entry(number, title, context.venue, int(m.group(2)), authors=authors, et_al=et_al)


def paper_url(links: list[tuple[str, str]]) -> str | None:
    for text, url in links:
        if text.strip().casefold() in LINK_WORDS and url.startswith("http"):
            return url
    return None


def entry_of(
    number: int,
    title: str,
    label: tuple[str | None, int | None, str | None] | None,
    url: str | None,
    text: str,
    context: Context,
) -> tuple[Entry | None, str]:
    """An entry with its venue and year from the label, else from the headings above."""
    title = clean_title(title)
    if title.casefold().strip("[]") in LINK_LABELS:
        return None, f"'{title}' is a link's label, not a paper's title"
    if not looks_like_title(title, labelled=label is not None):
        return None, f"'{title}' does not look like a paper's title"
    site = _not_paper_site(url)
    if site is not None and label is None:
        return None, f"{site}, not a paper"
    venue, year, arxiv_id = label or (context.venue, None, None)
    venue = venue or context.venue  # '[Title](url), 2020.' under '## KDD'
    notes = []
    if url and not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", url):
        url = None  # a relative link is simply not the paper's: dropped without a word
    url, bad = kept_url(url, "link")  # 'javascript:', 'data:': never a link
    notes += [str(bad)] if bad else []
    entry = Entry(number, title, venue, year or context.year, url, arxiv_id, notes=notes)
    return with_ids(entry, text), ""


def blog_line(number: int, line: str, year: int | None) -> tuple[list[Entry], int | None]:
    """Entries of the blog's 'YEAR Title VENUE'YY Title arxiv YEAR ...' lines."""
    tokens = line.split()
    if not tokens:
        return [], year
    starts_with_year = bool(YEAR_RE.match(tokens[0]))
    ends_with_marker = bool(MARKER_RE.match(tokens[-1]) or ARXIV_WORD_RE.match(tokens[-1]))
    if not starts_with_year and not (year and ends_with_marker):
        return [], year
    entries: list[Entry] = []
    words: list[str] = []
    just_closed = False
    for token in tokens:
        marker = MARKER_RE.match(token)
        is_arxiv = bool(ARXIV_WORD_RE.match(token))
        if not words and YEAR_RE.match(token):
            year, just_closed = int(token), False
            continue
        if marker or is_arxiv:
            venue = marker.group(1) if marker else "arxiv"
            venue_year = year_of(marker.group(2)) if marker else year
            if words:
                title = clean_title(" ".join(words))
                if looks_like_title(title):
                    entries.append(Entry(number, title, venue, venue_year))
                words, just_closed = [], True
            elif just_closed and entries and marker:
                # 'Title arxiv ISCA'22': the preprint was published later; keep the venue
                entries[-1].venue, entries[-1].year = venue, venue_year
            continue
        words.append(token)
        just_closed = False
    return entries, year
