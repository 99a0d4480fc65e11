"""Plain-text rulebooks into passages: sections, sidebars, steps, glossary entries, reference
items and examples of play, each with its heading path. Pure Python; no Django.

Two layouts occur in extracted PDFs, and a book's layout is recognised from its text:
- "lines" (Core, WotR, Aventuria): headings are short title lines of their own, sidebars are
  headed "Rules: ...", "Strategy: ...", "Example: ...", "New: ...", procedure steps start with
  a run-in label ("Attempt the Check. Most cards...").
- "caps" (the Spanish RotR book): paragraphs open with an upper-case heading run in
  ("CÓMO REALIZAR UNA PRUEBA Muchas veces..."), and card faces, page numbers and spaced-out
  letters are mixed into the text. Noise is dropped, and what was dropped is counted.

Repeated text (the WotR file repeats fragments of its first half) is indexed once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cards.dataformat.text import fold

SIDEBARS = {
    "rules": "rules",
    "strategy": "strategy",
    "example": "example",
    "new": "new",
    "reglas": "rules",
    "regla": "rules",
    "estrategia": "strategy",
    "ejemplo": "example",
    "nuevo": "new",
}
GLOSSARY_HEADINGS = {"glossary", "glosario"}
REFERENCE_HEADINGS = {"reference sheet", "quick reference", "hoja de referencia"}
PLAY_EXAMPLE_HEADINGS = {"example of play", "ejemplo de juego"}
SMALL_WORDS = {
    "a",
    "an",
    "and",
    "as",
    "at",
    "by",
    "for",
    "from",
    "if",
    "in",
    "into",
    "is",
    "of",
    "on",
    "or",
    "the",
    "to",
    "vs",
    "with",
    "your",
    "you",
    "not",
    "be",
    "its",
    "it",
    "up",
    "out",
    "de",
    "del",
    "la",
    "las",
    "el",
    "los",
    "y",
    "o",
    "en",
    "un",
    "una",
    "al",
    "con",
    "que",
}
MIN_PASSAGE_CHARS = 25
CREDITS = ("credits", "creditos")  # who translated the book answers no rules question
NOT_STEPS = {"important", "note", "tip", "importante", "nota"}  # asides that belong to their section
ASIDES = {"rules", "strategy", "example", "new"}


@dataclass
class Passage:
    kind: str  # section, step, rules, strategy, example, new, glossary, reference, play-example
    heading: str
    path: list[str]
    text: str = ""
    level: int = 1
    part: int = 0  # 1, 2, ... when a long section is cut into parts; 0 when it is whole

    @property
    def title(self) -> str:
        return " › ".join([*self.path, self.heading])


@dataclass
class SplitResult:
    passages: list[Passage]
    layout: str
    kept_chars: int
    dropped_chars: int
    duplicate_chars: int
    dropped_samples: list[str] = field(default_factory=list)


PART_TARGET = 900  # characters; sections longer than twice this are cut at sentence ends


def _parts(text: str) -> list[str]:
    if len(text) <= 2 * PART_TARGET:
        return [text]
    sentences = re.split(r"(?<=[.!?»”\"])\s+(?=[A-Z¿¡«“\"(-])|\n", text)
    parts: list[str] = []
    current = ""
    for sentence in sentences:
        if current and len(current) + len(sentence) > PART_TARGET:
            parts.append(current)
            current = ""
        current = f"{current} {sentence}".strip() if current else sentence
    if current:
        if parts and len(current) < PART_TARGET // 3:
            parts[-1] = f"{parts[-1]} {current}"
        else:
            parts.append(current)
    return parts


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", fold(text)).strip()


def _title_case(words: list[str]) -> bool:
    significant = [w for w in words if fold(w).strip("()¿?¡!,'’") not in SMALL_WORDS]
    if not significant:
        return False
    return all(w[:1].isupper() or w[:1].isdigit() or w[:1] in "(¿¡\"'" for w in significant)


def split_book(text: str) -> SplitResult:
    layout = "caps" if _caps_layout(text) else "lines"
    return (_CapsReader if layout == "caps" else _LinesReader)(text).read()


def _caps_layout(text: str) -> bool:
    runs = re.findall(r"^[A-ZÁÉÍÓÚÑ¿][A-ZÁÉÍÓÚÑ¿?:, ]{8,}[A-ZÁÉÍÓÚÑ?] [A-ZÁÉÍÓÚ][a-záéíóúñ]", text, re.MULTILINE)
    return len(runs) >= 10


class _Assembler:
    """Turns a stream of headings and text blocks into passages."""

    def __init__(self, top_level: list[str]):
        self.top_level = [_normal(name) for name in top_level]
        self.top_position = -1  # top-level sections come in contents order
        self.passages: list[Passage] = []
        self.section: list[str] = []  # the path of the current section (level 1, level 2)
        self.current: Passage | None = None
        self.mode = "normal"  # normal | glossary | reference | play-example
        self.seen: list[str] = []  # normalized text so far, for duplicate detection
        self.duplicate_chars = 0

    def next_top_level(self, key: str) -> int | None:
        """The contents position of a top-level section named `key` after the current one."""
        for position in range(self.top_position + 1, len(self.top_level)):
            if self.top_level[position] == key:
                return position
        return None

    def heading(self, title: str) -> None:
        key = _normal(title)
        prefix, _, rest = title.partition(":")
        sidebar = SIDEBARS.get(_normal(prefix)) if rest.strip() else None
        position = self.next_top_level(key)
        if position is not None:
            self.top_position = position
        if position is not None or not self.section:
            self.section = [title]
            self.mode = (
                "glossary"
                if key in GLOSSARY_HEADINGS
                else "reference"
                if key in REFERENCE_HEADINGS
                else "play-example"
                if key in PLAY_EXAMPLE_HEADINGS
                else "normal"
            )
            self.open(self._kind("section"), title, [], 1)
        elif sidebar and self.mode == "normal":
            self.open(sidebar, title, self.section[:2], 3)
        else:
            self.section = [self.section[0], title]
            self.open(self._kind("section"), title, self.section[:1], 2)

    def _kind(self, default: str) -> str:
        return {"reference": "reference", "play-example": "play-example", "glossary": "section"}.get(self.mode, default)

    def open(self, kind: str, heading: str, path: list[str], level: int) -> None:
        self.current = Passage(kind, heading.strip(), list(path), "", level)
        self.passages.append(self.current)

    def step(self, label: str, block: str) -> None:
        """A run-in step ("Attempt the Check. ..."), an "Example: ..." paragraph, or a glossary
        entry ("Bless: ...")."""
        kind = "glossary" if self.mode == "glossary" else SIDEBARS.get(_normal(label)) or self._kind("step")
        self.open(kind, label, self.section[:2], 3)
        self.text(block)

    def text(self, block: str) -> None:
        self.seen.append(_normal(block))
        if self.current is None:
            self.open("section", "Introduction", [], 1)
        assert self.current is not None
        self.current.text = f"{self.current.text}\n{block}" if self.current.text else block

    def finish(self) -> list[Passage]:
        """Drop passages without text (a heading with nothing under it only names its children)
        and cut long ones into parts, so that an answer quotes the part that matters."""
        result = []
        for passage in self.passages:
            if len(passage.text.strip()) < MIN_PASSAGE_CHARS or _normal(passage.heading).startswith(CREDITS):
                continue
            parts = _parts(passage.text)
            for number, part in enumerate(parts, start=1):
                result.append(
                    Passage(
                        passage.kind,
                        passage.heading,
                        passage.path,
                        part,
                        passage.level,
                        part=number if len(parts) > 1 else 0,
                    )
                )
        return result


_RUN_IN = re.compile(
    r"^(?P<label>[A-Z¿][^.:!?]{0,70}?[A-Za-z)?!])(?P<stop>[:.!?])\s+(?P<rest>[A-Z0-9\"“(¿¡].*)$", re.DOTALL
)


def _run_in(block: str, *, combine: bool = True) -> str | None:
    """The label of a run-in heading ("Attempt the Check." / "Explore:"), if the block has one."""
    match = _RUN_IN.match(block)
    if not match:
        return None
    label = match.group("label")
    words = label.split()
    significant = [w for w in words if fold(w) not in SMALL_WORDS]
    if match.group("stop") in ".!?" and len(significant) < 2:
        return None
    if len(words) > 10 or not _title_case(words) or _normal(label) in NOT_STEPS:
        return None
    if combine and match.group("stop") == ":" and len(words) >= 2:
        inner_match = _RUN_IN.match(match.group("rest"))
        inner = _run_in(match.group("rest"), combine=False)
        if inner and inner_match and inner_match.group("stop") in ".!":
            return f"{label}: {inner}"  # "Villain Step: Determine Whether the Villain Escapes."
    return label + ("?" if match.group("stop") == "?" else "")


def _listing(assembler: _Assembler, line: str, label: str) -> bool:
    """Whether a "Display: ..." line is the next item of a reference sheet's list ("Playing a
    Card": "Draw: ...", "Reveal: ..."), which its heading names, rather than a step of its own."""
    current = assembler.current
    if assembler.mode != "reference" or current is None or not current.text or line[len(label)] != ":":
        return False
    lines = current.text.splitlines()
    item = _run_in(lines[-1])
    return item is not None and lines[-1][len(item)] == ":" and _run_in(lines[0]) != current.heading


class _LinesReader:
    def __init__(self, text: str):
        self.lines = [line.strip() for line in text.splitlines()]
        self.dropped_samples: list[str] = []

    def table_of_contents(self) -> tuple[list[str], int]:
        """Top-level section names, and the index of the first line after the contents."""
        try:
            start = next(i for i, line in enumerate(self.lines) if _normal(line) == "table of contents")
        except StopIteration:
            return [], 0
        entries: list[str] = []
        index = start + 1
        while index < len(self.lines):
            line = self.lines[index]
            if _normal(line) == "table of contents" or not line:
                index += 1
                continue
            name = line.removeprefix("- ").strip()
            if entries and _normal(name) == _normal(entries[0].removeprefix("- ")):
                break
            if len(line) > 90:
                break
            entries.append(line)
            index += 1
        dashed = [e for e in entries if e.startswith("- ")]
        top = entries if len(dashed) == len(entries) else [e for e in entries if not e.startswith("- ")]
        return [e.removeprefix("- ").strip() for e in top], index

    def is_heading(self, line: str, previous: str) -> bool:
        if not line or len(line) > 80 or line.startswith("- ") or line[-1] in ".,;:!" or "\t" in line:
            return False
        if previous.endswith(":"):
            return False  # an item of the list the previous line announces
        if re.match(r"^[A-Z][\w'’ ]{0,40}: [a-z]", line):
            return False
        words = line.split()
        return line[0].isupper() or line[0].isdigit() and _title_case(words[1:]) and len(words) <= 12

    def repeat_start(self) -> int:
        """Where the file starts over (WotR repeats itself after its first half), else the end."""
        title = next((line for line in self.lines if line), "")
        later = [i for i, line in enumerate(self.lines) if i > 0 and line == title]
        return later[0] if later else len(self.lines)

    def read(self) -> SplitResult:
        top_level, start = self.table_of_contents()
        repeat = self.repeat_start()
        assembler = _Assembler(top_level)
        previous = ""
        for index in range(start, len(self.lines)):
            line = self.lines[index]
            if not line:
                continue
            if index >= repeat and (len(line) < 90 or any(_normal(line) in seen for seen in assembler.seen)):
                assembler.duplicate_chars += len(line)  # the repeated part adds only what is new
                continue
            if self.is_heading(line, previous) and _title_case(re.sub(r"^\d+[.)]\s*", "", line).split()):
                assembler.heading(re.sub(r"^\d+[.)]\s*", "", line))
            elif (
                (label := _run_in(line))
                and not _listing(assembler, line, label)
                and (
                    assembler.mode == "glossary"
                    or (assembler.current is not None and assembler.current.kind in SIDEBARS.values())
                    or len(line) >= 100
                    or line[len(label)] in ".!?"
                )
            ):
                assembler.step(label, line)
            else:
                assembler.text(line)
            previous = line
        passages = assembler.finish()
        kept = sum(len(p.text) for p in passages)
        total = sum(len(line) for line in self.lines if line)
        dropped = max(0, total - kept - assembler.duplicate_chars)
        return SplitResult(passages, "lines", kept, dropped, assembler.duplicate_chars, self.dropped_samples)


# --- the Spanish "caps" layout ------------------------------------------------------------

_CAPS_HEAD = re.compile(
    r"^(?P<head>(?:[A-ZÁÉÍÓÚÑÜ¿¡(][A-ZÁÉÍÓÚÑÜ¿?¡!:,()«»\-]*\s+){1,12}?)(?P<body>[A-ZÁÉÍÓÚ¿¡«\"][a-záéíóúñü].{60,})$",
    re.DOTALL,
)
# The book's one-paragraph character profiles ("EZREN EL MAGO El talento de Ezren..."), set
# beside the rules; the extraction runs them into the text, once even after a heading.
PROFILE_NAMES = {"amiri", "ezren", "harsk", "kyra", "lem", "lini", "merisiel", "sajan", "seelah", "seoni", "valeros"}
_PROFILE = re.compile(
    rf"(?P<name>\b(?:{'|'.join(sorted(PROFILE_NAMES)).upper()}) (?:EL|LA) \w+)\s+(?=[A-ZÁÉÍÓÚ][a-záéíóúñü])"
)
# A boon's face ("CARISMA TESORO Quema esta carta para evadir...") is not a section.
_CARD_POWER = re.compile(r"^(?:Quema|Descarta|Recarga|Revela|Entierra|Muestra) esta carta")
_CAPS_WORD = re.compile(r"^[A-ZÁÉÍÓÚÑÜ¿¡«][A-ZÁÉÍÓÚÑÜ?!:,()»\-]*$")
_SPACED_OUT = re.compile(r"(?:\b\w{1,2}\s+){5,}\w{1,2}\b")  # "I ul st ra ci ón d e Wa yn e"
STANDALONE_HEADING_STARTS = {"como", "tipos", "cartas", "ejemplo", "hoja", "despues", "entre", "terminar"}
_FURNITURE = re.compile(r"REGLAMENTO DEL JUEGO BÁSICO|©\s*\d{4}\s*Paizo Inc\.?|Ilustración\s*de\s*\w+\s*\w+")


def _noise_token(token: str) -> bool:
    return bool(
        re.fullmatch(r"[+\-]?\d+|d\d+|\(|\)|[+\-—–]|[A-ZÁÉÍÓÚÑÜ]{1,2}\.?", token)
        or (_CAPS_WORD.match(token) and len(token) > 1 and token not in {"PODERES"})
    )


def _clean_caps_text(text: str) -> tuple[str, int]:
    """Remove page furniture and card-face fragments (runs of capitals, dice, feat boxes)
    that the extraction wove into sentences; returns the text and the characters removed."""
    original = len(text)
    text = _FURNITURE.sub(" ", text)
    text = _SPACED_OUT.sub(" ", text)
    tokens = text.split()
    kept: list[str] = []
    run: list[str] = []
    for token in tokens:
        if _noise_token(token):
            run.append(token)
            continue
        if len(run) >= 3 or (run and all(re.fullmatch(r"[+\-]?\d+|d\d+|\(|\)", t) for t in run) and len(run) >= 2):
            run = []
        kept += run
        run = []
        kept.append(token)
    if len(run) < 3:
        kept += run
    cleaned = re.sub(r"\s+", " ", " ".join(kept)).strip()
    cleaned = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", cleaned))
    return cleaned, original - len(cleaned)


def _spaced_out(text: str) -> bool:
    tokens = text.split()
    return len(tokens) >= 4 and sum(len(t) <= 2 for t in tokens) / len(tokens) > 0.6


class _CapsReader:
    def __init__(self, text: str):
        self.paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
        self.dropped_samples: list[str] = []

    def noise(self, paragraph: str) -> bool:
        letters = [c for c in paragraph if c.isalpha()]
        if len(paragraph) < 60:
            return True
        if _spaced_out(paragraph):
            return True
        lower = sum(c.islower() for c in letters)
        return not letters or lower / len(letters) < 0.5

    @staticmethod
    def standalone_heading(paragraph: str) -> bool:
        """A section heading the layout set on its own ("TIPOS DE CARTAS"), told apart from the
        card-face labels around it by how section headings of this book begin."""
        words = paragraph.split()
        return (
            2 <= len(words) <= 6
            and _normal(words[0]) in STANDALONE_HEADING_STARTS
            and all(_CAPS_WORD.match(w) and sum(c.isalpha() for c in w) >= 2 for w in words)
        )

    @staticmethod
    def single_word_heading(head: str) -> bool:
        """ "ESBIRROS Los esbirros son..." heads a section; "EZREN Eduardo y Mónica..." is a card face."""
        return len(head) >= 5 and bool(_CAPS_WORD.match(head)) and _normal(head) not in PROFILE_NAMES

    def drop(self, paragraph: str) -> int:
        if len(self.dropped_samples) < 40:
            self.dropped_samples.append(paragraph[:80])
        return len(paragraph)

    def read(self) -> SplitResult:
        assembler = _Assembler([])
        dropped = 0
        # A sidebar, a profile or an example is one paragraph in this layout; the next paragraph
        # without a heading continues the section the aside interrupted.
        interrupted: Passage | None = None
        paragraphs = [" ".join(p.split()) for p in self.paragraphs]
        for index, paragraph in enumerate(paragraphs):
            if self.noise(paragraph):
                following = next((p for p in paragraphs[index + 1 :] if not self.noise(p)), "")
                if self.standalone_heading(paragraph) and following and not _CAPS_HEAD.match(following):
                    self.caps_heading(assembler, paragraph)  # a heading the layout set apart
                    interrupted = None
                else:
                    dropped += self.drop(paragraph)
                continue
            profile = _PROFILE.search(paragraph[:80]) if assembler.mode == "normal" else None
            head, body = self.head_and_body(paragraph, profile)
            if head and _CARD_POWER.match(body):
                dropped += self.drop(paragraph)
                continue
            if head:
                before = assembler.current
                self.caps_heading(assembler, head)
                aside = assembler.current is not None and assembler.current.kind in ASIDES
                interrupted = (interrupted or before) if aside else None
            if profile:
                interrupted = interrupted or assembler.current
                name = profile.group("name")
                assembler.open("section", name[:1] + name[1:].lower(), assembler.section[:1], 2)
            elif not head and assembler.mode == "normal" and body.startswith("Ejemplo:"):
                interrupted = interrupted or assembler.current
                assembler.open("example", "Ejemplo", assembler.section[:1], 3)
            elif not head and interrupted is not None:
                assembler.current, interrupted = interrupted, None
            cleaned, removed = _clean_caps_text(body)
            dropped += removed
            assembler.text(cleaned)
        passages = assembler.finish()
        kept = sum(len(p.text) for p in passages)
        return SplitResult(passages, "caps", kept, dropped, assembler.duplicate_chars, self.dropped_samples)

    def head_and_body(self, paragraph: str, profile: re.Match[str] | None) -> tuple[str, str]:
        """The upper-case heading run in at the start of a paragraph (or "" if none), and the rest."""
        if profile:
            return " ".join(paragraph[: profile.start()].split()), paragraph[profile.end() :]
        match = _CAPS_HEAD.match(paragraph)
        if not match:
            return "", paragraph
        head = " ".join(match.group("head").split())
        if len(head.split()) >= 2 or head.endswith(("?", ":")) or self.single_word_heading(head):
            return head, match.group("body")
        return "", paragraph

    @staticmethod
    def caps_heading(assembler: _Assembler, head: str) -> None:
        prefix, _, rest = head.partition(":")
        first = head.split()[0].rstrip(":")
        sidebar = SIDEBARS.get(_normal(first))
        title = head.strip(" :")
        pretty = title[:1] + title[1:].lower()
        if assembler.mode == "reference":  # the reference sheet closes the book
            assembler.open("reference", pretty, assembler.section[:1], 2)
        elif _normal(title) in PLAY_EXAMPLE_HEADINGS:
            assembler.mode = "play-example"
            assembler.section = [pretty]
            assembler.open("play-example", pretty, [], 1)
        elif sidebar:
            body = (rest if rest.strip() else head[len(first) :]).strip(" :")
            label = f"{first.title().rstrip(':')}: {body[:1] + body[1:].lower()}" if body else pretty
            assembler.open(sidebar, label, assembler.section[:2], 3)
        elif _normal(title) in REFERENCE_HEADINGS:
            assembler.section = [pretty]
            assembler.mode = "reference"
            assembler.open("reference", pretty, [], 1)
        else:
            assembler.mode = "normal"
            assembler.section = [pretty]
            assembler.open("section", pretty, [], 1)
