"""Importing rulebooks: idempotent, refused with a clear error when the input is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules.models import Passage, Rulebook
from rules.services import RULEBOOKS_DIR, import_bundled_rulebooks

pytestmark = pytest.mark.django_db


def test_importing_the_bundled_books_again_changes_nothing():
    before = dict(Passage.objects.values_list("pk", "text"))
    assert not any(result.changed for result in import_bundled_rulebooks())
    assert dict(Passage.objects.values_list("pk", "text")) == before


def _house_book(tmp_path: Path, questions: str | None = None) -> tuple[Path, Path]:
    """A two-passage book and its manifest, with a questions file when `questions` is given."""
    named = ", questions: house-questions.yaml" if questions is not None else ""
    manifest = tmp_path / "MANIFEST.yaml"
    manifest.write_text(
        f"- {{slug: house, file: house.txt{named}, game: pacg, title: House Rules, ruleset: core-2019, language: en}}\n"
    )
    if questions is not None:
        (tmp_path / "house-questions.yaml").write_text(questions)
    text = tmp_path / "house.txt"
    text.write_text(
        "House Rules\nTable of Contents\n- Mulligans\n- Snacks\nMulligans\n"
        "Once per scenario, before drawing your starting hand, you may shuffle your hand back and draw again.\n"
        "Snacks\nThe player who dies brings the snacks to the next game, whatever the storybook says.\n"
    )
    return manifest, text


def test_a_new_book_is_imported_from_text_and_a_manifest_entry(
    tmp_path, private_index, capsys, django_capture_on_commit_callbacks
):
    manifest, text = _house_book(tmp_path)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_rulebook", str(text), "--slug", "house", "--manifest", str(manifest))
    assert "house: imported, 2 passages" in capsys.readouterr().out
    assert list(Passage.objects.filter(book__slug="house").values_list("heading", flat=True)) == ["Mulligans", "Snacks"]
    from rules.selectors import search_passages

    hits = search_passages("who brings the snacks", books=["house"]).hits
    assert hits and Passage.objects.get(pk=hits[0].pid).heading == "Snacks"  # the index was rebuilt on commit
    call_command("import_rulebook", str(text), "--slug", "house", "--manifest", str(manifest))
    assert "house: unchanged" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("manifest", "complaint"),
    [
        ("- {slug: x, file: x.txt, game: chess, title: X, ruleset: r, language: en}", "game must be one of"),
        ("- {slug: x, file: x.txt, title: X, ruleset: r, language: en}", "missing game"),
        ("- {slug: x, file: x.txt, game: pacg, title: X, ruleset: r, language: fr}", "has no analyzer"),
        ("not: a list", "must be a list"),
    ],
)
def test_a_bad_manifest_is_refused_and_changes_nothing(tmp_path, manifest, complaint):
    (tmp_path / "m.yaml").write_text(manifest + "\n")
    (tmp_path / "x.txt").write_text("Anything\n")
    before = Rulebook.objects.count()
    with pytest.raises(CommandError, match=complaint):
        call_command("import_rulebook", str(tmp_path / "x.txt"), "--slug", "x", "--manifest", str(tmp_path / "m.yaml"))
    assert Rulebook.objects.count() == before


def test_an_unknown_slug_or_unreadable_text_is_refused(tmp_path):
    with pytest.raises(CommandError, match="no book has the slug 'nope'"):
        call_command("import_rulebook", str(RULEBOOKS_DIR / "pacg-core-set.en.txt"), "--slug", "nope")
    with pytest.raises(CommandError, match="cannot read the text"):
        call_command("import_rulebook", str(Path(tmp_path) / "missing.txt"), "--slug", "core")


def test_every_passage_of_the_bundled_books_carries_the_questions_it_answers():
    assert not Passage.objects.filter(questions=[]).exists()
    transition = Passage.objects.get(book__slug="core", anchor="replaced-game-terms")
    assert len(transition.questions) * 384 * 4 == len(transition.question_embedding)


def test_a_new_books_questions_are_imported_with_it(tmp_path, private_index):
    manifest, text = _house_book(tmp_path, "snacks:\n  - who feeds the table\n  - 'food duty: whose turn'\n")
    call_command("import_rulebook", str(text), "--slug", "house", "--manifest", str(manifest))
    snacks = Passage.objects.get(book__slug="house", anchor="snacks")
    assert snacks.questions == ["who feeds the table", "food duty: whose turn"]
    assert Passage.objects.get(book__slug="house", anchor="mulligans").questions == []


@pytest.mark.parametrize(
    ("questions", "complaint"),
    [
        (
            "mulligans: [can I redraw]\nsnack: [who feeds the table]\n",
            r"line 2: no passage of house has the anchor 'snack'",
        ),
        ("snacks: who feeds the table\n", r"line 1: an anchor must map to a list of non-empty questions"),
        ("snacks: ['']\n", r"line 1: an anchor must map to a list of non-empty questions"),
        ("- who feeds the table\n", "must be a mapping of passage anchors"),
        ("snacks: [unclosed\n", "cannot read the questions"),
        ("snacks: [who feeds the table]\nsnacks: [whose turn to cook]\n", "line 2: 'snacks' is listed twice"),
    ],
)
def test_a_bad_questions_file_is_refused_with_its_line_and_changes_nothing(tmp_path, questions, complaint):
    manifest, text = _house_book(tmp_path, questions)
    with pytest.raises(CommandError, match=complaint) as refused:
        call_command("import_rulebook", str(text), "--slug", "house", "--manifest", str(manifest))
    assert "house-questions.yaml" in str(refused.value)
    assert not Rulebook.objects.filter(slug="house").exists()
