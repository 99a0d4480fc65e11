"""The search language over the bundled cards: the issue's queries, errors, and the index and
the plain-ORM baseline agreeing on every query."""

from __future__ import annotations

import pytest

from cards.models import Card
from cards.search.parser import SearchSyntaxError, parse
from cards.selectors import known_sets, search_cards
from cards.services import rebuild_index, request_reindex, save_card

pytestmark = pytest.mark.django_db


def names(query: str, **options) -> list[str]:  # type: ignore[no-untyped-def]
    return [card.name for card in search_cards(query=query, page_size=200, **options).cards]


def uids(query: str, **options) -> set[str]:  # type: ignore[no-untyped-def]
    return {card.uid for card in search_cards(query=query, page_size=200, **options).cards}


def test_undead_monsters():
    found = search_cards(query="t:monster trait:undead", page_size=200).cards
    assert "Ghoul" in {c.name for c in found}
    assert all("undead" in [t.lower() for t in c.traits] for c in found)


def test_immune_to_mental():
    found = search_cards(query="immune:mental", page_size=200).cards
    assert {"Ghoul", "Clockwork Guardian", "Quivering Cube"} <= {c.name for c in found}
    assert all("Mental" in c.immune for c in found)


def test_arcane_checks_of_difficulty_7_or_less():
    found = search_cards(query="check:arcane diff<=7", page_size=200).cards
    assert {"Magic Eye", "Clockwork Guardian", "Charm Person"} <= {c.name for c in found}
    for card in found:
        options = [o for step in card.check_data["steps"] for o in step]
        assert any("Arcane" in o["skills"] for o in options)
        assert any(o["difficulty"]["base"] <= 7 for o in options)


def test_cohorts_of_wrath_of_the_righteous_include_its_adventure_decks():
    found = search_cards(query="set:wotr t:cohort", page_size=200).cards
    assert found, "the WotR book names cohorts (Alain's Donahan)"
    assert "Donahan" in {c.name for c in found}
    assert all(c.type == "cohort" and c.uid.startswith("wotr") for c in found)


def test_or_has_lower_precedence_than_and_and_minus_negates():
    found = search_cards(query="-t:blessing level=0 or t:loot", page_size=200).cards
    assert found
    for card in found:
        assert card.type == "loot" or (card.type != "blessing" and card.level == 0) or "Loot" in (card.traits or [])
    blessing_level_0 = Card.objects.filter(type="blessing", level=0)
    assert blessing_level_0.exists() and not set(blessing_level_0) & set(found)


def test_spanish_words_without_accents_find_spanish_cards():
    found = search_cards(query="colmillo", page_size=200).cards
    assert "Colmillo Negro" in {c.name for c in found}
    assert all(c.language == "es" for c in found)


def test_accents_are_optional_both_ways():
    assert uids("bendicion") == uids("bendición")


def test_exact_name_matches_only_that_name():
    assert set(names('!"Magic Eye"')) == {"Magic Eye"}
    assert names('!"Magic"') == []


def test_phrase_needs_the_words_in_order():
    assert "Clockwork Guardian" in names('"clockwork guardian"')
    assert "Clockwork Guardian" not in names('"guardian clockwork"')


def test_type_matches_a_story_banes_kind():
    assert "Clockwork Guardian" in names("t:monster")  # a henchman that is a monster
    assert "Clockwork Guardian" in names("t:henchman")
    assert "Clockwork Guardian" in names("t:bane")


def test_levels_the_books_do_not_state_never_match_a_level_test():
    unknown = Card.objects.filter(level__isnull=True).values_list("uid", flat=True)
    assert unknown
    assert not uids("level>=0") & set(unknown)


def test_game_and_set_aliases():
    assert all(c.game == "aventuria" for c in search_cards(query="game:aventuria", page_size=200).cards)
    assert uids('set:"core set"') == uids("set:core")  # an alias the core.yaml set lists


@pytest.mark.parametrize(
    ("query", "message", "position"),
    [
        ("trait:", "trait: needs a value", 7),
        ("t:monstr", "did you mean monster", 3),
        ("colour:red", "unknown field 'colour'", 1),
        ("levl>2", "did you mean 'level'", 1),
        ("level<two", "needs a whole number", 7),
        ("trait<3", "trait takes : = !=", 1),
        ("(ghoul or boggart", "never closed", 1),
        ("ghoul)", "no matching '('", 6),
        ('"unclosed phrase', "never closed", 1),
        ("ghoul or", "'or' needs a term on its right", 7),
        ("or ghoul", "'or' needs a term on its left", 1),
        ("- ghoul", "'-' must touch the term it excludes", 1),
        ("set:nowhere", "unknown set 'nowhere'", 5),
        ("check:swimming", "not a skill", 7),
        ("()", "empty parentheses", 1),
    ],
)
def test_malformed_queries_say_what_is_wrong_and_where(query, message, position):
    with pytest.raises(SearchSyntaxError) as caught:
        parse(query, known_sets=known_sets())
    assert message in caught.value.message
    assert caught.value.position == position


AGREEMENT_QUERIES = [
    "",
    "ghoul",
    "t:monster",
    "t:boon level=0",
    "-t:blessing level=0 or t:loot",
    "trait:undead or trait:fey",
    "immune:mental -vuln:electricity",
    "check:arcane diff<=7",
    "check:combat diff>10",
    "hand>=5",
    '"magic eye"',
    '!"Ezren"',
    "o:explore",
    "name:kobold",
    "is:basic",
    "is:homebrew",
    "lang:es",
    "game:aventuria",
    "set:core (t:spell or t:item) -level>0",
    "level!=0",
    "t:character skill:arcane",
    "kw:guard",
    "is:incomplete",
]


@pytest.mark.parametrize("order", ["name", "-name", "level", "-level", "set", "type"])
@pytest.mark.parametrize("query", AGREEMENT_QUERIES)
def test_index_and_orm_baseline_return_the_same_page(query, order):
    for page in (1, 2):
        index = search_cards(query=query, order=order, page=page, page_size=25)
        orm = search_cards(query=query, order=order, page=page, page_size=25, backend="orm")
        assert index.total == orm.total
        assert [c.uid for c in index.cards] == [c.uid for c in orm.cards]


def test_results_are_paged_and_counted():
    first = search_cards(query="", page=1, page_size=10)
    second = search_cards(query="", page=2, page_size=10)
    assert first.total == Card.objects.count() and len(first.cards) == 10
    assert not {c.uid for c in first.cards} & {c.uid for c in second.cards}


def test_the_index_follows_a_card_change_once_it_commits(private_index, django_capture_on_commit_callbacks):
    rebuild_index()
    ghoul = Card.objects.get(uid="core.ghoul")
    ghoul.traits = [*ghoul.traits, "Zombie"]
    with django_capture_on_commit_callbacks(execute=True):
        save_card(card=ghoul)
        request_reindex()
        assert names("trait:zombie") == []  # not before the commit
    assert names("trait:zombie") == ["Ghoul"]
