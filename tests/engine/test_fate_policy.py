"""Issue 18, Deliver 4: the Fate windows are a game policy; the engine answers the skipped ones in the same command."""

from __future__ import annotations

from d100gui.demo import build_demo_campaign
from d100gui.engine import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import Monster
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import replay
from d100gui.engine.policies import FatePolicy
from d100gui.storage.resources import bundled_game_data

DATA = bundled_game_data()
DEMO = build_demo_campaign(DATA.library)
GOBLIN = Monster(name="Goblin", av=30, hp=[3])


def free_session(policy: FatePolicy) -> Session:
    campaign = Campaign(character=DEMO.character.model_copy(deep=True))  # the demo hero, a fresh log
    session = Session(DATA, campaign)
    session.game.fate_policy = policy
    return session


def test_by_default_a_test_waits_for_the_player():
    session = free_session(FatePolicy())
    session.script_dice([2, 0])
    session.run({"kind": "roll_test", "text": "Test: Str"})
    assert any(d.decision == "test_roll" for d in session.pending)
    assert session.log[-1].fate is None


def test_never_settles_the_test_in_the_same_command_and_one_undo_step():
    session = free_session(FatePolicy(tests="never"))
    session.script_dice([2, 0])
    events = session.run({"kind": "roll_test", "text": "Test: Str"})
    assert not any(d.decision == "test_roll" for d in session.pending)
    assert "test_settled" in [e["kind"] for e in events]
    assert len(session.log) == 1 and session.log[-1].fate == FatePolicy(tests="never")
    session.undo()
    assert session.log == [] and session.pending == []


def test_a_fight_goes_on_by_itself_in_one_command_and_replays():
    session = free_session(FatePolicy(fights="never"))
    start = session.campaign.model_copy(deep=True)
    session.script_dice([1] * 40)
    session.run({"kind": "start_combat", "source": "monster", "monster": GOBLIN.model_dump()})
    session.script_dice([1] * 40)
    session.run({"kind": "combat_attack"})
    combat = session.combat
    assert combat is None or combat.waiting not in ("roll", "test")  # no Fate window left open
    assert len(session.log) == 2
    again = replay(session.log, DATA.library, ALL_COMMANDS, start, rules=DATA.rules, tilesets=DATA.tilesets)
    assert again.model_dump(exclude={"meta", "log"}) == session.campaign.model_dump(exclude={"meta", "log"})
