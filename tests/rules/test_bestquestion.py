"""A passage's best-matching question, by its words (rules.assistant.bestquestion)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules import search
from rules.assistant.bestquestion import BestQuestion
from rules.words import index_words

BOOKS_QUESTIONS = Path(__file__).resolve().parents[2] / "rules" / "data" / "rulebooks" / "questions"


def terms(text: str, language: str = "en") -> list[tuple[str, str, float]]:
    return [(language, word, 1.0) for word in search.analyze(text, language)]


def test_one_question_that_says_what_the_player_said_beats_many_that_share_a_word_each():
    passages = [
        ["can I play armor to reduce fire damage"],
        [f"how much damage does a {thing} deal" for thing in ("monster", "trap", "spell", "villain", "barrier")]
        + [f"when do I play {thing}" for thing in ("weapons", "items", "allies", "blessings")],
    ]
    scores = BestQuestion(passages, search.LANGUAGES, search.stem).scores(terms("can armor reduce fire damage"))
    assert scores[0] > scores[1] > 0


def test_a_passage_scores_as_its_best_question_not_the_sum_of_them():
    passages = [["what is a blessing"], ["what is a blessing", "what is a blessing", "what is a boon"]]
    once, thrice = BestQuestion(passages, ["en"], search.stem).scores(terms("what is a blessing"))
    assert once == pytest.approx(thrice)


def test_passages_without_questions_and_words_no_question_uses_score_nothing():
    best = BestQuestion([[], ["how do I recharge a card"], []], search.LANGUAGES, search.stem)
    assert best.scores(terms("recharge a card")).tolist()[::2] == [0.0, 0.0]
    assert best.scores(terms("castling in chess")).tolist() == [0.0, 0.0, 0.0]
    assert best.scores([("fr", "recharg", 1.0)]).tolist() == [0.0, 0.0, 0.0]
    assert BestQuestion([], search.LANGUAGES, search.stem).scores(terms("recharge")).tolist() == []


def test_weights_scale_each_word():
    best = BestQuestion([["how do I recharge a card"]], ["en"], search.stem)
    (plain,) = best.scores(terms("recharge"))
    (halved,) = best.scores([(language, word, 0.5) for language, word, _ in terms("recharge")])
    assert halved == pytest.approx(plain / 2)


@pytest.mark.parametrize("language", search.LANGUAGES)
def test_its_words_are_the_indexs_words(language):
    """Its tokens stemmed a word at a time (as BestQuestion reads them), the bundled questions read
    as the index's analyzers read them: the question's words (stemmed by those) must find them."""
    for path in sorted(BOOKS_QUESTIONS.glob("*.yaml")):
        for questions in yaml.safe_load(path.read_text(encoding="utf-8")).values():
            for question in questions:
                words = [word for token in index_words(question) if (word := search.stem(token, language)) is not None]
                assert words == search.analyze(question, language), question
