"""Fixtures for the town wizard's tests: a wizard on its own real game, a scripted hero, scripted dice."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Character, Item, new_character
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.town.wizard import TownWizard

RULES = bundled_rules()


def hero(gp: int = 500, rep: int = 2) -> Character:
    """Wilma after a quest: STR 50 DEX 40 INT 30, a Sword, a damaged Helm, poisoned, some HP lost, tracks marked."""
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Wilma"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary, ch.hp, ch.gp, ch.rep = 20, 17, gp, rep
    ch.poison, ch.keys, ch.levers = 2, 3, 1
    ch.time_track.shaded = 6
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = 20, 5, 15
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H", value=40, repair_cost=8)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", value=120, repair_pips=2)
    ch.backpack = [Item(name="Dagger", kind="weapon", value=15)]
    return ch


def new_game(ch: Character | None, *faces: int) -> Game:
    campaign = Campaign(character=ch)
    campaign.meta.seed = 7
    game = Game(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource(list(faces))
    return game


@pytest.fixture
def make_wizard(qtbot):
    """``make(game)`` -> a shown TownWizard on ``EngineBridge(game)``."""

    def make(game: Game) -> TownWizard:
        wizard = TownWizard(EngineBridge(game))
        qtbot.addWidget(wizard)
        wizard.show()
        return wizard

    return make
