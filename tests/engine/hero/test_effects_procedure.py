"""Effects go through the adventure's one procedure: ``+N`` fires the time track's triggers, HP 0 the HP-zero rule."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import CombatState, Monster
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.effects.interpreter import apply_effect
from d100gui.engine.game import Game, GameContext
from d100gui.engine.hero.model import new_character
from d100gui.engine.rules.notation import Effect
from d100gui.engine.skill_test_commands import RollTest
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets

RULES = bundled_rules()
LAYOUT = RULES.sheet.time_track


def game_with(*faces: int, hp: int = 20, lives: int = 1, shaded: int = 0) -> Game:
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Tess"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary, ch.hp, ch.lives = 20, hp, lives
    ch.supplies.oil, ch.supplies.food = 5, 5
    ch.time_track.shaded = shaded
    campaign = Campaign()
    campaign.character = ch
    game = Game(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource(list(faces))
    return game


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def wandering_clock() -> tuple[int, int]:
    trigger = next(t for t in LAYOUT.triggers if t.kind == "wandering")
    assert trigger.number is not None
    return trigger.clock, trigger.number


def test_a_time_effect_fires_the_wandering_check_and_a_monster_becomes_a_fight_offer():
    clock, number = wandering_clock()
    # the test: 99 fails; [F: +1] shades the wandering clock; d10 1 <= number; Table E 45 - 0
    game = game_with(9, 9, 1, 4, 5, shaded=clock - 1)
    events = game.execute(RollTest(text="SLOW DOOR – Test: Str [S: Open] [F: +1]", auto_accept=True))
    assert 1 <= number
    assert "time" in kinds(events) and "wandering_checked" in kinds(events) and "fight_offered" in kinds(events)
    offer = game.campaign.adventure.fight_offered
    assert offer is not None and offer.clock == clock and offer.table_roll.value == 45


def test_hp_at_zero_from_an_effect_spends_a_life_and_with_none_the_hero_falls():
    game = game_with(9, 9, hp=2, lives=1)
    events = game.execute(RollTest(text="SPIKES – Test: Dex [S: avoid] [F: -3 hp]", auto_accept=True))
    ch = game.campaign.character
    assert kinds(events)[-2:] == ["hp_zero", "death_cheated"] and ch.lives == 0 and ch.hp == 20
    game.override = ScriptedSource([9, 9])
    ch.hp = 1
    events = game.execute(RollTest(text="SPIKES – Test: Dex [S: avoid] [F: -3 hp, +1]", auto_accept=True))
    assert "hero_fell" in kinds(events) and "time" not in kinds(events)  # nothing applies after the fall
    assert game.campaign.character is None and game.campaign.hall_of_fallen[-1].name == "Tess"


def test_in_a_fight_time_is_owed_and_hp_zero_is_left_to_the_fight():
    game = game_with(hp=1)
    game.campaign.combat = CombatState(monster=Monster(name="Giant Rats", av=25, hp=[3]), hp=[3])
    dice = Dice(ScriptedSource([]))
    ctx = GameContext(game.campaign, dice, TableRoller(game.library, dice), game.tilesets, RULES)
    events = apply_effect(ctx, Effect(kind="time", amount=2, text="+2"), "Belt")
    assert game.campaign.adventure.clocks_owed == 2 and game.campaign.character.time_track.shaded == 0
    assert "once the fight is over" in events[0].message
    events = apply_effect(ctx, Effect(kind="hp", amount=-5, text="-5 hp"), "Belt")
    assert kinds(events) == ["hp", "hp_zero"] and game.campaign.character.lives == 1  # the fight settles it itself
