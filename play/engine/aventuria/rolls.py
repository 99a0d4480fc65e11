"""Aventuria's tests and rolls (rulebook, "Tests"): a test is one D20 rolled under a game value, a
1 always a critical success and a 20 always a critical failure; damage is a roll of dice plus a
fixed value, halved (rounded up) by a successful dodge and reduced by armor, never below 0."""

from __future__ import annotations

from fractions import Fraction

from ..odds import DicePool, distribution, parse_dice

CRITICAL_SUCCESS, SUCCESS, FAILURE, CRITICAL_FAILURE = "critical success", "success", "failure", "critical failure"


def outcome(face: int, value: int | None) -> str:
    """A test's result for a D20 face against the (modified) game value."""
    if value is None or value <= 0:  # "—", or modified to 0 or lower: failed without a roll
        return FAILURE
    if face == 1:
        return CRITICAL_SUCCESS
    if face == 20:
        return CRITICAL_FAILURE
    return SUCCESS if face <= value else FAILURE


def succeeded(result: str) -> bool:
    return result in (SUCCESS, CRITICAL_SUCCESS)


def rolled(value: int | None) -> bool:
    """Whether a test on this value is rolled at all ("—" and values of 0 or less fail unrolled)."""
    return value is not None and value > 0


def test_odds(value: int | None) -> dict[str, object]:
    """Exact odds of a test on a value: success (criticals included) and each critical."""
    if not rolled(value):
        return {"value": value, "success": "0", "success_float": 0.0, "critical_success": "0", "critical_failure": "0"}
    assert value is not None
    success = Fraction(min(value, 19), 20)  # a 1 always succeeds, a 20 always fails
    return {
        "value": value,
        "success": str(success),
        "success_float": round(float(success), 4),
        "critical_success": "1/20",
        "critical_failure": "1/20",
    }


def dodged(damage: int) -> int:
    """A successful dodge halves the damage, rounded up (7 -> 4)."""
    return (damage + 1) // 2


def after_armor(damage: int, protection: int) -> int:
    return max(0, damage - protection)


def parse_damage(text: str) -> DicePool:
    """A damage roll as printed ("1D6+3"): some dice, and a fixed value to add."""
    pool = parse_dice(text)
    if not pool.dice:
        raise ValueError(f"{text!r} rolls no dice")
    return pool


def mean_damage(dice: str) -> Fraction:
    """The mean of a damage roll ("1D6+3": 6.5)."""
    pool = parse_dice(dice)
    return sum((total * p for total, p in distribution(pool.dice, pool.modifier).items()), Fraction(0))
