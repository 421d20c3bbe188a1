"""A narrative beside numbers the same action applied is not offered as a hand correction (issue 19: "To do at the
table: ... pouch of coins" with *Correct gold by hand* after the +10 gp was added invited counting it twice)."""

from __future__ import annotations

from adventure_support import game_for, hero

from d100gui.engine.adventure.corrections import corrections_for
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.skill_test_commands import RollTest


def test_the_words_of_a_row_whose_gold_was_added_ask_for_no_gold_correction():
    game = game_for(hero())
    game.override = ScriptedSource([2, 5])  # 25: a success
    gp = game.campaign.character.gp
    game.execute(RollTest(text="CHEST – Test: Dex [S: You find a pouch of coins, +10gp] [F: -1 hp]", auto_accept=True))
    assert game.campaign.character.gp == gp + 10
    kinds = [e.kind for e in game.campaign.log[-1].events]
    assert "narrative" in kinds and "gp" in kinds  # the words logged beside the gold they came with
    assert corrections_for(game.campaign) == []


def test_words_naming_gold_the_action_did_not_change_still_offer_the_correction():
    game = game_for(hero())
    game.override = ScriptedSource([2, 5])
    game.execute(RollTest(text="CHEST – Test: Dex [S: You find a pouch of coins] [F: -1 hp]", auto_accept=True))
    [fix] = corrections_for(game.campaign)
    assert fix.section == "gp" and fix.command is None and "pouch of coins" in fix.text
