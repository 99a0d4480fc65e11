"""The bundled card data is honest: every quote is in the book it cites, every card cites one."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from cards.dataformat import load_files

from ..conftest import CARD_DATA

RULEBOOKS = Path(settings.BASE_DIR) / "rules" / "data" / "rulebooks"
FILES = sorted(CARD_DATA.glob("*.yaml"))


@cache
def book_text(slug: str) -> str:
    manifest = yaml.safe_load((RULEBOOKS / "MANIFEST.yaml").read_text())
    entry = next(book for book in manifest if book["slug"] == slug)
    return normalize((RULEBOOKS / entry["file"]).read_text(encoding="utf-8"))


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'").replace("“", '"').replace("”", '"')).strip().lower()


def sources(parsed):  # type: ignore[no-untyped-def]
    yield "set", parsed.set["provenance"]
    for card in parsed.cards:
        yield card["name"], card["provenance"]


def test_every_bundled_file_is_valid():
    _, errors = load_files(FILES)
    assert errors == [], "\n".join(str(e) for e in errors)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_quote_is_found_word_for_word_in_the_cited_book(path):
    (parsed,), _ = load_files([path])
    missing = []
    for name, provenance in sources(parsed):
        for source in provenance:
            if source["book"] == "homebrew":
                continue
            for part in re.split(r"\s*(?:\.\.\.|…)\s*", source.get("quote", "")):
                if part and normalize(part) not in book_text(source["book"]):
                    missing.append(f"{name}: {part[:80]!r}")
    assert missing == [], "\n".join(missing)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_only_homebrew_sets_cite_homebrew(path):
    (parsed,), _ = load_files([path])
    cites_homebrew = any(s["book"] == "homebrew" for _, provenance in sources(parsed) for s in provenance)
    assert cites_homebrew == parsed.set["homebrew"]
