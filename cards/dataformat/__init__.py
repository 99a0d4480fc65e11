"""The card data format: schema, checks, and the file reader (pure Python, no Django)."""

from .cardtypes import TYPES
from .checks import CheckSyntaxError, difficulty_at, format_check, parse_check
from .fields import slugify
from .loader import DataError, ParsedFile, dump_document, load_files
from .schema import normalize_card, serialize_card
from .text import fold

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
