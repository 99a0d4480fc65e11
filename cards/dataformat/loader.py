"""Read card data files (YAML, JSON, CSV) into validated records, with file and line for errors.

This module knows nothing of Django: `python -m cards.dataformat FILE...` checks files on
their own, and the import command builds on `load_files`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pacg_site import yamltext

from .cardtypes import RECORD_FIELDS
from .schema import FORMAT, normalize_card, normalize_set, serialize_card, serialize_set


@dataclass
class DataError:
    path: str
    line: int | None
    record: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        what = " ".join(part for part in (self.record, self.field and f"field {self.field!r}") if part)
        return f"{where}: {what + ': ' if what else ''}{self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


@dataclass
class ParsedFile:
    path: str
    set: dict[str, Any] | None  # None for CSV: its rows name an existing set by code
    set_code: str
    cards: list[dict[str, Any]] = field(default_factory=list)


class Located(dict):
    """A YAML mapping that remembers the line of itself and of each key."""

    line: int = 0
    lines: dict[Any, int]


class _LineLoader(yamltext.SafeLoader):  # type: ignore[misc,valid-type]
    """libyaml's parser when available (several times faster), our constructor for lines."""


def _construct_located_map(loader: yaml.SafeLoader, node: yaml.MappingNode):  # type: ignore[no-untyped-def]
    data = Located()
    data.line = node.start_mark.line + 1
    data.lines = {}
    yield data
    data.update(loader.construct_mapping(node))
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode):
            data.lines[loader.construct_object(key_node)] = key_node.start_mark.line + 1


_LineLoader.add_constructor("tag:yaml.org,2002:map", _construct_located_map)


def _line(record: Any, key: str | None = None) -> int | None:
    if isinstance(record, Located):
        return record.lines.get(key, record.line) if key else record.line
    if isinstance(record, dict) and "__line__" in record:
        return int(record["__line__"])
    return None


def read_document(path: Path, *, with_lines: bool = False) -> tuple[Any, list[DataError]]:
    """Parse YAML or JSON. Remembering lines costs a third of the time, so it is done only
    when a file turned out to have errors to report."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, [DataError(str(path), None, "", "", f"cannot read the file: {error}")]
    if path.suffix == ".json" and not with_lines:
        try:
            return json.loads(raw), []
        except json.JSONDecodeError:
            pass  # the YAML reader below reports it with its line
    try:
        return (yaml.load(raw, Loader=_LineLoader) if with_lines else yamltext.load(raw)), []  # noqa: S506 - safe loader
    except yaml.YAMLError as error:
        if path.suffix == ".json":
            try:
                return json.loads(raw), []
            except json.JSONDecodeError as json_error:
                return None, [DataError(str(path), json_error.lineno, "", "", f"invalid JSON: {json_error.msg}")]
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        return None, [DataError(str(path), mark.line + 1 if mark else None, "", "", f"invalid YAML: {problem}")]


def parse_document(path: str, document: Any) -> tuple[ParsedFile | None, list[DataError]]:
    errors: list[DataError] = []
    if not isinstance(document, dict):
        return None, [DataError(path, 1, "", "", "the file must be a mapping with format, set and cards")]
    if document.get("format") != FORMAT:
        errors.append(DataError(path, _line(document, "format"), "", "format", f"must be {FORMAT!r}"))
    unknown = set(document) - {"format", "set", "cards"}
    for key in sorted(unknown, key=str):
        errors.append(DataError(path, _line(document, key), "", str(key), "not a top-level key (format, set, cards)"))
    card_set, set_issues = normalize_set(document.get("set"))
    for issue in set_issues:
        errors.append(
            DataError(
                path,
                _line(document.get("set"), issue.field) or _line(document, "set"),
                "set",
                issue.field,
                issue.message,
            )
        )
    cards = document.get("cards", [])
    if not isinstance(cards, list):
        errors.append(DataError(path, _line(document, "cards"), "", "cards", "must be a list of cards"))
        cards = []
    parsed = ParsedFile(path, card_set, card_set.get("code", ""))
    errors += _parse_cards(parsed, cards, card_set.get("game", "pacg"), card_set.get("language", "en"))
    return parsed, errors


def _parse_cards(parsed: ParsedFile, records: Iterable[Any], game: str, language: str) -> list[DataError]:
    errors: list[DataError] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(records, start=1):
        card, issues = normalize_card(raw, set_game=game, set_language=language)
        label = f"card #{index}"
        if isinstance(raw, dict) and raw.get("name"):
            label += f" ({raw['name']})"
        for issue in issues:
            errors.append(DataError(parsed.path, _line(raw, issue.field or None), label, issue.field, issue.message))
        card_id = card.get("id")
        if card_id:
            if card_id in seen:
                errors.append(
                    DataError(
                        parsed.path,
                        _line(raw, "id") or _line(raw),
                        label,
                        "id",
                        f"id {card_id!r} is already used by card #{seen[card_id]} of this set; "
                        "give one of them an explicit id",
                    )
                )
            seen[card_id] = index
        if not issues:
            parsed.cards.append(card)
    return errors


CSV_COLUMNS = ["set", *RECORD_FIELDS, "data"]
_LIST_COLUMNS = {"traits", "immune", "vulnerable", "resistant", "aliases", "incomplete"}


def parse_csv(path: Path) -> tuple[list[ParsedFile], list[DataError]]:
    """One card per row. Lists are '; '-separated, powers one per line, provenance, effects and
    data JSON."""
    errors: list[DataError] = []
    rows: list[tuple[int, dict[str, str]]] = []  # (the line the row starts on, the row)
    try:
        reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"), newline=""))
        start = 2
        for row in reader:
            rows.append((start, row))
            start = reader.line_num + 1
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        return [], [DataError(str(path), None, "", "", f"cannot read the CSV file: {error}")]
    columns = reader.fieldnames or []
    missing = {"set", "name", "type", "provenance"} - set(columns)
    if missing:
        return [], [DataError(str(path), 1, "", ", ".join(sorted(missing)), "required column(s) missing")]
    unknown = set(columns) - set(CSV_COLUMNS)
    if unknown:
        return [], [DataError(str(path), 1, "", ", ".join(sorted(unknown)), f"unknown column(s); use {CSV_COLUMNS}")]
    by_set: dict[str, list[dict[str, Any]]] = {}
    for number, row in rows:
        record: dict[str, Any] = {"__line__": number}
        for column, cell in row.items():
            if column in {None, "set"} or cell is None or cell.strip() == "":
                continue
            cell = cell.strip()
            try:
                if column in _LIST_COLUMNS:
                    record[column] = [item.strip() for item in cell.split(";") if item.strip()]
                elif column == "powers":
                    record[column] = [line.strip() for line in cell.splitlines() if line.strip()]
                elif column == "level":
                    record[column] = int(cell) if cell.isdigit() else cell
                elif column in ("provenance", "effects"):
                    record[column] = json.loads(cell)
                elif column == "data":
                    extra = json.loads(cell)
                    if not isinstance(extra, dict):
                        raise ValueError("must be a JSON object")
                    record.update(extra)
                else:
                    record[column] = cell
            except (ValueError, json.JSONDecodeError) as error:
                errors.append(DataError(str(path), number, f"row {number}", column, f"invalid JSON: {error}"))
        by_set.setdefault((row.get("set") or "").strip(), []).append(record)
    files = []
    for set_code, records in by_set.items():
        if not set_code:
            errors.append(DataError(str(path), records[0]["__line__"], "", "set", "every row needs a set code"))
            continue
        parsed = ParsedFile(str(path), None, set_code)
        # The set's game and language are checked against the database by the importer.
        errors += _parse_cards(
            parsed,
            [{k: v for k, v in r.items() if k != "__line__"} | {"__line__": r["__line__"]} for r in records],
            "",
            "",
        )
        files.append(parsed)
    return files, errors


def load_files(paths: Iterable[Path]) -> tuple[list[ParsedFile], list[DataError]]:
    files: list[ParsedFile] = []
    errors: list[DataError] = []
    for path in paths:
        if path.suffix.lower() == ".csv":
            parsed_csv, csv_errors = parse_csv(path)
            files += parsed_csv
            errors += csv_errors
            continue
        if path.suffix.lower() not in {".yaml", ".yml", ".json"}:
            errors.append(DataError(str(path), None, "", "", "unsupported file type; use .yaml, .yml, .json or .csv"))
            continue
        document, read_errors = read_document(path)
        errors += read_errors
        if read_errors:
            continue
        parsed, parse_errors = parse_document(str(path), document)
        if parse_errors:
            document, _ = read_document(path, with_lines=True)
            parsed, parse_errors = parse_document(str(path), document)
        errors += parse_errors
        if parsed:
            files.append(parsed)
    codes: dict[str, str] = {}
    for parsed in files:
        if parsed.set is None:
            continue
        if parsed.set_code in codes and codes[parsed.set_code] != parsed.path:
            errors.append(
                DataError(
                    parsed.path,
                    None,
                    "set",
                    "code",
                    f"set {parsed.set_code!r} is also defined in {codes[parsed.set_code]}",
                )
            )
        codes[parsed.set_code] = parsed.path
    return files, errors


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Readable diffs: short lists of words on one line, long texts as folded blocks."""


def _represent_list(dumper: yaml.SafeDumper, items: list[Any]) -> yaml.Node:
    flow = all(isinstance(item, (str, int)) and len(str(item)) < 40 for item in items) and len(str(items)) < 80
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flow)


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.Node:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(str, _represent_str)


def dump_document(card_set: dict[str, Any], cards: list[dict[str, Any]]) -> str:
    """The canonical YAML of one set: what export writes and what import reads back unchanged."""
    document = {
        "format": FORMAT,
        "set": serialize_set(card_set),
        "cards": [serialize_card(card | {"set_language": card_set.get("language", "en")}) for card in cards],
    }
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
