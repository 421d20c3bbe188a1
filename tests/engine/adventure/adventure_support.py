"""Helpers for the adventure tests: a campaign that keeps the adventure state, a hero, scripted dice.

Dice are scripted face by face: a d100 is two d10 faces (tens, units; 0,0 = 100), a lone
d10 face 0 reads 10.
"""

from __future__ import annotations

from d100gui.engine.adventure.commands import ADVENTURE_COMMANDS
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import CombatState, Monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Character, Item, new_character
from d100gui.engine.quest.model import AdventureState
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()


#: the campaign keeps the adventure itself now (``Campaign.adventure``); the name stays for the tests
AdventureCampaign = Campaign


def hero(hp: int = 20, lives: int = 0, oil: int = 20, food: int = 10) -> Character:
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = 20
    ch.hp = hp
    ch.lives = lives
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = oil, food, 15
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    return ch


#: the journal serialises every "before" fresh, so a test may edit the campaign by hand between
#: commands; the name stays for the tests that use it
EditableGame = Game


def game_for(ch: Character, *faces: int, policy: MissingRowPolicy = MissingRowPolicy.ASK) -> Game:
    """A game over a fresh library (tests may type rows into it) with the dice scripted."""
    campaign = AdventureCampaign()
    campaign.meta.seed = 7
    campaign.character = ch
    game = EditableGame(
        campaign,
        load_library(None).library,
        commands=ADVENTURE_COMMANDS,
        policy=policy,
        rules=RULES,
        tilesets=standard_tilesets(),
    )
    game.override = ScriptedSource(list(faces))
    return game


def state(game: Game) -> AdventureState:
    campaign = game.campaign
    assert isinstance(campaign, AdventureCampaign)
    return campaign.adventure


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def dice_left(game: Game) -> int:
    assert isinstance(game.override, ScriptedSource)
    return game.override.remaining


def in_a_fight(game: Game) -> None:
    """A fight in progress (the adventure only asks whether there is one)."""
    game.campaign.combat = CombatState(monster=Monster(name="Giant Rats", av=25, hp=[3, 2, 2]), hp=[3, 2, 2])
