"""Checks and difficulties as written on cards, parsed to structure and printed back.

Grammar (case-insensitive; Spanish skill names are accepted and stored in English):

    check      := "None" | "See below" | step ("then" step)*
    step       := option (("or" | ",") option)*
    option     := skill (("or" | ",") skill)* difficulty
    difficulty := number (("+" | "-") term)*      term := number | [number ["x" | "×"]] "AN"

"AN" is the adventure number. "Or" binds tighter than "then", as the Core rulebook says:
"Wisdom 10 or Combat 13 then Combat 15" is (Wisdom 10 | Combat 13), then Combat 15.
"""

from __future__ import annotations

import re
from typing import Any

from .skills import canonical_skill
from .text import fold


class CheckSyntaxError(ValueError):
    """A check that cannot be read; the message says what and where."""


SPECIAL = {"none": "None", "see below": "See below"}
SPECIAL_ALIASES = {"ninguna": "none", "ninguno": "none", "ver abajo": "see below", "see_below": "see below"}

_TOKEN = re.compile(
    r"\s*(?:(?P<an>(?:\d+\s*(?:x|×|\*)?\s*)?an\b)|(?P<num>\d+)|(?P<op>[+\-−,])"
    r"|(?P<word>[^\W\d_][\w'’]*(?:\s+(?:a|de|del)\s+[^\W\d_][\w'’]*)?))",
    re.IGNORECASE | re.UNICODE,
)


def parse_difficulty(text: str | int) -> dict[str, int]:
    """'11 + 2AN' -> {"base": 11, "adventure": 2}; '10 + AN + AN' -> {"base": 10, "adventure": 2}."""
    if isinstance(text, bool):
        raise CheckSyntaxError("a difficulty must be a number or a formula such as '11 + 2AN'")
    if isinstance(text, int):
        if text < 0:
            raise CheckSyntaxError(f"difficulty {text} is negative")
        return {"base": text, "adventure": 0}
    base, adventure, sign, expect_term = 0, 0, 1, True
    position = 0
    source = str(text)
    while position < len(source):
        match = _TOKEN.match(source, position)
        if not match or match.end() == position:
            if source[position:].strip() == "":
                break
            raise CheckSyntaxError(
                f"unexpected {source[position:].strip()!r} at character {position + 1} of {source!r}"
            )
        position = match.end()
        if match.group("op") in {"+", "-", "−"} and not expect_term:
            sign = 1 if match.group("op") == "+" else -1
            expect_term = True
        elif match.group("num") and expect_term:
            base += sign * int(match.group("num"))
            expect_term = False
        elif match.group("an") and expect_term:
            factor = re.match(r"\d+", match.group("an"))
            adventure += sign * (int(factor.group()) if factor else 1)
            expect_term = False
        else:
            raise CheckSyntaxError(
                f"unexpected {match.group().strip()!r} at character {match.start() + 1} of {source!r}"
            )
    if expect_term:
        raise CheckSyntaxError(f"difficulty {source!r} is incomplete; write it like '8' or '11 + 2AN'")
    return {"base": base, "adventure": adventure}


def format_difficulty(difficulty: dict[str, int]) -> str | int:
    base, adventure = difficulty["base"], difficulty.get("adventure", 0)
    if not adventure:
        return base
    term = "AN" if abs(adventure) == 1 else f"{abs(adventure)}AN"
    return f"{base} {'+' if adventure > 0 else '-'} {term}"


def difficulty_at(difficulty: dict[str, int], adventure_number: int) -> int:
    return max(0, difficulty["base"] + difficulty.get("adventure", 0) * adventure_number)


def parse_check(text: Any) -> dict[str, Any]:
    """Parse a check; returns {"special": "none"|"see below"} or {"steps": [[option, ...], ...]}."""
    if isinstance(text, dict):
        return _validate_structured(text)
    if not isinstance(text, str) or not text.strip():
        raise CheckSyntaxError("a check must be text such as 'Combat 11 + 2AN' or 'None'")
    folded = fold(text.strip().rstrip("."))
    folded = SPECIAL_ALIASES.get(folded, folded)
    if folded in SPECIAL:
        return {"special": folded}
    steps = []
    for step_text in re.split(r"\bthen\b|\bluego\b|\by despues\b", text, flags=re.IGNORECASE):
        steps.append(_parse_step(step_text, text))
    return {"steps": steps}


def _parse_step(step_text: str, whole: str) -> list[dict[str, Any]]:
    if not step_text.strip():
        raise CheckSyntaxError(f"empty part around 'then' in {whole!r}")
    options: list[dict[str, Any]] = []
    skills: list[str] = []
    difficulty_parts: list[str] = []
    position = 0

    def close_option() -> None:
        if not skills:
            raise CheckSyntaxError(f"a difficulty without a skill in {whole!r}")
        options.append({"skills": list(skills), "difficulty": parse_difficulty(" ".join(difficulty_parts))})
        skills.clear()
        difficulty_parts.clear()

    while position < len(step_text):
        match = _TOKEN.match(step_text, position)
        if not match or match.end() == position:
            rest = step_text[position:].strip()
            if not rest:
                break
            raise CheckSyntaxError(f"cannot read {rest!r} in check {whole!r}")
        position = match.end()
        word = match.group("word")
        if word and fold(word) in {"habilidad", "habilidades"}:
            continue  # Spanish "habilidad arcana" = Arcane
        if word and fold(word) in {"or", "o", "u"}:
            if difficulty_parts:
                close_option()
            continue
        if match.group("op") == ",":
            if difficulty_parts:
                close_option()
            continue
        if word:
            if difficulty_parts:
                close_option()
            skill = canonical_skill(word)
            if skill is None:
                raise CheckSyntaxError(f"unknown skill {word!r} in check {whole!r}")
            skills.append(skill)
        else:
            if not skills:
                raise CheckSyntaxError(f"a difficulty without a skill in {whole!r}")
            difficulty_parts.append(match.group().strip())
    if skills and not difficulty_parts:
        raise CheckSyntaxError(f"skill {skills[-1]} has no difficulty in {whole!r}")
    if difficulty_parts:
        close_option()
    return options


def _validate_structured(value: dict[str, Any]) -> dict[str, Any]:
    if "special" in value:
        if value["special"] not in SPECIAL:
            raise CheckSyntaxError(f"special check must be one of {sorted(SPECIAL)}")
        return {"special": value["special"]}
    return parse_check(format_check(value))


def format_check(check: dict[str, Any]) -> str:
    if "special" in check:
        return SPECIAL[check["special"]]
    steps = []
    for step in check["steps"]:
        options = [f"{' or '.join(option['skills'])} {format_difficulty(option['difficulty'])}" for option in step]
        steps.append(" or ".join(options))
    return " then ".join(steps)


def check_skills(check: dict[str, Any] | None) -> list[str]:
    if not check or "steps" not in check:
        return []
    seen: dict[str, None] = {}
    for step in check["steps"]:
        for option in step:
            for skill in option["skills"]:
                seen[skill] = None
    return list(seen)


def check_difficulties(check: dict[str, Any] | None) -> list[int]:
    """The printed base numbers, which is what `diff` in the search language compares."""
    if not check or "steps" not in check:
        return []
    return sorted({option["difficulty"]["base"] for step in check["steps"] for option in step})
