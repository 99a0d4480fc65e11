"""Rulebooks into passages: structure, noise removed and counted, repeats indexed once."""

from __future__ import annotations

import re
from functools import cache

import pytest

from rules.services import RULEBOOKS_DIR, read_manifest
from rules.splitting import split_book


@cache
def split(slug: str):  # type: ignore[no-untyped-def]
    entry = next(e for e in read_manifest() if e["slug"] == slug)
    return split_book((RULEBOOKS_DIR / entry["file"]).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("slug", "layout", "min_kept_share", "max_dropped_share"),
    [
        ("core", "lines", 0.97, 0.03),
        ("wotr", "lines", 0.85, 0.03),
        ("rotr_es", "caps", 0.80, 0.10),
        ("aventuria", "lines", 0.97, 0.03),
    ],
)
def test_how_much_text_each_book_keeps_and_drops(slug, layout, min_kept_share, max_dropped_share):
    result = split(slug)
    total = result.kept_chars + result.dropped_chars + result.duplicate_chars
    print(
        f"{slug}: kept {result.kept_chars} ({result.kept_chars / total:.1%}), dropped {result.dropped_chars} as noise"
        f" ({result.dropped_chars / total:.1%}), {result.duplicate_chars} as repeats, {len(result.passages)} passages"
    )
    assert result.layout == layout
    assert result.kept_chars / total >= min_kept_share
    assert result.dropped_chars / total <= max_dropped_share


def test_the_repeated_half_of_wrath_of_the_righteous_is_indexed_once():
    result = split("wotr")
    assert result.duplicate_chars > 10000
    texts = [" ".join(p.text.split()) for p in result.passages]
    assert len(texts) == len(set(texts))
    assert sum("Create the Blessings Deck. Draw 30 random blessing cards" in t for t in texts) == 1


def test_core_sections_sidebars_steps_glossary_and_reference():
    passages = split("core").passages
    kinds = {p.kind for p in passages}
    assert {"section", "step", "rules", "strategy", "example", "glossary", "reference", "play-example"} <= kinds
    check = next(p for p in passages if p.heading == "Attempt the Check")
    assert check.kind == "step" and check.path == ["Encountering a Card"]
    escape = next(p for p in passages if p.heading == "Villain Step: Determine Whether the Villain Escapes")
    assert escape.text.startswith("Villain Step: Determine Whether the Villain Escapes. If any locations are unguarded")
    bless = next(p for p in passages if p.heading == "Rules: Bless")
    assert bless.kind == "rules" and bless.path == ["Attempting a Check"]
    glossary = [p for p in passages if p.kind == "glossary"]
    assert len(glossary) > 100 and all(p.path == ["Glossary"] for p in glossary)
    assert next(p for p in glossary if p.heading == "Hourglass").text.startswith("Hourglass: A countdown timer")
    turns = [p.heading for p in passages if p.kind == "play-example"]
    assert {"Sam's Turn", "Alice's Turn", "Lee's Turn"} <= set(turns)


def test_spanish_headings_are_found_and_page_furniture_is_gone():
    passages = split("rotr_es").passages
    headings = {p.heading for p in passages}
    assert {"Cómo realizar una prueba", "Sufrir daño", "Cómo cerrar una localización", "Hoja de referencia"} <= headings
    assert any(
        p.kind == "strategy" and p.heading.startswith("Estrategia: ¿hay que explorar siempre?") for p in passages
    )
    for passage in passages:
        assert "REGLAMENTO DEL JUEGO BÁSICO" not in passage.text
        assert "Paizo Inc" not in passage.text
        assert not re.search(r"\b(?:\w{1,2} ){6,}", passage.text), passage.text[:200]  # spaced-out letters


def test_spanish_asides_are_passages_of_their_own_and_the_rules_around_them_stay_together():
    passages = split("rotr_es").passages

    def by_text(phrase: str):  # type: ignore[no-untyped-def]
        return next(p for p in passages if phrase in p.text)

    # A character profile run into a heading is split from it, and the rules resume after it.
    lem = by_text("Mientras la mayoría de los demás se especializan")
    assert (lem.heading, lem.path) == ("Lem el bardo", ["Cómo realizar una prueba"])
    assert by_text("Efectuar la tirada: se lanzan los dados").heading == "Cómo realizar una prueba"
    kyra = by_text("Todos corren hacia Kyra")
    assert (kyra.heading, kyra.path) == ("Kyra la clériga", ["Cómo enfrentarse a una carta"])
    assert by_text("Merisiel cuenta con el poder").heading == "Merisiel la pícara"
    # Headings with parentheses or of one word are found; a boon's face is not a section.
    assert by_text("Las cartas de perdición son aquellas").heading.startswith("Cartas de perdición (villano")
    assert by_text("Los esbirros son un tipo especial de perdición").heading == "Esbirros"
    assert by_text("Seoni encuentra el conjuro elocuencia").kind == "example"
    assert not {"Carisma tesoro", "Medallón siédrico"} & {p.heading for p in passages}
    assert [p.text[:13] for p in passages if p.heading == "Lini la druida"] == ["Lini se sirve"]


def test_long_sections_are_cut_into_parts_at_sentence_ends():
    parts = [p for p in split("core").passages if p.heading == "Playing Cards" and p.part]
    assert len(parts) >= 2 and [p.part for p in parts] == list(range(1, len(parts) + 1))
    assert all(p.text.rstrip()[-1] in '.!?"”)' for p in parts[:-1])


def test_aventuria_keeps_its_own_sections():
    headings = {p.heading for p in split("aventuria").passages}
    assert {"Brief Respite", "Hero Title", "Reanimation Roll", "Spending Adventure Points"} <= headings


@pytest.mark.parametrize("slug", ["core", "wotr"])
def test_a_reference_sheet_list_stays_one_passage_under_its_heading(slug):
    """ "Playing a Card" lists Reveal, Display, Discard... one line each; a long line is still an
    item of that list, not a passage of its own. Steps that each run in their own label, like
    Aventuria's combat sequence, stay apart."""
    playing = [p for p in split(slug).passages if p.kind == "reference" and p.heading == "Playing a Card"]
    assert len(playing) == 1
    assert all(f"{verb}:" in playing[0].text for verb in ("Reveal", "Display", "Discard", "Recharge", "Bury", "Banish"))
    sequence = {p.heading for p in split("aventuria").passages if p.path[-1:] == ["Combat Sequence"]}
    assert {"Preparation", "Time Effects", "End of Round"} <= sequence
