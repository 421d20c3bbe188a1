"""Table C curses and Table B boosts applied in full, as functions and through their commands."""

from __future__ import annotations

from magic_support import RULES, dice_left, game_for, hero, kinds, run, scripted, sheet

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Item
from d100gui.engine.hero.time_track import advance_time
from d100gui.engine.magic.boosts import apply_boost
from d100gui.engine.magic.curses import apply_curse
from d100gui.engine.quest.model import AdventureState, Quest, QuestState
from d100gui.storage.packs import load_library

LIBRARY = load_library(None).library


def _row(table: str, n: int):
    row = LIBRARY.get(table).find(n)
    assert row is not None
    return row


def _dice(*faces: int) -> Dice:
    return Dice(ScriptedSource(list(faces)))


def test_arcane_devastation_shades_4_pips_on_every_equipped_and_backpacked_item_with_a_track():
    ch = hero()
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", repair_pips=0)
    ch.equipment["neck"] = Item(name="Amulet", kind="jewellery", slot="neck")
    ch.backpack = [Item(name="Dagger", kind="weapon", repair_pips=1), Item(name="Spices", value=3)]
    result = apply_curse(ch, RULES, _row("d100.C", 2), _dice())
    assert result.curse == "Arcane Devastation" and result.destroyed == ["Dagger"]
    assert ch.equipment["head"].repair_pips == 4 and ch.equipment["main_weapon"].repair_pips == 4
    assert ch.equipment["neck"].repair_pips == 0 and [i.name for i in ch.backpack] == ["Spices"]
    apply_curse(ch, RULES, _row("d100.C", 9), _dice())  # ARCANE DESTRUCTION: 2 more fill the 5-pip tracks
    assert ch.equipment["head"] is None and ch.equipment["main_weapon"] is None


def test_unskilled_rolls_d10_for_a_skill_and_takes_10_or_7_hp():
    ch = hero()
    ch.skills["Dodge"].bonus = 15
    result = apply_curse(ch, RULES, _row("d100.C", 4), _dice(4))  # d10 4: the fourth skill
    assert RULES.skills[3] == "Dodge" and result.skill == "Dodge" and ch.skills["Dodge"].bonus == 5
    result = apply_curse(ch, RULES, _row("d100.C", 4), _dice(0))  # d10 0 reads 10: Traps, no bonus
    assert result.skill == "Traps" and ch.hp == 13


def test_divine_wrath_takes_two_lives_or_ends_the_adventure():
    ch = hero()
    ch.lives, ch.fate = 3, 2
    result = apply_curse(ch, RULES, _row("d100.C", 1), _dice())
    assert (ch.hp, ch.fate, ch.lives, result.adventure_over) == (1, 0, 1, False)
    game = game_for(ch)
    scripted(game, 0, 1)
    events = run(game, "roll_curse")
    assert events[0].payload().result.adventure_over and "hero_fell" in kinds(events)
    assert game.campaign.character is None and game.campaign.hall_of_fallen[-1].dead


def test_lasting_illness_and_the_characteristic_curses_lower_primary_values():
    ch = hero()
    apply_curse(ch, RULES, _row("d100.C", 3), _dice())
    assert ch.hp_primary == 16 and ch.hp == 16
    apply_curse(ch, RULES, _row("d100.C", 7), _dice())
    assert ch.characteristics["STR"].primary == 46


def test_stilling_of_time_hands_its_clocks_to_the_quest_under_way():
    game = game_for(hero())
    game.campaign.adventure = AdventureState(quest=QuestState(quest=Quest(name="Dungeon Training 1")))
    scripted(game, 0, 8)
    result = run(game, "roll_curse")[0].payload().result
    assert result.clocks == 3 and game.campaign.adventure.clocks_owed == 3


def test_a_curse_on_a_missing_row_waits_for_the_row():
    game = game_for(hero())
    scripted(game, 5, 0)
    result = run(game, "roll_curse")[0].payload().result
    assert result.missing and result.table_roll.missing is not None and dice_left(game) == 0


def test_boosts_sit_in_the_time_track_bonus_section_and_end_on_refresh():
    ch = hero()
    tables = TableRoller(LIBRARY, _dice())
    apply_boost(ch, RULES, _row("d100.B", 3), tables)  # STRONGER
    apply_boost(ch, RULES, _row("d100.B", 18), tables)  # TOUGHNESS
    assert derive(ch, RULES).characteristics["STR"] == 55 and derive(ch, RULES).defence["head"] == 1
    advance_time(ch, RULES, RULES.sheet.time_track.clocks)
    assert ch.time_track.bonuses == [] and derive(ch, RULES).characteristics["STR"] == 50


def test_item_door_healing_and_disease_boosts():
    ch = hero()
    ch.hp, ch.disease = 15, 5
    tables = TableRoller(LIBRARY, _dice(0, 5))  # Table I 5: LEATHER BAG
    found = apply_boost(ch, RULES, _row("d100.B", 28), tables)
    assert found.items == ["Leather Bag"] and ch.backpack[-1].value == 4
    assert apply_boost(ch, RULES, _row("d100.B", 33), tables).door_released
    apply_boost(ch, RULES, _row("d100.B", 36), tables)
    apply_boost(ch, RULES, _row("d100.B", 38), tables)
    assert (ch.hp, ch.disease) == (18, 2)


def test_roll_boost_command():
    game = game_for(hero())
    scripted(game, 1, 2)  # 12: WISDOM
    result = run(game, "roll_boost")[0].payload().result
    assert result.boost == "Wisdom" and derive(sheet(game), RULES).characteristics["INT"] == 35
