"""Declared powers: a card whose powers are not encoded is still playable.

Its definition says `declare: true`; the engine then offers it, in each window its type can act
in, as a *template* power (`id: declare`). The player who plays it says what the printed power
does: the card action it costs and its effects, chosen from the effect vocabulary this window
allows. The engine checks the declaration and applies it under every rule it knows (one card of
each type per step, "freely", immunities, dice never below 0), and the log names who declared it.
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalAction
from .odds import parse_dice

DECLARE = "declare"
CARD_ACTIONS = ("reveal", "display", "reload", "recharge", "discard", "bury", "banish")
# What a declaration may hold besides the option's own keys.
DECLARED_KEYS = ("cost", "effects", "text", "freely", "skill", "pay", "pay_action")
RULE = "Declared powers: say what the printed power does, from the effects this moment allows"

# The effects each window allows (the engine's vocabulary, README "Card definitions").
WINDOW_EFFECTS: dict[str, tuple[str, ...]] = {
    "check.skill": ("use_skill",),
    "check": ("add_die", "add", "add_trait", "bless"),
    "damage": ("reduce_damage",),
    "evade": ("evade",),
    "turn": ("heal", "draw", "examine"),
    "explore": ("explore_again",),
}
# The windows a card of each type can be declared in. Not the evade window: it would stop every
# encounter to ask; a card that evades is encoded (`effects`) instead.
TYPE_WINDOWS: dict[str, tuple[str, ...]] = {
    "weapon": ("check.skill", "check", "damage"),
    "spell": ("check.skill", "check", "damage", "turn", "explore"),
    "armor": ("check", "damage"),
    "item": ("check", "damage", "turn", "explore"),
    "ally": ("check", "turn", "explore"),
    "blessing": ("check", "turn", "explore"),
    "loot": ("check.skill", "check", "damage", "turn"),
    "cohort": ("check", "turn", "explore"),
    "character": ("check", "damage", "turn"),
    "location": ("check", "turn"),
}
LABELS = {
    "check.skill": "use a skill",
    "check": "on this check",
    "damage": "against this damage",
    "evade": "to evade",
    "turn": "now",
    "explore": "to explore again",
}


def templates(card_type: str) -> list[dict[str, Any]]:
    """The template powers a declared card of this type is offered with."""
    found = []
    for window in TYPE_WINDOWS.get(card_type, ()):
        power: dict[str, Any] = {
            "id": f"{DECLARE}:{window}",
            "timing": window,
            DECLARE: True,
            "text": f"declare a power ({LABELS[window]})",
        }
        if window in ("check", "check.skill"):
            power["requires"] = {"whose": "local"} if window == "check" else {}
        found.append(power)
    return found


def offered(window: str, source: str) -> dict[str, Any]:
    """What the option tells the client it may declare."""
    return {
        "costs": list(CARD_ACTIONS) if source in ("hand", "displayed") else [None, *CARD_ACTIONS[3:]],
        "effects": list(WINDOW_EFFECTS[window]),
    }


def _refuse(message: str) -> IllegalAction:
    return IllegalAction(message, rule=RULE, details={"declared": True})


def _dice(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise _refuse(f"{what} must be dice such as '1d4' or '2d6+1'")
    try:
        pool = parse_dice(value)
    except ValueError as error:
        raise _refuse(f"{what}: {error}") from None
    if not 1 <= len(pool.dice) <= 6 or any(sides not in (4, 6, 8, 10, 12, 20) for sides in pool.dice):
        raise _refuse(f"{what} must be 1 to 6 dice of d4, d6, d8, d10, d12 or d20")
    return value.replace(" ", "")


def _count(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refuse(f"{what} must be a whole number from {low} to {high}")
    return value


def _words(value: Any, what: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not 1 <= len(value) <= 5:
        raise _refuse(f"{what} must be 1 to 5 words")
    words = []
    for word in value:
        if not isinstance(word, str) or not word.strip() or len(word) > 30 or not word.isprintable():
            raise _refuse(f"{what}: each must be a short printable word")
        words.append(word.strip().title() if word.islower() else word.strip())
    return words


def _effect(window: str, effect: Any, skill: str | None) -> dict[str, Any]:
    if not isinstance(effect, dict) or len(effect) != 1:
        raise _refuse("each effect is one mapping, e.g. {'add_die': '1d4'}")
    ((name, value),) = effect.items()
    allowed = WINDOW_EFFECTS[window]
    if name not in allowed:
        raise _refuse(f"{name!r} cannot be declared here; this moment allows {', '.join(allowed)}")
    if name == "add_die":
        return {name: _dice(value, "add_die")}
    if name == "add":
        return {name: _count(value, "add", -10, 10)}
    if name == "add_trait":
        return {name: _words(value, "add_trait")}
    if name == "bless":
        return {name: _count(value, "bless", 1, 3)}
    if name == "use_skill":
        value = value if isinstance(value, dict) else {}
        add = value.get("add")
        if not skill:
            raise _refuse("use_skill needs the skill used: send 'skill' with the declaration")
        return {name: {"skills": [skill], **({"add": _dice(add, "use_skill.add")} if add else {})}}
    if name == "reduce_damage":
        value = value if isinstance(value, dict) else {"amount": value}
        amount = value.get("amount")
        if amount != "all":
            amount = _count(amount, "reduce_damage.amount", 1, 20)
        types = _words(value.get("types", ["any"]), "reduce_damage.types")
        return {name: {"amount": amount, "types": [t.lower() if t.lower() == "any" else t for t in types]}}
    if name in ("evade", "explore_again"):
        return {name: True}
    if name == "heal":
        return {name: _count(value, "heal", 1, 10)}
    if name == "draw":
        return {name: _count(value, "draw", 1, 5)}
    # examine
    count = value.get("count", 1) if isinstance(value, dict) else value
    return {name: {"location": "local", "count": _count(count, "examine.count", 1, 5)}}


def declared_power(template: dict[str, Any], action: dict[str, Any], source: str, hand: list[str]) -> dict[str, Any]:
    """The concrete power a declaration describes, checked; raises IllegalAction saying what is
    wrong. A card's declaration names the card action it costs; a character's or location's may
    name a card from the hand to pay with (`pay`, `pay_action`)."""
    window = template["timing"]
    effects = action.get("effects")
    if not isinstance(effects, list) or not 1 <= len(effects) <= 4:
        raise _refuse(
            f"declare 1 to 4 effects, e.g. [{{'{WINDOW_EFFECTS[window][0]}': ...}}]; "
            f"this moment allows {', '.join(WINDOW_EFFECTS[window])}"
        )
    skill = action.get("skill")
    if skill is not None and (not isinstance(skill, str) or not skill.strip() or len(skill) > 30):
        raise _refuse("skill must be the name of a skill, e.g. 'Melee'")
    concrete = [_effect(window, effect, skill) for effect in effects]
    text = action.get("text")
    if text is not None and (not isinstance(text, str) or len(text) > 300 or not text.isprintable()):
        raise _refuse("text is the power as printed, at most 300 printable characters")
    freely = action.get("freely", False)
    if not isinstance(freely, bool):
        raise _refuse("freely is true or false")
    power = {
        **template,
        "effects": concrete,
        "declared": True,
        "freely": freely,
        "text": text.strip() if text and text.strip() else "declared power",
    }
    power.pop(DECLARE, None)
    cost = action.get("cost")
    if source in ("hand", "displayed"):
        if cost not in CARD_ACTIONS:
            raise _refuse(f"cost must be the card action the power asks for: one of {', '.join(CARD_ACTIONS)}")
        power["cost"] = cost
    else:
        pay = action.get("pay")
        if pay is None:
            power.pop("cost", None)
        else:
            pay_action = action.get("pay_action")
            if pay not in hand:
                raise _refuse("the card paying for that power is not in your hand")
            if pay_action not in CARD_ACTIONS[3:]:
                raise _refuse(f"pay_action must be one of {', '.join(CARD_ACTIONS[3:])}")
            power["cost"] = {pay_action: {}}
    return power
