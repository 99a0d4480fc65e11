"""The one tokenizer: the search index and the plain-ORM baseline both match these words."""

from __future__ import annotations

import re
from collections.abc import Iterable

from cards.dataformat.text import fold

_WORD = re.compile(r"[^\W_]+")
# Between fields and paragraphs, so that a phrase never matches across two of them.
SEPARATOR = "|"


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def padded(parts: Iterable[str]) -> str:
    """' ghoul | undead monster ': words of each part, parts separated, spaces at both ends,
    so that `contains(" word ")` is a whole-word match."""
    joined = f" {SEPARATOR} ".join(" ".join(words(part)) for part in parts if part and words(part))
    return f" {joined} " if joined else ""
