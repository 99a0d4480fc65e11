"""Difficulty simulation: seeded whole games, summarized the same however they are split."""

from __future__ import annotations

import pytest

from play.engine.sandbox import sandbox_setup
from play.engine.simulate import Outcome, game_seed, play_chunk, summarize, wilson

WARLOCK = sandbox_setup(2, scenario="sandbox.the-warlock")


def games(start: int, count: int, seed: str = "request-1", policy: str = "greedy") -> list[Outcome]:
    return play_chunk(WARLOCK, ruleset="core-2019", seed=seed, start=start, count=count, policy=policy)


def test_the_same_seed_gives_the_same_summary_however_the_games_are_split_and_returned():
    whole = summarize(games(0, 10))
    assert summarize(games(6, 4) + games(0, 6)) == whole == summarize(games(0, 3) + games(3, 7))
    assert whole["games"] == 10
    other = summarize(games(0, 10, seed="request-2"))
    assert [o.as_dict() for o in games(0, 10, seed="request-2")] != [o.as_dict() for o in games(0, 10)]
    assert other["games"] == 10
    assert game_seed("request-1", 3) != game_seed("request-1", 4) != game_seed("request-2", 3)


def test_an_outcome_travels_as_plain_data():
    outcome = games(0, 1)[0]
    assert Outcome.from_dict(outcome.as_dict()) == outcome


@pytest.mark.parametrize(
    ("wins", "played", "interval"),
    [(0, 30, (0.0, 0.1135)), (15, 30, (0.3315, 0.6685)), (30, 30, (0.8865, 1.0)), (8, 30, (0.1418, 0.4445))],
)
def test_the_win_rate_has_a_95_percent_wilson_interval(wins, played, interval):
    low, high = wilson(wins, played)
    assert (round(low, 4), round(high, 4)) == interval


def test_the_greedy_policy_beats_the_random_one_and_the_summary_names_what_beat_the_party():
    greedy, random_ = summarize(games(0, 30)), summarize(games(0, 30, policy="random"))
    assert greedy["win_rate"] > random_["win_rate"] + 0.15
    assert greedy["turns_left_when_won"] > 0 and sum(greedy["turns_left_distribution"].values()) == greedy["wins"]
    assert set(random_["deaths"]) == {"sage", "valor"}  # both characters of the random party died at least once
    worst = random_["banes_that_beat_the_party"]
    assert len(worst) == 5 and worst == sorted(worst, key=lambda bane: -bane["games"])
    assert all(1 <= bane["games"] <= 30 for bane in worst)
