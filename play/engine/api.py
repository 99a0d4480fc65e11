"""The public API the Django layer calls. State in, state out: nothing here mutates its input."""

from __future__ import annotations

from typing import Any

from .check import Check, check_scene
from .errors import GameOver, IllegalAction, NotYourDecision, ReplayMismatch, StaleVersion
from .flow import find_option, normalise
from .game import Decision, Game, State, copy_state
from .machine import HANDLERS, run
from .powers import Scene, explain
from .randomness import LoggedSource, PreviewHalt, PreviewSource, as_source
from .setup import build
from .views import view as _view

Events = list[dict[str, Any]]


def new_game(setup: dict[str, Any], *, seed: str | None = None, ruleset: str = "core-2019", dice: Any = None) -> State:
    """Set up the scenario and play until the first decision. `seed` is secret (a fresh one is
    made when omitted); `dice` injects a source of dice, shuffles and random picks."""
    game = build(setup, seed=seed, ruleset=ruleset, source=as_source(dice))
    run(game)
    return game.state


def pending(state: State) -> Decision | None:
    """The decision the game waits for, or None when the scenario is over."""
    return state["pending"]


def _scene(game: Game, step: dict[str, Any]) -> Scene | None:
    kind = step["kind"]
    if kind == "check":
        window = {"skill": "check.skill", "play": "check", "reroll": "reroll"}.get(step["phase"], "check")
        return check_scene(game, step, window)
    if kind == "damage":
        return Scene("damage", step, step["character"], damage=step)
    if kind == "window":
        return Scene(step["timing"], step, step["focus"], encounter=game.step_by_id(step.get("encounter")))
    if kind == "turn":
        window = "explore" if step["phase"] == "explore" and step["explored"] else "turn"
        limits = step["windows"].get(window, {"used": [], "played": []})
        return Scene(window, limits, step["character"], extra={"may_explore_again": True})
    return None


def _validate(state: State, player: str, action: dict[str, Any]) -> Decision:
    if state["status"] != "playing":
        raise GameOver(f"the scenario is over ({state['outcome']['reason']})", rule="Ending a Scenario")
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction("an action is a mapping with a type", rule="Decisions")
    if "version" in action and action["version"] != state["version"]:
        raise StaleVersion(
            f"the action was based on version {action['version']}; the game is at version {state['version']}",
            details={"version": state["version"]},
        )
    sheet = state["characters"].get(action.get("character")) if isinstance(action.get("character"), str) else None
    if action.get("type") == "play" and sheet is not None and sheet["player"] != player:
        raise NotYourDecision(
            f"{player} does not play {action['character']}", rule="No One Else Can Take Your Turn for You"
        )
    decision = state["pending"]
    # A player whose characters have nothing to play gets told why a play is illegal.
    if player not in decision["players"] and not (
        action.get("type") == "play" and any(sheet["player"] == player for sheet in state["characters"].values())
    ):
        raise NotYourDecision(
            f"{player} cannot answer this decision; waiting for {', '.join(decision['players'])}",
            rule="No One Else Can Take Your Turn for You",
        )
    return decision


def _apply(state: State, player: str, action: dict[str, Any], source: Any, *, in_place: bool = False) -> Game:
    game = Game(state, source) if in_place else Game(copy_state(state), source, copied=True)
    _answer(game, state, player, action)
    return game


def _answer(game: Game, state: State, player: str, action: dict[str, Any]) -> None:
    decision = _validate(state, player, action)
    step = game.top()
    game.emit("action", player=player, action=normalise(action), version=state["version"])
    if decision.get("select"):
        selection = decision["select"]
        cards = action.get("cards")
        if action["type"] != "select" or not isinstance(cards, list):
            raise IllegalAction(
                f"choose {selection['count']} cards: {{'type': 'select', 'cards': [...]}}", rule="Decisions"
            )
        if (
            len(cards) != selection["count"]
            or len(set(cards)) != len(cards)
            or not set(cards) <= set(selection["cards"])
        ):
            raise IllegalAction(
                f"choose exactly {selection['count']} different cards among those offered",
                rule="Suffering Damage / Resetting: the player chooses the cards",
            )
        chosen: dict[str, Any] = {"action": normalise(action), "player": player}
    else:
        found = find_option(decision, player, action)
        if found is None:
            message, rule = explain(game, _scene(game, step), normalise(action))
            raise IllegalAction(message, rule=rule, details={"decision": decision["kind"]})
        chosen = found
    game.state["pending"] = None
    game.state["version"] += 1
    HANDLERS[step["kind"]].answer(game, step, chosen)
    run(game)


def apply(
    state: State, player: str, action: dict[str, Any], dice: Any = None, *, in_place: bool = False
) -> tuple[State, Events]:
    """Answer the pending decision. Returns the new state and the events this action caused
    (the action itself first, every face rolled and every shuffle among them).

    The given state is left unchanged, unless `in_place` is set: simulations and bots that keep
    no history can then skip the copy (an illegal action may leave such a state half changed).
    """
    game = _apply(state, player, action, as_source(dice), in_place=in_place)
    return game.state, game.events


def preview(state: State, player: str, action: dict[str, Any]) -> dict[str, Any]:
    """What an answer would do to the check being assembled (dice, difficulty, exact odds),
    changing nothing and rolling nothing: the preview stops where the game would draw at
    random."""
    game = Game(copy_state(state), PreviewSource(), copied=True)
    try:
        _answer(game, state, player, action)
        halted = False
    except PreviewHalt:
        halted = True
    result: dict[str, Any] = {"halted_before_random": halted, "check": None, "decision": None}
    check = game.innermost("check")
    if check is not None and check.get("skill") is not None:
        result["check"] = Check.summary(game, check)
    if not halted:
        decision = game.state["pending"]
        result["decision"] = {"kind": decision["kind"], "character": decision["character"]} if decision else None
    return result


def view(state: State, player: str) -> dict[str, Any]:
    """What the player sees; each play or skill option they may take during a check carries the
    odds it would give (a preview), so a table shows every choice's chance in one request."""
    shown = _view(state, player)
    pending = shown["pending"]
    if pending and pending.get("options") and pending["kind"] in CHECK_DECISIONS:
        pending["options"] = [with_odds(state, option) for option in pending["options"]]
    return shown


CHECK_DECISIONS = {"choose_skill", "check"}


def with_odds(state: State, option: dict[str, Any]) -> dict[str, Any]:
    action = option["action"]
    if action.get("type") not in ("play", "skill") or option.get("declare") or option.get("enter"):
        return option
    check = preview(state, option["player"], action)["check"]
    return option | {"odds": check["odds"] if check else None}


def replay(initial_state: State, events: Events) -> State:
    """Re-apply every logged action from the initial state; dice, shuffles and picks come from
    the log, so nothing is rolled again. Raises ReplayMismatch if the log does not fit."""
    state = initial_state
    groups: list[list[dict[str, Any]]] = []
    for event in events:
        if event["type"] == "action":
            groups.append([event])
        elif not groups:
            raise ReplayMismatch("the log must start with an action")
        else:
            groups[-1].append(event)
    for group in groups:
        action = group[0]
        if action["version"] != state["version"]:
            raise ReplayMismatch(f"the log's action {action['version']} does not follow version {state['version']}")
        source = LoggedSource(event for event in group if event["type"] == "random")
        state, produced = apply(state, action["player"], action["action"], dice=source)
        if produced != group:
            raise ReplayMismatch(f"replaying action {action['version']} produced different events")
    return state


def legal_actions(state: State, player: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(player, action) pairs that answer the pending decision (a select decision lists none:
    it takes any `count` of its cards)."""
    decision = state["pending"]
    if decision is None:
        return []
    return [
        (entry["player"], entry["action"])
        for entry in decision["options"]
        if player is None or entry["player"] == player
    ]
