"""What the play API answers, as OpenAPI components. The bodies are built by the engine
(play.engine.views, play.engine.api) and by api.py and services.py; these describe them exactly.

Open-ended engine data (an action, an event, a lasting effect's passive, the scenario's options)
is a free-form object: its keys are the engine's vocabulary, which grows with the cards it plays."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from . import engine

RULESETS = list(engine.RULESETS)
STATUSES = ["playing", "won", "lost"]
TIMERS = sorted({ruleset.timer for ruleset in engine.RULESETS.values()})
ACTION_HELP = "an answer as the engine takes it: {type, ...}; its other keys depend on the type"


class Session(serializers.Serializer):
    id = serializers.UUIDField()
    scenario = serializers.CharField(
        help_text="a starter scenario's id, a scenario card's id, or an Aventuria combat's"
    )
    ruleset = serializers.ChoiceField(choices=[*RULESETS, "aventuria"])
    status = serializers.ChoiceField(choices=STATUSES)
    version = serializers.IntegerField(
        help_text="the number of actions applied; an action names the one it is based on"
    )
    party = serializers.IntegerField(allow_null=True, help_text="the party it was started from")
    logged = serializers.IntegerField(
        allow_null=True, help_text="the party log entry its result was written to (POST .../finish/)"
    )
    players = serializers.DictField(child=serializers.CharField(), help_text="engine player id: username")
    url = serializers.CharField(help_text="the table's page")


class TableCard(serializers.Serializer):
    """A card shown face up."""

    id = serializers.CharField(help_text="this copy's id in the session (the id actions name)")
    card = serializers.CharField(help_text="the card's id")
    name = serializers.CharField()
    type = serializers.CharField()


class Stack(serializers.Serializer):
    """A face-down stack: only how many cards it holds."""

    count = serializers.IntegerField()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "array", "items": {"$ref": "#/components/schemas/TableCard"}},
            {"$ref": "#/components/schemas/Stack"},
        ],
        "description": "your character's hand face up; another player's as a count",
    }
)
class HandField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "object",
        "properties": {"type": {"type": "string", "description": "what happened: rolled, moved, acquired, ..."}},
        "required": ["type"],
        "additionalProperties": {},
        "description": "an event the engine logged; its other keys depend on its type (secret ones are left out)",
    }
)
class EventField(serializers.JSONField):
    pass


class TableCharacter(serializers.Serializer):
    name = serializers.CharField(help_text="the character's id at this table (actions name it)")
    card_name = serializers.CharField()
    character = serializers.CharField(help_text="the character card's id")
    player = serializers.CharField(help_text="the engine player who plays it")
    location = serializers.CharField(help_text="the location card's id")
    alive = serializers.BooleanField()
    hand_size = serializers.IntegerField()
    hero_points = serializers.IntegerField()
    skills = serializers.DictField(
        child=serializers.CharField(), help_text="skill: its die ('d10') or the skill it adds to ('Strength +3')"
    )
    scourges = serializers.ListField(child=serializers.CharField(), help_text="scourge card ids")
    deck = Stack()
    hand = HandField()
    discards = TableCard(many=True)
    buried = TableCard(many=True)
    recovery = TableCard(many=True)
    displayed = TableCard(many=True)


class KnownCard(serializers.Serializer):
    """A card in a location deck the party has examined."""

    position = serializers.IntegerField(help_text="from the top, from 0")
    card = serializers.CharField()
    name = serializers.CharField()


class TableLocation(serializers.Serializer):
    id = serializers.CharField(help_text="the location card's id")
    name = serializers.CharField()
    in_play = serializers.BooleanField()
    closed = serializers.BooleanField()
    count = serializers.IntegerField(help_text="cards in its deck")
    known = KnownCard(many=True)
    characters = serializers.ListField(child=serializers.CharField(), help_text="the living characters there")


class TableScenario(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    villains = serializers.ListField(child=serializers.CharField(), help_text="villain card ids")
    to_win = serializers.CharField(allow_null=True, help_text="as the scenario card says, where the data gives it")


class Outcome(serializers.Serializer):
    result = serializers.ChoiceField(choices=["won", "lost"])
    reason = serializers.CharField()


class Turn(serializers.Serializer):
    number = serializers.IntegerField()
    character = serializers.CharField(help_text="whose turn it is")


class Hourglass(serializers.Serializer):
    count = serializers.IntegerField(help_text="cards left")
    timer = serializers.ChoiceField(choices=TIMERS, help_text="what the ruleset calls it")


class Encounter(serializers.Serializer):
    character = serializers.CharField()
    card = serializers.CharField()
    name = serializers.CharField()


class CheckOdds(serializers.Serializer):
    dice = serializers.CharField(help_text="e.g. 2d8+1d4+2")
    difficulty = serializers.IntegerField()
    chance = serializers.CharField(help_text="the exact chance of success, as a fraction: 13/16")
    chance_float = serializers.FloatField()
    expected_damage_on_failure = serializers.CharField(help_text="exact, as a fraction")
    expected_damage_on_failure_float = serializers.FloatField()


class PoolDie(serializers.Serializer):
    sides = serializers.IntegerField()
    # "from" is a Python keyword: that field is added in get_fields.
    face = serializers.IntegerField(allow_null=True, help_text="null until rolled")

    def get_fields(self):  # type: ignore[no-untyped-def]
        fields = super().get_fields()
        fields["from"] = serializers.CharField(help_text="what added it: the skill, a card, a power")
        return fields


class CheckSummary(serializers.Serializer):
    """A check being attempted: skill, traits, the dice so far, difficulty and the exact odds."""

    id = serializers.IntegerField(help_text="the check's step")
    character = serializers.CharField()
    purpose = serializers.CharField(help_text="defeat, acquire, close, guard, recovery or power")
    against = serializers.CharField(allow_null=True, help_text="the card's id")
    skill = serializers.CharField()
    traits = serializers.ListField(child=serializers.CharField())
    dice = serializers.CharField(help_text="e.g. 2d8+1d4+2")
    pool = PoolDie(many=True)
    modifier = serializers.IntegerField()
    adjustment = serializers.IntegerField(help_text="+4 vulnerable, -4 resistant")
    difficulty = serializers.IntegerField()
    result = serializers.IntegerField(allow_null=True, help_text="null until rolled")
    odds = CheckOdds()


class WouldBe(serializers.Serializer):
    """The dice and odds a skill choice gives before any card is played."""

    dice = serializers.CharField()
    odds = CheckOdds()


class Declarable(serializers.Serializer):
    """What a declared power (one the card data does not encode) may say it does."""

    costs = serializers.ListField(
        child=serializers.CharField(allow_null=True), help_text="card actions; null: it costs none"
    )
    effects = serializers.ListField(child=serializers.CharField(), help_text="effect names this window allows")


class DecisionOption(serializers.Serializer):
    action = serializers.DictField(help_text=f"send it back as `action` to choose this option; {ACTION_HELP}")
    label = serializers.CharField()
    player = serializers.CharField(help_text="the engine player who may choose it")
    character = serializers.CharField(required=False, help_text="the character whose card or power it plays")
    rule = serializers.CharField(required=False, help_text="the rule that offers it")
    check = WouldBe(required=False, help_text="on a skill to choose")
    odds = CheckOdds(
        allow_null=True, required=False, help_text="during a check: the odds if it is played (null: no check after)"
    )
    declare = Declarable(
        required=False, help_text="a template: the action adds effects (and a cost) the player declares"
    )
    enter = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="values the action must add: name: an example"
    )


class CardPower(serializers.Serializer):
    power = serializers.CharField()
    # "as" is a Python keyword: that field is added in get_fields.
    label = serializers.CharField()
    option = serializers.IntegerField(help_text="its index in options")

    def get_fields(self):  # type: ignore[no-untyped-def]
        fields = super().get_fields()
        fields["as"] = serializers.ChoiceField(choices=["play", "pay"], help_text="played, or paying for a power")
        return fields


class Selection(serializers.Serializer):
    count = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField(), help_text="card ids to choose from")


class DamageSummary(serializers.Serializer):
    character = serializers.CharField()
    amount = serializers.IntegerField()
    type = serializers.CharField(help_text="Combat, Fire, Mental, ...")


class Decision(serializers.Serializer):
    """A decision you may answer: the legal options are yours only."""

    step = serializers.IntegerField()
    kind = serializers.CharField(help_text="move, explore, choose_skill, check, reroll, damage, ...")
    character = serializers.CharField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField(), help_text="the engine players who may answer")
    prompt = serializers.CharField()
    options = DecisionOption(many=True)
    can_pass = serializers.BooleanField(help_text="one of the options is {type: pass}")
    by_card = serializers.DictField(
        child=CardPower(many=True), help_text="per card in hand (its id): the options that play it or pay with it"
    )
    select = Selection(
        required=False, help_text="answer {type: select, cards: [...]} with exactly count of these cards"
    )
    check = CheckSummary(required=False, help_text="during a check")
    damage = DamageSummary(required=False, help_text="when damage is dealt")
    rule = serializers.CharField(required=False, help_text="the rule that asks it")


class TestOdds(serializers.Serializer):
    """An Aventuria test: a D20 rolled under the value, a 1 always succeeds, a 20 always fails."""

    value = serializers.IntegerField(allow_null=True, help_text='the game value; null: "—", failed unrolled')
    success = serializers.CharField(help_text="exact, criticals included: 3/5")
    success_float = serializers.FloatField()
    critical_success = serializers.CharField()
    critical_failure = serializers.CharField()


class CombatOption(serializers.Serializer):
    action = serializers.DictField(help_text="send it back as `action` to choose this option")
    label = serializers.CharField()
    player = serializers.CharField(help_text="the engine player who may choose it")
    odds = TestOdds(required=False, help_text="an attack: the odds of its attack test")


class CombatSelection(serializers.Serializer):
    type = serializers.CharField(help_text="the action's type: fox_hand or endurance")
    count = serializers.IntegerField(help_text="at most this many")
    cards = serializers.ListField(child=serializers.CharField(), help_text="card ids to choose from")


class CombatDecision(serializers.Serializer):
    """An Aventuria decision you may answer."""

    kind = serializers.ChoiceField(choices=["fox_hand", "endurance", "turn", "reroll", "armor"])
    hero = serializers.CharField(help_text="the hero who decides (an id)")
    players = serializers.ListField(child=serializers.CharField(), help_text="the engine players who may answer")
    prompt = serializers.CharField()
    options = CombatOption(many=True)
    version = serializers.IntegerField()
    select = CombatSelection(required=False, help_text="or answer {type, cards: [up to count of these]}")
    test = TestOdds(required=False, help_text="a test that may be rerolled")


class Waiting(serializers.Serializer):
    """A decision that is someone else's."""

    kind = serializers.CharField()
    prompt = serializers.CharField()
    waiting_for = serializers.ListField(child=serializers.CharField(), help_text="the engine players who may answer")


def pending_field(help_text: str = "the decision the game waits for; null once the scenario is over") -> Any:
    return PolymorphicProxySerializer(
        component_name="Pending",
        serializers=[Decision, CombatDecision, Waiting],
        resource_type_field_name=None,
        many=False,
        allow_null=True,
        help_text=help_text,
    )


class LastingEffect(serializers.Serializer):
    character = serializers.CharField()
    duration = serializers.CharField(help_text="turn, encounter, scenario, ...")
    encounter = serializers.IntegerField(allow_null=True, required=False, help_text="the encounter it ends with")
    passive = serializers.DictField(help_text="what it does, in the engine's effect vocabulary (open-ended)")


class SessionView(serializers.Serializer):
    """The game as you may see it: never deck order, face-down cards or the seed."""

    version = serializers.IntegerField()
    ruleset = serializers.ChoiceField(choices=RULESETS)
    status = serializers.ChoiceField(choices=STATUSES)
    outcome = Outcome(allow_null=True, help_text="null while playing")
    scenario = TableScenario()
    adventure = serializers.IntegerField()
    bane_adventure = serializers.IntegerField(help_text="the adventure number bane checks use")
    options = serializers.DictField(
        help_text="the scenario's setup options (mode, location_size, ...), open-ended as setups add them"
    )
    turn = Turn()
    order = serializers.ListField(child=serializers.CharField(), help_text="characters in turn order")
    you = serializers.ListField(child=serializers.CharField(), help_text="the characters you play")
    characters = serializers.DictField(child=TableCharacter(), help_text="per character id")
    locations = TableLocation(many=True)
    hourglass = Hourglass()
    hour = TableCard(allow_null=True, help_text="the top of the hourglass discards")
    hourglass_discards = TableCard(many=True)
    dangers = TableCard(many=True)
    wildcards = TableCard(many=True)
    encounters = Encounter(many=True, help_text="the cards being encountered, outermost first")
    summoned = TableCard(many=True)
    check = CheckSummary(allow_null=True, help_text="the innermost check once its skill is chosen")
    effects = LastingEffect(many=True)
    pending = pending_field()
    session = Session()


class CombatCard(serializers.Serializer):
    card = serializers.CharField()
    name = serializers.CharField()


class InPlay(CombatCard):
    exhausted = serializers.BooleanField()


class Endurance(serializers.Serializer):
    ready = serializers.IntegerField()
    exhausted = serializers.IntegerField()


class CombatHandField(serializers.JSONField):
    """Your hero's hand (its cards), or the number of cards in another hero's."""


class CombatHero(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    player = serializers.CharField()
    attributes = serializers.DictField(
        child=serializers.IntegerField(allow_null=True), help_text="close_combat, ranged_combat, magic, dodge"
    )
    life = serializers.IntegerField()
    fate = serializers.IntegerField()
    unconscious = serializers.BooleanField()
    endurance = Endurance()
    in_play = InPlay(many=True)
    deck = serializers.IntegerField(help_text="cards left in the draw pile")
    discard = serializers.ListField(child=serializers.CharField())
    hand = CombatHandField()


class CombatOpponent(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["leader", "henchman"])
    life = serializers.IntegerField()
    max_life = serializers.IntegerField()
    dodge = serializers.IntegerField(allow_null=True, help_text='null: "—", never dodges')
    armor = serializers.IntegerField()
    actions = serializers.IntegerField()


class CombatView(serializers.Serializer):
    """An Aventuria combat as you may see it: never a deck's order, another player's hand or the seed."""

    game = serializers.ChoiceField(choices=["aventuria"])
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=STATUSES)
    version = serializers.IntegerField()
    round = serializers.IntegerField()
    time_counters = serializers.IntegerField()
    fate_pool = serializers.IntegerField(help_text="fate points left on the adventure plan")
    starting_hero = serializers.CharField()
    heroes = CombatHero(many=True)
    opponents = CombatOpponent(many=True)
    henchmen_left = serializers.IntegerField()
    you = serializers.ListField(child=serializers.CharField(), help_text="the heroes you play")
    pending = pending_field()
    log = serializers.ListField(child=serializers.DictField(), help_text="the latest 30 entries")
    session = Session()


def game_view() -> Any:
    return PolymorphicProxySerializer(
        component_name="GameView", serializers=[SessionView, CombatView], resource_type_field_name=None, many=False
    )


class PendingView(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUSES)
    pending = pending_field()
    check = CheckSummary(allow_null=True, help_text="PACG: the check under way; null in Aventuria")


class ActionResult(serializers.Serializer):
    """What an applied action did; a retried Idempotency-Key gets this same body again."""

    number = serializers.IntegerField(help_text="its number in the session's log")
    label = serializers.CharField(help_text="the answer in words")
    version = serializers.IntegerField(help_text="the session's version after it")
    status = serializers.ChoiceField(choices=STATUSES)
    events = serializers.ListField(child=EventField())
    pending = pending_field(help_text="the next decision as the player who acted sees it; null once over")


class PreviewDecision(serializers.Serializer):
    kind = serializers.CharField()
    character = serializers.CharField(allow_null=True)


class Preview(serializers.Serializer):
    halted_before_random = serializers.BooleanField(
        help_text="the answer would draw at random (a roll, a shuffle): the preview stops there"
    )
    check = CheckSummary(allow_null=True, help_text="the check it leaves, with its dice and odds")
    decision = PreviewDecision(allow_null=True, help_text="the decision that would follow; null if halted or over")
    version = serializers.IntegerField(help_text="the version it previews")


class LoggedAction(serializers.Serializer):
    number = serializers.IntegerField()
    player = serializers.CharField(help_text="the engine player who answered")
    action = serializers.DictField(help_text=ACTION_HELP)
    label = serializers.CharField(allow_blank=True, help_text="the answer in words")
    version = serializers.IntegerField(help_text="the version it was based on")
    events = serializers.ListField(child=EventField())
    report = serializers.ListField(child=serializers.CharField(), help_text="what happened, in sentences")


class SessionLog(serializers.Serializer):
    version = serializers.IntegerField()
    actions = LoggedAction(many=True, help_text="oldest first, at most 500")


class ScenarioPlayed(serializers.Serializer):
    scenario = serializers.CharField()
    adventure = serializers.IntegerField()
    mode = serializers.CharField(help_text="normal, or another mode of Play It Your Way")
    won = serializers.BooleanField()
    died = serializers.ListField(child=serializers.IntegerField(), help_text="the party's character ids")
    acquired = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), help_text="per character id: card ids"
    )
    banished = serializers.ListField(child=serializers.CharField(), help_text="card ids")
    session = serializers.UUIDField()


class Finished(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the party log entry")
    kind = serializers.ChoiceField(choices=["scenario_played"])
    data = ScenarioPlayed()
    session = Session()


class DiceOdds(serializers.Serializer):
    dice = serializers.CharField(help_text="the dice as read: 3d8+1d6+2")
    difficulty = serializers.IntegerField()
    probability = serializers.FloatField()
    fraction = serializers.CharField(help_text="the exact chance: 2863/3072")
    distribution = serializers.DictField(child=serializers.CharField(), help_text="result: its exact chance")
    expected_damage_on_failure = serializers.FloatField()


class SimulationResult(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    interval_95 = serializers.ListField(child=serializers.FloatField(), help_text="the 95% Wilson interval")
    turns_left_when_won = serializers.FloatField(allow_null=True, help_text="hourglass cards left, on average")
    turns_left_distribution = serializers.DictField(child=serializers.IntegerField())
    deaths = serializers.DictField(child=serializers.IntegerField(), help_text="per character: games it died in")
    banes_that_beat_the_party = serializers.ListField(child=serializers.DictField())


class Simulation(serializers.Serializer):
    id = serializers.UUIDField()
    party = serializers.CharField(help_text="the party's name")
    scenario = serializers.CharField()
    scenario_name = serializers.CharField()
    mode = serializers.CharField()
    policy = serializers.CharField()
    seed = serializers.CharField()
    games = serializers.IntegerField()
    done = serializers.IntegerField(help_text="games played so far")
    progress = serializers.FloatField()
    status = serializers.ChoiceField(choices=["running", "done", "cancelled", "failed"])
    log_version = serializers.IntegerField(help_text="the party's last log entry the decks were read from")
    current = serializers.BooleanField(help_text="false once the party's log has moved on")
    workers = serializers.DictField(child=serializers.IntegerField(), help_text="chunks played per worker")
    blank_cards = serializers.ListField(
        child=serializers.CharField(),
        help_text="the deck cards whose powers the card database lacks: the simulated players play them as blank",
    )
    result = SimulationResult(allow_null=True, help_text="the summary of the games played so far")
    error = serializers.CharField(allow_null=True)
