"""import_cards / export_cards: all or nothing, idempotent, and a lossless round trip."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.models import Card, CardSet
from cards.services import CardImportError, import_card_files

from ..conftest import CARD_DATA

pytestmark = pytest.mark.django_db

GOOD = """\
format: pacg-cards/1
set:
  code: homebrew-test
  name: Test Homebrew
  game: pacg
  kind: homebrew
  homebrew: true
  provenance: {book: homebrew, section: Tests}
cards:
  - name: Rusty Sword
    type: weapon
    level: 0
    traits: [Melee, Sword, Basic]
    check: Strength or Melee 6
    powers: ["Reveal this card to add 1d4 to your combat check."]
    provenance: {book: homebrew, section: Tests}
  - name: Mud Golem
    type: monster
    level: 1
    traits: [Construct]
    check: Combat 9 + AN
    immune: [Mental]
    provenance: {book: homebrew, section: Tests}
"""


def write(tmp_path: Path, text: str, name: str = "cards.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_import_creates_the_set_and_its_cards(tmp_path, private_index):
    summary = import_card_files(paths=[write(tmp_path, GOOD)])
    assert (summary.sets_created, summary.created) == (1, 2)
    golem = Card.objects.get(uid="homebrew-test.mud-golem")
    assert golem.check_text == "Combat 9 + AN" and golem.immune == ["Mental"]
    assert set(golem.tags.filter(kind="diff").values_list("number", flat=True)) == {9}


def test_importing_the_same_file_twice_changes_nothing(tmp_path, private_index):
    path = write(tmp_path, GOOD)
    import_card_files(paths=[path])
    before = {card.uid: card.updated_at for card in Card.objects.filter(card_set__code="homebrew-test")}
    summary = import_card_files(paths=[path])
    assert (summary.created, summary.updated, summary.unchanged, summary.changed) == (0, 0, 2, False)
    after = {card.uid: card.updated_at for card in Card.objects.filter(card_set__code="homebrew-test")}
    assert after == before


def test_a_file_with_one_bad_record_imports_nothing(tmp_path):
    bad = GOOD.replace("check: Combat 9 + AN", "check: Combat nine")
    cards_before, sets_before = Card.objects.count(), CardSet.objects.count()
    with pytest.raises(CardImportError) as caught:
        import_card_files(paths=[write(tmp_path, bad)])
    assert caught.value.errors[0].line == 21 and caught.value.errors[0].field == "check"
    assert (Card.objects.count(), CardSet.objects.count()) == (cards_before, sets_before)


def test_a_bad_file_among_good_ones_stops_them_all(tmp_path):
    good = write(tmp_path, GOOD, "good.yaml")
    bad = write(tmp_path, GOOD.replace("homebrew-test", "other").replace("type: weapon", "type: sword"), "bad.yaml")
    with pytest.raises(CardImportError):
        import_card_files(paths=[good, bad])
    assert not CardSet.objects.filter(code__in=["homebrew-test", "other"]).exists()


def test_the_command_exits_non_zero_naming_file_and_line(tmp_path, capsys):
    path = write(tmp_path, GOOD.replace("type: monster", "type: monstre"))
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_cards", str(path))
    assert f"{path}:18: card #2 (Mud Golem) field 'type'" in capsys.readouterr().err


def test_csv_must_name_an_existing_set(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text('set,name,type,provenance\nnowhere,Sword,weapon,"{""book"": ""core"", ""section"": ""x""}"\n')
    with pytest.raises(CardImportError, match="no set has the code 'nowhere'"):
        import_card_files(paths=[path])


def test_csv_adds_cards_to_a_set_and_checks_the_game(tmp_path, private_index):
    path = tmp_path / "cards.csv"
    path.write_text(
        "set,name,type,level,traits,check,provenance\n"
        'core,Practice Dummy,barrier,0,Obstacle,Strength 4,"{""book"": ""homebrew"", ""section"": ""x""}"\n'
    )
    import_card_files(paths=[path])
    assert Card.objects.get(uid="core.practice-dummy").check_text == "Strength 4"
    path.write_text('set,name,type,provenance\ncore,Elf Scout,hero,"{""book"": ""homebrew"", ""section"": ""x""}"\n')
    with pytest.raises(CardImportError, match="hero is not a pacg type"):
        import_card_files(paths=[path])


def test_prune_removes_cards_the_file_no_longer_has(tmp_path, private_index):
    path = write(tmp_path, GOOD)
    import_card_files(paths=[path])
    write(tmp_path, GOOD.split("  - name: Mud Golem")[0])
    summary = import_card_files(paths=[path], prune=True)
    assert summary.deleted == 1
    assert not Card.objects.filter(uid="homebrew-test.mud-golem").exists()


def test_export_then_import_is_lossless_for_every_bundled_set(tmp_path, private_index):
    call_command("export_cards", str(tmp_path / "first"))
    exported = sorted((tmp_path / "first").glob("*.yaml"))
    assert {p.stem for p in exported} == set(CardSet.objects.values_list("code", flat=True))
    records_before = {card.uid: card.as_record() for card in Card.objects.all()}
    summary = import_card_files(paths=exported)
    assert (summary.created, summary.updated) == (0, 0)
    assert {card.uid: card.as_record() for card in Card.objects.all()} == records_before
    call_command("export_cards", str(tmp_path / "second"))
    for path in exported:
        assert (tmp_path / "second" / path.name).read_text() == path.read_text(), path.name


def test_bundled_files_are_already_in_canonical_form(tmp_path):
    """What we ship is exactly what export writes: reviewable diffs, no formatting churn."""
    call_command("export_cards", str(tmp_path))
    for path in sorted(CARD_DATA.glob("*.yaml")):
        assert (tmp_path / path.name).read_text() == path.read_text(), f"{path.name} is not canonical"


def test_export_refuses_an_unknown_set(tmp_path):
    with pytest.raises(CommandError, match="no set has the code"):
        call_command("export_cards", str(tmp_path), "--set", "nope")
