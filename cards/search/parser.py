"""The search language: text in, a small tree out, or an error that says what and where.

    query  := orexp
    orexp  := andexp ("or" andexp)*
    andexp := unary+                       adjacent terms are ANDed
    unary  := "-" unary | "(" orexp ")" | term
    term   := word | "phrase" | !"Exact Name" | !word | field op value
    op     := : = != < <= > >=              value := word | "quoted value"

Positions in errors are 1-based character positions in the query.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Union

from cards.dataformat.skills import canonical_skill
from cards.dataformat.text import fold

from .facts import normalize_keyword
from .fields import BY_NAME, KEYWORD, NUMBER, TYPE_VALUES, WORDS, SearchField
from .words import words

MAX_QUERY_LENGTH = 1000


class SearchSyntaxError(ValueError):
    def __init__(self, message: str, position: int, query: str):
        super().__init__(f"{message} (at position {position})")
        self.message = message
        self.position = position
        self.query = query

    @property
    def details(self) -> dict[str, object]:
        return {"position": self.position, "query": self.query}


@dataclass(frozen=True)
class Words:
    """Free words or a quoted phrase: match names and powers."""

    words: tuple[str, ...]
    phrase: bool


@dataclass(frozen=True)
class ExactName:
    name: str  # folded


@dataclass(frozen=True)
class Term:
    field: SearchField
    op: str
    value: str | int | tuple[str, ...]  # tuple: words of a words field


@dataclass(frozen=True)
class Not:
    node: Node


@dataclass(frozen=True)
class And:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Everything:
    """The empty query: every card."""


Node = Union[Words, ExactName, Term, Not, And, Or, Everything]  # noqa: UP007 - recursive alias

_OPERATOR = re.compile(r"!=|<=|>=|[:=<>]")
_BARE = re.compile(r"[^\s()\"]+")


@dataclass
class _Token:
    kind: str  # ( ) - or word phrase exact field
    position: int
    text: str = ""
    field: str = ""
    op: str = ""
    quoted: bool = False


class _Lexer:
    def __init__(self, query: str):
        self.query = query
        self.position = 0

    def error(self, message: str, position: int) -> SearchSyntaxError:
        return SearchSyntaxError(message, position + 1, self.query)

    def quoted(self) -> str:
        start = self.position
        end = self.query.find('"', start + 1)
        if end < 0:
            raise self.error("this quote is never closed", start)
        self.position = end + 1
        return self.query[start + 1 : end]

    def tokens(self) -> list[_Token]:
        query = self.query
        tokens: list[_Token] = []
        while True:
            while self.position < len(query) and query[self.position].isspace():
                self.position += 1
            if self.position >= len(query):
                return tokens
            start, char = self.position, query[self.position]
            if char in "()":
                self.position += 1
                tokens.append(_Token(char, start))
            elif char == "-":
                if self.position + 1 >= len(query) or query[self.position + 1].isspace():
                    raise self.error("'-' must touch the term it excludes, as in -t:blessing", start)
                self.position += 1
                tokens.append(_Token("-", start))
            elif char == '"':
                tokens.append(_Token("phrase", start, self.quoted()))
            elif char == "!" and query[start + 1 : start + 2] == '"':
                self.position += 1
                tokens.append(_Token("exact", start, self.quoted()))
            else:
                tokens.append(self.bare(start))

    def bare(self, start: int) -> _Token:
        match = _BARE.match(self.query, start)
        assert match  # the caller saw a character that starts a bare run
        text = match.group()
        field_match = re.match(r"([A-Za-z]+)(!=|<=|>=|[:=<>])", text)
        if text.startswith("!"):
            self.position = match.end()
            if len(text) == 1:
                raise self.error("'!' must be followed by a name, e.g. !\"Black Fang\"", start)
            return _Token("exact", start, text[1:])
        if not field_match:
            self.position = match.end()
            if text.lower() == "or":
                return _Token("or", start)
            return _Token("word", start, text)
        self.position = start + field_match.end()
        token = _Token("field", start, field=field_match.group(1).lower(), op=field_match.group(2))
        if self.query[self.position : self.position + 1] == '"':
            token.text, token.quoted = self.quoted(), True
        else:
            value = _BARE.match(self.query, self.position)
            token.text = value.group() if value else ""
            self.position = value.end() if value else self.position
        return token


class _Parser:
    def __init__(self, query: str, known_sets: dict[str, str]):
        self.query = query
        self.tokens = _Lexer(query).tokens()
        self.index = 0
        self.known_sets = known_sets

    def error(self, message: str, position: int) -> SearchSyntaxError:
        return SearchSyntaxError(message, position + 1, self.query)

    def peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def parse(self) -> Node:
        if not self.tokens:
            return Everything()
        node = self.or_expression()
        token = self.peek()
        if token is not None:
            raise self.error("this ')' has no matching '('", token.position)
        return node

    def or_expression(self) -> Node:
        start = self.peek()
        if start is not None and start.kind == "or":
            raise self.error("'or' needs a term on its left", start.position)
        nodes = [self.and_expression()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.index += 1
            following = self.peek()
            if following is None or following.kind in {"or", ")"}:
                raise self.error("'or' needs a term on its right", token.position)
            nodes.append(self.and_expression())
        return nodes[0] if len(nodes) == 1 else Or(tuple(nodes))

    def and_expression(self) -> Node:
        nodes = []
        while (token := self.peek()) is not None and token.kind not in {"or", ")"}:
            nodes.append(self.unary())
        if not nodes:
            token = self.peek()
            raise self.error("expected a search term", token.position if token else len(self.query))
        return nodes[0] if len(nodes) == 1 else And(tuple(nodes))

    def unary(self) -> Node:
        token = self.tokens[self.index]
        self.index += 1
        if token.kind == "-":
            following = self.peek()
            if following is None or following.kind in {"or", ")"}:
                raise self.error("'-' must be followed by a term to exclude", token.position)
            return Not(self.unary())
        if token.kind == "(":
            if (following := self.peek()) is not None and following.kind == ")":
                raise self.error("empty parentheses", token.position)
            node = self.or_expression()
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise self.error("this '(' is never closed", token.position)
            self.index += 1
            return node
        if token.kind == "word" or token.kind == "phrase":
            found = tuple(words(token.text))
            if not found:
                raise self.error(f"{token.text!r} has no letters or digits to search for", token.position)
            return Words(found, phrase=token.kind == "phrase")
        if token.kind == "exact":
            if not fold(token.text).strip():
                raise self.error("an exact name cannot be empty", token.position)
            return ExactName(" ".join(fold(token.text).split()))
        return self.term(token)

    def term(self, token: _Token) -> Node:
        field = BY_NAME.get(token.field)
        if field is None:
            close = difflib.get_close_matches(token.field, BY_NAME, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else "; see /cards/help/"
            raise self.error(f"unknown field {token.field!r}{hint}", token.position)
        if token.op not in field.operators:
            raise self.error(f"{field.name} takes {' '.join(field.operators)}, not {token.op!r}", token.position)
        value_position = token.position + len(token.field) + len(token.op)
        if not token.text.strip():
            raise self.error(f"{field.name}{token.op} needs a value", value_position)
        negate = token.op == "!="
        op = "=" if token.op in {":", "=", "!="} else token.op
        value = self.value(field, token.text, value_position, token.quoted)
        if field.name == "is" and value in TYPE_VALUES:
            field = BY_NAME["type"]  # is:villain means t:villain
        node = Term(field, op, value)
        return Not(node) if negate else node

    def value(self, field: SearchField, raw: str, position: int, quoted: bool) -> str | int | tuple[str, ...]:
        if field.kind == NUMBER:
            if not re.fullmatch(r"\d{1,4}", raw):
                raise self.error(f"{field.name} needs a whole number, not {raw!r}", position)
            return int(raw)
        if field.kind == WORDS:
            found = tuple(words(raw))
            if not found:
                raise self.error(f"{raw!r} has no letters or digits to search for", position)
            return found
        value = normalize_keyword(raw) if field.kind == KEYWORD else fold(raw).strip()
        if field.tag == "set":
            code = self.known_sets.get(fold(raw).strip())
            if code is None:
                close = difflib.get_close_matches(fold(raw), self.known_sets, n=3)
                hint = f"; did you mean {', '.join(close)}?" if close else "; see the set list on /cards/help/"
                raise self.error(f"unknown set {raw!r}{hint}", position)
            return code
        if field.tag in {"check", "skill"}:
            skill = canonical_skill(raw)
            if skill is None:
                raise self.error(f"{raw!r} is not a skill", position)
            return normalize_keyword(skill)
        if field.values and value not in field.values:
            close = difflib.get_close_matches(value, field.values, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; use one of {', '.join(field.values)}"
            raise self.error(f"{field.name} has no value {raw!r}{hint}", position)
        return value


def parse(query: str, *, known_sets: dict[str, str]) -> Node:
    """`known_sets` maps every accepted folded set code and alias to its code."""
    if len(query) > MAX_QUERY_LENGTH:
        raise SearchSyntaxError(f"the query is longer than {MAX_QUERY_LENGTH} characters", MAX_QUERY_LENGTH, query)
    return _Parser(query, known_sets).parse()
