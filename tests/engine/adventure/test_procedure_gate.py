"""Issue 18, Deliver 3: the engine refuses what the procedure forbids, or marks a hand correction, and changes nothing."""

from __future__ import annotations

import pytest
from adventure_support import kinds
from test_turn import GREEN_CROSSROADS, YELLOW_CROSSROADS, YELLOW_DOORS, d100, on_quest, push

from d100gui.engine.adventure.commands import FailQuest
from d100gui.engine.adventure.turn import MoveOn
from d100gui.engine.combat.monster import Monster
from d100gui.engine.dice_commands import RollTable
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import MoveHero, MoveHeroTo, OpenDoor
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.gate import refusal
from d100gui.engine.hero.decisions import CalledTest
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.quest.model import FightOffer
from d100gui.engine.skill_test_commands import DismissDecision
from d100gui.engine.town.commands import BeginTown, FinishTown

GOBLIN = Monster(name="Goblin", av=30, hp=[5])


def test_a_bare_move_during_a_quest_is_refused_use_the_turn():
    game = on_quest()
    before = game.campaign.model_dump_json()
    for command in (MoveHero(side="N"), MoveHeroTo(pos="7,8")):
        with pytest.raises(CommandRefused, match="use the turn: click an exit"):
            game.execute(command)
    assert game.campaign.model_dump_json() == before


def test_a_door_opened_by_hand_during_a_quest_is_marked_manual_in_the_log():
    game = on_quest(entrance=YELLOW_DOORS)  # its doors LOCKED (Table D 30)
    dungeon = game.campaign.dungeons.current_dungeon
    area = dungeon.hero_area()
    side = next(s for s in "NESW" if dg.door_at(dungeon, dg.DoorAt(pos=area.key, side=s)) is not None)
    game.execute(OpenDoor(pos=area.key, side=side))
    assert game.campaign.log[-1].manual  # a hand correction, shown as such in the log
    assert game.campaign.log[-1].events[0].kind == "hand_correction"
    assert game.campaign.log[-1].messages[0].startswith("By hand: open door")
    door = dg.door_at(game.campaign.dungeons.current_dungeon, dg.DoorAt(pos=area.key, side=side))
    assert door is not None and door.is_open


def test_a_trap_test_cannot_be_dismissed():
    game = on_quest()
    push(game, *d100(GREEN_CROSSROADS), *d100(5))  # SPIKED PIT TRAP
    game.execute(MoveOn(side="N"))
    [trap] = [d for d in game.campaign.pending if isinstance(d, CalledTest)]
    assert not trap.optional
    before = game.campaign.model_dump_json()
    with pytest.raises(CommandRefused, match="must be settled"):
        game.execute(DismissDecision(decision=trap.id))
    trap.optional = True  # as an older save kept it: still refused, and the gate says so (the flow greys it)
    with pytest.raises(CommandRefused, match="must be settled"):
        game.execute(DismissDecision(decision=trap.id))
    assert "must be settled" in refusal(game.campaign, DismissDecision(decision=trap.id), game.rules)
    trap.optional = False
    assert game.campaign.model_dump_json() == before


def _offer(game) -> FightOffer:
    push(game, *d100(5))
    game.execute(RollTable(table_id="d100.E"))  # a Table E roll in the dice panel
    entry = game.campaign.dice_history[-1]
    offer = FightOffer(table_roll=entry.table, clock=1, source="wandering monster", area="")
    game.campaign.adventure.fight_offered = offer
    return offer


def test_start_combat_on_the_offered_monster_is_the_turns_fight_not_a_second_one():
    game = on_quest()
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    offer = _offer(game)
    before = game.campaign.model_dump_json()
    with pytest.raises(CommandRefused, match="wandering monster waits"):
        game.execute(StartCombat(source="monster", monster=GOBLIN))  # another fight: refused
    assert game.campaign.model_dump_json() == before
    push(game, *([5] * 10))
    events = game.execute(StartCombat(table_value=offer.table_roll.value))
    assert "combat_started" in kinds(events)
    assert game.campaign.combat is not None and game.campaign.adventure.fight_offered is None  # taken: counted once
    assert game.campaign.combat.monster.name.startswith("Giant Rats")


def test_the_town_phase_refuses_fights_and_the_next_quest_until_it_is_finished():
    game = on_quest()
    game.execute(FailQuest())
    game.execute(BeginTown())
    before = game.campaign.model_dump_json()
    with pytest.raises(CommandRefused, match="between-quests phase is under way"):
        game.execute(StartCombat(source="monster", monster=GOBLIN))
    assert game.campaign.model_dump_json() == before
    game.execute(FinishTown())
    with pytest.raises(CommandRefused, match="between-quests phase is not open"):
        game.execute(FinishTown())


def test_a_fight_started_by_hand_in_a_quest_with_nothing_offered_is_a_fight_but_not_the_turns():
    """docs/rules-interpretations.md: an effect's Table E roll "at any time" may be fought by hand; the turn
    does not count it and its own procedure goes on from where it was."""
    game = on_quest()
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    assert game.campaign.adventure.fight_offered is None and game.campaign.adventure.turn is not None
    turn_before = game.campaign.adventure.turn.model_dump_json()
    push(game, *([5] * 10))
    events = game.execute(StartCombat(table_value=5))  # d100 05 on Table E: Giant Rats
    assert "combat_started" in kinds(events)
    assert game.campaign.combat is not None and game.campaign.combat.monster.name.startswith("Giant Rats")
    assert game.campaign.adventure.turn.model_dump_json() == turn_before  # not counted as the turn's fight
