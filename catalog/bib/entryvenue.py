"""An entry's venue: the registry's, or one proposed from the entry's own fields
(reported for review); and the entries that are no paper (web pages, software, the
volumes other entries crossref)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from catalog.bib.fields import (
    ARXIV_VENUE_RE,
    CHAPTERS,
    KINDS,
    MISC_CONTAINERS,
    PUBLICATION_SERIES,
    URL_INSIDE_RE,
    URL_RE,
    VENUE_FIELDS,
    WEB_TYPES,
    WEB_WORDS_RE,
    arxiv_id,
)
from catalog.bib.names import BibRecord
from catalog.bib.venuematch import (
    RegistryIndex,
    clean_venue,
    container_of,
    is_institution,
    kind_of,
    names_venue,
    no_venue,
    norm_venue,
    same_words,
    without_report_words,
)
from catalog.bib.venuenames import (
    capitalise_organisers,
    core_key,
    join_acronyms,
    key_acronym,
    named_venue,
    short_name,
)
from catalog.data.registry import CHAPTER_VENUE, Venue, same_venue_name, venue_key
from catalog.errors import Problem


class VenueReader:
    """Finds the venue of each entry of one file and proposes the venues the registry
    lacks, one per name however the file's entries spell it."""

    def __init__(self, registry: RegistryIndex, problem: Callable[..., Problem]):
        self.registry = registry
        self.problem = problem
        self.proposals: list[tuple[BibRecord, Venue, str]] = []  # entries proposing a venue
        self.initials: set[str] = set()  # short names made from a name's initials
        self.guessed: set[str] = set()  # short names whose capitals a citation key left open

    def not_a_paper(self, record: BibRecord) -> bool:
        """True (with the reason noted) for a web page or software, and for an entry other
        entries crossref as their journal issue, book or proceedings: what they lack is no
        fault of theirs."""
        fields = record.fields
        if arxiv_id(fields) is None and self.web_page(record, container_of(record)):
            self.skip_web_page(record)
            return True
        if record.crossrefd and not (fields.get("author") and fields.get("title")):
            record.problems.append(
                self.problem(
                    record.line,
                    record.key,
                    "a journal issue, book or proceedings other entries "
                    "crossref, not a paper: skipped",
                    "its papers are read from their own entries",
                    blocking=False,
                )
            )
            return True
        return False

    def venue(self, record: BibRecord) -> Venue | None:
        """The registry venue an entry names, or a proposed one (reported) built from its fields."""
        fields, etype = record.fields, record.entry_type
        kind, _ = KINDS.get(etype, ("preprint", MISC_CONTAINERS))
        container = container_of(record)
        if etype in KINDS and etype not in CHAPTERS:
            container, kind = self.misfiled(record, container, kind)
            if kind == "book" and etype != "book" and is_institution(container):
                kind = "report"  # an @article with only 'publisher = {Cornell University}'
        arxiv_named = bool(container) and bool(ARXIV_VENUE_RE.match(container))
        # A misc (or unpublished, online) entry with an arXiv id and no journal or
        # booktitle is a preprint, whatever howpublished says.
        preprint = (
            etype not in KINDS
            and arxiv_id(fields) is not None
            and not fields.get("booktitle")
            and not fields.get("journal")
        )
        if arxiv_named or preprint:
            arxiv, new = self.registry.arxiv()
            return self.settle(record, arxiv, new, "arXiv")
        acronym, venue = self.registry.by_series(fields.get("series", ""))
        if venue is not None:
            return self.settle(record, venue, False, fields["series"])
        if self.web_page(record, container):
            self.skip_web_page(record)
            return None
        if etype in CHAPTERS:
            return self.chapter(record, container)
        if not container:
            record.problems.append(
                self.problem(
                    record.line,
                    record.key,
                    "cannot tell the venue",
                    "give a booktitle, journal, publisher or an arXiv eprint",
                )
            )
            return None
        acronyms, venue = self.registry.by_container(container)
        if venue is None and kind == "conference":
            venue = self.registry.field_named(container)
        if venue is not None:
            return self.settle(record, venue, False, container)
        if kind == "book" and same_words(container, fields.get("title", "")):
            record.problems.append(
                self.problem(
                    record.line,
                    record.key,
                    f"publisher '{container}' is the book's title",
                    "give the book's real publisher",
                )
            )
            return None
        if (why := no_venue(container, kind_of(container, kind))) is not None:
            self.skip_not_paper(record, why)
            return None
        # A publication series (PMLR, LNCS) names no venue: the booktitle's acronym does.
        if acronym and acronym.upper() in PUBLICATION_SERIES:
            acronym = None
        return self.new_venue(record, container, kind, acronym or (acronyms[0] if acronyms else ""))

    def new_venue(self, record: BibRecord, container: str, kind: str, short: str) -> Venue | None:
        """The venue an entry names that the registry lacks, proposed from its fields: its
        name without proceedings wording, the kind the name says, and the short name the
        entry gives (an acronym in its venue or series, a workshop's host conference, or
        spelled by its key or DOI); else one is made from the name when all are proposed."""
        # A journal's own name may start 'Proceedings of the' (PNAS, PACMPL) or 'The'.
        name = capitalise_organisers(
            clean_venue(container, journal=kind_of(container, kind) == "journal")
        )
        if not re.search(r"[a-z]", name):  # nothing but an acronym: "Proceedings of the ADKDD'17"
            name = short or name or container
        kind = kind_of(name, kind)
        if kind == "report":  # 'Technical Report, University of X': the institution
            name = without_report_words(name)
            if not name:
                record.problems.append(
                    self.problem(
                        record.line,
                        record.key,
                        f"'{container}' names no institution",
                        "give the institution that published the report",
                    )
                )
                return None
        if not short and kind in ("conference", "workshop", "journal"):
            host = self.registry.host_of(name) if kind == "workshop" else None
            doi = record.fields.get("doi", "")[:200]
            spelled = key_acronym(record.key[:200], name, doi) if host is None else None
            if host is not None:
                short = f"{host.short} Workshop"
            elif spelled is not None:
                known = self.registry.acronyms.get(spelled[0].lower())
                if known is not None:  # the key and the name both say it is this venue
                    return self.settle(record, self.registry.venues[known], False, container)
                short = spelled[0]
                if spelled[1]:
                    self.guessed.add(short)
        publisher = record.fields.get("publisher") if kind not in ("book",) else None
        if publisher and norm_venue(publisher) == norm_venue(container):
            publisher = None  # the venue itself ('publisher = {Cornell University}')
        proposed = Venue(short or name, kind, name, publisher or None)
        return self.settle(record, proposed, True, container)

    def misfiled(self, record: BibRecord, container: str, kind: str) -> tuple[str, str]:
        """The venue of an entry of the wrong type, from the field that names it (noted):
        an @inproceedings with a journal and no booktitle, an @article with only a
        publisher (a book), a @book with a journal and pages (an article)."""
        fields, etype = record.fields, record.entry_type
        if container and not (etype == "book" and fields.get("journal") and fields.get("pages")):
            return container, kind
        for name, kind_named in VENUE_FIELDS:
            value = fields.get(name, "")
            if value and name not in KINDS[etype][1] and not URL_INSIDE_RE.search(value):
                wanted = {"journal": "@article", "conference": "@inproceedings", "book": "@book"}[
                    kind_named
                ]
                why = f"gives a {name} and pages" if container else f"gives no {KINDS[etype][1][0]}"
                record.problems.append(
                    self.problem(
                        record.line,
                        record.key,
                        f"@{etype} {why}: its venue read from {name} '{value[:60]}'",
                        f"write it as {wanted} if that is what it is",
                        blocking=False,
                    )
                )
                return value, kind_named
        return container, kind

    def skip_not_paper(self, record: BibRecord, why: str) -> None:
        """Refuse an entry whose venue field names no venue (an organisation, a
        newspaper, a blog): a paper is never filed under a venue made up from it."""
        record.problems.append(
            self.problem(
                record.line,
                record.key,
                f"not a paper: {why}",
                "cite it from a .bib of your own; if it is a report, write it as "
                "@techreport with its institution",
            )
        )

    def skip_web_page(self, record: BibRecord) -> None:
        """Note that a web page or software entry is skipped, not refused."""
        record.problems.append(
            self.problem(
                record.line,
                record.key,
                "not a paper (web page / software): skipped",
                "a link where a paper names its venue; cite it from a .bib of your own",
                blocking=False,
            )
        )

    def web_page(self, record: BibRecord, container: str) -> bool:
        """True for a web page, software or tutorial: a link where a paper names its venue."""
        fields, etype = record.fields, record.entry_type
        if etype in WEB_TYPES:
            return True
        if etype != "misc" or fields.get("doi") or fields.get("booktitle"):
            return False
        linked = any(
            URL_RE.match(fields.get(name, "")) or "://" in fields.get(name, "")
            for name in ("url", "howpublished", "note")
        )
        if not container:
            return linked
        return bool(WEB_WORDS_RE.search(container)) and not names_venue(container)

    def chapter(self, record: BibRecord, book: str) -> Venue | None:
        """A chapter's venue: the registry venue its book is (a conference's proceedings,
        as Springer files conference papers, or a collection such as a handbook), else
        the generic venue of chapters; the book's own fields go on the paper."""
        if not book:
            record.problems.append(
                self.problem(
                    record.line,
                    record.key,
                    "a book chapter without booktitle",
                    "add booktitle = {...}, the title of the book it is in",
                )
            )
            return None
        _, venue = self.registry.by_container(book)
        if venue is not None and venue.kind in ("conference", "workshop", "journal", "collection"):
            return self.settle(record, venue, False, book)
        venue, new = self.registry.chapters()
        return self.settle(record, venue, new, book)

    def settle(self, record: BibRecord, venue: Venue, new: bool, source: str) -> Venue:
        record.venue, record.new_venue = venue, new
        if new:
            self.proposals.append((record, venue, source))
        return venue

    def shortened(self, venue: Venue) -> Venue:
        """A proposed venue under a short name as the registry writes them, when its
        entries give no acronym (noted when made from the name's initials)."""
        if venue.short != venue.name or venue.kind in ("book", "collection", "preprint"):
            return venue
        short, made = short_name(venue.name, self.registry.venues)
        if made:
            self.initials.add(short)
        return replace(venue, short=short)

    def propose(self) -> None:
        """One venue per proposed short name, then a problem for each entry that proposes one.

        Entries of one series name it differently by year ("Proceedings of the ADKDD'17",
        "Proceedings of the Eighth International Workshop on Data Mining for Online
        Advertising"): every entry gets the most descriptive of the names, so no paper is
        filed under another year's name.
        """
        groups: list[list[Venue]] = []
        by_name: dict[str, int] = {}  # a short name or normalised name -> its group
        dotted: list[int] = []  # groups named by an abbreviation
        for _, venue, _ in self.proposals:
            names = {venue.short, venue_key(venue.name), core_key(venue.name)} - {""}
            group = next((by_name[n] for n in names if n in by_name), None)
            if group is None:  # 'ACM Trans. Inf. Syst.' and its full name, in either order
                candidates = range(len(groups)) if "." in venue.name else dotted
                group = next(
                    (i for i in candidates if same_venue_name(venue.name, groups[i][0].name)), None
                )
            if group is None:
                group = len(groups)
                groups.append([])
                if "." in venue.name:
                    dotted.append(group)
            groups[group].append(venue)
            by_name.update(dict.fromkeys(names, group))
        groups = join_acronyms(groups)
        chosen = {
            id(v): self.shortened(named_venue(members)) for members in groups for v in members
        }
        for record, proposed, source in self.proposals:
            venue = record.venue = chosen[id(proposed)]
            if record.paper is not None:
                record.paper.venue = venue.short
            named = f" ({venue.name})" if venue.name != venue.short else ""
            made = (
                " (its short name made from the initials: check it)"
                if venue.short in self.initials
                else " (its short name spelled from the citation key: check its capitals)"
                if venue.short in self.guessed
                else ""
            )
            hint = (
                f"add {venue.kind} '{venue.short}'{named} to data/venues.yaml"
                f"{made}, or this name "
                "to the aliases of the venue it is"
            )
            if venue.short == CHAPTER_VENUE and venue.kind == "collection":
                hint = (
                    f"add collection '{venue.short}'{named} to data/venues.yaml for chapters "
                    "of any book, or give this book an entry of kind collection"
                )
            record.problems.append(
                self.problem(
                    record.line,
                    record.key,
                    f"unknown venue '{venue.short}' (from '{source}')",
                    hint,
                    blocking=False,
                )
            )
        self.proposals.clear()
