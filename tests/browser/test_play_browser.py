"""The play table in a real browser: start a scenario, answer decisions, see the log grow."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from play.models import GameSession, Simulation

from ..factories import UserFactory
from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_start_a_scenario_and_play_a_few_decisions(page):
    UserFactory(username="alice")
    log_in(page, "alice", then="/play/")
    page.click("button:has-text('Start')")
    page.wait_for_selector("#options button.option")
    assert "The scenario is over" not in page.inner_text("#prompt")
    assert page.locator("#hand li").count() >= 1 and page.locator("#locations li").count() >= 2
    for expected in range(1, 4):
        page.locator("#options button.option:not(.declare)").first.click()
        expect(page.locator("#log > li").nth(expected - 1)).to_be_attached()
    assert page.inner_text("#version") != "0"


def test_a_whole_scenario_is_played_to_its_end_on_the_table_page(page):
    UserFactory(username="alice")
    log_in(page, "alice", then="/play/")
    page.select_option("select[name=scenario]", "sandbox.the-patrol")
    page.uncheck("input[name=characters][value='sandbox.sage']")
    page.click("button:has-text('Start')")
    page.wait_for_selector("#options .option")
    for _ in range(600):
        if "The scenario is over" in page.inner_text("#prompt"):
            break
        version = page.inner_text("#version")
        boxes = page.locator("#options .selection input")
        if boxes.count():  # discarding for damage: tick as many cards as asked
            confirm = page.locator(".selection button")
            for index in range(int(confirm.inner_text().split()[-1])):
                boxes.nth(index).check()
            confirm.click()
        else:
            page.locator("#options button.option:not(.declare)").first.click()
        expect(page.locator("#version")).not_to_have_text(version)
    session = GameSession.objects.get()
    assert session.status in {"won", "lost"}
    assert f"The scenario is over: {session.status}" in page.inner_text("#prompt")
    expect(page.locator("#log > li")).to_have_count(session.actions.count())
    assert ": " in page.locator("#log > li").first.inner_text() and "{" not in page.inner_text("#log")


def core_party(owner):  # type: ignore[no-untyped-def]
    """A Core Set party whose vault holds the Core cards; its owner plays Amiri and Sajan."""
    from campaigns.services import append_event, character_create, party_create
    from cards.models import Card

    party = party_create(owner=owner, name="Sandpoint", game="pacg", ruleset="core-2019", products=["core"])
    cards = Card.objects.filter(card_set__code="core", type__in=CORE_VAULT)
    append_event(
        party=party,
        by=owner,
        kind="vault_changed",
        data={"add": {card.uid: 10 if card.type == "blessing" else 4 for card in cards}},
    )
    for card in ("core.amiri", "core.sajan"):
        character_create(party=party, by=owner, card=card, quick_start=True)
    return party


CORE_VAULT = ["weapon", "spell", "armor", "item", "ally", "blessing", "monster", "barrier"]


def test_a_core_party_plays_a_scenario_with_a_declared_power_and_odds_and_finishes_into_the_log(page):
    alice = UserFactory(username="alice")
    party = core_party(alice)
    log_in(page, "alice", then="/play/")
    page.select_option("form:has(select[name=party]) select[name=scenario]", "sandbox.the-patrol")
    page.click("button:has-text('Start with the party')")
    # The card database lacks Amiri's and Sajan's full skills: the lobby asks, once.
    page.wait_for_selector("#facts")
    inputs = page.locator("#facts input[name$='-skills']")
    for index in range(inputs.count()):
        inputs.nth(index).fill("Strength d10, Dexterity d8, Constitution d6, Wisdom d6, Melee: Strength +2")
    page.click("#facts button:has-text('Start with the party')")
    page.wait_for_selector("#options .option")
    assert "The Patrol" in page.inner_text("#scenario")
    declared = odds_seen = named_check = False
    for _ in range(900):
        if "The scenario is over" in page.inner_text("#prompt"):
            break
        prompt = page.inner_text("#prompt")
        named_check = named_check or ("Amiri's check to" in prompt or "Sajan's check to" in prompt)
        assert "amiri:" not in prompt and "player1" not in prompt
        version = page.inner_text("#version")
        boxes = page.locator("#options .selection input")
        templates = page.locator("#options button.declare")
        odds_seen = odds_seen or "→" in page.inner_text("#options")
        if page.locator("#options form input[aria-label='check as printed']").count():
            page.fill("#options form input[aria-label='check as printed']", "Combat 6")
            page.click("#options form button:has-text('Enter the check')")
        elif boxes.count():  # discarding for damage: tick as many cards as asked
            confirm = page.locator(".selection button")
            for index in range(int(confirm.inner_text().split()[-1])):
                boxes.nth(index).check()
            confirm.click()
        elif not declared and templates.count():
            # Two clicks: the card, then what its power does.
            templates.first.click()
            page.locator("#declare .preset").first.click()
            declared = True
        else:
            page.locator("#options button.option:not(.declare)").first.click()
        expect(page.locator("#version")).not_to_have_text(version)
    session = GameSession.objects.get()
    assert session.status in {"won", "lost"}
    assert declared and named_check and odds_seen
    expect(page.locator("#log > li")).to_have_count(session.actions.count())
    assert "declared by alice" in page.inner_text("#log")
    page.click("#finish button:has-text('Write the result to the campaign log')")
    page.wait_for_selector('#finish:has-text("in the party\'s log")')
    page.goto(f"/campaigns/{party.pk}/")
    row = page.locator("#scenarios tr").nth(1).inner_text()
    assert "The Patrol" in row and session.status in row


def test_an_aventuria_combat_is_played_from_setup_to_its_end_on_the_table_page(page):
    """Fox Hand, endurance, attacks with their odds, the opponents' turns and the time scale, until
    the heroes win or are defeated."""
    UserFactory(username="alice")
    log_in(page, "alice", then="/play/")
    page.click("#aventuria button")
    expect(page.locator("#prompt")).to_contain_text("Fox Hand")
    assert page.locator("#opponents li").first.inner_text().startswith("Kobold Chief (leader): 12 of 12 life points")
    for _ in range(400):
        prompt = page.inner_text("#prompt")
        if "The combat is over" in prompt:
            break
        version = page.inner_text("#version")
        boxes = page.locator("#options .selection input")
        attacks = page.locator("#options > button.option", has_text="to hit")
        if "as endurance" in prompt and boxes.count():
            boxes.first.check()
            page.locator(".selection button").click()
        elif attacks.count():
            attacks.first.click()
        else:
            page.locator("#options > button.option").first.click()
        expect(page.locator("#version")).not_to_have_text(version)
    session = GameSession.objects.get()
    assert session.status in {"won", "lost"} and session.state["game"] == "aventuria"
    expect(page.locator("#prompt")).to_contain_text("The combat is over")
    expect(page.locator("#log > li")).to_have_count(session.actions.count())
    report = page.inner_text("#log")
    assert "attacks Kobold" in report and "rolls" in report and "{" not in report


@pytest.fixture
def simulations_in_thread(settings):  # type: ignore[no-untyped-def]
    """As on `make run`: the games play in a thread of the server, and the page polls their
    progress. The test waits for those threads, so none touches the database after it."""
    settings.SIMULATIONS_IN_THREAD = True
    yield
    for thread in threading.enumerate():
        if thread.name.startswith("simulation-"):
            thread.join(timeout=120)


def test_a_party_simulates_a_scenario_from_its_dashboard_and_sees_the_result_plotted(page, simulations_in_thread):
    alice = UserFactory(username="alice")
    party = core_party(alice)
    log_in(page, "alice", then=f"/campaigns/{party.pk}/")
    page.click("#difficulty + p a")
    page.select_option("select[name=scenario]", "sandbox.the-warlock")
    page.fill("input[name=games]", "120")
    page.click("#simulate button")
    # The card database lacks the characters' skills: the page asks for them, then simulates.
    expect(page.locator("[role=alert]").first).to_contain_text("Amiri's skills")
    for skills in page.locator("input[name$='-skills']").all():
        skills.fill("Strength d10, Dexterity d8, Constitution d6, Intelligence d6, Wisdom d6, Charisma d6")
    for hand in page.locator("input[name$='-hand_size']").all():
        hand.fill("5")
    page.click("#simulate button")
    expect(page.locator("#status")).to_have_text("running")  # the bar moves while the games are played
    expect(page.locator("#status")).to_have_text("done", timeout=60_000)
    simulation = Simulation.objects.get()
    assert page.inner_text("#done") == "120"
    assert page.inner_text("#win-rate") == f"{round(100 * simulation.result['win_rate'])}%"
    expect(page.locator("#outcomes rect")).to_have_count(1 + len(simulation.result["turns_left_distribution"]))
    page.goto(f"{page.url.split('/play/')[0]}/campaigns/{party.pk}/")
    expect(page.locator("#simulations li")).to_contain_text("The Warlock")


def test_a_running_simulation_is_cancelled_from_its_page_and_keeps_the_games_played(page, simulations_in_thread):
    from play.simulations import simulation_start

    from ..play.test_party_sessions import AMIRI, SAJAN

    alice = UserFactory(username="alice")
    party = core_party(alice)
    facts = {str(c.pk): AMIRI if c.card.uid == "core.amiri" else SAJAN for c in party.characters.all()}
    simulation, _ = simulation_start(by=alice, party=party.pk, scenario="sandbox.the-warlock", games=3000, facts=facts)
    log_in(page, "alice", then=f"/play/simulations/{simulation.pk}/")
    expect(page.locator("#status")).to_have_text("running")
    page.click("#cancel button")
    expect(page.locator("#status")).to_have_text("cancelled")
    expect(page.locator("#cancel")).to_have_count(0)  # nothing left to cancel
    simulation.refresh_from_db()
    assert simulation.status == "cancelled" and simulation.done < 3000
    assert page.inner_text("#done") == str(simulation.done)
