"""Helpers for the town tests: a campaign, a hero, scripted dice.

Dice are scripted face by face: a d100 is two d10 faces (tens, units; 0,0 = 100), a lone
d10 face 0 reads 10.
"""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.game import Game
from d100gui.engine.hero.model import Character, Item, new_character
from d100gui.engine.magic.commands import MAGIC_COMMANDS
from d100gui.engine.town.commands import TOWN_COMMANDS
from d100gui.engine.town.model import TownState
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()


#: the campaign keeps the town state itself now (``Campaign.town``); the name stays for the tests
TownCampaign = Campaign


def hero(gp: int = 0, rep: int = 1) -> Character:
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Wilma"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = 20
    ch.hp = 20
    ch.gp = gp
    ch.rep = rep
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = 20, 10, 15
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H", value=40, repair_cost=8)
    return ch


def game_for(ch: Character, *faces: int, policy: MissingRowPolicy = MissingRowPolicy.ASK) -> Game:
    """A game over a fresh library (tests may type rows into it) with the dice scripted."""
    campaign = TownCampaign()
    campaign.meta.seed = 7
    campaign.character = ch
    game = Game(
        campaign,
        load_library(None).library,
        commands=[*TOWN_COMMANDS, *MAGIC_COMMANDS],
        policy=policy,
        rules=RULES,
        tilesets=standard_tilesets(),
        check_journal=True,
    )
    game.override = ScriptedSource(list(faces))
    return game


def town(game: Game) -> TownState:
    campaign = game.campaign
    assert isinstance(campaign, TownCampaign)
    return campaign.town


def sheet(game: Game) -> Character:
    ch = game.campaign.character
    assert ch is not None
    return ch


def run(game: Game, kind: str, **fields: object):
    """Parse and run one command as a log would hold it."""
    return game.execute(game.parse_command({"kind": kind, **fields}))


def at(game: Game, step: str) -> None:
    """Open the phase and move the wizard to ``step``."""
    run(game, "begin_town")
    if step != "refresh":
        run(game, "town_next", to=step)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def scripted(game: Game, *faces: int) -> None:
    game.override = ScriptedSource(list(faces))


def dice_left(game: Game) -> int:
    assert isinstance(game.override, ScriptedSource)
    return game.override.remaining
