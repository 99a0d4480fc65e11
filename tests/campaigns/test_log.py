"""The campaign rules of each edition, on the log alone (no database): an allowed and a refused
case for each, and the rule and its source named in every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.log import CHARACTER_KINDS, HANDLERS, PARTY_KINDS, InvalidEvent, Log
from campaigns.rulebook import RuleViolation
from campaigns.sheet import deck_list, hand_size, powers, skill_lines
from campaigns.state import CardInfo

HERO = CardInfo(
    "hb.valna",
    "Valna",
    "character",
    data={
        "skills": [
            {"skill": "Strength", "die": "d10", "feats": [1, 2, 3]},
            {"skill": "Melee", "base": "Strength", "modifier": 3},
            {"skill": "Wisdom", "die": "d6", "feats": [1, 2]},
        ],
        "hand_size": 4,
        "hand_size_feats": [5],
        "deck_list": {"weapon": {"count": 2, "feats": [3]}, "armor": {"count": 1}, "blessing": {"count": 2}},
        "powers": ["[ ] Add 1d4 ([ ] 1d6) to a local combat check.", "Reduce Fire damage by 1 ([ ] 2)."],
    },
)
ROLE = CardInfo(
    "hb.valna-role",
    "Valna Role",
    "role",
    data={
        "character": "Valna",
        "sides": [
            {"name": "Warden", "powers": ["Add 1d6 ([ ] 1d8) to your combat check."]},
            {"name": "Raider", "powers": ["Explore again ([ ] twice)."]},
        ],
    },
)


def card(uid: str, kind: str, level: int | None = 0, traits: tuple[str, ...] = (), **extra: Any) -> CardInfo:
    return CardInfo(f"hb.{uid}", uid.title(), kind, level=level, traits=traits, **extra)


CARDS = {
    c.uid: c
    for c in [
        HERO,
        ROLE,
        card("sword", "weapon", traits=("Basic",)),
        card("axe", "weapon", traits=("Basic",)),
        card("bow", "weapon", 1),
        card("flail", "weapon", 3),
        card("lance", "weapon", 2, owner="Valna"),
        card("mail", "armor", traits=("Basic",)),
        card("plate", "armor", 1),
        card("prayer", "blessing", traits=("Basic",)),
        card("grace", "blessing", traits=("Basic",)),
        card("crown", "loot", 2, subtype="armor", traits=("Loot",)),
        card("saint", "mythic_path"),
        card("dragon", "mythic_path"),
    ]
}
STARTER = {"hb.sword": 1, "hb.axe": 1, "hb.mail": 1, "hb.prayer": 1, "hb.grace": 1}
VAULT = {
    "hb.sword": 2,
    "hb.axe": 2,
    "hb.bow": 2,
    "hb.flail": 1,
    "hb.lance": 1,
    "hb.mail": 2,
    "hb.plate": 2,
    "hb.prayer": 2,
    "hb.grace": 2,
    "hb.crown": 1,
}


class Campaign:
    def __init__(self, ruleset: str = "core-2019"):
        self.log = Log(CARDS, ruleset)
        self.events: list[dict[str, Any]] = []
        self.add("vault_changed", add=VAULT)
        self.add("character_created", id=1, card="hb.valna", deck=STARTER)

    def add(self, kind: str, character: int | None = None, **data: Any):  # type: ignore[no-untyped-def]
        event = {"seq": len(self.events) + 1, "kind": kind, "character": character, "data": data}
        state = self.log.replay([*self.events, event])
        self.events.append(event)
        return state

    def win(self, adventure: int, scenario: str = "s", mode: str = "normal", **extra: Any):  # type: ignore[no-untyped-def]
        return self.add(
            "scenario_played", scenario=f"{scenario}{adventure}", adventure=adventure, won=True, mode=mode, **extra
        )

    def refused(self, rule: str, kind: str, character: int | None = None, **data: Any) -> RuleViolation:
        with pytest.raises(RuleViolation) as caught:
            self.add(kind, character, **data)
        assert caught.value.details["rule"] == rule
        assert caught.value.details["source"]["book"] and caught.value.details["source"]["section"]
        return caught.value


def test_a_deck_that_matches_the_deck_list_is_accepted_and_one_that_does_not_is_refused():
    campaign = Campaign()
    campaign.win(3)
    campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.axe": 0, "hb.bow": 1}})
    error = campaign.refused("deck-list", "decks_rebuilt", decks={1: {**STARTER, "hb.bow": 1}})
    assert "3 weapon" in error.message and "Rebuilding" in error.message


def test_card_feats_raise_the_deck_list():
    campaign = Campaign()
    campaign.win(3)
    campaign.add("hero_point_awarded", 1)
    campaign.add("feat_gained", 1, feat="card:weapon:3")
    assert campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.bow": 1}}).characters[1].deck["hb.bow"] == 1


def test_cards_from_the_vault_follow_the_minus_two_rule_but_loot_does_not():
    campaign = Campaign()
    campaign.win(3)
    campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.bow": 1}})  # level 1 <= 3 - 2
    campaign.refused("vault-level", "decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.flail": 1}})


def test_an_owners_card_counts_as_level_0_for_its_owner():
    campaign = Campaign()
    campaign.win(1)
    state = campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.lance": 1}})  # level 2, Owner
    assert state.characters[1].deck["hb.lance"] == 1
    campaign.refused("vault-level", "decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.lance": 0, "hb.bow": 1}})


def test_kept_cards_above_the_last_adventure_number_are_refused():
    campaign = Campaign()
    campaign.win(3)
    campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.bow": 1}})
    campaign.win(0, scenario="tutorial")  # a replayed lower scenario lowers the cap on what is kept
    campaign.refused("card-level", "decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.bow": 1}})


def test_loot_keeps_its_level_and_counts_as_its_type():
    campaign = Campaign()
    campaign.win(1)
    campaign.add("loot_assigned", 1, card="hb.crown")  # level 2 = adventure 1 + 1
    state = campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.mail": 0, "hb.crown": 1}})
    assert state.characters[1].deck["hb.crown"] == 1 and state.vault["hb.mail"] == 2


def test_loot_must_be_the_adventure_number_plus_one():
    campaign = Campaign()
    campaign.win(3)
    campaign.refused("loot-level", "loot_assigned", 1, card="hb.crown")


def test_a_new_core_character_starts_with_level_0_cards():
    campaign = Campaign()
    campaign.refused(
        "new-character", "character_created", id=2, card="hb.valna", deck={**STARTER, "hb.sword": 0, "hb.bow": 1}
    )


def test_classic_decks_take_only_basic_cards_until_the_third_adventure():
    campaign = Campaign("classic")
    campaign.win(2)
    campaign.refused("basic-only", "decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.bow": 1}})
    campaign.add("adventure_started", adventure=3)
    campaign.add("decks_rebuilt", decks={1: {**STARTER, "hb.sword": 0, "hb.bow": 1}})  # level 1 = 3 - 2


def test_the_same_copy_cannot_be_in_two_decks_or_a_deck_and_the_vault():
    campaign = Campaign()
    campaign.add("character_created", id=2, card="hb.valna", deck=STARTER)  # the vault's second copies
    campaign.refused("physical-copy", "character_created", id=3, card="hb.valna", deck=STARTER)
    assert campaign.log.replay(campaign.events).vault["hb.sword"] == 0


def test_feats_are_checked_left_to_right_and_plus_two_replaces_plus_one():
    campaign = Campaign()
    campaign.win(2)
    campaign.win(3, scenario="t")
    campaign.add("hero_point_awarded", 1)
    campaign.refused("feat-order", "feat_gained", 1, feat="skill:Strength:+2")
    campaign.add("hero_point_awarded", 1)
    campaign.add("feat_gained", 1, feat="skill:Strength:+1")
    campaign.add("hero_point_awarded", 1)
    state = campaign.add("feat_gained", 1, feat="skill:Strength:+2")
    lines = {line.name: line.text for line in skill_lines(HERO, state.characters[1].feats)}
    assert lines["Strength"] == "Strength d10+2" and lines["Melee"] == "Melee d10+5"


def test_a_box_inside_a_power_needs_the_powers_own_box():
    campaign = Campaign()
    campaign.win(2)
    campaign.add("hero_point_awarded", 1)
    campaign.refused("feat-order", "feat_gained", 1, feat="power:0:1")
    campaign.add("hero_point_awarded", 1)
    campaign.add("feat_gained", 1, feat="power:0:0")
    campaign.add("hero_point_awarded", 1)
    state = campaign.add("feat_gained", 1, feat="power:0:1")
    parts = powers(HERO.data["powers"], "power", state.characters[1].feats)[0].parts
    assert [p["checked"] for p in parts if p["box"]] == [True, True]


def test_core_feats_per_type_are_capped_by_the_last_completed_adventure():
    campaign = Campaign()
    campaign.win(1)
    campaign.add("hero_point_awarded", 1)
    campaign.add("feat_gained", 1, feat="skill:Strength:+1")
    campaign.add("hero_point_awarded", 1)
    campaign.refused("feat-limit", "feat_gained", 1, feat="skill:Wisdom:+1")
    campaign.add("feat_gained", 1, feat="hand:5")  # another type
    assert hand_size(HERO, campaign.log.replay(campaign.events).characters[1].feats) == 5


def test_core_feats_need_a_hero_point_just_awarded_and_spend_it():
    campaign = Campaign()
    campaign.win(1)
    campaign.refused("feat-by-hero-point", "feat_gained", 1, feat="skill:Strength:+1")
    campaign.add("hero_point_awarded", 1)
    campaign.add("hero_point_awarded", 1)
    state = campaign.add("feat_gained", 1, feat="skill:Strength:+1")
    assert state.characters[1].hero_points == 1  # one spent, one kept
    campaign.win(1, scenario="u")
    campaign.refused("feat-by-hero-point", "feat_gained", 1, feat="hand:5")  # kept points don't buy feats


def test_classic_feats_come_from_rewards_that_name_their_type_and_have_no_cap():
    campaign = Campaign("classic")
    campaign.refused("feat-by-reward", "feat_gained", 1, feat="skill:Strength:+1", reward_type="card")
    state = campaign.add("feat_gained", 1, feat="skill:Strength:+1", reward_type="skill")
    assert state.characters[1].feats == ["skill:Strength:+1"]


def test_heroic_adventures_allow_one_feat_swap_of_the_same_type():
    campaign = Campaign()
    campaign.win(2)
    campaign.add("hero_point_awarded", 1)
    campaign.add("feat_gained", 1, feat="skill:Strength:+1")
    campaign.refused("feat-swap", "feat_gained", 1, feat="skill:Wisdom:+1", swap="skill:Strength:+1")
    campaign.win(2, mode="heroic", completes_adventure=True)
    campaign.refused("feat-swap", "feat_gained", 1, feat="hand:5", swap="skill:Strength:+1")
    state = campaign.add("feat_gained", 1, feat="skill:Wisdom:+1", swap="skill:Strength:+1")
    assert state.characters[1].feats == ["skill:Wisdom:+1"]


def test_returning_from_death_spends_every_hero_point():
    campaign = Campaign()
    campaign.add("hero_point_awarded", 1, count=3)
    campaign.add("scenario_played", scenario="s1", adventure=1, won=False, died=[1])
    state = campaign.add("returned_from_death", 1)
    assert state.characters[1].status == "alive" and state.characters[1].hero_points == 0
    campaign.add("scenario_played", scenario="s1", adventure=1, won=False, died=[1])
    campaign.refused("return-from-death", "returned_from_death", 1)


def test_a_role_side_is_chosen_once_and_power_feats_then_come_from_it():
    campaign = Campaign()
    campaign.win(2)
    campaign.refused("role", "role_chosen", 1, role="hb.valna-role", side="Berserker")
    campaign.add("role_chosen", 1, role="hb.valna-role", side="Warden")
    campaign.refused("role", "role_chosen", 1, role="hb.valna-role", side="Raider")
    campaign.add("hero_point_awarded", 1)
    campaign.refused("role", "feat_gained", 1, feat="power:1:0")
    state = campaign.add("feat_gained", 1, feat="role:Warden:0:0")
    assert state.characters[1].feats == ["role:Warden:0:0"]


def test_a_mythic_path_is_chosen_once_after_the_first_adventure():
    campaign = Campaign("classic")
    campaign.refused("mythic-path", "mythic_path_chosen", 1, path="hb.saint")
    campaign.win(1)
    campaign.add("mythic_path_chosen", 1, path="hb.saint")
    campaign.refused("mythic-path", "mythic_path_chosen", 1, path="hb.dragon")


def test_a_reward_is_earned_once_unless_it_says_otherwise():
    campaign = Campaign()
    campaign.win(1, rewards=[{"id": "scenario:s1", "text": "1 hero point"}])
    campaign.refused(
        "reward-once", "scenario_played", scenario="s1", adventure=1, won=True, rewards=[{"id": "scenario:s1"}]
    )
    campaign.win(1, rewards=[{"id": "scenario:s1", "repeatable": True}])


def test_a_mistaken_entry_is_reverted_and_history_stays():
    campaign = Campaign()
    campaign.add("hero_point_awarded", 1, count=2)
    state = campaign.add("revert", event=3)
    assert state.characters[1].hero_points == 0 and len(campaign.events) == 4
    state = campaign.add("revert", event=4)  # reverting the revert restores the entry
    assert state.characters[1].hero_points == 2


def test_a_revert_that_would_break_a_later_entry_is_refused():
    campaign = Campaign()
    campaign.win(1)
    campaign.add("hero_point_awarded", 1)
    campaign.add("feat_gained", 1, feat="skill:Strength:+1")
    with pytest.raises(RuleViolation):
        campaign.add("revert", event=4)  # the feat was bought with that hero point


def test_dead_characters_change_nothing():
    campaign = Campaign()
    campaign.add("character_died", 1)
    campaign.refused("alive", "feat_gained", 1, feat="hand:5")


def test_unknown_cards_and_kinds_are_invalid():
    campaign = Campaign()
    with pytest.raises(InvalidEvent, match="no card has the id"):
        campaign.add("loot_assigned", 1, card="hb.nothing")
    with pytest.raises(InvalidEvent, match="unknown event kind"):
        campaign.add("party_dissolved")


def test_every_kind_of_entry_has_its_handler():
    # A revert has none: it is applied by leaving out the entry it reverts.
    assert set(HANDLERS) == (PARTY_KINDS | CHARACTER_KINDS) - {"revert"}


def test_the_sheet_shows_the_deck_list_with_card_feats():
    campaign = Campaign()
    campaign.win(1)
    campaign.add("hero_point_awarded", 1)
    state = campaign.add("feat_gained", 1, feat="card:weapon:3")
    assert deck_list(HERO, state.characters[1].feats) == {"weapon": 3, "armor": 1, "blessing": 2}


AVENTURIA = {
    c.uid: c
    for c in [
        CardInfo("av.hero", "Scout", "hero"),
        *[CardInfo(f"av.a{i}", f"Action {i}", "action", level=1) for i in range(31)],
        CardInfo("av.scar", "Scar", "aventuria_card", subtype="disadvantage"),
    ]
}


def test_aventuria_decks_are_30_action_cards_plus_disadvantages_and_ap_buy_upgrades():
    log = Log(AVENTURIA, "aventuria")
    vault = {f"av.a{i}": 1 for i in range(31)} | {"av.scar": 1}
    events = [{"seq": 1, "kind": "vault_changed", "character": None, "data": {"add": vault}}]
    deck = {f"av.a{i}": 1 for i in range(30)}
    with pytest.raises(RuleViolation, match="29 action cards"):
        log.replay(
            [
                *events,
                {
                    "seq": 2,
                    "kind": "character_created",
                    "character": None,
                    "data": {"id": 1, "card": "av.hero", "deck": {f"av.a{i}": 1 for i in range(29)}},
                },
            ]
        )
    events.append(
        {
            "seq": 2,
            "kind": "character_created",
            "character": None,
            "data": {"id": 1, "card": "av.hero", "deck": deck | {"av.scar": 1}},
        }
    )
    events.append({"seq": 3, "kind": "adventure_points_awarded", "character": 1, "data": {"count": 2}})
    events.append({"seq": 4, "kind": "card_upgraded", "character": 1, "data": {"card": "av.a0", "level": 2}})
    with pytest.raises(RuleViolation, match="level 2 to 3 only|upgraded in this adventure"):
        log.replay(
            [*events, {"seq": 5, "kind": "card_upgraded", "character": 1, "data": {"card": "av.a0", "level": 3}}]
        )
    events.append({"seq": 5, "kind": "recovered", "character": 1, "data": {}})
    state = log.replay(events)
    assert state.characters[1].adventure_points == 0 and "av.scar" not in state.characters[1].deck
    with pytest.raises(RuleViolation, match="costs 2 AP"):
        log.replay([*events, {"seq": 6, "kind": "reward_card_bought", "character": 1, "data": {"card": "av.a30"}}])
