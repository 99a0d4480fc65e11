"""The concept table (rules/concepts.yaml): one game concept, its words in every edition and
language. Passages are tagged with the concepts whose words they use; questions are expanded
with the other words of the concepts they mention (ENGINEERING.md §5)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cards.dataformat.text import fold
from pacg_site import yamltext

CONCEPTS_FILE = Path(__file__).resolve().parent / "concepts.yaml"
PHRASINGS_FILE = Path(__file__).resolve().parent / "phrasings.yaml"


@dataclass(frozen=True)
class Concept:
    id: str
    game: str
    terms: dict[str, tuple[str, ...]]  # edition or language -> words
    relation: str

    @property
    def words(self) -> list[str]:
        seen: dict[str, None] = {}
        for words in self.terms.values():
            for word in words:
                seen.setdefault(word, None)
        return list(seen)


@dataclass(frozen=True)
class Mention:
    concept: str
    start: int
    end: int
    word: str  # the table's word that was said (folded; "henchmen" says "henchman")


class ConceptTable:
    def __init__(self, concepts: list[Concept], phrasings: dict[str, tuple[str, ...]] | None = None):
        self.concepts = {concept.id: concept for concept in concepts}
        self.phrasings = phrasings or {}  # concept id -> players' words (rules/phrasings.yaml)
        self._patterns: dict[tuple[str | None, bool], tuple[re.Pattern[str], dict[str, list[str]]]] = {}
        self._vocabulary: dict[str, frozenset[str]] = {}

    def _pattern(self, game: str | None, phrasings: bool) -> tuple[re.Pattern[str], dict[str, list[str]]]:
        if (game, phrasings) not in self._patterns:
            owners: dict[str, list[str]] = {}
            for concept in self.concepts.values():
                if game is None or concept.game == game:
                    extra = self.phrasings.get(concept.id, ()) if phrasings else ()
                    for word in dict.fromkeys([*concept.words, *extra]):
                        owners.setdefault(fold(word), []).append(concept.id)
            alternatives = sorted(owners, key=len, reverse=True)
            # A plural "s"/"es" is allowed after a word, so "henchmen"/"banes" need no entry.
            body = "|".join(re.escape(word) for word in alternatives) or "(?!)"
            self._patterns[game, phrasings] = (re.compile(rf"(?<![\w])({body})(?:e?s)?(?![\w])"), owners)
        return self._patterns[game, phrasings]

    def mentions(self, text: str, game: str | None = None, *, phrasings: bool = False) -> list[Mention]:
        """Concept words in the text, longest first, without overlaps; with `phrasings`, players'
        words too (for questions, never for passages). Positions are in the folded text, which
        has the same length as the original for our alphabets."""
        pattern, owners = self._pattern(game, phrasings)
        found = []
        for match in pattern.finditer(fold(text)):
            for concept in owners[match.group(1)]:
                found.append(Mention(concept, match.start(), match.end(), match.group(1)))
        return found

    def vocabulary(self, game: str) -> frozenset[str]:
        """Every folded word of the game's concepts: rules words, never card names."""
        if game not in self._vocabulary:
            self._vocabulary[game] = frozenset(
                fold(word) for c in self.concepts.values() if c.game == game for word in c.words
            )
        return self._vocabulary[game]

    def tag(self, text: str, game: str) -> list[str]:
        return sorted({mention.concept for mention in self.mentions(text, game)})


@cache
def concept_table(path: Path = CONCEPTS_FILE, phrasings: Path = PHRASINGS_FILE) -> ConceptTable:
    raw = yamltext.load(path.read_text(encoding="utf-8")) or []
    said = yamltext.load(phrasings.read_text(encoding="utf-8")) or {}
    concepts = [
        Concept(
            id=entry["id"],
            game=entry["game"],
            terms={key: tuple(words) for key, words in (entry.get("terms") or {}).items()},
            relation=entry.get("relation", "same"),
        )
        for entry in raw
    ]
    return ConceptTable(concepts, {concept: tuple(words) for concept, words in said.items()})
