"""The two rulesets, as answers to named questions. Steps ask these instead of testing names.

core-2019: the Core Set rulebook (2019). classic: Wrath of the Righteous (and Rise of the
Runelords), where the Core Set's Transition Guide lists what changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .cards import BOON_TYPES
from .errors import SetupError


@dataclass(frozen=True)
class Ruleset:
    name: str
    # "the party may play no more than one of each type of boon" (core) vs "each player may
    # play no more than 1 card of each type" (classic)
    boon_limit: Literal["party", "player"]
    # guard distant locations after evasion (core) vs temporarily close them before the
    # encounter (classic)
    villain_lockdown: Literal["guard", "temporary_close"]
    # where banished cards go: "vault" (core) or "box" (classic); the same pile in the state
    card_pool: Literal["vault", "box"]
    # what the timer is called: "hourglass" (core) or "blessings deck" (classic)
    timer: str
    recovery_pile: bool
    avenge: bool
    hour_effects: bool
    # core: "When you encounter a boon, you must attempt to acquire it"; classic: you may not
    boon_acquisition: Literal["must", "may"]
    may_choose_to_fail: bool
    # core: a closed location is banished and its characters move; classic: it is flipped over
    # and stays on the table
    closed_locations_leave_play: bool
    # core: proxies stand in for extra henchmen; classic: copies of the last henchman
    story_bane_fill: Literal["proxy", "copies"]
    # zones a dead character buries (classic: "Bury your deck, hand, and discard pile")
    dead_bury: tuple[str, ...]
    # core: "Your character's traits are also added to the check" and the skill chosen from the
    # list (Combat) is a trait; classic adds only the skill used and the skills it references
    core_check_traits: bool
    # core: a blessing with the trait "Deity: X" adds X to the check; classic has no such rule
    deity_traits: bool
    # core: "A summoned card can't cause you to summon a copy of itself or of the card that
    # summoned it"; classic: "Summoned cards cannot cause other cards to be summoned"
    summoned_may_summon: bool
    # the card types the one-of-each-type limit counts: boons (core: "one of each type of
    # boon"); classic: "no more than 1 card of each type", so cohorts too
    limited_types: tuple[str, ...]

    def boon_limit_text(self) -> str:
        if self.boon_limit == "party":
            return "collectively, the party may play no more than one of each type of boon during each step"
        return "each player may play no more than 1 card of each type during each step"


CORE_2019 = Ruleset(
    name="core-2019",
    boon_limit="party",
    villain_lockdown="guard",
    card_pool="vault",
    timer="hourglass",
    recovery_pile=True,
    avenge=True,
    hour_effects=True,
    boon_acquisition="must",
    may_choose_to_fail=True,
    closed_locations_leave_play=True,
    story_bane_fill="proxy",
    dead_bury=("deck", "hand", "recovery", "displayed", "discards"),
    core_check_traits=True,
    deity_traits=True,
    summoned_may_summon=True,
    limited_types=BOON_TYPES,
)

CLASSIC = Ruleset(
    name="classic",
    boon_limit="player",
    villain_lockdown="temporary_close",
    card_pool="box",
    timer="blessings deck",
    recovery_pile=False,
    avenge=False,
    hour_effects=False,
    boon_acquisition="may",
    may_choose_to_fail=False,
    closed_locations_leave_play=False,
    story_bane_fill="copies",
    dead_bury=("deck", "hand", "discards"),
    core_check_traits=False,
    deity_traits=False,
    summoned_may_summon=False,
    limited_types=(*BOON_TYPES, "cohort"),
)

RULESETS = {ruleset.name: ruleset for ruleset in (CORE_2019, CLASSIC)}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise SetupError(f"unknown ruleset {name!r}; known: {', '.join(RULESETS)}") from None
