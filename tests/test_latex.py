"""LaTeX text in BibTeX fields: escaping, title protection, Unicode <-> LaTeX."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalog.bib.latex import (
    NoLatexForm,
    TitleProtector,
    escape,
    escape_field,
    latex_initials,
    protect_title,
    to_ascii,
    to_text,
)
from catalog.model import strip_controls


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("Wide & Deep", r"Wide \& Deep"),
        ("100% of $5 #1 a_b", r"100\% of \$5 \#1 a\_b"),
        ("{x}", r"\textbraceleft{}x\textbraceright{}"),
        ("a\\b", r"a\textbackslash{}b"),
        ("~x^2", r"\textasciitilde{}x\textasciicircum{}2"),
        ("<a|b>", r"\textless{}a\textbar{}b\textgreater{}"),
        ("line\nbreak\ttab", "line break tab"),
        ("plain text", "plain text"),
    ],
)
def test_escape_special_characters(text: str, latex: str) -> None:
    assert escape(text) == latex


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("a--b", "a-{}-b"),
        ("a---b", "a-{}-{}-b"),
        ("``q''", "`{}`q'{}'"),
        (",,x", ",{},x"),
        ("Hola!` ?`", "Hola!{}` ?{}`"),
        ("Large-Scale", "Large-Scale"),
    ],
)
def test_escape_breaks_tex_ligatures(text: str, latex: str) -> None:
    assert escape(text) == latex


@pytest.mark.parametrize(
    ("title", "latex"),
    [
        ("Fleche: An Efficient GPU Embedding Cache", "Fleche: An Efficient {GPU} Embedding Cache"),
        ("DLRM on MoE", "{DLRM} on {MoE}"),
        (
            "FastMoE: A Fast Mixture-of-Expert Training System",
            "{FastMoE}: A Fast Mixture-of-Expert Training System",
        ),
        ("Merlin HugeCTR (HugeCTR), at Scale", "Merlin {HugeCTR} ({HugeCTR}), at Scale"),
        ("3D-Stacked Memory for word2vec", "{3D-Stacked} Memory for {word2vec}"),
        ("HET-GMP: A Graph-based System Approach", "{HET-GMP}: A Graph-based System Approach"),
        ("Large-Scale End-To-End Co-design", "Large-Scale End-To-End Co-design"),
        ("PICASSO: GPU-centric Training", "{PICASSO}: {GPU-centric} Training"),
        ("Wide & Deep on GPUs", r"Wide \& Deep on {GPUs}"),
        ("100% of {EVStore}", r"100\% of \textbraceleft{}{EVStore}\textbraceright{}"),
        ("Über-GPU Naïve", "{Über-GPU} Naïve"),
    ],
)
def test_protect_title_wraps_acronyms_and_system_names(title: str, latex: str) -> None:
    assert protect_title(title) == latex


def test_protect_title_with_terms_and_no_doubled_braces() -> None:
    terms = ["Ekko", "Switch Transformers", "Transformers", "C++", "Monte Carlo"]
    assert (
        protect_title("Ekko and Switch Transformers in C++ via Monte Carlo GPU runs", terms)
        == "{Ekko} and {Switch Transformers} in {C++} via {Monte Carlo} {GPU} runs"
    )
    # A term that is also an acronym, and terms side by side: one pair of braces each.
    assert protect_title("GPU GPU", ["GPU"]) == "{GPU} {GPU}"
    assert protect_title("Ekkonomy Ekko's", ["Ekko"]) == "Ekkonomy {Ekko}'s"
    assert "{{" not in protect_title("{GPU} {{DLRM}}", ["GPU", "DLRM"])


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("Preußer", r"Preu{\ss}er"),
        ("Čech", r"{\v{C}}ech"),
        ("Jean-François", r"Jean-Fran{\c{c}}ois"),
        ("Quiñonero", r"Qui{\~n}onero"),
        ("Ødegaard", r"{\O}degaard"),
        ("plain", "plain"),
    ],
)
def test_to_ascii_uses_latex_accents(text: str, latex: str) -> None:
    assert to_ascii(text) == latex
    assert to_text(latex) == text


def test_to_ascii_names_a_character_without_latex_form() -> None:
    with pytest.raises(NoLatexForm) as err:
        to_ascii("Embeddings 😀")
    assert err.value.char == "😀"
    assert "U+1F600" in str(err.value)


def test_latex_initials_only_touch_initials() -> None:
    assert latex_initials("Özsu") == r"{\"O}zsu"
    assert latex_initials("Anne-Élodie") == r"Anne-{\'E}lodie"
    assert latex_initials("Preußer") == "Preußer"
    assert latex_initials("李明") == "李明"  # no LaTeX form: left as it is


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"{EVStore}: Storage", "EVStore: Storage"),
        (r"Wide \& deep", "Wide & deep"),
        ("Wide & deep", "Wide & deep"),
        ("100% sure", "100% sure"),
        (r"Preu\ss er", "Preußer"),
        (r"Jean-Fran\c{c}ois", "Jean-François"),
        (r"Qui\~{n}onero", "Quiñonero"),
        (r"{L}ight{S}eq", "LightSeq"),
        (r"{{{NVIDIA Merlin}}}", "NVIDIA Merlin"),
        ("D.~E. Knuth", "D. E. Knuth"),
        ("pages 7--10", "pages 7–10"),
        ("two\n   lines", "two lines"),
        (r"\textasciicircum{}\textless{}\textbar{}\textgreater{}", "^<|>"),
    ],
)
def test_to_text_converts_latex_to_unicode(latex: str, text: str) -> None:
    assert to_text(latex) == text


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        # arXiv abstracts end with a link: pylatexenc's parser alone did not read \href.
        (
            r"Code: $\href{https://x.org/a}{https://x.org/a}$.",
            "Code: https://x.org/a <https://x.org/a>.",
        ),
        (r"see \href{https://x.org}{here}", "see here <https://x.org>"),
        # Commands its converter fails on without their argument: the text stays as it is.
        (r"a bound n\sqrt", r"a bound n\sqrt"),
        (r"a \footnote", r"a \footnote"),
        (r"\title and \colorbox", r"\title and \colorbox"),
    ],
)
def test_to_text_survives_commands_pylatexenc_fails_on(latex: str, text: str) -> None:
    assert to_text(latex) == text


# Pieces of LaTeX as other people's .bib files and arXiv abstracts carry them, commands
# whose arguments pylatexenc misreads among them.
latex_pieces = st.lists(
    st.sampled_from(
        [
            r"\href",
            r"\sqrt",
            r"\footnote",
            r"\input",
            r"\title",
            r"\textcolor",
            r"\url",
            r"\frac",
            r"\times",
            r"\emph",
            r"\'",
            r"\c",
            "\\",
            "{",
            "}",
            "[",
            "]",
            "$",
            "^",
            "_",
            "~",
            "&",
            "%",
            "#",
            "a",
            "1",
            " ",
        ]
    ),
    max_size=12,
).map("".join)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(latex_pieces)
def test_reading_any_latex_gives_text(latex: str) -> None:
    from catalog.site.links import plain

    assert isinstance(to_text(latex), str)
    assert isinstance(plain(latex), str)


# Plain text as the catalog holds it: words of any characters but control ones, one space apart.
words = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), min_size=1, max_size=12
)
plain_text = st.lists(words, min_size=1, max_size=8).map(" ".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(plain_text)
def test_escape_then_read_is_the_identity(text: str) -> None:
    assert to_text(escape(text)) == text
    assert to_text(protect_title(text, ["Ekko", "C++"])) == text


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(plain_text)
def test_ascii_then_read_is_the_identity_where_latex_can_spell_it(text: str) -> None:
    try:
        latex = to_ascii(protect_title(text))
    except NoLatexForm:
        return
    assert latex.isascii()
    assert to_text(latex) == text


# ------------------------------------------------------------------ where braces go

TERMS = ("Ekko", "C++", "I/O", "Monte Carlo")
_RUN = re.compile(r"[^\W_]+(?:-+[^\W_]+)*")


def protected_groups(latex: str) -> list[str]:
    """The text of each top-level brace group protect_title added (not escapes' {} or {"})."""
    groups, i = [], 0
    while i < len(latex):
        if latex[i] == "\\":  # a macro and its argument braces: \textbraceleft{}, \&
            m = re.match(r"\\(?:[A-Za-z]+(?:\{\})?|.)", latex[i:])
            i += m.end() if m else 1
            continue
        if latex[i] != "{":
            i += 1
            continue
        depth, j = 0, i
        while True:
            depth += (latex[j] == "{") - (latex[j] == "}")
            if depth == 0:
                break
            j += 1
        inner = latex[i + 1 : j]
        if inner not in ("", '"'):  # a ligature break, a quote kept as itself
            groups.append(inner)
        i = j + 1
    return groups


def test_braces_wrap_the_word_not_the_punctuation_around_it() -> None:
    """collective.bib (openmlsys-zh): 'Protocol ({SHARP)TM}' read as misplaced braces."""
    title = (
        "Scalable Hierarchical Aggregation and Reduction Protocol (SHARP)TM "
        "Streaming-Aggregation Hardware Design and Evaluation"
    )
    assert protect_title(title) == (
        "Scalable Hierarchical Aggregation and Reduction Protocol "
        "({SHARP}){TM} Streaming-Aggregation Hardware Design and "
        "Evaluation"
    )
    assert (
        protect_title("A.I. for U.S.-based TCP/IP on x86_64")
        == r"{A}.{I}. for {U}.{S}.-based {TCP}/{IP} on {x86}\_64"
    )
    # Styles keep the first character, here a quote: the capital after it needs braces.
    assert (
        protect_title("“Why should i trust you?” Explaining")
        == "“{Why} should i trust you?” Explaining"
    )
    # A term inside a word that needs braces: the term and the rest, never one crossing group.
    assert (
        protect_title("Monte Carlo-GPU and Ekko-GPU", TERMS)
        == "{Monte Carlo}-{GPU} and {Ekko}-{GPU}"
    )


# Titles dense with capitals, digits and the punctuation that sits next to acronyms.
title_chars = st.sampled_from(
    [
        *"ABCGPUTMxyzeé9",
        *"()-./'\"_:,+&",
        " ",
        "Ekko",
        "C++",
        "I/O",
        "Monte Carlo",
        "SHARP",
        "3D",
        "Ü",
    ]
)
dense_titles = (
    st.lists(title_chars, min_size=1, max_size=24)
    .map("".join)
    .map(lambda t: " ".join(t.split()))
    .filter(bool)
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(dense_titles, plain_text))
def test_protected_title_reads_back_and_braces_wrap_only_runs_or_terms(title: str) -> None:
    latex = protect_title(title, TERMS)
    assert to_text(latex) == title
    for group in protected_groups(latex):
        text = to_text(group)
        assert text in TERMS or _RUN.fullmatch(text), (title, latex, group)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("aB -`',!?\\{}&%$#_~^<>|\"\t\n\x00\x1b\x7f\x85\u202eéŁ.:3")),
        max_size=30,
    )
)
def test_escape_field_is_escape_of_the_stripped_text(text: str) -> None:
    """The one-scan path (replacements only where needed) writes what the full one does."""
    assert escape_field(text) == escape(strip_controls(text))


# One protector for all examples, as an export uses one for all titles: words it has
# already worked out come from its cache.
_PROTECTOR = TitleProtector((*TERMS, "Switch Transformers", "Transformer"))
hostile_titles = st.lists(
    st.sampled_from(
        [
            *"aBGPU3xé \t\n\u00a0\u2003\x1b()-.'\"`,!?:{}\\&%$#_~^<>|",
            "Ekko",
            "C++",
            "I/O",
            "Monte Carlo",
            "Monte  Carlo",
            "Switch Transformers",
            "Transformers",
            "SHARP",
            "“",
            "--",
            "  ",
        ]
    ),
    max_size=40,
).map("".join)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.one_of(hostile_titles, dense_titles, plain_text))
def test_title_protector_writes_what_protect_title_writes(title: str) -> None:
    """The word-at-a-time path (each word's LaTeX cached) gives protect_title's LaTeX."""
    title = strip_controls(title)  # as the export hands titles over
    assert _PROTECTOR(title) == protect_title(title, _PROTECTOR.terms)
