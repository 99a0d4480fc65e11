"""Writes of the rules app: importing rulebooks into passages, and the rules index."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from django.db import transaction

from cards.dataformat.fields import slugify
from cards.dataformat.text import fold
from cards.vocabulary import EDITIONS, GAMES
from pacg_site import yamltext
from pacg_site.celery import enqueue
from pacg_site.errors import DomainError

from .assistant.embeddings import MODEL_ID
from .concepts import concept_table
from .models import Passage, Rulebook
from .splitting import Passage as SplitPassage
from .splitting import split_book

RULEBOOKS_DIR = Path(__file__).resolve().parent / "data" / "rulebooks"
MANIFEST = RULEBOOKS_DIR / "MANIFEST.yaml"
REQUIRED = ("slug", "game", "title", "ruleset", "language")


class RulebookImportError(DomainError):
    code = "rulebook_invalid"


@dataclass
class RulebookImport:
    slug: str
    changed: bool
    passages: int
    kept_chars: int
    dropped_chars: int
    duplicate_chars: int


def read_manifest(path: Path = MANIFEST) -> list[dict[str, Any]]:
    try:
        entries = yamltext.load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise RulebookImportError(f"{path}: cannot read the manifest: {error}") from error
    if not isinstance(entries, list):
        raise RulebookImportError(f"{path}: the manifest must be a list of books")
    for number, entry in enumerate(entries, start=1):
        validate_entry(entry, where=f"{path}: book #{number}")
    return entries


@dataclass(frozen=True)
class QuestionFile:
    """A book's questions file: for each passage anchor, the questions players ask that the
    passage answers, and the line each anchor is on (to say where a wrong one is)."""

    path: Path
    questions: dict[str, list[str]]
    lines: dict[str, int]


def read_questions(entry: dict[str, Any], base: Path) -> QuestionFile | None:
    """The questions file a manifest entry names (`questions:`, relative to the manifest)."""
    if not entry.get("questions"):
        return None
    path = base / entry["questions"]
    try:
        root = yamltext.compose(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise RulebookImportError(f"{path}: cannot read the questions: {error}") from error
    if not isinstance(root, yaml.MappingNode):
        raise RulebookImportError(f"{path}: the questions must be a mapping of passage anchors to lists of questions")
    questions, lines = {}, {}
    for key, value in root.value:
        line = key.start_mark.line + 1
        items = value.value if isinstance(value, yaml.SequenceNode) else None
        if (
            not isinstance(key, yaml.ScalarNode)
            or items is None
            or not all(isinstance(item, yaml.ScalarNode) and item.value.strip() for item in items)
        ):
            raise RulebookImportError(f"{path}, line {line}: an anchor must map to a list of non-empty questions")
        if key.value in questions:
            raise RulebookImportError(f"{path}, line {line}: {key.value!r} is listed twice")
        questions[key.value] = [" ".join(item.value.split()) for item in items]
        lines[key.value] = line
    return QuestionFile(path, questions, lines)


def validate_entry(entry: Any, *, where: str) -> None:
    if not isinstance(entry, dict):
        raise RulebookImportError(f"{where}: a manifest entry must be a mapping")
    missing = [key for key in REQUIRED if not entry.get(key)]
    if missing:
        raise RulebookImportError(f"{where}: missing {', '.join(missing)}", details={"missing": missing})
    if not re.fullmatch(r"[a-z0-9_]+", str(entry["slug"])):
        raise RulebookImportError(f"{where}: slug {entry['slug']!r} must be lower-case letters, digits, underscores")
    if entry["game"] not in GAMES:
        raise RulebookImportError(f"{where}: game must be one of {sorted(GAMES)}")
    if entry["language"] not in {"en", "es"}:
        raise RulebookImportError(f"{where}: language {entry['language']!r} has no analyzer (en, es)")


# Raised when the splitting or the links found change, so that `bootstrap` imports the books again.
SPLITTING_VERSION = "2: a linked title may end in ! or ?"
_SEE = re.compile(
    r"(?:see|véase|ver)\s+(?:the\s+)?[«\"“]?(?P<title>[A-ZÁÉÍÓÚ¿][^()«»\"“”]{2,80}?)[»\"”]?"
    r"\s+(?:on|en la)\s+(?:page|página)\s+(?P<page>\d+)"
    r"|(?:on|en la)\s+(?:page|página)\s+(?P<bare>\d+)",
    re.IGNORECASE,
)


def _links(passages: list[SplitPassage], anchors: list[str]) -> list[list[dict[str, Any]]]:
    """Resolve "see X on page N" to the passage headed X; learn which page each such heading is
    on, and resolve bare "on page N" through what was learned."""

    def key_of(title: str) -> str:  # "See If the Villain Has Nowhere to Escape to, You Win! on page 10"
        return fold(title).strip().rstrip("!?.").strip()

    by_heading: dict[str, str] = {}
    for passage, anchor in zip(passages, anchors, strict=True):
        key = key_of(passage.heading)
        by_heading.setdefault(key, anchor)
        if ":" in key:  # "Villain Step: Determine Whether..." is also found by its step name
            by_heading.setdefault(key.split(":", 1)[1].strip(), anchor)
    pages: dict[str, str] = {}
    found: list[list[tuple[int, int, str | None, str]]] = []
    for passage in passages:
        refs = []
        for match in _SEE.finditer(passage.text):
            if match.group("title"):
                target = by_heading.get(key_of(match.group("title")))
                if target:
                    pages.setdefault(match.group("page"), target)
                refs.append((match.start(), match.end(), target, match.group("page")))
            else:
                refs.append((match.start(), match.end(), None, match.group("bare")))
        found.append(refs)
    return [
        [
            {"start": start, "end": end, "anchor": target or pages[page]}
            for start, end, target, page in refs
            if target or page in pages
        ]
        for refs in found
    ]


@transaction.atomic
def import_rulebook(
    *,
    entry: dict[str, Any],
    text: str,
    order: int = 0,
    questions: QuestionFile | None = None,
    reindex: bool = True,
) -> RulebookImport:
    """Split a book into passages and store them, replacing the book's previous passages, without
    their vectors (rules.assistant.vectors computes them after). Importing the same text, entry and
    questions again changes nothing."""
    validate_entry(entry, where=f"manifest entry {entry.get('slug')!r}")
    # The digest covers what the passages are made from, the model that embeds them and the
    # splitting's version included.
    asked_text = repr(sorted(questions.questions.items())) if questions else ""
    made_of = repr(sorted(entry.items())) + text + asked_text + MODEL_ID + SPLITTING_VERSION
    digest = hashlib.sha256(made_of.encode()).hexdigest()
    book = Rulebook.objects.filter(slug=entry["slug"]).first()
    if book is not None and book.source_sha256 == digest:
        return RulebookImport(
            book.slug, False, book.passages.count(), book.kept_chars, book.dropped_chars, book.duplicate_chars
        )
    if not text.strip():
        raise RulebookImportError(f"{entry['slug']}: the rulebook text is empty")
    split = split_book(text)
    if not split.passages:
        raise RulebookImportError(f"{entry['slug']}: no passages found in the text")
    values = {
        "title": entry["title"],
        "game": entry["game"],
        "ruleset": entry["ruleset"],
        "language": entry["language"],
        "notes": entry.get("notes", ""),
        "filename": entry.get("file", ""),
        "source": text,
        "source_sha256": digest,
        "layout": split.layout,
        "kept_chars": split.kept_chars,
        "dropped_chars": split.dropped_chars,
        "duplicate_chars": split.duplicate_chars,
        "order": order,
    }
    anchors = _anchors(split.passages)
    asked = _questions_by_anchor(questions, anchors, entry["slug"])
    book, _ = Rulebook.objects.update_or_create(slug=entry["slug"], defaults=values)
    book.passages.all().delete()
    links = _links(split.passages, anchors)
    concepts = concept_table()
    Passage.objects.bulk_create(
        [
            Passage(
                book=book,
                anchor=anchor,
                order=number,
                kind=passage.kind,
                heading=passage.heading[:300],
                path=passage.path,
                part=passage.part,
                text=passage.text,
                links=passage_links,
                concepts=concepts.tag(f"{passage.heading} {passage.text}", entry["game"]),
                questions=asked[number],
            )
            for number, (passage, anchor, passage_links) in enumerate(zip(split.passages, anchors, links, strict=True))
        ]
    )
    if reindex:
        request_rules_reindex()
    return RulebookImport(
        book.slug, True, len(split.passages), split.kept_chars, split.dropped_chars, split.duplicate_chars
    )


def _questions_by_anchor(questions: QuestionFile | None, anchors: list[str], slug: str) -> list[list[str]]:
    """Each passage's questions, in passage order; a question file naming no passage is refused
    (the book's split changed, or the anchor is mistyped), before anything is written."""
    if questions is None:
        return [[] for _ in anchors]
    known = set(anchors)
    unknown = [anchor for anchor in questions.questions if anchor not in known]
    if unknown:
        raise RulebookImportError(
            f"{questions.path}, line {questions.lines[unknown[0]]}: no passage of {slug} has the anchor {unknown[0]!r}",
            details={"unknown": unknown},
        )
    return [questions.questions.get(anchor, []) for anchor in anchors]


def _anchors(passages: list[SplitPassage]) -> list[str]:
    """Readable, unique, stable anchors: the heading's slug, "-part-N" for parts, "-N" for repeats."""
    used: set[str] = set()
    anchors = []
    for passage in passages:
        base = slugify(passage.heading)[:100] + (f"-part-{passage.part}" if passage.part > 1 else "")
        anchor, number = base, 1
        while anchor in used:
            number += 1
            anchor = f"{base}-{number}"
        used.add(anchor)
        anchors.append(anchor)
    return anchors


def import_bundled_rulebooks(leave_out: Callable[[str], bool] | None = None) -> list[RulebookImport]:
    """The manifest's books with their questions, less those `leave_out` names (the quality
    benchmark leaves out the copies of the questions it measures)."""
    results = []
    for order, entry in enumerate(read_manifest()):
        text = (RULEBOOKS_DIR / entry["file"]).read_text(encoding="utf-8")
        questions = read_questions(entry, RULEBOOKS_DIR)
        if questions is not None and leave_out is not None:
            kept = {anchor: [q for q in asked if not leave_out(q)] for anchor, asked in questions.questions.items()}
            questions = replace(questions, questions=kept)
        results.append(import_rulebook(entry=entry, text=text, order=order, questions=questions, reindex=False))
    if any(result.changed for result in results):
        request_rules_reindex()  # once for all the books
    return results


def request_rules_reindex() -> None:
    transaction.on_commit(lambda: enqueue("rules.tasks.rebuild_rules_index"))


def rebuild_rules_index() -> int:
    from pacg_site import textindex

    from .search import NAME, SCHEMA, IndexedPassage, documents

    passages = (
        IndexedPassage(
            pid=passage.pk,
            book=passage.book.slug,
            game=passage.book.game,
            edition=EDITIONS.get(passage.book.ruleset, passage.book.ruleset),
            language=passage.book.language,
            kind=passage.kind,
            heading=passage.heading,
            path=passage.path,
            text=passage.text,
            concepts=passage.concepts,
            questions=passage.questions,
        )
        for passage in Passage.objects.shown().order_by("book__order", "order")
    )
    return textindex.rebuild(NAME, SCHEMA, documents(passages))
