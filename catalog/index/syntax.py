"""The search language's grammar: a query's text into a tree of terms and operators.

Operators are the upper-case words AND, OR and NOT, a leading '-' (NOT for one term or
group) and parentheses. NOT binds tightest, then OR, then AND (written or left out), so
`a b OR c` is a AND (b OR c), as it always was. What a term means (a word, a phrase, a
filter) is catalog.index.query's business: the parser hands each to a callback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from catalog.errors import QueryError

OPERATORS = ("AND", "OR", "NOT")

_TOKEN_RE = re.compile(
    r"""(?P<neg>-)?(?:(?P<open>\()
        |(?P<field>[A-Za-z_]+):(?:"(?P<fquoted>[^"]*)"?|(?P<fvalue>[^\s()"]*))
        |"(?P<phrase>[^"]*)"?
        |(?P<word>[^\s"()]+))
        |(?P<close>\))""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    """One piece of a query: a term (word, phrase, filter), an operator or a parenthesis."""

    kind: str  # word, phrase, filter, open, close, AND, OR, NOT
    text: str  # the word or phrase, or a filter's value
    negated: bool = False  # written with a leading '-'
    field: str | None = None  # a filter's name
    end: int = 0  # where the token ends in the query


@dataclass(frozen=True)
class Not:
    """Papers the child does not match."""

    child: object


@dataclass(frozen=True)
class All:
    """Papers every child matches."""

    children: tuple[object, ...]


@dataclass(frozen=True)
class Either:
    """Papers any child matches."""

    children: tuple[object, ...]


def tokens(text: str) -> list[Token]:
    """The query's tokens in order; an upper-case AND, OR or NOT without '-' is an operator."""
    out = []
    for m in _TOKEN_RE.finditer(text):
        negated = bool(m.group("neg"))
        if m.group("close") is not None:
            out.append(Token("close", ")", end=m.end()))
        elif m.group("open") is not None:
            out.append(Token("open", "(", negated, end=m.end()))
        elif m.group("field") is not None:
            value = m.group("fquoted") if m.group("fquoted") is not None else m.group("fvalue")
            out.append(Token("filter", value, negated, m.group("field").lower(), m.end()))
        elif m.group("phrase") is not None:
            out.append(Token("phrase", m.group("phrase"), negated, end=m.end()))
        elif m.group("word") in OPERATORS and not negated:
            out.append(Token(m.group("word"), m.group("word"), end=m.end()))
        else:
            out.append(Token("word", m.group("word"), negated, end=m.end()))
    return out


def parse(text: str, leaf: Callable[[Token], object | None]) -> object | None:
    """The query as a tree of Not, All and Either over what leaf makes of each term (None
    for a term with nothing to search for, which drops out); QueryError for a misplaced
    operator or parenthesis, saying how to write it."""
    return _Parser(text, tokens(text), leaf).parse()


class _Parser:
    """Recursive descent over the tokens: conjunction > disjunction > negation > group."""

    def __init__(self, text: str, toks: list[Token], leaf: Callable[[Token], object | None]):
        self.text, self.toks, self.leaf, self.at = text, toks, leaf, 0

    def error(self, problem: str) -> QueryError:
        return QueryError(f"cannot search for {self.text!r}: {problem}")

    def peek(self) -> str | None:
        return self.toks[self.at].kind if self.at < len(self.toks) else None

    def parse(self) -> object | None:
        tree = self.conjunction()
        if self.peek() == "close":
            raise self.error("a ')' closes no '(' (remove it, or quote the word: '\"a)\"')")
        return tree

    def conjunction(self) -> object | None:
        children: list[object | None] = []
        while self.peek() not in (None, "close"):
            if self.peek() == "AND":
                if not children:
                    raise self.error(_needs("AND", "before"))
                self.at += 1
                if self.peek() in (None, "close", "AND", "OR"):
                    raise self.error(_needs("AND", "after"))
            children.append(self.disjunction())
        return _combine(All, children)

    def disjunction(self) -> object | None:
        children = [self.negation()]
        while self.peek() == "OR":
            self.at += 1
            if self.peek() in (None, "close", "AND", "OR"):
                raise self.error(_needs("OR", "after"))
            children.append(self.negation())
        return _combine(Either, children)

    def negation(self) -> object | None:
        kind = self.peek()
        if kind in ("AND", "OR"):
            raise self.error(_needs(str(kind), "before"))
        if kind == "NOT":
            self.at += 1
            if self.peek() in (None, "close", "AND", "OR"):
                raise self.error(_needs("NOT", "after"))
            child = self.negation()
            return None if child is None else Not(child)
        return self.group()

    def group(self) -> object | None:
        token = self.toks[self.at]
        self.at += 1
        if token.kind != "open":
            made = self.leaf(token)
            return Not(made) if made is not None and token.negated else made
        if self.peek() == "close":
            raise self.error("'()' holds nothing (put terms inside, or leave it out)")
        inner = self.conjunction()
        if self.peek() != "close":
            raise self.error("a '(' is never closed (add ')', or quote the word: '\"(a\"')")
        self.at += 1
        return Not(inner) if inner is not None and token.negated else inner


def _needs(operator: str, side: str) -> str:
    return (
        f"{operator} needs a term {side} it (write 'a {operator} b'; to search for the word, "
        f"quote it: '\"{operator.lower()}\"')"
    )


def _combine(kind: type[All] | type[Either], children: list[object | None]) -> object | None:
    """All or Either of the children that are left; one child alone stands for itself."""
    kept = tuple(c for c in children if c is not None)
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else kind(kept)
