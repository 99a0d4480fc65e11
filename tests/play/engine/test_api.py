"""The public API: state in, state out; versions; clear errors; preview; replay; views; and the
engine's independence from Django and the other apps."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from play.engine import (
    GameOver,
    IllegalAction,
    NotYourDecision,
    ReplayMismatch,
    StaleVersion,
    apply,
    new_game,
    pending,
    preview,
    public_events,
    replay,
    view,
)
from play.engine.sandbox import sandbox_setup

from .builders import table, until

ENGINE = Path(__file__).resolve().parents[3] / "play" / "engine"


def goblin_check():  # type: ignore[no-untyped-def]
    game = table(locations={"test.alpha": ["test.goblin"]}, hands={"fighter": ["test.blessing"]})
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    return game


def test_apply_returns_a_new_state_and_leaves_the_given_one_unchanged() -> None:
    game = goblin_check()
    before = copy.deepcopy(game.state)
    new, events = apply(game.state, "fighter", {"type": "roll"}, dice=[4])
    assert game.state == before
    assert new["version"] == before["version"] + 1
    assert events[0] == {
        "type": "action",
        "player": "fighter",
        "action": {"type": "roll"},
        "version": before["version"],
    }
    json.dumps(new)


def test_an_action_based_on_an_older_version_is_refused() -> None:
    game = goblin_check()
    with pytest.raises(StaleVersion) as caught:
        apply(game.state, "fighter", {"type": "roll", "version": game.state["version"] - 1}, dice=[4])
    assert caught.value.details == {"version": game.state["version"]}
    apply(game.state, "fighter", {"type": "roll", "version": game.state["version"]}, dice=[4])


def test_only_the_players_asked_may_answer() -> None:
    game = table(characters=("fighter", "mage"))
    with pytest.raises(NotYourDecision, match="mage cannot answer this decision; waiting for fighter"):
        apply(game.state, "mage", {"type": "pass"})


def test_nobody_plays_another_players_cards() -> None:
    game = table(
        characters=("fighter", "mage"),
        locations={"test.alpha": ["test.goblin"]},
        hands={"fighter": ["test.blessing"]},
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    bless = next(o["action"] for o in game.state["pending"]["options"] if o["action"]["type"] == "play")
    with pytest.raises(NotYourDecision, match="mage does not play fighter"):
        apply(game.state, "mage", bless)


def test_an_illegal_action_says_what_is_wrong_and_which_rule() -> None:
    game = goblin_check()
    with pytest.raises(IllegalAction) as caught:
        apply(game.state, "fighter", {"type": "explore"})
    assert caught.value.message == "'explore' is not one of the options of this decision"
    assert caught.value.as_dict()["code"] == "illegal_action"


def test_a_finished_scenario_takes_no_more_actions() -> None:
    scenario = {"type": "scenario", "locations": {"1": ["test.alpha"]}, "villains": [], "henchmen": []}
    game = table(scenario=scenario)
    until(game, "close_step")
    game.do("fighter", {"type": "close"})
    game.do("fighter", {"type": "attempt", "option": 0})
    game.do("fighter", {"type": "roll"}, 9)
    assert pending(game.state) is None
    with pytest.raises(GameOver):
        apply(game.state, "fighter", {"type": "pass"})


def test_preview_shows_the_dice_and_odds_an_answer_would_give_without_changing_anything() -> None:
    game = goblin_check()
    before = copy.deepcopy(game.state)
    blessing = game.option(power="bless")["action"]
    shown = preview(game.state, "fighter", blessing)
    assert shown["check"]["dice"] == "2d10+2"
    assert shown["check"]["odds"]["chance"] == "97/100"  # fails only on 1+1, 1+2, 2+1
    assert shown["halted_before_random"] is False
    rolled = preview(game.state, "fighter", {"type": "roll"})
    assert rolled["halted_before_random"] is True and rolled["check"]["result"] is None
    assert game.state == before


def test_replaying_the_log_reproduces_the_state_and_a_tampered_log_is_refused() -> None:
    game = goblin_check()
    game.do("fighter", {"type": "roll"}, 4)
    assert replay(game.initial, game.log) == game.state
    tampered = copy.deepcopy(game.log)
    next(event for event in tampered if event["type"] == "random" and event["what"] == "roll")["sides"] = 6
    with pytest.raises(ReplayMismatch):
        replay(game.initial, tampered)


def test_a_seeded_game_replays_from_its_log_without_the_dice() -> None:
    state = new_game(sandbox_setup(2), seed="replay")
    initial, log = state, []
    import random

    from play.engine.policy import random_action

    rng = random.Random(7)
    for _ in range(80):
        if state["status"] != "playing":
            break
        player, action = random_action(state, rng)
        state, events = apply(state, player, action)
        log += events
    assert replay(initial, log) == state


def test_views_never_show_the_seed_deck_order_or_facedown_cards() -> None:
    state = new_game(sandbox_setup(3), seed="secret-seed")
    seen = view(state, "player1")
    text = json.dumps(seen)
    assert "secret-seed" not in text and "draws" not in text
    assert seen["characters"]["sage"]["hand"] == {"count": len(state["characters"]["sage"]["hand"])}
    assert seen["characters"]["valor"]["deck"] == {"count": len(state["characters"]["valor"]["deck"])}
    facedown = [card for location in state["locations"].values() for card in location["cards"]] + state["hourglass"]
    facedown += [card for sheet in state["characters"].values() for card in sheet["deck"]]
    for card in facedown:
        assert f'"{card}"' not in text
    assert seen["pending"]["players"] == ["player1"]
    assert view(state, "player2")["pending"] == {
        "kind": state["pending"]["kind"],
        "prompt": state["pending"]["prompt"],
        "waiting_for": ["player1"],
    }


def test_public_events_drop_shuffle_orders_and_random_picks() -> None:
    events = [
        {"type": "random", "what": "shuffle", "label": "location:x", "order": [2, 0, 1], "draw": 3},
        {"type": "random", "what": "roll", "sides": 6, "face": 4, "draw": 4},
    ]
    assert public_events(events) == [
        {"type": "random", "what": "shuffle", "label": "location:x", "draw": 3},
        {"type": "random", "what": "roll", "sides": 6, "face": 4, "draw": 4},
    ]


def test_the_engine_imports_nothing_from_django_or_the_other_apps() -> None:
    for path in ENGINE.glob("*.py"):
        source = path.read_text()
        for forbidden in ("django", "from cards", "import cards", "from rules", "from campaigns", "from play.models"):
            assert forbidden not in source, f"{path.name} mentions {forbidden}"
    script = (
        "import sys; import play.engine, play.engine.sandbox, play.engine.policy; "
        "apps = ('django', 'cards', 'rules', 'campaigns', 'rest_framework'); "
        "bad = [m for m in sys.modules if m.split('.')[0] in apps]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ENGINE.parents[1], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_power_that_cannot_be_used_now_is_explained() -> None:
    game = table(hands={"fighter": ["test.blessing"]})
    blessing = game.instance("fighter", "test.blessing")
    with pytest.raises(IllegalAction) as caught:
        apply(
            game.state,
            "fighter",
            {"type": "play", "character": "fighter", "source": "hand", "card": blessing, "power": "bless"},
        )
    assert caught.value.message == "that card has no power that can be used at this point"
    assert caught.value.rule.startswith("Dealing with Cards")


def test_a_players_view_of_a_shared_decision_shows_only_their_own_cards() -> None:
    game = table(
        characters=("fighter", "mage"),
        locations={"test.alpha": ["test.goblin"]},
        hands={"fighter": ["test.knife"], "mage": ["test.knife"]},
    )
    until(game, "explore")
    game.do("fighter", {"type": "explore"})
    game.choose("fighter", type="skill", skill="Melee")
    mage_knife = game.instance("mage", "test.knife")
    assert mage_knife in game.decision["by_card"]
    fighter_view = view(game.state, "fighter")["pending"]
    assert mage_knife not in fighter_view["by_card"]
    assert all(entry["player"] == "fighter" for entry in fighter_view["options"])
    assert mage_knife not in json.dumps(fighter_view)
