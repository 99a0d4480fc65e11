"""Writes to the card database: imports, admin edits, and keeping the search index current."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from pacg_site.celery import enqueue
from pacg_site.errors import DomainError

from .dataformat import DataError, ParsedFile, dump_document, load_files
from .dataformat.cardtypes import RECORD_FIELDS, TYPES
from .dataformat.text import fold
from .models import Card, CardSet, CardTag
from .search.facts import card_facts

BUNDLED_CARD_DATA = Path(__file__).resolve().parent / "data"  # the card files the site ships
REINDEX_PENDING_KEY = "cards:reindex-pending"
REINDEX_DEBOUNCE_SECONDS = 2
REINDEX_TASK = "cards.tasks.rebuild_card_index"

Progress = Callable[[int, int], None]


class CardImportError(DomainError):
    """An import refused as a whole; `errors` name the file, line, record and field."""

    code = "import_invalid"

    def __init__(self, errors: list[DataError]):
        lines = "\n".join(str(error) for error in errors[:50])
        more = f"\n... and {len(errors) - 50} more" if len(errors) > 50 else ""
        super().__init__(
            f"{len(errors)} problem(s); nothing was imported:\n{lines}{more}",
            details={"errors": [error.as_dict() for error in errors]},
        )
        self.errors = errors


@dataclass
class ImportSummary:
    sets_created: int = 0
    sets_updated: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    deleted: int = 0
    files: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.sets_created or self.sets_updated or self.created or self.updated or self.deleted)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


SET_COLUMNS = (
    "name",
    "game",
    "kind",
    "language",
    "ruleset",
    "aliases",
    "description",
    "homebrew",
    "order",
    "provenance",
)
# What a card row stores of a record (the id is its slug; the level also keeps its printed code).
CARD_COLUMNS = (*[name for name in RECORD_FIELDS if name not in ("id", "effects")], "level_code", "data")


def import_bundled_cards(*, prune: bool = True) -> ImportSummary:
    """The card files the site ships (cards/data/); with `prune`, cards no file has any more go."""
    return import_card_files(paths=sorted(BUNDLED_CARD_DATA.glob("*.yaml")), prune=prune)


def import_card_files(*, paths: Iterable[Path], prune: bool = False, progress: Progress | None = None) -> ImportSummary:
    """Validate every file, then write everything in one transaction, or nothing at all.

    Cards are matched by set and id; a card whose facts are unchanged is not written, so
    importing the same files twice changes nothing. With `prune`, cards of the imported sets
    that the files no longer contain are deleted (CSV files never prune)."""
    paths = list(paths)
    files, errors = load_files(paths)
    errors += _check_references(files)
    if errors:
        raise CardImportError(errors)
    summary = ImportSummary(files=[str(path) for path in paths])
    total = sum(len(parsed.cards) for parsed in files)
    done = 0
    with transaction.atomic():
        sets = _write_sets(files, summary)
        for parsed in files:
            card_set = sets[parsed.set_code]
            lineage = set_lineage(card_set)
            existing = {card.slug: card for card in card_set.cards.all()}
            for start in range(0, len(parsed.cards), IMPORT_BATCH):
                batch = parsed.cards[start : start + IMPORT_BATCH]
                _write_cards(card_set, lineage, existing, batch, summary)
                done += len(batch)
                if progress:
                    progress(done, total)
            if prune and parsed.set is not None and existing:
                summary.deleted += len(existing)
                Card.objects.filter(pk__in=[card.pk for card in existing.values()]).delete()
        if summary.changed:
            request_reindex()
    return summary


def _check_references(files: list[ParsedFile]) -> list[DataError]:
    """Set parents and CSV set codes must name a set in these files or in the database."""
    defined = {parsed.set_code: parsed.set for parsed in files if parsed.set is not None}
    stored = {s.code: s for s in CardSet.objects.all()}
    errors = []
    for parsed in files:
        if parsed.set is not None:
            parent = parsed.set.get("parent")
            if parent and parent not in defined and parent not in stored:
                errors.append(DataError(parsed.path, None, "set", "parent", f"no set has the code {parent!r}"))
            continue
        card_set = defined.get(parsed.set_code) or (
            stored[parsed.set_code].__dict__ if parsed.set_code in stored else None
        )
        if card_set is None:
            errors.append(
                DataError(
                    parsed.path, None, "", "set", f"no set has the code {parsed.set_code!r}; import its set file first"
                )
            )
            continue
        for record in parsed.cards:
            if TYPES[record["type"]].game != card_set["game"]:
                errors.append(
                    DataError(
                        parsed.path, None, record["name"], "type", f"{record['type']} is not a {card_set['game']} type"
                    )
                )
            record["language"] = record["language"] or card_set["language"]
    return errors


def _write_sets(files: list[ParsedFile], summary: ImportSummary) -> dict[str, CardSet]:
    sets = {s.code: s for s in CardSet.objects.all()}
    parents: dict[str, str] = {}
    for parsed in files:
        if parsed.set is None:
            continue
        values = {key: parsed.set[key] for key in SET_COLUMNS}
        card_set = sets.get(parsed.set_code)
        if card_set is None:
            card_set = CardSet.objects.create(code=parsed.set_code, **values)
            sets[card_set.code] = card_set
            summary.sets_created += 1
        elif any(getattr(card_set, key) != value for key, value in values.items()):
            for key, value in values.items():
                setattr(card_set, key, value)
            card_set.save()
            summary.sets_updated += 1
        parents[card_set.code] = parsed.set["parent"]
    for code, parent in parents.items():
        card_set = sets[code]
        parent_id = sets[parent].pk if parent else None
        if card_set.parent_id != parent_id:
            card_set.parent_id = parent_id
            card_set.save(update_fields=["parent"])
            summary.sets_updated += 1
    return sets


def set_lineage(card_set: CardSet) -> list[str]:
    """The set's code and its parents' codes: `set:wotr` also finds the adventure decks' cards."""
    codes: list[str] = []
    current: CardSet | None = card_set
    seen: set[int] = set()
    while current is not None and current.pk not in seen:
        seen.add(current.pk)
        codes.append(current.code)
        current = current.parent
    return codes


# Record key -> model attribute, where they differ.
ATTRIBUTE = {"check": "check_data"}
IMPORT_BATCH = 1000
DERIVED = ["name_folded", "name_words", "power_words"]


def _write_cards(
    card_set: CardSet,
    lineage: list[str],
    existing: dict[str, Card],
    records: list[dict[str, Any]],
    summary: ImportSummary,
) -> None:
    """Write one batch: new cards in one insert, changed ones in one update, their tags after."""
    new: list[Card] = []
    changed: list[Card] = []
    tags: list[tuple[Card, list[tuple[str, str, int | None]]]] = []
    now = timezone.now()
    for record in records:
        values = {ATTRIBUTE.get(key, key): record[key] for key in CARD_COLUMNS}
        card = existing.pop(record["id"], None)
        if card is not None and all(getattr(card, key) == value for key, value in values.items()):
            summary.unchanged += 1
            continue
        if card is None:
            card = Card(card_set=card_set, slug=record["id"], uid=f"{card_set.code}.{record['id']}")
            new.append(card)
        else:
            card.updated_at = now
            changed.append(card)
        for key, value in values.items():
            setattr(card, key, value)
        tags.append((card, _derive(card, lineage, card_set.homebrew)))
    Card.objects.bulk_create(new, batch_size=IMPORT_BATCH)
    Card.objects.bulk_update(changed, [*CARD_FIELDS, *DERIVED, "updated_at"], batch_size=IMPORT_BATCH)
    CardTag.objects.filter(card__in=changed).delete()
    _insert_tags([(card.pk, kind, value, number) for card, facts in tags for kind, value, number in facts])
    summary.created += len(new)
    summary.updated += len(changed)


CARD_FIELDS = [ATTRIBUTE.get(key, key) for key in CARD_COLUMNS]


def _derive(card: Card, lineage: list[str], homebrew: bool) -> list[tuple[str, str, int | None]]:
    """Fill the card's search columns and return its tags (cards.search.facts)."""
    facts = card_facts(card.as_record(), set_codes=lineage, homebrew=homebrew)
    card.name_folded = " ".join(fold(card.name).split())
    card.name_words = facts.name_words
    card.power_words = facts.power_words
    return facts.tags


def _insert_tags(rows: list[tuple[int, str, str, int | None]]) -> None:
    """Tags are a dozen rows a card; at 25,000 cards, building model instances for them
    takes longer than the rest of the import, so they go in with one executemany."""
    table = connection.ops.quote_name(CardTag._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} (card_id, kind, value, number) VALUES (%s, %s, %s, %s)", rows)


def save_card(*, card: Card) -> Card:
    """Save one card with its derived search columns and tags (the admin uses this)."""
    tags = _derive(card, set_lineage(card.card_set), card.card_set.homebrew)
    card.save()
    card.tags.all().delete()
    _insert_tags([(card.pk, kind, value, number) for kind, value, number in tags])
    return card


def request_reindex() -> None:
    """Rebuild the search index once this transaction commits; bursts of changes within the
    debounce window share one rebuild (the task clears the flag when it starts)."""

    def schedule() -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            enqueue(REINDEX_TASK)
        elif cache.add(REINDEX_PENDING_KEY, True, timeout=REINDEX_DEBOUNCE_SECONDS * 30):
            enqueue(REINDEX_TASK, countdown=REINDEX_DEBOUNCE_SECONDS)

    transaction.on_commit(schedule)


def rebuild_index() -> int:
    """Build the cards index from the database; returns the number of cards indexed."""
    from pacg_site import textindex

    from .search.index import NAME, SCHEMA, IndexedCard, documents

    cache.delete(REINDEX_PENDING_KEY)
    sets = list(CardSet.objects.order_by("game", "order", "name"))
    position = {s.pk: index for index, s in enumerate(sets)}
    lineage = {s.pk: set_lineage(s) for s in sets}
    by_pk = {s.pk: s for s in sets}
    cards = [
        IndexedCard(
            uid=card.uid,
            name_folded=card.name_folded,
            game=by_pk[card.card_set_id].game,
            language=card.language,
            level=card.level,
            type=card.type,
            set_position=position[card.card_set_id],
            facts=card_facts(
                card.as_record(), set_codes=lineage[card.card_set_id], homebrew=by_pk[card.card_set_id].homebrew
            ),
        )
        for card in Card.objects.order_by().iterator(chunk_size=2000)
    ]
    return textindex.rebuild(NAME, SCHEMA, documents(cards))


def export_sets(*, directory: Path, codes: Iterable[str] | None = None) -> list[Path]:
    """Write one canonical YAML file per set: what import_cards reads back unchanged."""
    directory.mkdir(parents=True, exist_ok=True)
    sets = CardSet.objects.select_related("parent").order_by("code")
    if codes:
        sets = sets.filter(code__in=list(codes))
    written = []
    for card_set in sets:
        record = {key: getattr(card_set, key) for key in SET_COLUMNS} | {
            "code": card_set.code,
            "parent": card_set.parent.code if card_set.parent else "",
        }
        cards = [card.as_record() for card in card_set.cards.order_by("slug")]
        path = directory / f"{card_set.code}.yaml"
        path.write_text(dump_document(record, cards), encoding="utf-8")
        written.append(path)
    return written
