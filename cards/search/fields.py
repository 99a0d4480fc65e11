"""The field registry of the search language: the parser, both compilers, the help page and
the API docs are all driven by this one list (ENGINEERING.md §6)."""

from __future__ import annotations

from dataclasses import dataclass

from cards.dataformat.cardtypes import GROUPS, TYPES
from cards.dataformat.schema import LANGUAGES

from .facts import FLAGS

WORDS, KEYWORD, NUMBER, COLUMN = "words", "keyword", "number", "column"
EQUALITY = (":", "=", "!=")
COMPARISONS = (":", "=", "!=", "<", "<=", ">", ">=")


@dataclass(frozen=True)
class SearchField:
    names: tuple[str, ...]  # the first is canonical, the rest are aliases
    kind: str  # words | keyword (a CardTag kind) | number (a CardTag kind or level) | column
    tag: str  # the CardTag kind / index field it searches
    summary: str
    examples: tuple[str, ...]
    values: tuple[str, ...] = ()  # when not empty, the only values accepted

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def operators(self) -> tuple[str, ...]:
        if self.kind == NUMBER:
            return COMPARISONS
        if self.kind == WORDS:
            return (":",)
        return EQUALITY


TYPE_VALUES = tuple(
    sorted({t.name for t in TYPES.values()} | {s for t in TYPES.values() for s in t.subtypes} | set(GROUPS))
)

FIELDS: tuple[SearchField, ...] = (
    SearchField(
        ("name", "n"),
        WORDS,
        "name_words",
        "Words in the card's name (or a name the book also uses).",
        ("name:ghoul", 'name:"black fang"'),
    ),
    SearchField(
        ("power", "o", "text"),
        WORDS,
        "power_words",
        "Words in the card's powers and text (location, scenario and Aventuria texts included).",
        ("o:explore", 'o:"recharge a card"'),
    ),
    SearchField(
        ("type", "t"),
        KEYWORD,
        "type",
        "Card type, subtype or group: a henchman that is a monster matches t:henchman and "
        "t:monster; t:boon and t:bane match whole groups.",
        ("t:monster", "t:cohort", "t:boon", "t:leader"),
        TYPE_VALUES,
    ),
    SearchField(
        ("trait",),
        KEYWORD,
        "trait",
        "A trait printed on the card (accents optional).",
        ("trait:undead", "trait:basic", "trait:magic"),
    ),
    SearchField(
        ("set", "s", "e"),
        KEYWORD,
        "set",
        "The product (set code or alias); a product also matches the cards of its parts.",
        ("set:core", "set:wotr", "set:rotr"),
    ),
    SearchField(("game",), COLUMN, "game", "pacg or aventuria.", ("game:aventuria",), ("pacg", "aventuria")),
    SearchField(
        ("level", "lvl"),
        NUMBER,
        "level",
        "Level or adventure deck number (B, C and P count as 0; Aventuria I-III as 1-3). "
        "Cards whose level the books don't state never match.",
        ("level=0", "lvl>=2"),
    ),
    SearchField(
        ("check", "c"),
        KEYWORD,
        "check",
        "A skill in the card's check to acquire or defeat.",
        ("check:arcane", "check:combat"),
    ),
    SearchField(
        ("diff", "difficulty"),
        NUMBER,
        "diff",
        "A difficulty of the card's check, as printed: 11 + 2AN has difficulty 11.",
        ("diff<=7", "diff=10"),
    ),
    SearchField(("immune",), KEYWORD, "immune", "A trait the card is immune to.", ("immune:mental",)),
    SearchField(("vuln", "vulnerable"), KEYWORD, "vuln", "A trait the card is vulnerable to.", ("vuln:electricity",)),
    SearchField(("resist", "resistant"), KEYWORD, "resist", "A trait the card is resistant to.", ("resist:fire",)),
    SearchField(
        ("skill",),
        KEYWORD,
        "skill",
        "A skill a character (or Aventuria skill card) has.",
        ("skill:arcane", "t:character skill:divine"),
    ),
    SearchField(("hand",), NUMBER, "hand", "A character's hand size.", ("hand>=6",)),
    SearchField(("kw", "keyword"), KEYWORD, "kw", "An Aventuria keyword.", ("kw:guard", "kw:servant")),
    SearchField(("cost",), NUMBER, "cost", "An Aventuria action card's endurance cost.", ("cost<=2",)),
    SearchField(("threat",), NUMBER, "threat", "An Aventuria henchman's threat points.", ("threat>=3",)),
    SearchField(
        ("lang", "language"),
        COLUMN,
        "language",
        "The language the card is printed in.",
        ("lang:es",),
        tuple(sorted(LANGUAGES)),
    ),
    SearchField(
        ("is",),
        KEYWORD,
        "is",
        "A property: "
        + "; ".join(f"{flag}: {text}" for flag, text in FLAGS.items())
        + "; and every type, subtype and group name (is:villain, is:boon).",
        ("is:villain", "is:loot", "is:basic", "is:homebrew"),
        tuple(sorted(set(FLAGS) | set(TYPE_VALUES))),
    ),
)

BY_NAME: dict[str, SearchField] = {name: f for f in FIELDS for name in f.names}

ORDERINGS = {
    "name": "Name (A-Z), then set",
    "-name": "Name (Z-A)",
    "level": "Level, lowest first (unknown last)",
    "-level": "Level, highest first",
    "set": "Set, then name",
    "type": "Type, then name",
}
