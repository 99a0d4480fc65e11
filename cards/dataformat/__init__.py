"""The card data format: schema, checks, and the file reader (pure Python, no Django)."""

from .checks import CheckSyntaxError, difficulty_at, format_check, parse_check
from .loader import DataError, ParsedFile, dump_document, load_files
from .schema import TYPES, fold, normalize_card, serialize_card, slugify

__all__ = [
    "TYPES",
    "CheckSyntaxError",
    "DataError",
    "ParsedFile",
    "difficulty_at",
    "dump_document",
    "fold",
    "format_check",
    "load_files",
    "normalize_card",
    "parse_check",
    "serialize_card",
    "slugify",
]
