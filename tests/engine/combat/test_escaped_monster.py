"""An escaped monster is marked on its map area and is met again at full HP."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.engine.fight_commands import CombatEscape, FaceEscapedMonster
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.game import Game
from d100gui.engine.hero.model import new_character
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_rules, standard_tilesets


def hero():
    ch = new_character(bundled_rules())
    ch.creation = None
    ch.name = "Aria"
    ch.characteristics["DEX"].primary = 40
    ch.hp_primary = ch.hp = 20
    return ch


def test_escape_marks_the_area_and_the_monster_returns_at_full_hp(bundled_library):
    campaign = Campaign()
    campaign.character = hero()
    game = Game(campaign, bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    # entrance tile 3 (straight N), north tile 12; reaction d10 5; escape test d100 25 (DEX 40 -10)
    game.override = ScriptedSource([0, 3, 1, 2, 3, 2, 5, 2, 5, 7])  # ...and reaction 7 when met again
    game.execute(NewDungeon())
    game.execute(EnterDungeon())
    game.execute(MoveHero(side="N"))
    goblin = typed_monster("Goblin", av=40, hp=10, defence=1, dmg=0)
    game.execute(StartCombat(source="monster", monster=goblin, fate_windows=False))
    game.campaign.combat.hp = [4]
    game.execute(CombatEscape())
    assert game.campaign.combat is None
    area = game.campaign.dungeons.current_dungeon.areas["7,9"]
    assert area.escaped == "Goblin"
    game.execute(MoveHero(side="S"))
    events = game.execute(MoveHero(side="N"))
    assert [e.kind for e in events][-1] == "escaped_monster_here"
    game.execute(FaceEscapedMonster(pos="7,9"))
    assert game.campaign.combat.hp == [10]
    assert game.campaign.dungeons.current_dungeon.areas["7,9"].escaped == ""
    with pytest.raises(CommandRefused, match="a fight with Goblin is already under way"):
        game.execute(FaceEscapedMonster(pos="7,9"))  # the fight it began is on (issue 26: refused in any fight)
    game.campaign.combat = None
    with pytest.raises(CommandRefused, match="No monster you escaped from"):
        game.execute(FaceEscapedMonster(pos="7,9"))
