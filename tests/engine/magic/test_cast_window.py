"""Casting outside a fight gives the CAST SPELL roll a Fate window per the Fate policy (issue 19 W2): "re-roll
any dice of a roll they have just made" comes before a failure's curse applies. Scripted dice."""

from __future__ import annotations

import pytest
from magic_support import RULES, hero, kinds, scripted, sheet

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.magic.commands import CastSpell, LearnSpell
from d100gui.engine.policies import FatePolicy
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.skill_test_commands import AcceptTest, UseFate
from d100gui.storage.packs import load_library
from d100gui.storage.resources import standard_tilesets


def caster(fate: int = 3, policy: FatePolicy | None = None) -> Game:
    ch = hero()
    ch.characteristics["INT"].primary = 55
    ch.fate = fate
    campaign = Campaign()
    campaign.character = ch
    game = Game(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource([])
    if policy is not None:
        game.fate_policy = policy
    game.execute(LearnSpell(spell="Heal"))
    return game


def test_a_failed_cast_waits_for_fate_before_the_curse_and_fate_can_turn_it():
    game = caster()
    ch = sheet(game)
    scripted(game, 9, 3)  # CAST SPELL 93 > 55: a failure
    events = game.execute(CastSpell(index=0, window=True))
    assert kinds(events) == ["magic_cast", "characteristic", "test_rolled"]  # the cost paid; no curse yet
    [test] = [d for d in game.campaign.pending if isinstance(d, PendingTest)]
    assert test.spell is not None and test.spell.name == "Heal" and not test.success
    with pytest.raises(CommandRefused, match="A rolled test is waiting"):
        game.execute(CastSpell(index=0, window=True))
    scripted(game, 2, 0)  # Fate: 93 re-rolled to 20, a success
    game.execute(UseFate(decision=test.id))
    ch.hp = 10
    events = game.execute(AcceptTest(decision=test.id))
    assert "magic_curse" not in kinds(events) and kinds(events)[-2:] == ["magic_spell_effect", "hp"]  # Heal's HP, typed
    assert ch.hp == 20 and ch.fate == 3 - RULES.fate_cost and game.campaign.pending == []


def test_an_accepted_failure_rolls_table_c_then():
    game = caster()
    scripted(game, 9, 3)
    game.execute(CastSpell(index=0, window=True))
    [test] = game.campaign.pending
    scripted(game, 0, 5)  # Table C 5: CLUELESS, -4 INT
    events = game.execute(AcceptTest(decision=test.id))
    assert "magic_curse" in kinds(events) and sheet(game).characteristics["INT"].primary == 51


def test_without_fate_the_fate_policy_settles_the_cast_at_once():
    game = caster(fate=0, policy=FatePolicy(tests="fate"))
    scripted(game, 9, 3, 0, 5)
    events = game.execute(CastSpell(index=0, window=True))  # one command, one undo step
    assert "magic_curse" in kinds(events) and game.campaign.pending == []
    assert sheet(game).characteristics["INT"].primary == 51


def test_a_cast_logged_before_the_window_replays_as_it_was_settled_at_once():
    game = caster()
    scripted(game, 9, 3, 0, 5)
    assert "magic_curse" in kinds(game.execute(CastSpell(index=0))) and game.campaign.pending == []
