"""Exact odds: dice expressions, distributions by convolution, chance and expected damage."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from play.engine import chance, distribution, parse_dice
from play.engine.odds import DicePool, check_odds, expected_damage, mean_damage


def brute(dice: tuple[int, ...], modifier: int) -> list[int]:
    return [max(0, sum(faces) + modifier) for faces in product(*(range(1, sides + 1) for sides in dice))]


@pytest.mark.parametrize(
    ("text", "pool"),
    [
        ("3d8+1d6+2", DicePool((8, 8, 8, 6), 2)),
        ("1d10 + 3d4 + 5", DicePool((10, 4, 4, 4), 5)),
        ("d8", DicePool((8,), 0)),
        ("2d4-1", DicePool((4, 4), -1)),
        ("1d6+1d12", DicePool((12, 6), 0)),
        ("4", DicePool((), 4)),
    ],
)
def test_dice_expressions_are_read(text: str, pool: DicePool) -> None:
    assert parse_dice(text) == pool


@pytest.mark.parametrize("text", ["", "3x8", "d", "1d0", "-1d6", "2d6+"])
def test_malformed_dice_expressions_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_dice(text)


def test_a_pool_prints_as_the_book_writes_it() -> None:
    assert str(parse_dice("1d6+3d8+2")) == "3d8+1d6+2"


dice_pools = st.tuples(
    st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=0, max_size=4).map(tuple), st.integers(-8, 8)
)


@given(dice_pools, st.integers(-2, 40))
def test_chance_and_expected_damage_match_enumeration(pool: tuple[tuple[int, ...], int], difficulty: int) -> None:
    dice, modifier = pool
    results = brute(dice, modifier)
    assert chance(dice, difficulty, modifier) == Fraction(sum(r >= difficulty for r in results), len(results))
    failures = [difficulty - r for r in results if r < difficulty]
    expected = Fraction(sum(failures), len(failures)) if failures and difficulty > 0 else Fraction(0)
    assert expected_damage(dice, difficulty, modifier) == expected
    assert mean_damage(dice, difficulty, modifier) == (Fraction(sum(failures), len(results)) if difficulty > 0 else 0)


@given(dice_pools)
def test_a_distribution_sums_to_one_and_never_goes_below_zero(pool: tuple[tuple[int, ...], int]) -> None:
    dice, modifier = pool
    found = distribution(dice, modifier)
    assert sum(found.values()) == 1
    assert min(found) >= 0


def test_ten_dice_are_exact() -> None:
    whole = distribution("10d12")
    assert sum(whole.values()) == 1 and len(whole) == 111  # 10 .. 120
    # 10d12 is symmetric around 65: P(sum >= 66) == P(sum <= 64).
    assert chance("10d12", 66) == sum(p for value, p in whole.items() if value <= 64)
    assert chance("10d12", 65) == sum(p for value, p in whole.items() if value >= 65)


def test_check_odds_reports_exact_fractions() -> None:
    odds = check_odds("1d10+3d4+5", 15).as_dict()
    assert odds["dice"] == "1d10+3d4+5" and odds["difficulty"] == 15
    assert Fraction(odds["chance"]) == chance("1d10+3d4+5", 15)
