"""The campaign manager with a party of 6 and a log of 1,000 events: deriving the state,
validating every deck, and rendering the dashboard and a character sheet — against a baseline
that recomputes from scratch with a query per card it looks at.

    .venv/bin/python bench/campaigns.py [--events 1000] [--rounds 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, report, setup_django, summary_ms, timed  # noqa: E402

CHARACTERS = ["core.amiri", "core.lem", "core.sajan", "core.seelah", "core.valeros", "core.kyra"]


class QueryPerCard(dict):  # type: ignore[type-arg]
    """The naive way: ask the database for a card each time a rule looks at it."""

    def __missing__(self, uid: str):  # type: ignore[no-untyped-def]
        from campaigns.selectors import card_info
        from cards.models import Card

        card = Card.objects.filter(uid=uid).first()
        if card is None:
            raise KeyError(uid)
        return card_info(card)

    def __contains__(self, uid: object) -> bool:
        from cards.models import Card

        return Card.objects.filter(uid=uid).exists()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    setup_django()

    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.test import Client

    from campaigns.log import Log
    from campaigns.selectors import events_of, log_for, party_state
    from campaigns.services import append_event, character_create, party_create
    from cards.models import Card
    from cards.services import import_card_files

    import_card_files(paths=sorted((ROOT / "cards" / "data").glob("*.yaml")))
    owner = User.objects.create_user("bench", password="bench-password-123")
    party = party_create(owner=owner, name="Bench party", game="pacg", ruleset="core-2019")
    vault = {
        uid: 8
        for uid in Card.objects.filter(card_set__code="core", level=0)
        .exclude(type__in=["character", "role"])
        .values_list("uid", flat=True)
    }
    append_event(party=party, by=owner, kind="vault_changed", data={"add": vault})
    characters = [character_create(party=party, by=owner, card=uid, quick_start=True) for uid in CHARACTERS]
    state = party_state(party)
    decks = {str(c.pk): dict(state.characters[c.pk].deck) for c in characters}
    # A campaign's worth of entries: scenarios, hero points earned and spent, decks rebuilt.
    number, step = len(events_of(party)), 0
    while number < args.events:
        turn, character = step % 10, characters[(step // 10) % len(characters)]
        step += 1
        if turn == 0:
            append_event(
                party=party,
                by=owner,
                kind="scenario_played",
                data={"scenario": f"Scenario {number}", "adventure": 1, "won": True},
            )
        elif turn in {1, 2, 3, 4}:
            append_event(party=party, by=owner, kind="hero_point_awarded", character=character, data={})
        elif turn in {5, 6, 7, 8}:
            append_event(party=party, by=owner, kind="hero_point_spent", character=character, data={})
        else:
            append_event(party=party, by=owner, kind="decks_rebuilt", data={"decks": decks})
        number += 1
    events = events_of(party)

    derive, naive, validate = [], [], []
    for _ in range(args.rounds):
        derive.append(timed(lambda: log_for(party, events).replay(events))[0])
        naive.append(timed(lambda: Log(QueryPerCard(), party.ruleset).replay(events))[0])
        validate.append(
            timed(
                lambda: append_event(party=party, by=owner, kind="decks_rebuilt", data={"decks": decks}, dry_run=True)
            )[0]
        )

    client = Client()
    client.force_login(owner)
    pages = {"dashboard": party.get_absolute_url(), "sheet": characters[0].get_absolute_url()}
    warm = {name: [] for name in pages}
    cold = {name: [] for name in pages}
    for _ in range(args.rounds):
        for name, url in pages.items():
            cache.clear()
            cold[name].append(timed(lambda u=url: client.get(u))[0])
            warm[name].append(timed(lambda u=url: client.get(u))[0])

    report(
        {
            "benchmark": "campaigns",
            "characters": len(characters),
            "log_events": len(events),
            "rounds": args.rounds,
            "derive_state": summary_ms(derive),
            "baseline_query_per_card": summary_ms(naive),
            "speedup": round(sorted(naive)[len(naive) // 2] / sorted(derive)[len(derive) // 2], 1),
            "validate_all_decks_dry_run": summary_ms(validate),
            "pages_cold_cache": {name: summary_ms(samples) for name, samples in cold.items()},
            "pages_warm_cache": {name: summary_ms(samples) for name, samples in warm.items()},
            "targets": {"sheet_p95_ms": 50, "dashboard_p95_ms": 50},
        }
    )


if __name__ == "__main__":
    main()
