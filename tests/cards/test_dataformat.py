"""The card data format on its own: checks, fields, errors with file and line (no database)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cards.dataformat import CheckSyntaxError, difficulty_at, format_check, load_files, parse_check
from cards.dataformat.loader import dump_document
from cards.dataformat.schema import normalize_card


def write(tmp_path: Path, body: str, name: str = "set.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


HEADER = """\
    format: pacg-cards/1
    set:
      code: test
      name: Test Set
      game: pacg
      kind: other
      provenance: {book: core, section: Card Sets}
    cards:
"""


def test_or_binds_tighter_than_then_as_the_core_rulebook_says():
    check = parse_check("Wisdom 10 or Combat 13 then Combat 15")
    assert [[o["skills"] for o in step] for step in check["steps"]] == [[["Wisdom"], ["Combat"]], [["Combat"]]]
    assert [[o["difficulty"]["base"] for o in step] for step in check["steps"]] == [[10, 13], [15]]


def test_a_skill_list_shares_the_difficulty_that_follows_it():
    check = parse_check("Knowledge or Perception 4 then Combat 10")
    assert check["steps"][0] == [{"skills": ["Knowledge", "Perception"], "difficulty": {"base": 4, "adventure": 0}}]


@pytest.mark.parametrize(
    ("written", "base", "adventure", "at_adventure_1"),
    [
        ("Combat 11 + 2AN", 11, 2, 13),
        ("Combat 10 + AN + AN", 10, 2, 12),
        ("Combat 11+2xAN", 11, 2, 13),
        ("Combat 7 + AN", 7, 1, 8),
        ("Combate 9", 9, 0, 9),
    ],
)
def test_adventure_number_formulas(written, base, adventure, at_adventure_1):
    difficulty = parse_check(written)["steps"][0][0]["difficulty"]
    assert difficulty == {"base": base, "adventure": adventure}
    assert difficulty_at(difficulty, 1) == at_adventure_1


def test_spanish_skills_are_stored_in_english():
    check = parse_check("Inteligencia, habilidad arcana, Sabiduría o habilidad divina 6")
    assert check["steps"][0][0]["skills"] == ["Intelligence", "Arcane", "Wisdom", "Divine"]


def test_none_and_see_below_are_kept_as_printed():
    assert format_check(parse_check("None")) == "None"
    assert format_check(parse_check("see below")) == "See below"


def test_printing_a_parsed_check_gives_the_canonical_form():
    assert format_check(parse_check("Strength or Melee 9, or Acrobatics 6")) == "Strength or Melee 9 or Acrobatics 6"


@pytest.mark.parametrize(
    ("written", "complaint"),
    [
        ("Combat", "has no difficulty"),
        ("Swimming 5", "unknown skill 'Swimming'"),
        ("Combat 10 then", "empty part"),
        ("12", "difficulty without a skill"),
    ],
)
def test_unreadable_checks_say_what_is_wrong(written, complaint):
    with pytest.raises(CheckSyntaxError, match=complaint):
        parse_check(written)


def test_absent_facts_stay_unknown_and_empty_lists_stay_known_empty():
    card, issues = normalize_card(
        {"name": "Ghoul", "type": "monster", "immune": [], "provenance": {"book": "core", "section": "x"}},
        set_game="pacg",
        set_language="en",
    )
    assert issues == []
    assert card["immune"] == [] and card["traits"] is None and card["check"] is None and card["level"] is None


def test_character_skills_deck_list_and_feat_boxes():
    card, issues = normalize_card(
        {
            "name": "Amiri",
            "type": "character",
            "skills": {"Strength": "d12 [+1 +2 +3]", "Melee": "Strength +2"},
            "deck_list": {"weapon": 4, "armor": "2 [3]"},
            "provenance": {"book": "core", "section": "Example of Play"},
        },
        set_game="pacg",
        set_language="en",
    )
    assert issues == []
    assert card["data"]["skills"] == [
        {"skill": "Strength", "die": "d12", "feats": [1, 2, 3]},
        {"skill": "Melee", "base": "Strength", "modifier": 2},
    ]
    assert card["data"]["deck_list"] == {"weapon": {"count": 4}, "armor": {"count": 2, "feats": [3]}}


def test_levels_keep_b_c_p_as_printed_and_count_them_as_zero():
    for printed, level in (("B", 0), ("C", 0), ("P", 0), ("P1", 1), ("II", 2), (3, 3)):
        card, issues = normalize_card(
            {"name": "X", "type": "weapon", "level": printed, "provenance": {"book": "wotr", "section": "x"}},
            set_game="pacg",
            set_language="en",
        )
        assert issues == [] and card["level"] == level
        assert card["level_code"] == (printed if isinstance(printed, str) else "")


def test_errors_name_the_file_the_line_the_record_and_the_field(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + """\
      - name: Ghoul
        type: monster
        check: Combat 11 + 2AN
        provenance: {book: core, section: Example of Play}
      - name: Bad Card
        type: monster
        check: Combat eleven
        colour: red
        provenance: {book: core, section: Example of Play}
    """,
    )
    files, errors = load_files([path])
    messages = sorted(str(error) for error in errors)
    assert any(m.startswith(f"{path}:16: card #2 (Bad Card) field 'colour'") for m in messages), messages
    assert any(m.startswith(f"{path}:15: card #2 (Bad Card) field 'check'") for m in messages), messages
    assert [card["name"] for card in files[0].cards] == ["Ghoul"]


def test_every_card_needs_its_source(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + """\
      - name: Orphan
        type: weapon
    """,
    )
    _, errors = load_files([path])
    assert [(e.line, e.field) for e in errors] == [(9, "provenance")]


def test_two_cards_with_one_id_in_a_set_are_refused(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + """\
      - {name: Dagger, type: weapon, provenance: {book: core, section: x}}
      - {name: dagger, type: weapon, provenance: {book: core, section: x}}
    """,
    )
    _, errors = load_files([path])
    assert len(errors) == 1 and "already used" in errors[0].message and errors[0].line == 10


def test_broken_yaml_reports_its_line(tmp_path):
    path = write(tmp_path, HEADER + "  - name: [unclosed\n")
    _, errors = load_files([path])
    assert len(errors) == 1 and errors[0].line is not None and "invalid YAML" in errors[0].message


def test_a_type_of_the_other_game_is_refused(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + """\
      - {name: Elf Scout, type: hero, provenance: {book: aventuria, section: x}}
    """,
    )
    _, errors = load_files([path])
    assert "hero is a aventuria type, the set is pacg" in errors[0].message


def test_aventuria_action_tables_must_stay_within_1_to_20_without_overlap():
    base = {
        "name": "Baron",
        "type": "opponent",
        "subtype": "leader",
        "provenance": {"book": "aventuria", "section": "x"},
    }
    _, issues = normalize_card(
        base | {"action_table": [{"roll": "1-5", "effect": "a"}, {"roll": "5-8", "effect": "b"}]},
        set_game="aventuria",
        set_language="en",
    )
    assert issues and "overlaps" in issues[0].message
    card, issues = normalize_card(
        base
        | {"life_points": "8 × heroes", "action_table": [{"roll": "1-19", "effect": "a"}, {"roll": 20, "effect": "b"}]},
        set_game="aventuria",
        set_language="en",
    )
    assert issues == [] and card["data"]["life_points"] == {"base": 0, "per_hero": 8}


def test_csv_rows_become_cards_of_the_named_set(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(
        "set,name,type,level,traits,check,powers,provenance\n"
        'test,Rusty Sword,weapon,0,Melee; Sword,Strength or Melee 6,"Reveal to add 1d4.\nDiscard to add 1d8.",'
        '"[{""book"": ""homebrew"", ""section"": ""Test""}]"\n'
        'test,Broken,weapon,0,,Strength 6x,,"[{""book"": ""homebrew"", ""section"": ""Test""}]"\n',
        encoding="utf-8",
    )
    files, errors = load_files([path])
    assert [(e.line, e.field) for e in errors] == [(4, "check")]
    card = files[0].cards[0]
    assert card["traits"] == ["Melee", "Sword"] and card["powers"] == ["Reveal to add 1d4.", "Discard to add 1d8."]


def test_dump_then_load_gives_the_same_records(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + """\
      - name: Clockwork Guardian
        type: henchman
        subtype: monster
        check: Combat 13 + 2AN or Arcane or Knowledge 7 + AN
        immune: [Mental, Poison]
        vulnerable: [Electricity]
        traits: [Construct, Veteran]
        provenance: [{book: core, section: Example of Play, quote: "vulnerable to Electricity"}]
    """,
    )
    files, errors = load_files([path])
    assert errors == []
    text = dump_document(files[0].set, files[0].cards)
    again = write(tmp_path, text, "again.yaml")
    files_again, errors_again = load_files([again])
    assert errors_again == [] and files_again[0].cards == files[0].cards
    assert dump_document(files_again[0].set, files_again[0].cards) == text


def test_effects_are_checked_against_the_engine_vocabulary_naming_the_line(tmp_path):
    path = write(
        tmp_path,
        HEADER
        + """\
      - name: Good Sword
        type: weapon
        effects:
          powers:
          - {id: strike, timing: check, cost: reveal, effects: [{add_die: 1d8}]}
        provenance: {book: homebrew, section: test}
      - name: Bad Sword
        type: weapon
        effects:
          powers:
          - {id: strike, timing: check, cost: reveal, effects: [{add_dice: 1d8}]}
        provenance: {book: homebrew, section: test}
      - name: Worse Sword
        type: weapon
        effects: {abilities: []}
        provenance: {book: homebrew, section: test}
    """,
    )
    files, errors = load_files([path])
    messages = [str(error) for error in errors]
    assert any(
        f"{path}:17: card #2 (Bad Sword) field 'effects'" in m and "'add_dice' is not in the effect vocabulary" in m
        for m in messages
    ), messages
    assert any("(Worse Sword) field 'effects'" in m and "'abilities' is not an engine key" in m for m in messages)
    assert [card["name"] for card in files[0].cards] == ["Good Sword"]
    assert files[0].cards[0]["data"]["effects"]["powers"][0]["effects"] == [{"add_die": "1d8"}]
