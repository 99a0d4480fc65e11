"""Randomness: counter-based HMAC-SHA256 draws from a secret seed, logged, injectable."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from play.engine import EngineError, ScriptedDice, SeededSource, new_game
from play.engine.randomness import LoggedSource
from play.engine.sandbox import sandbox_setup

from .builders import table, until


def test_draw_n_is_hmac_sha256_of_the_seed_and_n() -> None:
    source = SeededSource("seed")
    for n in range(20):
        digest = hmac.new(b"seed", str(n).encode(), hashlib.sha256).digest()
        assert source.roll(6, n) == int.from_bytes(digest, "big") % 6 + 1


def test_dice_are_fair_enough() -> None:
    source = SeededSource("fair")
    counts = Counter(source.roll(6, n) for n in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < count < 1150 for count in counts.values())


def test_a_shuffle_is_a_permutation_that_depends_on_the_draw() -> None:
    source = SeededSource("shuffle")
    cards = [f"c{i}" for i in range(10)]
    first, second = source.shuffle(cards, "x", 1), source.shuffle(cards, "x", 2)
    assert sorted(first) == list(range(10)) and first != second
    assert source.shuffle(cards, "x", 1) == first


def test_every_draw_advances_the_games_counter_and_is_logged() -> None:
    game = table(locations={"test.alpha": ["test.goblin"]})
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    draws = game.state["secret"]["draws"]
    game.do("fighter", {"type": "roll"}, 5)
    rolls = [event for event in game.last_events if event["type"] == "random"]
    assert rolls[0] == {
        "type": "random",
        "what": "roll",
        "sides": 10,
        "face": 5,
        "purpose": rolls[0]["purpose"],
        "draw": draws,
    }
    assert game.state["secret"]["draws"] > draws


def test_the_seed_decides_everything_when_no_dice_are_injected() -> None:
    assert new_game(sandbox_setup(2), seed="x") == new_game(sandbox_setup(2), seed="x")


def test_scripted_dice_refuse_impossible_faces_and_running_out() -> None:
    dice = ScriptedDice([7])
    with pytest.raises(EngineError, match="cannot come up on a d6"):
        dice.roll(6, 0)
    with pytest.raises(EngineError, match="ran out"):
        ScriptedDice([]).roll(6, 0)


def test_a_logged_source_gives_back_what_was_drawn() -> None:
    source = LoggedSource(
        [
            {"what": "roll", "sides": 8, "face": 3},
            {"what": "shuffle", "order": [1, 0]},
            {"what": "pick", "index": 2},
        ]
    )
    assert source.roll(8, 0) == 3
    assert source.shuffle(["a", "b"], "x", 1) == [1, 0]
    assert source.pick(["a", "b", "c"], "x", 2) == 2
    assert source.exhausted()
