"""Folding: lower case without accents, how names and words are compared everywhere."""

from __future__ import annotations

import re
import unicodedata

_COMBINING = re.compile("[\u0300-\u036f]")


def fold(text: str) -> str:
    if text.isascii():  # the common case, and ten times faster than normalizing
        return text.lower()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text)).lower()
