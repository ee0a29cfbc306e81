"""Reading .bib files (bibtexparser v2) into catalog papers, with every problem and its line.

Field values are taken raw from bibtexparser's splitter (no middleware) and
evaluated here (catalog.bib.fields), so that @string macros, '#' concatenation and
malformed values (a missing comma) are each understood or reported, never silently
mangled."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from catalog.bib.entryvenue import VenueReader
from catalog.bib.fields import (
    CORR_RE,
    DATE_RE,
    DBLP_NUMBER_RE,
    ENTRY_START_RE,
    ET_AL_RE,
    IN_CONTAINER,
    INHERITED,
    KEPT_TEXT,
    MAX_BRACE_DEPTH,
    MONTH_RE,
    MONTHS,
    NEGATIVE_RE,
    TILDE_ACCENT,
    TILDE_HOLD,
    VERBATIM,
    YEAR_RE,
    YEAR_SUFFIX_RE,
    arxiv_id,
    brace_depth,
    evaluate,
    is_volume,
    one_year,
    page_fields,
    person,
    primary_class,
    spell_logos,
    split_names,
    suffix_first,
    verbatim_value,
)
from catalog.bib.latex import to_text, unknown_macros
from catalog.bib.names import (
    BibRecord,
    ends_with_added_period,
)
from catalog.bib.venuematch import (
    RegistryIndex,
    norm_venue,
)
from catalog.data.registry import Venue
from catalog.errors import Problem
from catalog.ingest.citekeys import suggest_key
from catalog.model import (
    KEY_RE,
    MULTILINE_FIELDS,
    OTHERS,
    PAGES_RE,
    Paper,
    arxiv_doi,
    kept_doi,
    kept_url,
    strip_controls,
)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence bibtexparser's log lines: we report every problem ourselves, with its line."""
    names = [
        n
        for n in logging.Logger.manager.loggerDict
        if n == "bibtexparser" or n.startswith("bibtexparser.")
    ]
    loggers = [logging.getLogger(n) for n in names]
    was = [logger.disabled for logger in loggers]
    for logger in loggers:
        logger.disabled = True  # per logger: a disabled parent does not silence its children
    try:
        yield
    finally:
        for logger, state in zip(loggers, was, strict=True):
            logger.disabled = state


def read_bib(text: str, filename: str, venues: dict[str, Venue]) -> list[BibRecord]:
    """Every entry of a .bib text as a BibRecord; see catalog.bib.bibtex.read_bib."""
    import bibtexparser
    from bibtexparser import model

    with _quiet():
        library = bibtexparser.parse_string(text, parse_stack=[])
    registry = RegistryIndex(venues)
    macros: dict[str, str] = {k: v.capitalize() for k, v in MONTHS.items()}
    reader = _Reader(text, filename, registry, macros)
    records: list[BibRecord] = []
    for block in library.blocks:
        if isinstance(block, model.String):
            value, error = evaluate(str(block.value), macros)
            if error is None:
                macros[block.key.lower()] = value
            else:
                records.append(reader.failed(block, f"@string {block.key}: {error}"))
        elif isinstance(block, model.DuplicateBlockKeyBlock):
            first = next((r for r in records if r.key == block.key), None)
            at = f" (first at line {first.line})" if first else ""
            records.append(
                reader.failed(
                    block, f"duplicate key '{block.key}'{at}", reader.repeat_hint(block, first)
                )
            )
        elif isinstance(block, model.DuplicateFieldKeyBlock):
            names = ", ".join(sorted(block.duplicate_keys))
            records.append(reader.failed(block, f"field {names} given twice", "keep one of them"))
        elif isinstance(block, model.ParsingFailedBlock):
            records.append(reader.failed(block, _abort_reason(block, text)))
        elif isinstance(block, model.Entry):
            records.append(reader.entry(block))
        elif isinstance(block, model.ImplicitComment):
            records.extend(reader.stray(block))
    reader.finish()
    reader.venues.propose()
    _refuse_what_import_refuses(records, filename, venues)
    return records


def _refuse_what_import_refuses(
    records: list[BibRecord], filename: str, venues: dict[str, Venue]
) -> None:
    """The catalog's per-paper rules (check_papers, which import applies to every new
    paper) on each read paper: one code path, so bib-check never calls importable what
    import then refuses."""
    from catalog.check.rules import check_papers

    for record in records:
        if record.paper is None:
            continue
        known = dict(venues)
        if record.venue is not None:
            known.setdefault(record.paper.venue, record.venue)
        found = check_papers([record.paper], filename, known, {})
        if found:
            record.problems += [record_problem(record, filename, p.message, p.hint) for p in found]
            record.paper = None


def record_problem(record: BibRecord, filename: str, message: str, hint: str) -> Problem:
    """A blocking problem at an entry's line."""
    return Problem(filename, record.line, record.key, message, hint, True)


def _abort_reason(block: object, text: str) -> str:
    error = getattr(block, "error", None)
    reason = str(getattr(error, "abort_reason", "") or error or "cannot be parsed").strip()
    end = getattr(error, "end_index", None)
    if end is not None:
        reason += f" (gave up at line {text.count(chr(10), 0, end) + 1})"
    return "malformed entry: " + reason.rstrip(".")


class _Reader:
    """Turns bibtexparser blocks into BibRecords for one file."""

    def __init__(self, text: str, filename: str, registry: RegistryIndex, macros: dict[str, str]):
        self.text = text
        self.filename = filename
        self.macros = macros
        self.keys = {m.group(2) for m in ENTRY_START_RE.finditer(text)}  # keys in use
        self.venues = VenueReader(registry, self.problem)
        # Entries read, with their raw values, whose papers are made once the whole file is
        # read: a crossref'd entry may come after the entries that need its fields.
        self.pending: list[tuple[BibRecord, dict[str, str]]] = []

    def problem(
        self, line: int, key: str, message: str, hint: str = "", blocking: bool = True
    ) -> Problem:
        return Problem(self.filename, line, key, message, hint, blocking)

    def failed(
        self,
        block: object,
        message: str,
        hint: str = "check the braces, quotes and commas of this entry",
    ) -> BibRecord:
        raw = getattr(block, "raw", "") or ""
        line = (getattr(block, "start_line", 0) or 0) + 1
        m = ENTRY_START_RE.search(raw)
        key = getattr(block, "key", None) or (m.group(2) if m else "")
        entry_type = m.group(1).lower() if m else ""
        return BibRecord(
            key, line, entry_type, {}, None, None, False, [self.problem(line, key, message, hint)]
        )

    def stray(self, block: object) -> list[BibRecord]:
        """Text between entries that starts like an entry: BibTeX would skip it silently."""
        raw = getattr(block, "raw", "") or ""
        start = (getattr(block, "start_line", 0) or 0) + 1
        records = []
        for m in ENTRY_START_RE.finditer(raw):
            if m.group(1).lower() in ("comment", "string", "preamble"):
                continue
            line = start + raw.count("\n", 0, raw.index("@", m.start()))
            records.append(
                BibRecord(
                    m.group(2),
                    line,
                    m.group(1).lower(),
                    {},
                    None,
                    None,
                    False,
                    [
                        self.problem(
                            line,
                            m.group(2),
                            "text that looks like an entry could not be read",
                            "write it as @type{key, field = {value}}",
                        )
                    ],
                )
            )
        return records

    def entry(self, block: object) -> BibRecord:
        key = str(getattr(block, "key", ""))
        etype = str(getattr(block, "entry_type", "")).lower()
        line = (getattr(block, "start_line", 0) or 0) + 1
        record = BibRecord(key, line, etype, {})
        if not key:
            record.problems.append(
                self.problem(line, "", "entry has no key", "write @type{key, ...}")
            )
        raw_fields: dict[str, str] = {}
        ok = bool(key)
        for f in getattr(block, "fields", []):
            name = str(f.key).lower()
            value, error = evaluate(str(f.value), self.macros)
            if error:
                record.problems.append(
                    self.problem((f.start_line or 0) + 1, key, f"field '{f.key}': {error}")
                )
                ok = False
                continue
            depth = brace_depth(value)
            if depth > MAX_BRACE_DEPTH:
                record.problems.append(
                    self.problem(
                        (f.start_line or 0) + 1,
                        key,
                        f"field '{f.key}': braces nested {depth} deep (at most "
                        f"{MAX_BRACE_DEPTH} are read)",
                        "remove the extra braces",
                    )
                )
                ok = False
                continue
            # ESC, NUL, bidi overrides: never into the catalog, a note or a terminal.
            value = strip_controls(value, multiline=True)
            raw_fields[name] = value
            verbatim = name in VERBATIM or (name == "howpublished" and "\\url" in value)
            if not verbatim and name in KEPT_TEXT:
                record.problems += [
                    self.problem(
                        (f.start_line or 0) + 1,
                        key,
                        f"field '{f.key}': unknown LaTeX command "
                        f"\\{macro} dropped, the text of its arguments kept",
                        "check that the field reads right",
                        blocking=False,
                    )
                    for macro in unknown_macros(spell_logos(value))
                ]
            text = verbatim_value(value) if verbatim else to_text(spell_logos(value))
            record.fields[name] = strip_controls(text, multiline=name in MULTILINE_FIELDS)
        if ok:
            self.pending.append((record, raw_fields))
        return record

    def finish(self) -> None:
        """Make the papers of the entries read, crossref'd fields filled in first."""
        self.inherit()
        for record, raw in self.pending:
            record.paper = self.paper(record, raw)

    def inherit(self) -> None:
        """Fields an entry lacks, taken from the entry its crossref names, as BibTeX does.

        Only fields that describe the container (year, journal, booktitle, publisher, volume,
        ...) are taken, never its DOI or URL, which are the container's own. A paper in
        proceedings or a chapter names its container by the parent's title when it gives
        no booktitle (as BibLaTeX reads crossref)."""
        by_key: dict[str, tuple[BibRecord, dict[str, str]]] = {}
        for record, raw in self.pending:
            by_key.setdefault(record.key.casefold(), (record, raw))
        for record, raw in self.pending:
            target = verbatim_value(raw.get("crossref", ""))
            if not target:
                continue
            parent = by_key.get(target.casefold())
            if parent is None or parent[0] is record:
                record.problems.append(
                    self.problem(
                        record.line,
                        record.key,
                        f"crossref '{target}' is not in this file: "
                        "the fields it would give (year, venue, ...) are missing",
                        "add that entry to the file, or give the fields here",
                        blocking=False,
                    )
                )
                continue
            source, source_raw = parent
            source.crossrefd = True
            for name in INHERITED:
                if name not in record.fields and name in source.fields:
                    record.fields[name] = source.fields[name]
                    raw[name] = source_raw[name]
            if (
                record.entry_type in IN_CONTAINER
                and "booktitle" not in record.fields
                and "title" in source.fields
            ):
                record.fields["booktitle"] = source.fields["title"]
                raw["booktitle"] = source_raw["title"]

    def repeat_hint(self, block: object, first: BibRecord | None) -> str:
        """What to do about a key used twice: delete a repeat of the same paper, else rename."""
        entry = getattr(block, "ignore_error_block", None)
        raw = next(
            (str(f.value) for f in getattr(entry, "fields", []) if str(f.key).lower() == "title"),
            "",
        )
        title, error = evaluate(raw, self.macros)
        if (
            first is not None
            and not error
            and title
            and norm_venue(to_text(title)) == norm_venue(first.fields.get("title", ""))
        ):
            return f"it repeats the entry at line {first.line}: delete one of them"
        return "give each entry its own key"

    def paper(self, record: BibRecord, raw: dict[str, str]) -> Paper | None:
        fields, key, line = record.fields, record.key, record.line
        if is_volume(record):
            record.problems.append(
                self.problem(
                    line,
                    key,
                    "a proceedings volume, not a paper: skipped",
                    "its papers are read from their own entries",
                    blocking=False,
                )
            )
            return None
        year = fields.get("year", "")
        if not year and (date := DATE_RE.match(fields.get("date", "").strip())):
            year = date.group(1)
        missing = [n for n in ("title", "author") if not fields.get(n)] + ([] if year else ["year"])
        authors, et_al = self.authors(record, raw.get("author", ""))
        if fields.get("author") and not authors and not et_al:
            missing.append("author")
        if missing and self.venues.not_a_paper(record):
            return None  # 'not a paper' says more than 'missing year' of a web page
        for name in missing:
            hint = "only editors are given" if name == "author" and fields.get("editor") else ""
            article = "an" if name[0] in "aeiou" else "a"
            record.problems.append(
                self.problem(line, key, f"missing {name}", hint or f"add {article} {name} field")
            )
        if (suffixed := YEAR_SUFFIX_RE.match(year)) is not None:
            record.problems.append(
                self.problem(
                    line,
                    key,
                    f"year '{year}': read as {suffixed.group(1)} (the letter tells "
                    "apart one author's papers of a year)",
                    blocking=False,
                )
            )
            year = suffixed.group(1)
        if year and not YEAR_RE.match(year) and (found := one_year(raw.get("year", ""))):
            record.problems.append(
                self.problem(
                    line,
                    key,
                    f"year '{year}': read as {found}, the one year it holds",
                    "write the year alone, e.g. year = {2023}",
                    blocking=False,
                )
            )
            year = found
        if year and not YEAR_RE.match(year):
            record.problems.append(
                self.problem(
                    line,
                    key,
                    f"year '{year}' is not a year",
                    "write a four-digit year, e.g. year = {2023}",
                )
            )
            return None
        if missing or any(p.blocking for p in record.problems):
            return None
        venue = self.venues.venue(record)
        if venue is None:
            return None
        arxiv = arxiv_id(fields)
        doi, bad_doi = kept_doi(fields.get("doi"))
        if arxiv_doi(doi):
            doi = None  # arXiv's DOI: the catalog keeps the arXiv id (arxiv_id read it)
        url, bad_url = kept_url(fields.get("url"))
        record.problems += [
            self.problem(line, key, d.message, d.hint, blocking=False)
            for d in (bad_doi, bad_url)
            if d is not None
        ]
        pages, articleno, numpages = page_fields(fields)
        if pages and not PAGES_RE.match(pages):
            record.problems.append(
                self.problem(
                    line,
                    key,
                    f"pages '{pages}' are not a page range: left out",
                    "write a range like 281--294",
                    blocking=False,
                )
            )
            pages = None
        number = fields.get("number") or None
        if number and NEGATIVE_RE.match(number):
            record.problems.append(
                self.problem(  # Mendeley writes -1 for 'none'
                    line,
                    key,
                    f"number '{number}' is not an issue number: left out",
                    "give the issue number, or no number field",
                    blocking=False,
                )
            )
            number = None
        if number and MONTH_RE.match(number):
            # bibtex would print it as the issue and warn of a number without a volume.
            record.problems.append(
                self.problem(
                    line,
                    key,
                    f"number '{number}' is a month, not an issue number: left out",
                    f"write month = {{{number}}} if that is when it appeared",
                    blocking=False,
                )
            )
            number = None
        volume = fields.get("volume") or None
        if arxiv and volume and CORR_RE.match(volume):
            volume = None  # DBLP's CoRR volume 'abs/2301.01234': the arXiv id again
        book = self.book(record, raw) if venue.kind == "collection" else {}
        catalog_key = key
        if not KEY_RE.match(key):  # e.g. '280902' or a DOI: the catalog's own kind of key
            catalog_key = suggest_key(authors, int(year), fields["title"], self.keys)
            self.keys.add(catalog_key)
        return Paper(
            key=catalog_key,
            title=self.title(record, raw),
            authors=authors,
            year=int(year),
            venue=venue.short,
            et_al=et_al,
            doi=doi,
            arxiv=arxiv,
            arxiv_class=primary_class(fields.get("primaryclass", "")) if arxiv else None,
            articleno=articleno,
            numpages=numpages,
            url=url,
            pages=pages,
            volume=volume,
            number=number,
            abstract=fields.get("abstract") or None,
            line=line,
            **book,
        )

    def book(self, record: BibRecord, raw: dict[str, str]) -> dict[str, Any]:
        """A chapter's book fields: title, editors (read as authors are), publisher, chapter."""
        editors, others = self.authors(record, raw.get("editor", ""), "editor")
        if others:  # BibTeX's own word for more editors, kept as the list's last name
            editors.append(OTHERS)
        fields = record.fields
        return {
            "booktitle": fields.get("booktitle") or None,
            "editors": editors,
            "publisher": fields.get("publisher") or None,
            "chapter": fields.get("chapter") or None,
        }

    def title(self, record: BibRecord, raw: dict[str, str]) -> str:
        """The title, without the final period some exports add ('... a survey.'), unless
        it is braced ('{.}': a period of the title's own, as papers writes it)."""
        title = record.fields["title"]
        subtitle = " ".join(record.fields.get("subtitle", "").split())
        if subtitle:  # biblatex's 'title = {Roofline}, subtitle = {An insightful ...}'
            head = title.rstrip()
            title = f"{head}{'' if head.endswith((':', '?', '!', '.')) else ':'} {subtitle}"
            raw = {**raw, "title": raw.get("subtitle", "")}
        if ends_with_added_period(title) and not raw.get("title", "").rstrip().endswith("{.}"):
            record.problems.append(
                self.problem(
                    record.line, record.key, "title: its final period dropped", blocking=False
                )
            )
            return title[:-1]
        return title

    def authors(self, record: BibRecord, raw: str, role: str = "author") -> tuple[list[str], bool]:
        from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts

        names = split_names(raw.replace(TILDE_ACCENT, TILDE_HOLD))
        # 'and others', 'and {Others}', 'and et al.', 'and {et al.}': more authors, unnamed
        et_al = bool(names) and ET_AL_RE.match(names[-1]) is not None
        if et_al:
            names = names[:-1]
        authors = []
        for i, name in enumerate(names, 1):
            # DBLP's homonym number ('Wei Wang 0001', 'Wang 0001, Wei') ends the family
            # name: looked for before the comma only, never in a given name.
            if name.endswith(","):  # 'Li, Jinyu, and Gu, Guangye': a stray comma, not a part
                name = name.rstrip(", ")
                record.problems.append(
                    self.problem(
                        record.line,
                        record.key,
                        f"{role} {i}: the comma after '{to_text(name)}' dropped",
                        blocking=False,
                    )
                )
            family, comma, given = name.partition(",")
            name = suffix_first(DBLP_NUMBER_RE.sub("", family) + comma + given)
            try:
                parts = parse_single_name_into_parts(name)
            except InvalidNameError as err:
                shown = to_text(name.replace(TILDE_HOLD, TILDE_ACCENT))
                record.problems.append(
                    self.problem(
                        record.line,
                        record.key,
                        f"{role} {i} '{shown}': {err.args[0]}",
                        "write names as 'Last, First' or 'First Last', joined by 'and'",
                    )
                )
                continue
            von_last, first, jr = (
                to_text(" ".join(words).replace(TILDE_HOLD, TILDE_ACCENT))
                for words in (parts.von + parts.last, parts.first, parts.jr)
            )
            plain = person(first, von_last, jr)
            if plain and not any(ch.isalpha() for ch in plain):
                record.problems.append(
                    self.problem(
                        record.line,
                        record.key,
                        f"{role} {i} '{plain}' names no one: left out",
                        blocking=False,
                    )
                )
            elif plain:
                authors.append(plain)
        return authors, et_al
