"""Write the development sets' questions (tests/rules/eval: questions.yaml's dev half and the
probe sets, never the held-out half) into the books' questions files, under every passage their
labels name: questions players asked, each with the passages that answer it. Idempotent.

    .venv/bin/python bench/dev_questions.py

bench/rules_quality.py leaves out of its index the questions that copy the ones it measures, so a
dev set still measures the assistant, not its own questions; a question sharing half its words
with a held-out question is not written at all, nor one that names a book, nor one beside an
older edition's rule in the newest edition's words.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import setup_django  # noqa: E402
from rules_quality import QUESTION_FILES, copies, normal, words  # noqa: E402

MARK = "  # dev set"
# Sets whose questions are measured but not written (tests/rules/eval/README.md): probe11's and
# probe17's cost the other sets answers in the top five.
NOT_WRITTEN = {"probe11", "probe17"}
NEWEST = "core-2019"  # the edition whose words a question may not bring beside an older rule


def labelled(questions: list[dict], slug: str, passages: list, anchors: list[str]) -> dict[str, list[str]]:  # type: ignore[type-arg]
    """anchor -> the questions whose labels name that passage of the book."""
    found: dict[str, list[str]] = {}
    texts = [normal(passage.text) for passage in passages]
    for question in questions:
        for expected in question["expected"]:
            if expected["book"] != slug:
                continue
            for text, anchor in zip(texts, anchors, strict=True):
                if normal(expected["phrase"]) in text:
                    found.setdefault(anchor, [])
                    if question["question"] not in found[anchor]:
                        found[anchor].append(question["question"])
    return found


def newer_words(question: str, edition: str, book: str) -> bool:
    """Whether the question says a concept in the Core Set's words that the older edition's book
    (`book`, its folded text) never uses ("advance the hour" beside Wrath's "Advance the Blessings
    Deck"): beside the older rule, it would put that rule first for players of the newest
    edition, who use those words."""
    from cards.dataformat.text import fold
    from rules.concepts import concept_table

    table = concept_table()
    for mention in table.mentions(question, "pacg"):
        terms = table.concepts[mention.concept].terms
        newest, own = {fold(w) for w in terms.get(NEWEST, ())}, {fold(w) for w in terms.get(edition, ())}
        if mention.word in newest - own and mention.word not in book:
            return True
    return False


def write(path: Path, additions: dict[str, list[str]]) -> int:
    """Append each anchor's new questions after its list (a new anchor at the end)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    listed = yaml.safe_load("\n".join(lines)) or {}
    added = 0
    for anchor, questions in additions.items():
        new = [q for q in questions if " ".join(q.split()) not in listed.get(anchor, [])]
        if not new:
            continue
        entries = [f"- {json.dumps(' '.join(q.split()), ensure_ascii=False)}{MARK}" for q in new]
        if anchor in listed:
            start = lines.index(f"{anchor}:")
            end = start + 1
            while end < len(lines) and (lines[end].startswith("- ") or not lines[end].strip()):
                end += 1
            while not lines[end - 1].startswith("- "):
                end -= 1
            lines[end:end] = entries
        else:
            lines += [f"{anchor}:", *entries]
        added += len(new)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return added


def main() -> None:
    setup_django()
    from cards.dataformat.text import fold
    from rules.assistant.understand import books_named, language_of
    from rules.models import EDITIONS
    from rules.services import RULEBOOKS_DIR, _anchors, read_manifest
    from rules.splitting import split_book

    questions = [q for path in QUESTION_FILES for q in yaml.safe_load(path.read_text(encoding="utf-8"))]
    held_out = [words(q["question"]) for q in questions if q["split"] == "heldout"]
    # A question that names a book was asked about that edition, often in another edition's words
    # ("in Wrath, when I advance the hour ..."): beside the passage, it would teach it the other
    # edition's words, and a player who names no edition gets the newest rules first.
    dev = [
        q
        for q in questions
        if q["split"] != "heldout"
        and q["split"] not in NOT_WRITTEN
        and not copies(q["question"], held_out)
        and not books_named(q["question"])
    ]
    for entry in read_manifest():
        text = (RULEBOOKS_DIR / entry["file"]).read_text(encoding="utf-8")
        passages = split_book(text).passages
        # Beside a book in its own language only: "avanzar el mazo de bendiciones" beside Wrath's
        # rule, embedded next to "advance the blessings deck", put it before the Core Set's.
        edition, folded = EDITIONS[entry["ruleset"]], fold(text)
        older = entry["game"] == "pacg" and edition != NEWEST
        own = [
            q
            for q in dev
            if language_of(q["question"]) == entry["language"]
            and not (older and newer_words(q["question"], edition, folded))
        ]
        additions = labelled(own, entry["slug"], passages, _anchors(passages))
        added = write(RULEBOOKS_DIR / entry["questions"], additions)
        print(f"{entry['slug']}: {added} questions added")


if __name__ == "__main__":
    main()
