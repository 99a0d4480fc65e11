"""Players' words for the books' words, learned from the questions each passage answers."""

from __future__ import annotations

import pytest

from rules import search
from rules.assistant.pipeline import FULL, Pipeline, per_index
from rules.assistant.playerwords import Passage, PlayerWords, Target
from rules.assistant.understand import _player_words, prepare


def stems(text: str, language: str) -> list[str]:
    return search.analyze(text, language)


def english(_: str) -> str:
    return "en"


BARRIERS = [
    Passage("pacg", "en", "Barrier: a trap. Attempt the check to defeat the barrier.", ["can I jump the obstacle"]),
    Passage("pacg", "en", "Some barriers lock a location; defeat it to open it.", ["an obstacle is in the way"]),
    Passage("pacg", "en", "Monsters attack: defeat the monster or suffer damage.", ["the monster hits me"]),
    Passage("pacg", "en", "Recharge a card to add its die; defeat the henchman.", ["put the card under my deck"]),
    Passage("pacg", "en", "Allies can explore: discard the ally to explore again.", ["can a buddy help"]),
    Passage("pacg", "en", "A closed location stays closed; defeat the villain.", ["is the place done"]),
    Passage("pacg", "en", "Advance the hourglass at the start of your turn.", ["what do I flip first"]),
    Passage("pacg", "en", "Reset your hand to its hand size at the end of your turn.", ["how many cards do I keep"]),
]


def test_a_word_players_use_of_several_passages_stands_for_the_book_word_those_passages_share():
    learned = PlayerWords(BARRIERS, search.stem, english)
    # "barrier" as the index reads it, and as the books spell it most often ("barriers" once)
    assert learned.book_words(stems("what stops an obstacle", "en"), "pacg", "en") == [
        Target("en", "barrier", "barrier")
    ]


def test_a_word_of_one_passage_or_of_the_books_themselves_is_not_learned():
    learned = PlayerWords(BARRIERS, search.stem, english)
    assert learned.book_words(stems("a buddy attacks the monster", "en"), "pacg", "en") == []


def test_a_page_number_or_half_a_contraction_is_no_book_word():
    """Both passages' text has "22" (a page number) and "isn't", as often as "cohort": only
    "cohort" is learned for the players' "pet"."""
    passages = [
        Passage("pacg", "en", "A cohort isn't an ally (22).", ["my pet joins the party"]),
        Passage("pacg", "en", "Banish the cohort; it isn't yours (22).", ["can I lose my pet"]),
        *BARRIERS,
    ]
    learned = PlayerWords(passages, search.stem, english)
    assert learned.book_words(stems("pet", "en"), "pacg", "en") == [Target("en", "cohort", "cohort")]


def test_a_game_learns_from_its_own_books_only():
    learned = PlayerWords(BARRIERS, search.stem, english)
    assert learned.book_words(stems("obstacle", "en"), "aventuria", "en") == []
    assert learned.book_words(stems("obstacle", "en"), "pacg", "es") == []


@pytest.mark.django_db
def test_the_bundled_books_questions_teach_the_players_words():
    learned = per_index("player_words", _player_words)

    def book_words(word: str, game: str, language: str) -> list[str]:
        return [target.word for target in learned.book_words([search.stem(word, language)], game, language)]

    assert "exhaust" in book_words("tap", "aventuria", "en")
    assert "henchman" in book_words("minion", "pacg", "en")
    assert "villano" in book_words("jefe", "pacg", "es")


@pytest.mark.django_db
def test_a_question_in_players_words_is_searched_with_the_books_words_too():
    question = "can I tap a card twice in one round"
    exhaust = search.stem("exhaust", "en")
    assert exhaust in prepare(question, "aventuria", FULL)[0].expanded["en"]
    assert exhaust not in prepare(question, "aventuria", Pipeline(player_words=False))[0].expanded["en"]
    assert exhaust not in prepare(question, "pacg", FULL)[0].expanded["en"]  # Aventuria's word, not PACG's
    # The ranking's embedding blends the book's word in too.
    assert "exhaust" in prepare(question, "aventuria", FULL)[0].learned
    assert not prepare(question, "aventuria", Pipeline(player_words=False))[0].learned
