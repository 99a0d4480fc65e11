"""The assistant's pieces as one switchboard (Pipeline), and the data derived from the passages
that every stage keeps as long as the index it was read with."""

from __future__ import annotations

from dataclasses import dataclass, field

from pacg_site import textindex

from .. import search


def ensure_index() -> None:
    if not textindex.exists(search.NAME):
        from ..services import rebuild_rules_index

        rebuild_rules_index()


@dataclass(frozen=True)
class Pipeline:
    """The pieces of the assistant, each of which bench/rules_quality.py can switch off to
    measure what it adds; the defaults are what the site runs."""

    spelling: bool = True  # correct words the books never use
    concepts: bool = False  # match the question's concepts on passage tags (measured: a question or two, either way)
    expansion: bool = True  # add the concepts' words in the other editions and languages
    phrasings: bool = True  # players' words for a concept (rules/phrasings.yaml) count as mentions
    player_words: bool = True  # the book words learned for players' words (rules/assistant/playerwords.py) searched too
    gloss: bool = True  # and their concepts' book words are embedded with the question
    newest_words: bool = True  # an older edition's word ranks with the newest edition's beside it
    terms: bool = True  # glossary entries named by the question
    names_as_types: bool = True  # a character or bane the question names is embedded as what it is (as_embedded)
    dense: bool = True  # sentence embeddings, fused with the word ranking
    # Share of the embedding similarity in the fused score. 0.65 -> 0.5 once the map made the
    # windows' cosines better (dev sets: top five 1,828 -> 1,832 of 1,876, MRR@10 0.908 -> 0.912;
    # 0.4 to 0.6 all above 0.65, 0.5 the best).
    dense_weight: float = 0.5
    adapter: bool = True  # the question's vector mapped nearer the rules' windows (rules.assistant.question_adapter)
    asked: bool = True  # the questions a passage answers count, in its words and its embedding similarity
    asked_share: float = 0.5  # ... their nearest's share in the latter (the rest: the nearest window's)
    asked_margin: float = 0.03  # ... and the nearest, less this much, can make the passage near enough
    word_odds: bool = True  # which game: the odds of the question's terms in each game's books (wordodds.py)
    # A glossary entry ranks a little below the rules (the answer quotes the definitions of the
    # question's terms apart). 0.8 -> 0.95 once the rule a definition names came before it (all
    # eighteen dev sets: top five 2,714 -> 2,719 of 2,776, MRR@10 0.8799 -> 0.8806; 0.9 2,717, 1.0
    # 2,718 but 6 fewer at rank 1). Reference-sheet lines and examples of play ranked below the rule
    # too (0.9) until the label audit counted them as answers: without that, 616 dev questions
    # R@5 0.942 -> 0.946, MRR@10 0.849 -> 0.852.
    glossary_weight: float = 0.95
    follow_glossary: bool = True  # a glossary entry in the top five brings the rule it names, just before it
    named_book_weight: float = 1.5  # "in wrath ..." prefers the book the question names
    newest_weight: float = 1.1  # ... and one that names none, the newest rules in its language
    # At most this many passages of one book in the top five, when others answer and the question
    # names no book. 5 (no limit) -> 3: probe R@5 0.927 -> 0.940 (two questions whose other
    # edition's rule was crowded out), dev the same; 2 loses two probe questions.
    per_book: int = 3
    # ... and only for a passage of another book that comes near: at least this share of the score
    # of the one it displaces. 0 -> 0.85 (0.85 to 0.9 alike): on dev, probe and probe2 (labels
    # audited) R@5 0.958 -> 0.961, none lost: a Core answer at 0.92 no longer waits behind Wrath's
    # "Dealing with Cards" at 0.67.
    per_book_margin: float = 0.85
    boosts: dict[str, float] = field(default_factory=lambda: dict(search.BOOSTS))


FULL = Pipeline()


def per_index(key: str, compute):  # type: ignore[no-untyped-def]
    """Data derived from the passages, kept as long as the index they were indexed with."""
    ensure_index()
    with textindex.reading(search.NAME) as (_, cache):
        if key not in cache:
            cache[key] = compute()
        return cache[key]
