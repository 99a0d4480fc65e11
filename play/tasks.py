"""Celery tasks of the play app: the chunks of a difficulty simulation (play.simulations)."""

from celery import shared_task

from . import simulations
from .engine.simulate import play_chunk
from .models import Simulation


@shared_task(bind=True)
def simulate_chunk(self, simulation_id: str, start: int, count: int) -> str:  # type: ignore[no-untyped-def]
    simulation = (
        Simulation.objects.filter(pk=simulation_id).only("status", "setup", "ruleset", "seed", "policy").first()
    )
    if simulation is None or simulation.status != "running":
        return "skipped: the simulation is no longer running"
    try:
        outcomes = play_chunk(
            simulation.setup,
            ruleset=simulation.ruleset,
            seed=simulation.seed,
            start=start,
            count=count,
            policy=simulation.policy,
        )
    except Exception as error:
        simulations.record_failure(simulation_id, f"games {start}-{start + count - 1}: {error!r}")
        raise
    simulations.record_chunk(simulation_id, outcomes, self.request.hostname or "this process")
    return f"games {start}-{start + count - 1}"
