"""The rules assistant over the four bundled books (imported once per test run)."""

from __future__ import annotations

import pytest

from rules.assistant.answer import ask
from rules.assistant.pipeline import FULL, Pipeline
from rules.assistant.rank import _rerank
from rules.assistant.retrieve import search_passages
from rules.assistant.understand import (
    as_embedded,
    language_of,
    named_cards,
    prepare,
)
from rules.models import Passage
from rules.search import Hit

pytestmark = pytest.mark.django_db


def top(question: str, **options) -> dict:  # type: ignore[no-untyped-def,type-arg]
    answer = ask(question, **options)
    assert answer.found, f"no rule found for {question!r}"
    return answer.results[0]


def test_armor_against_fire_damage():
    answers = ask("can I play armor to reduce fire damage").results[:3]
    assert "reduce Fire damage" in answers[0]["text"]
    assert answers[0]["highlight"].count("<mark>") >= 2


def test_a_question_that_names_no_edition_gets_the_newest_rules_first_and_the_classic_ones_next():
    question = "can I play armor to reduce fire damage"
    newest = ask(question).results
    assert newest[0]["book"] == "core" and "wotr" in {r["book"] for r in newest[:5]}
    assert ask(f"in wrath of the righteous, {question}").results[0]["book"] == "wotr"


def test_the_rule_ranks_before_its_glossary_entry_and_restatements_by_closeness():
    """A glossary entry a little closer to the question than the rule still comes after it (the
    answer quotes the definition apart); a reference-sheet line or an example of play that comes
    closer answers as well as the rule, and keeps its place."""
    far = 10**9  # ids no real passage has, so no glossary entry brings its rule along
    restatements = [
        Hit(far + n, "core", kind, 1.0) for n, kind in enumerate(["glossary", "reference", "play-example"], 1)
    ]
    question, _ = prepare("how do I bury a card", "pacg")
    ranked = _rerank([*restatements, Hit(far, "core", "step", 0.96)], question, FULL, [])
    assert [hit.kind for hit in ranked] == ["reference", "play-example", "step", "glossary"]


def test_the_top_five_show_another_editions_rule_unless_the_question_names_a_book():
    """Five close Core passages don't crowd out the Wrath rule that answers too, unless it comes
    far behind; a player who names the Core Set gets its five."""
    far = 10**9
    core = [Hit(far + n, "core", "step", 1.0 - n / 100) for n in range(5)]
    wotr = Hit(far + 9, "wotr", "step", 0.95)

    def books(question: str) -> list[str]:
        prepared, _ = prepare(question, "pacg")
        return [hit.book for hit in _rerank([*core, wotr], prepared, FULL, [])]

    assert books("what die do I roll for a skill I lack") == ["core", "core", "core", "wotr", "core", "core"]
    assert books("in the core set, what die do I roll for a skill I lack")[:5] == ["core"] * 5
    wotr = Hit(far + 9, "wotr", "step", 0.7)  # far behind: it doesn't push a close Core rule out
    assert books("what die do I roll for a skill I lack") == ["core"] * 5 + ["wotr"]


def test_where_the_villain_goes_when_the_other_locations_are_guarded():
    """ "Where does it go" is the escape rule and "every location guarded" is a cornered villain:
    the rule that says where it escapes comes first, not the one on how to guard."""
    first = ask("where does the villain go if every other location is guarded").results[0]
    assert first["book"] == "core"
    assert "If any locations are unguarded, the villain escapes." in first["text"] or (
        "if a villain can't escape" in first["text"]
    ), first["heading"]


def test_a_spanish_question_finds_the_spanish_book_first():
    answer = ask("¿qué es una perdición?")
    assert answer.game == "pacg"
    assert answer.results[0]["book"] == "rotr_es"
    assert "perdición" in answer.results[0]["text"].lower() or "perdicion" in answer.results[0]["text"].lower()


def test_hero_titles_are_an_aventuria_rule_and_only_aventuria_answers():
    answer = ask("how do hero titles work")
    assert answer.game == "aventuria"
    assert answer.results[0]["heading"] == "Hero Title"
    assert {r["book"] for r in answer.results} == {"aventuria"}


@pytest.mark.parametrize(
    ("question", "game"),
    [
        ("how do swarms and doom counters work", "aventuria"),
        ("how much does it cost to upgrade an action card to level 2", "aventuria"),
        ("can I play armor to reduce fire damage", "pacg"),
        # Only PACG's words ("character", "draw", "turn"), yet about an Aventuria fight.
        ("how many cards does my character draw at the start of a fight", "aventuria"),
        ("in a fight, who takes the first turn", "aventuria"),
        ("what happens on my turn", "pacg"),
        ("how do I close a location", "pacg"),
        # "Curse" is a PACG card, but a common word names no card.
        ("how do we break the pirate curse on our hero", "aventuria"),
        # Nearest to a PACG question about keeping cards at the end of a turn; "endurance" is Aventuria's word.
        ("I have endurance left at the end of my turn, do I keep it", "aventuria"),
        # "Hero points" is PACG's, though "hero" and "points" are more often Aventuria's words.
        ("how do I spend my hero points", "pacg"),
        ("can I spend hero points to reroll", "pacg"),
        # "Chalice" is Aventuria's word, misspelled or not.
        ("we won a chalise, do I have to take something out of my deck for it", "aventuria"),
    ],
)
def test_when_no_word_settles_the_game_the_closer_game_answers(question, game):
    answer = ask(question)
    assert answer.game == game and {r["book"] for r in answer.results} <= (
        {"aventuria"} if game == "aventuria" else {"core", "wotr", "rotr_es"}
    )


def test_pacg_answers_never_quote_aventuria():
    answer = ask("how many cards do I draw at the end of my turn")
    assert answer.found and {r["book"] for r in answer.results} <= {"core", "wotr", "rotr_es"}


def test_a_book_filter_narrows_the_answer():
    answer = ask("how do I close a location", books=["wotr"])
    assert {r["book"] for r in answer.results} == {"wotr"}


def test_old_words_find_the_new_rule():
    results = ask("how many blessings go in the blessings deck").results
    assert any(r["book"] == "core" and "hourglass" in r["text"].lower() for r in results)


@pytest.mark.parametrize(
    "question, newest_heading",
    [
        ("when do I advance the blessings deck", "Advance the Hour"),
        ("can I temporarily close my location when the villain shows up", "To Close or To Guard"),
    ],
)
def test_old_words_that_name_no_edition_get_the_newest_rule_first_and_the_old_one_next(question, newest_heading):
    """A player who says "blessings deck" most likely plays the newest rules with the words of
    the ones before; the edition whose words they are answers right after."""
    results = ask(question).results
    assert (results[0]["book"], results[0]["heading"]) == ("core", newest_heading), results[0]["heading"]
    assert "wotr" in {r["book"] for r in results[:3]}
    # The old words alone find the old book first: without the newest edition's words beside them
    # and without the lean to the newest rules (which alone carries "temporarily close" to the
    # Core Set's rule since the fused score weighs the words and the embeddings evenly).
    without = search_passages(question, pipeline=Pipeline(newest_words=False, newest_weight=1.0)).hits
    assert without[0].book == "wotr"
    assert ask(f"in wrath, {question}").results[0]["book"] == "wotr"


def test_a_misspelled_question_gets_a_did_you_mean():
    answer = ask("what hapens when the hourgalss runs out")
    assert answer.did_you_mean and "hourglass" in answer.did_you_mean


def test_players_words_find_the_rule_in_the_books_words():
    answer = ask("what happens to a monster I slip past without fighting")
    assert any("evade" in r["text"].lower() for r in answer.results[:5]), [r["heading"] for r in answer.results]
    assert answer.did_you_mean is None  # "slip past" is English, not a typo of "skip part"


def test_a_definition_in_the_answer_brings_the_rule_it_refers_to():
    results = ask("what does acquire mean").results
    headings = [r["heading"] for r in results]
    # The definition answers near the top, and the rule it names comes just before it (the
    # answer quotes the definition apart; the rule is what settles the argument).
    definition = headings.index("Acquire")
    assert definition <= 2, headings
    assert "See Encountering a Card" in results[definition]["text"]
    assert headings[definition - 1] == "Encountering a Card", headings
    without = [h.pid for h in search_passages("what does acquire mean", pipeline=Pipeline(follow_glossary=False)).hits]
    assert results[definition - 1]["id"] not in without[:5]


def test_spelling_is_corrected_from_the_books_in_the_questions_language():
    assert ask("¿cómo se cierra una localizacoin?").did_you_mean == "¿cómo se cierra una localizacion?"
    assert ask("can I peek at the top card").did_you_mean is None  # not Spanish "pero"


def test_a_spanish_question_typed_as_keywords_is_read_as_spanish():
    """No "¿" and no small words: the words themselves say the language, and the spelling is
    corrected from the Spanish book ("no" is English too: it does not make a question Spanish)."""
    assert ask("mago sin bendicones").did_you_mean == "mago sin bendiciones"
    assert ask("esbirro derrotado cerar localizacion").did_you_mean == "esbirro derrotado cerrar localizacion"
    assert language_of("dead character, no rewards") == "en"


def test_no_did_you_mean_for_another_form_of_the_books_word_or_a_contraction():
    """ "evaded" reads as "evade" in the index and "couldn't" is English: a player who typed them
    made no mistake (1% of a sample of passage questions were "corrected" before)."""
    assert ask("the monster I evaded, where does it go").did_you_mean is None
    assert ask("I couldn't acquire the weapon, where does it go").did_you_mean is None
    assert ask("what hapens when the hourglass runs out").did_you_mean  # a typo is still a typo


def test_a_typo_is_corrected_to_a_word_the_search_reads():
    """ "ownr" is one letter from "own" and from "owner"; "own" is a stop word, which the search
    ignores, so the correction is "owner"."""
    assert ask("what does the ownr trait do").did_you_mean == "what does the owner trait do"


def test_two_letters_the_wrong_way_round_are_corrected_to_the_word_they_spell():
    """ "crad" is one letter from "crag" but two, swapped, from "card": a typist swaps letters, or
    drops one ("cerar" is "cerrar", the commoner of it and "crear"); a mistyped letter is likelier
    only for a word the books use far more ("feets" is "feats", not "feet")."""
    assert ask("can I give away a crad at my location").did_you_mean == "can I give away a card at my location"
    assert ask("what does a mythic paht give").did_you_mean == "what does a mythic path give"
    assert ask("how many feets do we get").did_you_mean == "how many feats do we get"


def test_no_did_you_mean_for_a_real_word_the_books_never_use():
    """ "fizzle" is English and "huya" Spanish, rare as they are: rewriting them as the books'
    "finale" or "haya" would tell the player they mistyped a word they didn't."""
    assert ask("does the whole effect just fizzle if I'm alone at my location").did_you_mean is None
    assert ask("¿el villano huya a otra localización?").did_you_mean is None
    corrected = ask("does the effect fizzle or does the villian escape").did_you_mean
    assert corrected == "does the effect fizzle or does the villain escape"  # a typo is still a typo


def test_glossary_terms_of_the_question_are_defined():
    answer = ask("what does recharge mean")
    assert any(entry["term"] == "Recharge" and entry["book"] == "core" for entry in answer.glossary)


def test_edition_differences_are_shown_side_by_side():
    answer = ask("can two players each play a weapon on the same check")
    conflicts = {c["id"]: c for c in answer.conflicts}
    assert conflicts, [r["heading"] for r in answer.results]
    sides = next(iter(conflicts.values()))["sides"]
    assert len(sides) >= 2 and all(side["passages"] for side in sides)


def test_a_book_that_contradicts_itself_is_flagged():
    answer = ask("how many fate points do I get for recovery points in a brief respite")
    assert any(all(side["books"] == ["aventuria"] for side in c["sides"]) for c in answer.conflicts)


def test_cards_named_in_the_question_are_shown():
    answer = ask("can I use the Longspear to reroll")
    assert any(card["name"] == "Longspear" for card in answer.cards)


def test_a_card_name_leans_to_its_game_but_does_not_settle_it():
    """Leather Armor is a PACG card in the bundled lists, which hold few of Aventuria's: the
    rule this question is nearest to is Aventuria's (one armor card per attack)."""
    question = "my leather armor and my shield are both out, do both reduce the same attack?"
    assert any(card.name == "Leather Armor" for card in named_cards(question)["pacg"])
    answer = ask(question)
    assert answer.game == "aventuria"
    assert "more than one armor card per attack" in " ".join(r["text"] for r in answer.results)


@pytest.mark.parametrize(
    "question, embedded",
    [
        (
            "Valeros just flipped the Ghoul, what does he roll",
            "the character just flipped the monster, what does he roll",
        ),
        ("can Seelah give her ally to my Valeros", "can the character give her ally to my character"),
        # A boon's name says what it is in the rules' words already.
        ("can I use my Leather Armor twice", "can I use my Leather Armor twice"),
        # The type words are English: a Spanish question is embedded as asked.
        ("¿puede Valeros explorar otra vez?", "¿puede Valeros explorar otra vez?"),
    ],
)
def test_a_named_character_or_bane_is_embedded_as_what_it_is(question, embedded):
    assert as_embedded(question, named_cards(question)) == embedded


def test_a_question_that_names_characters_gets_the_rule_not_passages_about_them():
    """The names draw the question's embedding to the few passages that use them (a Core deck
    list's "Valeros Weapon"); read as "the character" and "the monster", it finds the rule."""
    question = "Ezren is at the same location as Valeros, can he give him a card"
    assert top(question)["heading"] == "Give a Card"
    question = "Valeros has no weapon and flips the Ghoul, what skill does he use"
    assert all("Valeros" not in result["heading"] for result in ask(question).results[:3])
    without = search_passages(question, pipeline=Pipeline(names_as_types=False)).hits
    assert Passage.objects.get(pk=without[0].pid).heading == "Valeros Weapon"


@pytest.mark.parametrize(
    "question",
    [
        "what is the capital of france",
        "best pizza recipe with mushrooms",
        # Other games' rules are off topic too (these passed on the books' text alone).
        "how does castling work in chess",
        "can you move diagonally in checkers",
        "tell me a joke",
    ],
)
def test_off_topic_questions_get_no_rule_found(question):
    answer = ask(question)
    assert not answer.found and answer.results == []


def test_a_question_far_from_the_books_words_but_near_a_players_question_is_answered():
    # Its nearest passage text is at 0.81, its nearest passage question at 0.91.
    answer = ask("the baddie goes for the weakest of us but two are tied")
    assert answer.found and answer.game == "aventuria"


def test_search_returns_ranked_passages_of_a_kind():
    found = search_passages("hourglass", kinds=["glossary"], limit=3)
    hits, game = found.hits, found.game
    assert game == "pacg" and hits and all(hit.kind == "glossary" for hit in hits)
    assert hits == sorted(hits, key=lambda hit: -hit.score)


def test_a_passage_is_found_by_the_questions_it_answers():
    """ "Two options to beat it" is a player's way to say "an Arcane or Divine 8 check": the
    rule's words don't say it, the questions it answers do."""
    question = "the card gives two options to beat it, do I pick one"
    assert top(question)["url"].endswith("/rules/core/attempting-a-check/")
    without = search_passages(question, pipeline=Pipeline(asked=False)).hits
    rule = Passage.objects.get(book__slug="core", anchor="attempting-a-check").pk
    assert without[0].pid != rule and rule not in [h.pid for h in without[:4]]
