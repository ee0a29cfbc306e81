"""LaTeX text in BibTeX fields: escaping, title-case protection, Unicode <-> LaTeX.

Writing is plain string work (fast, no library call per field) except the
optional Unicode -> LaTeX accent conversion, which is pylatexenc's. Reading
LaTeX back to Unicode is pylatexenc's too.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Collection
from typing import Any

from catalog.model import CONTROL_CHARS, strip_controls

# Characters LaTeX or BibTeX treat specially, with the text that prints them.
# Braces become \textbrace... rather than \{ because BibTeX counts every brace,
# escaped or not, and an unbalanced one ruins the whole entry.
_ESCAPES: dict[str, str] = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # In LaTeX's default OT1 font encoding these three print as other glyphs.
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # A bare straight quote pair reads back as typographic quotes (see to_text); a quote
    # in braces is the character itself.
    '"': '{"}',
}
# Control characters (tabs, newlines) cannot live in a one-line field: a space.
_ESCAPES.update({chr(c): " " for c in (*range(0x20), 0x7F)})
_SPECIAL_RE = re.compile("[" + re.escape("".join(_ESCAPES)) + "]")
# Pairs that TeX fonts turn into one glyph (-- en dash, `` and '' quotes, ,, and
# !` ?` in T1); plain text means the characters themselves, so break them apart.
_LIGATURE_RE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')|(?<=,)(?=,)|(?<=[!?])(?=`)")
_LIGATURE_STARTS = ("--", "``", "''", ",,", "!`", "?`")

# A word (or hyphenated compound) whose capitals BibTeX styles must not lower-case:
# a capital after the first letter (GPU, FastMoE, McDonald) or letters mixed with
# digits (3D, Transformers4rec).
# A word without the punctuation around it: "(GPU)," -> "GPU", "FastMoE:" -> "FastMoE".
_CORE_RE = re.compile(r"\w(?:\S*\w)?")
# What braces may wrap inside a word: a run of letters and digits, hyphens between them.
# "(SHARP)TM" -> "SHARP", "TM"; "A.I." -> "A", "I"; "3D-Stacked" whole.
_RUN_RE = re.compile(r"[^\W_]+(?:-+[^\W_]+)*")
_LEADING_RUN_RE = re.compile(r"[^\w\s]+([^\W_]+(?:-+[^\W_]+)*)")
_DIGIT_RE = re.compile(r"\d")
# A run of non-blanks other than a capital or small letter followed by small ones.
_UNPLAIN_RE = re.compile(r"(?<!\S)(?![A-Za-z][a-z]*(?!\S))\S+")
_PART_SPLIT_RE = re.compile(r"[-/]")


def escape(text: str) -> str:
    """Plain text as BibTeX/LaTeX field text: special characters and ligatures escaped.

    Most text needs neither: one scan each says so. A long abstract with one '%' is
    rewritten at that character only."""
    if _SPECIAL_RE.search(text):
        text = _SPECIAL_RE.sub(_escaped, text)
    if _has_ligature(text):
        text = _LIGATURE_RE.sub("{}", text)
    return text


def _escaped(m: re.Match[str]) -> str:
    return _ESCAPES[m.group()]


# What escape_field changes: control characters (those strip_controls drops, tab and
# newline) and LaTeX's special characters. (One character class: with the ligature
# pairs as alternatives the scan of an abstract took five times as long.)
_WORK_RE = re.compile(f"[{CONTROL_CHARS}\t\n" + re.escape("".join(_ESCAPES)) + "]")
# Specials whose replacement holds no character replaced after it: str.replace, one after
# another, gives what one pass does (a backslash or brace must go by one pass).
_REPLACEABLE = frozenset(_ESCAPES) - set("\\{}") - {chr(c) for c in range(0x20)} - {"\x7f"}
# The characters of the ligature pairs.
_PAIR_CHARS = frozenset("".join(_LIGATURE_STARTS))
# The ASCII characters that _WORK_RE leaves alone and no ligature pair holds, as bytes to
# delete: what remains of an ASCII text is what _WORK_RE finds and the pairs' characters,
# in their order, so a pair missing there is missing in the text (one there may not be).
_ASCII_INERT = bytes(
    c for c in range(0x80) if not _WORK_RE.match(chr(c)) and chr(c) not in _PAIR_CHARS
)


def escape_field(text: str) -> str:
    """escape(strip_controls(text)): a field's plain text as BibTeX field text.

    Found by one scan of the text, which most of it needs: a long abstract without
    specials is returned as it is, one with a '%' gets that one replacement."""
    if text.isascii():  # bytes.translate drops the rest at a byte a step: 8x the scan's pace
        kept = text.encode("ascii").translate(None, _ASCII_INERT).decode("ascii")
        if not kept:
            return text
        found = set(kept)
        ligature = _has_pair(text, kept, found)
        found -= _PAIR_CHARS
    else:
        found = set(_WORK_RE.findall(text))
        ligature = _has_ligature(text)
    if not found <= _REPLACEABLE:
        return escape(strip_controls(text))  # controls, backslashes, braces: the full way
    for char in found:  # (replacements make no ligature pair and break none)
        text = text.replace(char, _ESCAPES[char])
    if ligature:
        text = _LIGATURE_RE.sub("{}", text)
    return text


def _has_pair(text: str, kept: str, found: set[str]) -> bool:
    """_has_ligature for an ASCII text, its specials and pair characters (kept) and theirs
    set (found): most pairs are ruled out by the short kept text, the rest looked for."""
    for first, pair, search in _PAIR_SEARCHES:
        if first in found and pair in kept and search(text):
            return True
    return False


def _has_ligature(text: str) -> bool:
    """Whether a ligature pair is in the text: each pair looked for (by a literal pattern,
    re's fastest search) only where its first character is (found by memchr); one
    pattern of six alternatives is tried at every character instead."""
    for first, _, search in _PAIR_SEARCHES:  # noqa: SIM110 (a loop: no generator per call)
        if first in text and search(text):
            return True
    return False


# Each pair: its first character, itself, and its search.
_PAIR_SEARCHES = [(pair[0], pair, re.compile(re.escape(pair)).search) for pair in _LIGATURE_STARTS]


def _needs_braces(word: str) -> bool:
    """True for acronyms, inner capitals and letter-digit mixes."""
    for part in _PART_SPLIT_RE.split(word):
        rest = part[1:]
        # (islower and isalpha are C loops that settle most parts before the generators.)
        if not rest.islower() and any(c.isupper() for c in rest):
            return True
        if not part.isalpha() and any(c.isdigit() for c in part) and any(c.isalpha() for c in part):
            return True
    return False


@functools.lru_cache(maxsize=16)
def _terms_re(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for all protected terms, longest first, as whole words."""
    if not terms:
        return None
    alternatives = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
    # The look-ahead at the terms' first characters fails fast at most places of a title.
    firsts = "".join(sorted({re.escape(t[0]) for t in terms}))
    return re.compile(rf"(?<!\w)(?=[{firsts}])(?:{alternatives})(?!\w)")


def protect_title(title: str, terms: Collection[str] = ()) -> str:
    """A title escaped for BibTeX, with acronyms, system names and terms wrapped in braces once.

    Braces wrap a protected term or a run of letters and digits (hyphens inside), never
    the punctuation around it: "Protocol (SHARP)TM" gives "Protocol ({SHARP}){TM}".
    (TitleProtector gives the same for many titles at a time, faster.)
    """
    return _protect(title, _terms_re(tuple(terms)) if terms else None, leading=True)


def _protect(title: str, pattern: re.Pattern[str] | None, leading: bool) -> str:
    """protect_title with the terms' pattern; leading: apply the rule for a title's first
    character (TitleProtector works on a title's words, the rule on its first one only)."""
    held = [m.span() for m in pattern.finditer(title)] if pattern is not None else []
    spans = list(held)
    # Only the words that are not plain ASCII words ("Scaling", "with") can need braces:
    # one scan finds them, and each is looked at as before.
    for token in _UNPLAIN_RE.finditer(title):
        for m in _CORE_RE.finditer(title, *token.span()):  # words never span a blank
            word = m.group()
            rest = word[1:]
            if rest == rest.lower() and not _DIGIT_RE.search(word):
                continue  # no capital after the first letter, no digit
            if not _needs_braces(word):
                continue
            if not held and word.isalnum():
                spans.append(m.span())  # "FastMoE": the whole word, and no term in it
                continue
            for run in _protected_runs(m):
                spans.extend(_outside_terms(title, run, held))
    # BibTeX styles keep a title's first character: after an opening quote or bracket that
    # is not the first word's capital, which they would lower-case ("“why should i...").
    first = _LEADING_RUN_RE.match(title) if leading else None
    if first and first.group(1)[0].isupper():
        spans.extend(_outside_terms(title, first.span(1), held))
    if not spans:
        return escape(title)
    # A title that escape leaves as it is needs no escape piece by piece.
    same = _SPECIAL_RE.search(title) is None and not _has_ligature(title)
    out: list[str] = []
    pos = 0
    for start, end in sorted(set(spans)):
        if same:
            out.append(f"{title[pos:start]}{{{title[start:end]}}}")
        else:
            out.append(escape(title[pos:start]))
            out.append("{" + escape(title[start:end]) + "}")
        pos = end
    out.append(title[pos:] if same else escape(title[pos:]))
    return "".join(out)


def _protected_runs(word: re.Match[str]) -> list[tuple[int, int]]:
    """The spans to brace in a word that needs protection: its letter-digit runs, never the
    punctuation between them (braces across "SHARP)TM" would read as misplaced)."""
    if word.group().isalnum():  # one run of letters and digits: the whole word
        return [word.span()]
    runs = list(_RUN_RE.finditer(word.group()))
    if len(runs) == 1 and runs[0].group() == word.group():
        return [word.span()]
    base = word.start()
    chosen = [r for r in runs if _needs_braces(r.group())]
    if not chosen:  # capitals spread over runs ("A.I."): each run with a capital
        chosen = [r for r in runs if any(c.isupper() for c in r.group())]
    return [(base + r.start(), base + r.end()) for r in chosen]


def _outside_terms(
    title: str, run: tuple[int, int], held: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """A run's span, less the protected terms inside it ("Monte Carlo-GPU" leaves "GPU"),
    so that braces never nest or cross."""
    start, end = run
    overlapping = [(a, b) for a, b in held if a < end and start < b]
    if not overlapping:
        return [run]
    pieces, pos = [], start
    for a, b in overlapping:
        if a > pos:
            pieces.append((pos, a))
        pos = max(pos, b)
    if pos < end:
        pieces.append((pos, end))
    out = []
    for a, b in pieces:
        for m in _RUN_RE.finditer(title, a, b):
            if _needs_braces(m.group()) or any(c.isupper() for c in m.group()):
                out.append(m.span())
    return out


_UNSEEN: Any = object()  # a word not looked at yet (None is a word with a term in it)


class TitleProtector:
    """protect_title for many titles with one set of terms, each word worked out once.

    Titles share most of their words, and where no protected term is in a title its LaTeX
    is its space-separated words' LaTeX joined by spaces: braces, escapes and ligature
    breaks never reach across a space, and only the first word can start with the
    punctuation the first-character rule looks at. A title with a term in it (a term may
    span words), or with a character that is not printable (a space other than ' '),
    goes protect_title's way whole.
    """

    def __init__(self, terms: Collection[str] = ()):
        self.terms = tuple(terms)
        self.pattern = _terms_re(self.terms) if self.terms else None
        # A term with a space in it is no word's: a title holding it goes the whole way.
        self.spaced = tuple(t for t in self.terms if " " in t)
        self.words: dict[str, str | None] = {}  # a word's LaTeX; None: a term is in it
        self.firsts: dict[str, str | None] = {}  # the same for a title's first word

    def __call__(self, title: str) -> str:
        if not title.isprintable():
            return _protect(title, self.pattern, leading=True)
        return self.printable(title)

    def printable(self, title: str) -> str:
        """The call for a title known to be printable (str.isprintable)."""
        for term in self.spaced:  # (a loop: any() and its generator took a fifth of a call)
            if term in title:
                return _protect(title, self.pattern, leading=True)
        words = title.split(" ")
        first = self.firsts.get(words[0], _UNSEEN)
        if first is _UNSEEN:
            first = self.firsts[words[0]] = self._word(words[0], leading=True)
        out = [first]
        known = self.words
        for word in words[1:]:
            latex = known.get(word, _UNSEEN)
            if latex is _UNSEEN:
                latex = known[word] = self._word(word, leading=False)
            out.append(latex)
        if None in out:  # a term in a word: braces around it, as protect_title puts them
            return _protect(title, self.pattern, leading=True)
        return " ".join(out)  # type: ignore[arg-type]  # (no None: checked above)

    def _word(self, word: str, leading: bool) -> str | None:
        if self.pattern is not None and self.pattern.search(word):
            return None
        return _protect(word, None, leading)


class NoLatexForm(ValueError):
    """A character that has no LaTeX (ASCII) spelling."""

    def __init__(self, char: str):
        self.char = char
        super().__init__(f"'{char}' (U+{ord(char):04X}) has no LaTeX form")


@functools.cache
def _encoder() -> Any:
    from pylatexenc.latexencode import UnicodeToLatexEncoder

    # braces-all gives {\v{C}} and Preu{\ss}er: BibTeX then treats each accented letter
    # as one "special character" when it sorts, abbreviates and changes case.
    return UnicodeToLatexEncoder(
        non_ascii_only=True,
        replacement_latex_protection="braces-all",
        unknown_char_policy="fail",
        unknown_char_warning=False,
    )


def to_ascii(latex: str) -> str:
    """LaTeX text with every non-ASCII character spelled as a LaTeX macro (pylatexenc)."""
    if latex.isascii():
        return latex
    import unicodedata

    latex = unicodedata.normalize("NFC", latex)
    for char in latex:
        if not char.isascii() and not _encodable(char):
            raise NoLatexForm(char)
    return str(_encoder().unicode_to_latex(latex))


# The first letter of a name word, and of each part of a hyphenated one.
_INITIAL_RE = re.compile(r"(?:^|(?<=-))[^\x00-\x7f]")


def latex_initials(word: str) -> str:
    """A name word with a non-ASCII initial spelled as a LaTeX accent: Özsu -> {\\"O}zsu.

    8-bit bibtex abbreviates names (alpha labels, abbrv's 'F.') byte by byte and would cut
    a UTF-8 letter in half; an accent macro in braces is one letter to it.
    """
    if word.isascii():
        return word
    return _INITIAL_RE.sub(
        lambda m: to_ascii(m.group()) if _encodable(m.group()) else m.group(), word
    )


@functools.lru_cache(maxsize=4096)
def _encodable(char: str) -> bool:
    """True if pylatexenc knows a LaTeX spelling for char that reads back as char.

    Some of its spellings are look-alikes ('ĸ' as a small-caps k); writing those would
    change the data, so they count as having no LaTeX form.
    """
    try:
        latex = _encoder().unicode_to_latex(char)
    except ValueError:
        return False
    return bool(to_text(latex) == char)


# ------------------------------------------------------------------ reading


@functools.cache
def _decoder() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    db = get_default_latex_context_db()
    # Text-mode symbols pylatexenc does not know, or maps to look-alikes (ˆ for ^).
    db.add_context_category(
        "papers",
        prepend=True,
        macros=[
            MacroTextSpec("textasciicircum", "^"),
            MacroTextSpec("textless", "<"),
            MacroTextSpec("textgreater", ">"),
            MacroTextSpec("textbar", "|"),
            MacroTextSpec("textquotedbl", '"'),
            MacroTextSpec("textbraceleft", "{"),
            MacroTextSpec("textbraceright", "}"),
            MacroTextSpec("textbackslash", "\\"),
            MacroTextSpec("textasciitilde", "~"),
            # Boxes and font switches whose text pylatexenc drops (r"\mbox{G-Animal's} Journal"
            # read as 'Journal', r'\texttt{DLRM} at scale' as 'at scale'): their text is the text.
            *(MacroTextSpec(name, "%(1)s") for name in _TEXT_MACROS),
            # A discretionary hyphen (r'\TeX\-book'): TeX breaks a word there, at a line's end.
            MacroTextSpec("-", ""),
        ],
    )
    return LatexNodes2Text(latex_context=db, math_mode="text")


_TEXT_MACROS = ("mbox", "textmd", "textsf", "texttt", "textup")
_MACRO_NAME_RE = re.compile(r"\\([A-Za-z]+)")
# Commands that print nothing: dropping them loses no text, so they are not reported.
_SILENT_MACROS = frozenset({"relax", "protect", "xspace", "ignorespaces", "null"})


@functools.cache
def _walker_context() -> Any:
    from pylatexenc.latexwalker import get_default_latex_context_db
    from pylatexenc.macrospec import MacroSpec

    db = get_default_latex_context_db()
    # pylatexenc's converter reads two arguments of \href that its parser does not collect.
    db.add_context_category("papers", prepend=True, macros=[MacroSpec("href", "{{")])
    return db


def _convert(converter: Any, latex: str) -> str:
    """A pylatexenc converter's text for LaTeX from anywhere; where the converter fails on
    a command (a bare '\\sqrt' or '\\footnote' without its argument), the text as it is."""
    # pylatexenc logs a warning for commands it cannot expand; the text is still read.
    logger = logging.getLogger("pylatexenc.latex2text")
    was, logger.disabled = logger.disabled, True
    try:
        return str(converter.latex_to_text(latex, latex_context=_walker_context()))
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return latex
    finally:
        logger.disabled = was


def unknown_macros(latex: str) -> list[str]:
    """The LaTeX commands in a text that reading does not know: each is dropped and the text
    of its arguments kept ('\\switchargs{--90}{1968}' reads '--901968'), so the caller can
    say so."""
    if "\\" not in latex:
        return []
    names = dict.fromkeys(_MACRO_NAME_RE.findall(latex))
    return [
        name
        for name in names
        if name not in _SILENT_MACROS
        and _decoder().latex_context.get_macro_spec(name) is None
        and _walker_context().get_macro_spec(name) is None
    ]


# An unescaped ~ is a tie (read as a space); an unescaped & % # is meant literally
# (LaTeX would choke on it, but the text is clear).
_TIE_RE = re.compile(r"(?<!\\)~")
_BARE_RE = re.compile(r"(?<!\\)([&%#])")
_LATEX_RE = re.compile(r"[\\{}$~&%#]|--|``|''|!`|\?`")
_SPACES_RE = re.compile(r"[ \t\r\n]+")


# Markup that .bib files from the web carry and that no export of ours writes: HTML
# entities (ACM's "Wide &amp; Deep"), Google Scholar's $\{$...$\}$ for braces, and quotes
# with space inside them ("`` Why''", '" Why should i trust you?"').
_ENTITY_RE = re.compile(r"(?<!\\)&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MATH_BRACE_RE = re.compile(r"(?<!\\)\$\\[{}]\$")
_OPEN_QUOTES_RE = re.compile(r"(?<!`)``\s+")
_CLOSE_QUOTES_RE = re.compile(r"(?<!\s)\s++''(?!')")  # from a run's start: read once


def _web_markup(latex: str) -> str:
    """Text with HTML entities decoded, Scholar's math braces dropped and quotes tidied."""
    if "&" in latex:
        latex = _ENTITY_RE.sub(_entity, latex)
    if "$" in latex:
        latex = _MATH_BRACE_RE.sub("", latex)
    if "``" in latex or "''" in latex:
        latex = _CLOSE_QUOTES_RE.sub("''", _OPEN_QUOTES_RE.sub("``", latex))
    if '"' in latex:
        latex = _straight_quotes(latex)
    return latex


def _entity(m: re.Match[str]) -> str:
    import html

    char = html.unescape(m.group())
    if char == m.group():  # not an entity HTML knows: text as written
        return char
    return escape(char.replace("\xa0", " "))


def _straight_quotes(latex: str) -> str:
    """Pairs of bare straight double quotes as LaTeX quotes, space inside them dropped.

    A quote after a backslash is an umlaut (\\"o); one in braces ({"}, as export writes it)
    is the character itself. An odd number of bare quotes is left alone.
    """
    bare = [i for i, c in enumerate(latex) if c == '"' and not _quoted_char(latex, i)]
    if not bare or len(bare) % 2:
        return latex
    out, pos = [], 0
    for open_, close in zip(bare[::2], bare[1::2], strict=True):
        inner = latex[open_ + 1 : close]
        if inner.count("{") != inner.count("}"):
            return latex
        out.append(latex[pos:open_] + "``" + inner.strip(" \t\r\n~") + "''")
        pos = close + 1
    out.append(latex[pos:])
    return "".join(out)


def _quoted_char(latex: str, i: int) -> bool:
    """True for the quote at i of \\"o (an umlaut) or of {"} (the character itself)."""
    before = latex[i - 1] if i else ""
    return before == "\\" or (before == "{" and latex[i + 1 : i + 2] == "}")


def to_text(latex: str) -> str:
    """LaTeX field text as plain Unicode: accents converted, braces dropped, spaces collapsed."""
    latex = _web_markup(latex)
    if _LATEX_RE.search(latex):
        latex = _BARE_RE.sub(r"\\\1", _TIE_RE.sub(" ", latex))
        latex = _convert(_decoder(), latex)
    return _SPACES_RE.sub(" ", latex).strip()


# A word in braces, as BibTeX titles protect capitals ('{GPU}'), not after a '$' or '{'.
_PROTECTED_WORD_RE = re.compile(r"(?<![${])\{([^\s{}$\\]+)\}(?!})")
# Inline math as arXiv abstracts write it ('$mN$', '$10^{4}$', '$29.6x$'): a span between
# dollars with no space in it, standing alone; '$5 and $10' or '${x}' is no such span.
_MATH_RE = re.compile(r"(?<![\w$])\$[^\s$]{1,200}\$(?![\w$])")


@functools.lru_cache(maxsize=4096)  # a site shows an abstract in several places and formats
def readable(text: str) -> str:
    """Catalog text as plain text. LaTeX left in it (a command such as '\\&' or
    '$1.5\\times$' of an arXiv abstract, inline math such as '$K_s$', a word in braces as
    BibTeX protects capitals: '{GPU}') is read by to_text, as import reads a .bib; text
    with none of these is kept as it is (a dollar or brace of its own stays: '{{ 7*7 }}',
    '${x}', '$5 and $10'). The site's pages and the plain-text formats (CSL-JSON, RIS)
    show a field so."""
    if (
        "\\" in text
        or ("{" in text and _PROTECTED_WORD_RE.search(text))
        or ("$" in text and _MATH_RE.search(text))
    ):
        return to_text(text)
    return text
