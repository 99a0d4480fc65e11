"""Difficulty simulations: a party's scenario auto-played many times on Celery workers.

A request is split into chunks of games (play.tasks.simulate_chunk). Each game's seed comes from
the request's seed and the game's index (play.engine.simulate), and every chunk's outcomes are
summarized together in game order, so the result is the same on one worker or many. The same
request on the same party log is answered from the simulation already made (the cache).
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import threading
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User as UserModel
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from campaigns.models import Party
from campaigns.selectors import parties_for, party_for
from pacg_site.celery import enqueue
from pacg_site.errors import ConflictError, DomainError, NotFoundError

from . import engine
from .engine.simulate import MODE_OPTIONS, POLICIES, Outcome, summarize
from .models import Simulation
from .refusals import EngineRefusal
from .selectors import uuid_like
from .services import build_setup, scenario_choices

logger = logging.getLogger(__name__)
CHUNK_GAMES = 20  # about a second of greedy play: progress moves, and workers share the load
MAX_GAMES = 5000
DEFAULT_SEED = "pacg-site"


def log_version(party: Party) -> int:
    return int(party.log.aggregate(last=Max("seq"))["last"] or 0)


@transaction.atomic
def simulation_start(
    *,
    by: UserModel,
    party: int,
    scenario: str,
    mode: str = "normal",
    games: int = 200,
    policy: str = "greedy",
    seed: str = DEFAULT_SEED,
    characters: list[str] | None = None,
    facts: dict[str, Any] | None = None,
) -> tuple[Simulation, bool]:
    """Start simulating `games` games of the party's current characters and decks, or give the
    simulation already made of the same request on the same log (False: nothing new started)."""
    played_by = party_for(by, party)
    if mode not in MODE_OPTIONS:
        raise DomainError(f"mode is one of {', '.join(MODE_OPTIONS)}", details={"mode": mode})
    if policy not in POLICIES:
        raise DomainError(f"policy is one of {', '.join(POLICIES)}", details={"policy": policy})
    if not 1 <= games <= MAX_GAMES:
        raise DomainError(f"games is a number from 1 to {MAX_GAMES}", details={"games": games})
    names = scenario_choices()
    if scenario not in names:
        raise DomainError(
            f"no scenario {scenario!r}; the party dashboard lists the ones to simulate", details={"scenario": scenario}
        )
    options = {"mode": mode, **MODE_OPTIONS[mode]}
    setup, ruleset, _ = build_setup(
        by=by, scenario=scenario, ruleset="", party=played_by, characters=characters, options=options, facts=facts
    )
    try:  # refuse now what the engine would refuse in every game
        engine.new_game(copy.deepcopy(setup), seed=seed, ruleset=ruleset)
    except engine.EngineError as error:
        raise EngineRefusal(error) from error
    version = log_version(played_by)
    request = {"scenario": scenario, "mode": mode, "games": games, "policy": policy, "seed": seed}
    key = hashlib.sha256(
        json.dumps({**request, "log": version, "ruleset": ruleset, "setup": setup}, sort_keys=True).encode()
    ).hexdigest()
    made = Simulation.objects.filter(party=played_by, key=key, status__in=("running", "done")).first()
    if made is not None:
        return made, False
    simulation = Simulation.objects.create(
        party=played_by,
        requested_by=by,
        log_version=version,
        key=key,
        ruleset=ruleset,
        setup=setup,
        scenario_name=names[scenario],
        chunk_size=CHUNK_GAMES,
        **request,
    )
    transaction.on_commit(lambda: dispatch(simulation))
    return simulation, True


def dispatch(simulation: Simulation) -> None:
    """One task per chunk. Without a broker (tasks eager, the embedded default) a serving process
    plays them in a thread of its own, so that the page shows their progress as they come in."""

    def send() -> None:
        for start in range(0, simulation.games, simulation.chunk_size):
            count = min(simulation.chunk_size, simulation.games - start)
            enqueue("play.tasks.simulate_chunk", str(simulation.pk), start, count, queue=settings.SIMULATION_QUEUE)

    if not (settings.CELERY_TASK_ALWAYS_EAGER and settings.SIMULATIONS_IN_THREAD):
        send()
        return

    def in_thread() -> None:
        try:
            send()
        except Exception as error:  # a chunk failed: record_failure has said so, the thread just ends
            logger.warning("simulation %s stopped: %r", simulation.pk, error)
        finally:
            connection.close()  # this thread's own connection

    threading.Thread(target=in_thread, name=f"simulation-{simulation.pk}", daemon=True).start()


@transaction.atomic
def record_chunk(simulation_id: str, outcomes: list[Outcome], worker: str) -> None:
    """Add a chunk's outcomes and rebuild the summary; the last chunk finishes the simulation. A
    chunk delivered twice (a worker lost before it acknowledged) is counted once."""
    simulation = Simulation.objects.select_for_update().filter(pk=simulation_id).first()
    if simulation is None or simulation.status != "running" or not outcomes:
        return
    seen = {outcome["index"] for outcome in simulation.outcomes}
    if outcomes[0].index in seen:
        return
    simulation.outcomes = [*simulation.outcomes, *(outcome.as_dict() for outcome in outcomes)]
    simulation.done = len(simulation.outcomes)
    simulation.workers = {**simulation.workers, worker: simulation.workers.get(worker, 0) + 1}
    simulation.result = summarize(Outcome.from_dict(outcome) for outcome in simulation.outcomes)
    if simulation.done >= simulation.games:
        simulation.status, simulation.finished_at = "done", timezone.now()
    simulation.save(update_fields=["outcomes", "done", "workers", "result", "status", "finished_at"])


def record_failure(simulation_id: str, error: str) -> None:
    Simulation.objects.filter(pk=simulation_id, status="running").update(
        status="failed", error=error[:2000], finished_at=timezone.now()
    )


@transaction.atomic
def simulation_cancel(*, simulation: Simulation) -> Simulation:
    """Stop a running simulation: chunks not yet played are dropped; what was played stays."""
    simulation = Simulation.objects.select_for_update().get(pk=simulation.pk)
    if simulation.status != "running":
        raise ConflictError(
            f"the simulation is {simulation.status} already; only a running one can be cancelled", code="not_running"
        )
    simulation.status, simulation.finished_at = "cancelled", timezone.now()
    simulation.save(update_fields=["status", "finished_at"])
    return simulation


def simulation_for(user: Any, simulation_id: str) -> Simulation:
    """A simulation of a party the user is in; anyone else learns nothing of it."""
    simulation = None
    if uuid_like(simulation_id):
        simulations = Simulation.objects.filter(pk=simulation_id, party__in=parties_for(user))
        simulation = simulations.select_related("party").first()
    if simulation is None:
        raise NotFoundError(f"no simulation {simulation_id}")
    return simulation


def simulations_of(party: Party) -> list[dict[str, Any]]:
    """The party's latest simulations, described against one reading of its log."""
    version = log_version(party)
    made = Simulation.objects.filter(party=party).select_related("party").defer("outcomes")[:10]
    return [describe(simulation, version=version) for simulation in made]


def blank_cards(setup: dict[str, Any]) -> list[str]:
    """The party's deck cards whose powers the card database does not give: at the table their
    players declare them; the simulated players cannot, so they play these cards as blank."""
    decks = {uid for character in setup.get("characters", []) for uid in character.get("deck", [])}
    cards = setup.get("cards", {})
    return sorted({cards[uid]["name"] for uid in decks if cards.get(uid, {}).get("declare")})


def describe(simulation: Simulation, *, version: int | None = None) -> dict[str, Any]:
    """What the API and the page show of a simulation: names, progress, and the result so far."""
    if version is None:
        version = log_version(simulation.party)
    return {
        "id": str(simulation.pk),
        "party": simulation.party.name,
        "scenario": simulation.scenario,
        "scenario_name": simulation.scenario_name,
        "mode": simulation.mode,
        "policy": simulation.policy,
        "seed": simulation.seed,
        "games": simulation.games,
        "done": simulation.done,
        "progress": round(simulation.done / simulation.games, 4),
        "status": simulation.status,
        "log_version": simulation.log_version,
        "current": simulation.log_version == version,
        "workers": simulation.workers,
        "blank_cards": blank_cards(simulation.setup),
        "result": simulation.result or None,
        "error": simulation.error or None,
    }
