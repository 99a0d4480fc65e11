"""Exact odds of a check: the sum of the dice by convolution, as exact fractions.

A result can never go below 0 (Core Set, "Roll the Dice"), so a failed check against a monster
deals `difficulty - max(0, roll + modifier)` damage. Distributions are cached by the sorted dice,
and a pool is built on the cached pool with one die fewer, so adding a die to a check while
cards are played costs one convolution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

_TERM = re.compile(r"\s*([+-])?\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))\s*")


@dataclass(frozen=True)
class DicePool:
    dice: tuple[int, ...]
    modifier: int = 0

    def __str__(self) -> str:
        parts = [f"{self.dice.count(sides)}d{sides}" for sides in sorted(set(self.dice), reverse=True)]
        text = "+".join(parts) or "0"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text


DiceLike = str | DicePool | tuple[int, ...] | list[int]


def parse_dice(text: str) -> DicePool:
    """`"3d8+1d6+2"` -> DicePool((8, 8, 8, 6), 2). Spaces and `d8` (one die) are accepted."""
    position, dice, modifier = 0, [], 0
    text = text.strip()
    if not text:
        raise ValueError("an empty dice expression")
    while position < len(text):
        match = _TERM.match(text, position)
        if not match or match.end() == position:
            raise ValueError(f"cannot read dice {text!r} at position {position}")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(3):
            count, sides = int(match.group(2) or 1), int(match.group(3))
            if sides < 1:
                raise ValueError(f"a die needs at least one side: {text!r}")
            if sign < 0:
                raise ValueError(f"dice cannot be subtracted: {text!r}")
            dice.extend([sides] * count)
        else:
            modifier += sign * int(match.group(4))
        position = match.end()
    return DicePool(tuple(sorted(dice, reverse=True)), modifier)


def _pool(dice: DiceLike, modifier: int = 0) -> DicePool:
    if isinstance(dice, str):
        pool = parse_dice(dice)
        return DicePool(pool.dice, pool.modifier + modifier)
    if isinstance(dice, DicePool):
        return DicePool(dice.dice, dice.modifier + modifier)
    return DicePool(tuple(sorted(dice, reverse=True)), modifier)


@lru_cache(maxsize=4096)
def _counts(dice: tuple[int, ...]) -> tuple[int, ...]:
    """Ways to roll each sum, from the lowest sum (one per die) up. `dice` is sorted."""
    if not dice:
        return (1,)
    previous, sides = _counts(dice[:-1]), dice[-1]
    # Sliding window: ways(k) = sum of previous ways(k-1 .. k-sides).
    counts, window = [], 0
    for k in range(len(previous) + sides - 1):
        if k < len(previous):
            window += previous[k]
        if k >= sides:
            window -= previous[k - sides]
        counts.append(window)
    return tuple(counts)


@dataclass(frozen=True)
class _Table:
    low: int  # the lowest sum
    total: int  # number of equally likely outcomes
    counts: tuple[int, ...]
    below: tuple[int, ...]  # below[k]: outcomes whose sum is < low + k
    below_weighted: tuple[int, ...]  # sum of (sum * ways) over those outcomes


@lru_cache(maxsize=4096)
def _table(dice: tuple[int, ...]) -> _Table:
    counts = _counts(dice)
    low = len(dice)
    below = (0, *accumulate(counts))
    below_weighted = (0, *accumulate((low + k) * c for k, c in enumerate(counts)))
    return _Table(low, below[-1], counts, below, below_weighted)


def _below(table: _Table, sum_limit: int) -> tuple[int, int]:
    """(outcomes, weighted sum) of the rolls whose dice sum is below `sum_limit`."""
    k = min(max(sum_limit - table.low, 0), len(table.counts))
    return table.below[k], table.below_weighted[k]


def distribution(dice: DiceLike, modifier: int = 0) -> dict[int, Fraction]:
    """Probability of each result (dice + modifier, never below 0)."""
    pool = _pool(dice, modifier)
    table = _table(pool.dice)
    result: dict[int, Fraction] = {}
    for k, ways in enumerate(table.counts):
        value = max(0, table.low + k + pool.modifier)
        result[value] = result.get(value, Fraction(0)) + Fraction(ways, table.total)
    return result


def chance(dice: DiceLike, difficulty: int, modifier: int = 0) -> Fraction:
    """Probability that max(0, dice + modifier) >= difficulty."""
    pool = _pool(dice, modifier)
    if difficulty <= 0:
        return Fraction(1)
    table = _table(pool.dice)
    failing, _ = _below(table, difficulty - pool.modifier)
    return Fraction(table.total - failing, table.total)


def _damage_sum(table: _Table, difficulty: int, modifier: int) -> tuple[int, int]:
    """(failing outcomes, total damage over them): damage is difficulty - max(0, sum + modifier)."""
    failing, failing_weighted = _below(table, difficulty - modifier)
    clamped, clamped_weighted = _below(table, -modifier)  # these results count as 0
    unclamped = failing - clamped
    unclamped_weighted = failing_weighted - clamped_weighted
    damage = clamped * difficulty + unclamped * (difficulty - modifier) - unclamped_weighted
    return failing, damage


def expected_damage(dice: DiceLike, difficulty: int, modifier: int = 0) -> Fraction:
    """Expected damage given that the check fails (0 when it cannot fail)."""
    pool = _pool(dice, modifier)
    if difficulty <= 0:
        return Fraction(0)
    failing, damage = _damage_sum(_table(pool.dice), difficulty, pool.modifier)
    return Fraction(damage, failing) if failing else Fraction(0)


def mean_damage(dice: DiceLike, difficulty: int, modifier: int = 0) -> Fraction:
    """Expected damage over all rolls, successes counting as 0."""
    pool = _pool(dice, modifier)
    if difficulty <= 0:
        return Fraction(0)
    table = _table(pool.dice)
    _, damage = _damage_sum(table, difficulty, pool.modifier)
    return Fraction(damage, table.total)


@dataclass(frozen=True)
class CheckOdds:
    dice: str
    difficulty: int
    chance: Fraction
    expected_damage_on_failure: Fraction

    def as_dict(self) -> dict[str, object]:
        return {
            "dice": self.dice,
            "difficulty": self.difficulty,
            "chance": f"{self.chance.numerator}/{self.chance.denominator}",
            "chance_float": round(float(self.chance), 6),
            "expected_damage_on_failure": f"{self.expected_damage_on_failure.numerator}/"
            f"{self.expected_damage_on_failure.denominator}",
            "expected_damage_on_failure_float": round(float(self.expected_damage_on_failure), 6),
        }


def check_odds(dice: DiceLike, difficulty: int, modifier: int = 0) -> CheckOdds:
    pool = _pool(dice, modifier)
    return CheckOdds(str(pool), difficulty, chance(pool, difficulty), expected_damage(pool, difficulty))


def clear_cache() -> None:
    """For benchmarks that time the cold computation."""
    _counts.cache_clear()
    _table.cache_clear()
