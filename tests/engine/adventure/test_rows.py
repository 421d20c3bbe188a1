"""Effects that roll on a table apply its row, with scripted dice: loot into the backpack, nested rolls to any
depth with a loop guard, repair pips on a random equipped item, encounters handed to combat, typed rows,
the entrance resolved by colour, and narratives with their one-click hand correction."""

from __future__ import annotations

import pytest
from adventure_support import RULES, game_for, hero, kinds
from test_turn import RED_CROSSROADS, YELLOW_CROSSROADS, d100, game_of, push, quiet_clock

from d100gui.engine.adventure.commands import BeginQuest
from d100gui.engine.adventure.corrections import CorrectByHand, correction, corrections_for
from d100gui.engine.adventure.row_commands import ApplyTypedRow, KeepLoot, LeaveLoot
from d100gui.engine.adventure.turn import EnterOnTurn, FaceOfferedMonster, SearchArea, current_step, waiting_on
from d100gui.engine.adventure.turn_view import turn_panel
from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import MAX_DEPTH, TableRoller
from d100gui.engine.dice.tables import Row
from d100gui.engine.dungeon_entry import EnterDungeon, command_for_enter
from d100gui.engine.effects import rows
from d100gui.engine.effects.interpreter import apply_outcome
from d100gui.engine.game import Game, GameContext
from d100gui.engine.hero.model import Item
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.quest.model import AdventureRules
from d100gui.engine.rules.notation import Effect, parse_effects


def ctx_of(game: Game, *faces: int) -> GameContext:
    dice = Dice(ScriptedSource(list(faces)))
    return GameContext(game.campaign, dice, TableRoller(game.library, dice), game.tilesets, RULES)


def effect(game: Game, text: str, *faces: int, source: str = "Chest") -> list:
    """Apply an outcome's text through the interpreter with the dice scripted."""
    return apply_outcome(ctx_of(game, *faces), parse_effects(text), source)


# --------------------------------------------------------------------------- treasure into the backpack


def test_treasure_a_brew_goes_in_the_backpack_and_the_roll_in_the_dice_history():
    game = game_for(hero())
    events = effect(game, "roll x1 Table TA", *d100(5))  # Table TA 4-6: BREW OF FINER POWER
    ch = game.campaign.character
    assert [i.name for i in ch.backpack] == ["BREW OF FINER POWER"] and ch.backpack[0].kind == "brew"
    assert ch.backpack[0].value == 70
    assert {"row_missing", "roll_made"} & set(kinds(events)) == {"roll_made"}
    assert "loot_stowed" in kinds(events) and game.campaign.dice_history[-1].table.table_id == "d100.TA"


def test_coins_are_gold_and_an_objective_item_counts_toward_the_objective():
    game = game_for(hero())
    ch = game.campaign.character
    effect(game, "roll on Table TA", *d100(2))  # SILVER PIECES 70gp
    assert ch.gp == 70 and ch.backpack == []
    effect(game, "roll on Table TB", *d100(5))  # GOLD PIECES 140gp
    assert ch.gp == 210
    effect(game, "roll on Table TC", *d100(20))  # OBJECTIVE ITEM (Add one Objective)
    assert ch.objectives == 1 and ch.backpack == []


def test_a_potion_goes_with_the_unequipped_potions_and_a_spell_is_a_scroll():
    game = game_for(hero())
    ch = game.campaign.character
    effect(game, "roll on Table S", *d100(10))  # HEALING
    assert [(i.name, i.kind) for i in ch.backpack] == [("Scroll of Healing", "scroll")]
    effect(game, "roll on Table R", *d100(20))  # FOOD (+1 Food): a mark on the sheet, nothing carried
    assert ch.supplies.food == 10 and len(ch.backpack) == 1  # food was at its maximum of 10


def test_a_full_backpack_leaves_the_choice_to_the_player(monkeypatch):
    monkeypatch.setattr(rows, "adventure_rules", lambda rules: AdventureRules(backpack_rows=1))
    game = game_for(hero())
    ch = game.campaign.character
    ch.backpack = [Item(name="Old Boot", value=1)]
    events = effect(game, "roll on Table TA", *d100(5))
    state = game.campaign.adventure
    assert "loot_waiting" in kinds(events) and state.loot_waiting is not None and len(ch.backpack) == 1
    assert "backpack is full" in waiting_on(game.campaign)
    game.execute(KeepLoot(drop=0))
    assert [i.name for i in ch.backpack] == ["BREW OF FINER POWER"] and state.loot_waiting is None
    effect(game, "roll on Table TA", *d100(8))
    game.execute(LeaveLoot())
    assert [i.name for i in ch.backpack] == ["BREW OF FINER POWER"] and state.loot_waiting is None
    with pytest.raises(CommandRefused, match="No find is waiting"):
        game.execute(LeaveLoot())


# --------------------------------------------------------------------------- nested rolls


def test_a_boost_rolled_by_an_effect_follows_its_link_to_table_i():
    game = game_for(hero())
    events = effect(game, "roll on Table B", *d100(27), *d100(5))  # ITEM -> Table I 5: LEATHER BAG
    assert "table_row_applied" in kinds(events)
    assert [i.name for i in game.campaign.character.backpack] == ["Leather Bag"]


def test_a_curse_rolled_by_an_effect_is_applied_in_full():
    game = game_for(hero())
    events = effect(game, "Roll on TABLE C - CURSES", *d100(5))  # CLUELESS: -4 INT primary
    assert game.campaign.character.characteristics["INT"].primary == 26
    # told by its typed event too, which the statistics and the chronicle read (issue 24)
    assert [e.data for e in events if e.kind == "characteristic"] == [{"stat": "INT", "primary": 26}]


def test_a_row_that_rolls_again_is_applied_to_any_depth_and_a_loop_is_stopped():
    game = game_for(hero())
    game.library.add_user_row(
        "d100.I", Row(range=(50, 51), fields={"item": "ECHO", "effect": "(roll on Table I)", "value": "1gp"})
    )
    game.library.add_user_row("d100.I", Row(range=(52, 52), fields={"item": "PEBBLE", "value": "1gp"}))
    events = effect(game, "roll on Table I", *d100(50), *d100(51), *d100(52))  # two echoes, then a pebble
    assert [i.name for i in game.campaign.character.backpack] == ["PEBBLE"]
    assert kinds(events).count("table_rolled") == 3
    looping = effect(game, "roll on Table I", *(d100(50) * (MAX_DEPTH + 3)))
    assert any("the tables loop" in e.message for e in looping)
    assert kinds(looping).count("table_rolled") == MAX_DEPTH + 1


# --------------------------------------------------------------------------- repair pips, encounters


def test_repair_pips_land_on_a_random_equipped_item_rolling_past_empty_locations():
    game = game_for(hero())
    ch = game.campaign.character
    ch.equipment["head"] = Item(name="Leather Cap", kind="armour", slot="head")
    head = RULES.slot("head").hit_location
    events = effect(
        game,
        "roll one d10 for location of the item and shade in 1 pip of its repair track, "
        "if no item is equipped roll again until you select an item that is equipped.",
        9,
        head,
    )
    shaded = next(e.payload() for e in events if e.kind == "repair_shaded")
    assert [r.final for r in shaded.rolls] == [9, head] and shaded.item == "Leather Cap"
    assert ch.equipment["head"].repair_pips == 1 and "narrative" not in kinds(events)  # the re-roll is the procedure's own


def test_a_full_repair_track_destroys_the_item_and_with_nothing_equipped_no_roll_is_made():
    game = game_for(hero())
    ch = game.campaign.character
    sword = ch.equipment["main_weapon"]
    sword.repair_pips = RULES.sheet.repair_track - 1
    effect(game, "shade in 1 pip of its repair track", RULES.slot("main_weapon").hit_location)
    assert ch.equipment["main_weapon"] is None
    events = effect(game, "shade in 1 pip of its repair track")  # no die scripted: none may be rolled
    assert "nothing is shaded" in next(e.message for e in events if e.kind == "repair_shaded")


def test_an_encounter_effect_hands_the_printed_monster_to_combat():
    game = game_for(hero())
    events = effect(game, "encounter GIANT SNAKE", source="SNAKE PIT TRAP")
    offer = game.campaign.adventure.fight_offered
    assert "fight_offered" in kinds(events) and offer is not None and offer.monster is not None
    assert offer.monster.av == 55 and offer.monster.hp == [16]
    game.override = ScriptedSource([5] * 10)
    game.execute(FaceOfferedMonster())
    assert game.campaign.combat is not None and game.campaign.combat.monster.name.upper() == "GIANT SNAKE"


def test_a_table_e_roll_from_an_effect_takes_the_quest_encounter_modifier():
    game = game_for(hero())
    game.campaign.character.quest_encounter_modifier = -40
    effect(game, "roll on Table E", *d100(45))  # 45 - 40 = 5: Giant Rats
    offer = game.campaign.adventure.fight_offered
    assert offer is not None and offer.table_roll.value == 5


# --------------------------------------------------------------------------- typed rows


def test_a_table_g_roll_on_a_missing_row_applies_once_the_row_is_typed():
    game = game_for(hero())
    events = effect(game, "roll on Table G", *d100(50), source="Table F")
    [waiting] = game.campaign.adventure.rows_waiting
    assert "row_missing" in kinds(events) and waiting.table_id == "d100.G"
    assert any(a.asks_row for a in turn_panel(game.campaign, RULES).actions) is False  # no quest: the strip shows none
    with pytest.raises(CommandRefused, match="type the row first"):
        game.execute(ApplyTypedRow(entry=waiting.entry))
    row = Row(range=(50, 50), fields={"name": "GOLDEN IDOL", "effect": "A small idol glints in the dust, +5 gp"})
    events = game.execute(ApplyTypedRow(entry=waiting.entry, row=row))
    assert game.campaign.character.gp == 5 and game.campaign.adventure.rows_waiting == []
    assert kinds(events)[:2] == ["row_provided", "typed_row_applied"]
    assert game.campaign.dice_history[waiting.entry].table.row is not None
    with pytest.raises(CommandRefused, match="not waiting"):
        game.execute(ApplyTypedRow(entry=waiting.entry))


def test_a_green_area_on_a_missing_table_g_row_applies_its_test_once_typed():
    from test_turn import GREEN_CROSSROADS, next_clock_faces, on_quest

    from d100gui.engine.adventure.turn import MoveOn
    from d100gui.engine.hero.decisions import CalledTest

    game = on_quest()
    push(game, *next_clock_faces(game), *d100(GREEN_CROSSROADS), *d100(50))
    game.execute(MoveOn(side="N"))
    [waiting] = game.campaign.adventure.rows_waiting
    actions = {a.key: a for a in turn_panel(game.campaign, RULES).actions}
    assert actions[f"row_{waiting.entry}"].asks_row and actions[f"row_{waiting.entry}"].enabled
    trap = "FALLING NET: Test - NET TRAP – Test: Dex [S: Avoid Trap] [F:-1 hp] (Traps)"
    game.execute(ApplyTypedRow(entry=waiting.entry, row=Row(range=(50, 50), fields={"name": "FALLING NET", "effect": trap})))
    assert any(isinstance(d, CalledTest) and d.spec.name == "NET TRAP" for d in game.campaign.pending)


# --------------------------------------------------------------------------- the entrance by colour


def entering(entrance: int, *after: int) -> Game:
    ch = hero()
    ch.time_track.shaded = quiet_clock() - 1
    campaign = Campaign()
    campaign.character = ch
    game = game_of(campaign)
    game.execute(BeginQuest())
    push(game, *d100(entrance), *d100(30) * 3, *after)
    assert isinstance(command_for_enter(game.campaign), EnterOnTurn)
    game.execute(command_for_enter(game.campaign))
    return game


def test_a_red_entrance_is_an_encounter_like_any_red_area():
    game = entering(RED_CROSSROADS, *d100(45), *([5] * 10))  # Table E 45 - 40 = 5
    assert game.campaign.combat is not None and game.campaign.combat.monster.name.startswith("Giant Rats")
    assert current_step(game.campaign) == "area"


def test_a_yellow_entrance_begins_turn_one_and_may_be_searched_before_moving_on():
    game = entering(YELLOW_CROSSROADS)
    assert current_step(game.campaign) == "equipment" and game.campaign.adventure.turn.number == 1
    push(game, *d100(27))  # Table F 27: a belt check (+1 time)
    push(game, *([9] * 4))
    assert "area_searched" in kinds(game.execute(SearchArea()))  # step 5 follows the entry's step 4 (issue 19 W5)
    assert isinstance(command_for_enter(Campaign()), EnterDungeon)  # outside a quest: the bare entry


# --------------------------------------------------------------------------- narratives and their corrections


def test_a_narrative_with_a_number_gets_the_obvious_correction_and_one_without_names_the_sheet():
    spikes = correction(Effect(kind="hp", amount=-2, text="even spikes hit -2 HP"), "SPIKE PIT: even spikes hit -2 HP")
    assert isinstance(spikes.command, CorrectByHand) and spikes.label == "Apply: Lose 2 HP" and spikes.section == "hp"
    door = correction(None, "DOOR RELEASED: On your map change any door that is still closed to Open.")
    assert door.command is None and door.section == "doors"
    drink = correction(None, "Drink to gain +1 DMG for your next DAMAGE Dice roll")
    assert drink.command is None


def test_the_last_actions_narratives_are_offered_and_one_click_applies_the_correction():
    game = game_for(hero())
    game.override = ScriptedSource([9, 9])
    from d100gui.engine.skill_test_commands import RollTest

    game.execute(RollTest(text="SPIKE PIT – Test: Dex [S: avoid] [F: roll SPIKES]", auto_accept=True))
    [fix] = corrections_for(game.campaign)
    assert fix.command is None and "SPIKES" in fix.text
    ch = game.campaign.character
    events = game.execute(CorrectByHand(effect=Effect(kind="hp", amount=-2, text="-2 HP"), source="SPIKES"))
    assert ch.hp == 18 and game.campaign.log[-1].manual and "Hand correction" in events[0].message
    assert corrections_for(game.campaign) == []
    with pytest.raises(CommandRefused, match="not a correction the sheet can take"):
        game.execute(CorrectByHand(effect=Effect(kind="narrative", text="dance")))


def test_the_combat_tracks_roll_on_table_b_is_applied_in_a_fight_and_an_encounter_waits_for_its_end():
    from d100gui.engine.combat.monster import CombatState, Monster

    game = game_for(hero())
    game.campaign.combat = CombatState(monster=Monster(name="Giant Rats", av=25, hp=[3]), hp=[3])
    effect(game, "Roll on Table B", *d100(3), source="Combat track box 4")  # STRONGER: +5 STR on the time track
    assert [(b.stat, b.amount) for b in game.campaign.character.time_track.bonuses] == [("STR", 5)]
    events = effect(game, "roll on Table E", *d100(5))
    assert game.campaign.adventure.fight_offered is None and "a fight is under way" in events[-1].message


def test_a_full_backpack_stops_the_turn_and_the_strip_offers_each_choice(monkeypatch):
    from test_turn import on_quest

    from d100gui.engine.adventure.turn import MoveOn

    monkeypatch.setattr(rows, "adventure_rules", lambda rules: AdventureRules(backpack_rows=1))
    game = on_quest()
    game.campaign.character.backpack = [Item(name="Old Boot", value=1)]
    effect(game, "roll on Table TA", *d100(5))
    actions = {a.key: a for a in turn_panel(game.campaign, RULES).actions}
    assert actions["keep_loot_0"].label == "Drop Old Boot" and actions["leave_loot"].label == "Leave BREW OF FINER POWER"
    with pytest.raises(CommandRefused, match="backpack is full"):
        game.execute(MoveOn(side="N"))
    game.execute(actions["leave_loot"].command)
    assert waiting_on(game.campaign) == ""


def test_a_typed_table_f_row_plays_its_time_then_its_hidden_monster_with_surprise():
    game = game_for(hero())
    ch = game.campaign.character
    ch.time_track.shaded = quiet_clock() - 1
    game.library.add_user_row(
        "d100.F", Row(range=(40, 40), fields={"time": "+1", "effect": "roll on TABLE E – ENCOUNTER and fight, it has SURPRISE."})
    )
    events = effect(game, "roll on Table F", *d100(40), *d100(5))
    offer = game.campaign.adventure.fight_offered
    assert ch.time_track.shaded == quiet_clock() and offer is not None and offer.surprise
    assert "narrative" not in kinds(events)


def test_a_waiting_row_can_be_gone_without_and_a_quests_end_drops_it():
    from test_turn import GREEN_CROSSROADS, next_clock_faces, on_quest

    from d100gui.engine.adventure.commands import FailQuest
    from d100gui.engine.adventure.row_commands import SkipTypedRow
    from d100gui.engine.adventure.turn import MoveOn

    game = on_quest()
    push(game, *next_clock_faces(game), *d100(GREEN_CROSSROADS), *d100(50))
    game.execute(MoveOn(side="N"))
    [waiting] = game.campaign.adventure.rows_waiting
    actions = {a.key: a for a in turn_panel(game.campaign, RULES).actions}
    game.execute(actions[f"skip_row_{waiting.entry}"].command)
    assert game.campaign.adventure.rows_waiting == []
    with pytest.raises(CommandRefused, match="not waiting"):
        game.execute(SkipTypedRow(entry=waiting.entry))
    effect(game, "roll on Table G", *d100(50))
    assert game.campaign.adventure.rows_waiting
    game.execute(FailQuest())
    assert game.campaign.adventure.rows_waiting == []
