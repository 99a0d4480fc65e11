"""How the rules app reads words, in one place: each reading serves one purpose and is measured
as it is (tests/rules/eval/README.md), so they stay apart, but none is written twice. The index's
own analyzers (stemming, stop words, accents) are in rules/search.py; `index_words` reads as
their tokenizer does, without their cost."""

from __future__ import annotations

import re

from cards.dataformat.text import fold

# Whoosh's default tokenizer: the words the index's analyzers read (tests/rules/test_bestquestion.py).
INDEX_WORD = re.compile(r"[\w\*]+(?:\.?[\w\*]+)*")
_LETTERS = re.compile(r"[^\W\d_]+")
_SPOKEN = re.compile(r"\w+(?:['’]\w+)*")


def index_words(text: str) -> list[str]:
    """The text's words as the index reads them, lowercased, before stemming."""
    return INDEX_WORD.findall(text.lower())


def letter_words(text: str) -> list[str]:
    """The text's runs of letters, folded: which game's books use a word (no numbers, no accents)."""
    return _LETTERS.findall(fold(text))


def spoken_words(text: str) -> list[str]:
    """The text's words, a possessive read as its word and a contraction ("isn't", "we're") left
    out: read apart, its halves "isn" and "re" were learned as players' words for book words."""
    found = []
    for word in _SPOKEN.findall(text.lower()):
        if word.endswith(("'s", "’s")):
            word = word[:-2]
        if "'" not in word and "’" not in word:
            found.append(word)
    return found
