"""The words of a question lean to the game whose books use them."""

from __future__ import annotations

import math

from rules.assistant.wordodds import WordOdds

ODDS = WordOdds(
    [
        ("aventuria", "Spend endurance to attack. A hero with 0 Life Points is unconscious."),
        ("aventuria", "Take 1 Fate Point. Your turn ends."),
        ("pacg", "Advance the hourglass. Your turn ends."),
        ("pacg", "Recharge a blessing to add a die to your check."),
    ]
)


def test_a_word_only_one_games_books_use_leans_to_that_game():
    assert ODDS.log_odds("unspent endurance", "aventuria", "pacg") > 0
    assert ODDS.log_odds("Bless my check", "pacg", "aventuria") > 0
    assert ODDS.log_odds("fate points", "aventuria", "pacg") == -ODDS.log_odds("fate points", "pacg", "aventuria")


def test_words_both_games_use_alike_or_neither_uses_say_little_or_nothing():
    assert ODDS.log_odds("zyzzyva quokka", "aventuria", "pacg") == 0
    assert abs(ODDS.log_odds("turn", "aventuria", "pacg")) < 0.1 * abs(ODDS.log_odds("endurance", "aventuria", "pacg"))


def test_accents_and_case_do_not_matter():
    spanish = WordOdds([("pacg", "Perdición del mazo"), ("aventuria", "Héroe")])
    assert spanish.log_odds("PERDICION", "pacg", "aventuria") == spanish.log_odds("perdición", "pacg", "aventuria")
    assert math.isfinite(spanish.log_odds("perdicion heroe", "pacg", "aventuria"))


def test_a_phrase_read_as_one_term_has_odds_of_its_own():
    def terms(text: str) -> list[str]:
        return ["hero points"] if "hero points" in text.lower() else text.lower().split()

    texts = [("pacg", "hero points; bless a check, recharge a blessing"), ("aventuria", "a hero has life points")]
    assert WordOdds(texts).log_odds("hero points", "pacg", "aventuria") < 0
    assert WordOdds(texts, terms).log_odds("hero points", "pacg", "aventuria") > 0
