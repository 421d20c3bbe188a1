"""The guided turn through the Game with scripted dice: each colour, search once, refusals naming the step, resuming."""

from __future__ import annotations

import pytest
from adventure_support import RULES, EditableGame, hero, kinds

from d100gui.engine.adventure.commands import BeginQuest, FailQuest
from d100gui.engine.adventure.turn import (
    EndTurn,
    FaceOfferedMonster,
    MoveOn,
    SearchArea,
    command_for_move,
    current_step,
    equipment_refusal,
)
from d100gui.engine.adventure.turn_view import turn_panel
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import EscapedMonster, Monster
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Row
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.engine.game import Game, replay
from d100gui.engine.hero.decisions import CalledTest
from d100gui.engine.item_commands import UnequipItem
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.quest.events import AreaResolved, AreaSearched
from d100gui.engine.quest.model import ADVENTURE_RULES
from d100gui.storage.packs import load_library
from d100gui.storage.resources import standard_tilesets

LAYOUT = RULES.sheet.time_track
YELLOW_CROSSROADS, RED_CROSSROADS, GREEN_CROSSROADS, BLUE_STRAIGHT, YELLOW_DOORS = 22, 29, 10, 99, 6


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def quiet_clock() -> int:
    """A clock with no trigger printed on it: shading it rolls nothing."""
    return next(c for c in range(1, LAYOUT.clocks) if not LAYOUT.triggers_at(c))


def game_of(campaign: Campaign, *faces: int) -> Game:
    game = EditableGame(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource(list(faces))
    return game


def on_quest(entrance: int = YELLOW_CROSSROADS, shaded: int | None = None) -> Game:
    """A hero on Dungeon Training 1, standing in the entrance area (tile ``entrance``), the next clock quiet."""
    ch = hero()
    ch.time_track.shaded = quiet_clock() - 1 if shaded is None else shaded
    campaign = Campaign()
    campaign.character = ch
    game = game_of(campaign)
    events = game.execute(BeginQuest())
    assert "map_changed" in kinds(events)  # a fresh mapping sheet for the quest
    game.override.push(*d100(entrance), *d100(30) * 3)  # any door on the entrance tile: LOCKED (Table D 30)
    game.execute(EnterDungeon())
    assert isinstance(game.override, ScriptedSource)
    game.override = ScriptedSource([])
    return game


def next_clock_faces(game: Game) -> list[int]:
    """The faces the next clock's triggers roll, none of them bringing anything (a wandering check of 9)."""
    clock = game.campaign.character.time_track.shaded % LAYOUT.clocks + 1
    return [9 for t in LAYOUT.triggers_at(clock) if t.kind == "wandering"]


def resolved(events) -> AreaResolved:
    found = next(e.payload() for e in events if e.kind == "area_resolved")
    assert isinstance(found, AreaResolved)
    return found


def push(game: Game, *faces: int) -> None:
    assert isinstance(game.override, ScriptedSource)
    game.override.push(*faces)


def test_a_yellow_area_is_one_click_time_move_and_proceed():
    game = on_quest()
    ch = game.campaign.character
    before = ch.time_track.shaded
    push(game, *d100(YELLOW_CROSSROADS))
    events = game.execute(MoveOn(side="N"))
    assert ch.time_track.shaded == before + ADVENTURE_RULES.turn_clocks
    assert kinds(events)[0] == "time_advanced" and "turn_moved" in kinds(events)
    assert resolved(events).outcome == "proceed"
    assert current_step(game.campaign) == "search"
    push(game, *next_clock_faces(game), *d100(YELLOW_CROSSROADS))
    events = game.execute(MoveOn(side="N"))  # the next turn: the search skipped by moving on
    assert kinds(events)[0] == "turn_ended" and game.campaign.adventure.turn.number == 2


def test_a_red_area_rolls_table_e_with_the_quest_modifier_and_the_fight_starts():
    game = on_quest()
    push(game, *d100(RED_CROSSROADS), *d100(45), *([5] * 10))
    events = game.execute(MoveOn(side="N"))
    roll = resolved(events).table_roll
    assert roll is not None and roll.roll.natural == 45 and roll.value == 5  # -40 for Dungeon Training 1
    assert game.campaign.combat is not None and game.campaign.combat.monster.name.startswith("Giant Rats")
    assert current_step(game.campaign) == "area"
    with pytest.raises(CommandRefused, match=r"Turn 1, step 4 \(The area\): you cannot move on during a fight"):
        game.execute(MoveOn(side="N"))
    with pytest.raises(CommandRefused, match="during a fight"):
        game.execute(SearchArea())
    with pytest.raises(CommandRefused, match="during a fight"):
        game.execute(FailQuest())
    assert "during a fight" in equipment_refusal(game.campaign)
    with pytest.raises(CommandRefused, match=r"Turn 1, step 4 \(The area\): A fight with Giant Rats.* is on"):
        game.execute(UnequipItem(slot="torso"))  # adjusting equipment in a fight names the step too


def test_the_encounter_modifier_is_clamped_into_table_e():
    game = on_quest()
    push(game, *d100(RED_CROSSROADS), *d100(12), *([5] * 10))
    roll = resolved(game.execute(MoveOn(side="N"))).table_roll
    assert roll is not None and roll.value == 1  # 12 - 40, clamped to 1


def test_a_green_area_rolls_table_g_and_leaves_its_test_to_roll():
    game = on_quest()
    push(game, *d100(GREEN_CROSSROADS), *d100(3))
    events = game.execute(MoveOn(side="N"))
    roll = resolved(events).table_roll
    assert roll is not None and roll.row is not None and roll.row.fields["name"] == "PENDULUM TRAP"
    assert any(isinstance(d, CalledTest) for d in game.campaign.pending)
    assert current_step(game.campaign) == "area"
    with pytest.raises(CommandRefused, match=r"step 4 \(The area\): you cannot move on yet: a decision waits"):
        game.execute(MoveOn(side="N"))
    again = Campaign.model_validate_json(game.campaign.model_dump_json())  # saved mid-test, reopened
    assert current_step(again) == "area" and any(isinstance(d, CalledTest) for d in again.pending)


def test_a_blue_area_counts_toward_the_objective():
    game = on_quest()
    push(game, *d100(BLUE_STRAIGHT))
    events = game.execute(MoveOn(side="N"))
    found = resolved(events)
    assert found.outcome == "objective" and found.objectives == 1 == game.campaign.character.objectives


def test_search_once_per_area_with_the_colour_column_then_end_the_turn():
    game = on_quest()
    push(game, *d100(GREEN_CROSSROADS), *d100(50))  # Table G 50: a row the excerpt lacks, nothing to roll
    game.execute(MoveOn(side="N"))
    ch = game.campaign.character
    push(game, *d100(10), 9)  # Table F 10 + 5 (green column) = 15: a snake bite, +2 time
    events = game.execute(SearchArea())
    searched = next(e.payload() for e in events if e.kind == "area_searched")
    assert isinstance(searched, AreaSearched) and searched.bonus == ADVENTURE_RULES.search_bonus["G"] == 5
    assert searched.table_roll.value == 15 and ch.poison == 2
    assert game.campaign.dungeons.current_dungeon.hero_area().searched
    with pytest.raises(CommandRefused, match=r"Turn 1, step 5 \(Search or skip\): area .* is already searched \(S\)"):
        game.execute(SearchArea())
    assert kinds(game.execute(EndTurn())) == ["turn_ended"]
    assert current_step(game.campaign) == "equipment" and game.campaign.adventure.turn.number == 2
    with pytest.raises(CommandRefused, match=r"Turn 2, step 1 \(Adjust equipment\): area .* is already searched"):
        game.execute(SearchArea())
    with pytest.raises(CommandRefused, match=r"Turn 2, step 1 \(Adjust equipment\): the turn ends after its area"):
        game.execute(EndTurn())


def test_searching_is_step_5():
    game = on_quest()
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    game.execute(EndTurn())  # the search skipped: at step 1 of turn 2 the unsearched area waits for a later visit
    with pytest.raises(CommandRefused, match=r"Turn 2, step 1 \(Adjust equipment\): searching is step 5"):
        game.execute(SearchArea())


def test_the_entrance_is_searched_once_per_quest_like_any_area():
    """Turns step 5 (issue 19 W5): the entry resolves the entrance as step 4 does, so it may be searched, once."""
    game = on_quest()
    ch = game.campaign.character
    push(game, *d100(12))  # Table F 12: two Poison pips, +2 time
    push(game, *([9] * 4))  # any wandering check of the two clocks finds nothing
    events = game.execute(SearchArea())
    assert "area_searched" in kinds(events) and ch.poison == 2
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon.hero == dungeon.entrance and dungeon.hero_area().searched
    assert current_step(game.campaign) == "equipment" and game.campaign.adventure.turn.number == 1  # turn 1 not begun
    with pytest.raises(CommandRefused, match=r"already searched \(S\)"):
        game.execute(SearchArea())
    game.override = ScriptedSource([])
    push(game, *next_clock_faces(game), *d100(YELLOW_CROSSROADS))
    events = game.execute(MoveOn(side="N"))  # turn 1 goes on as before
    assert "turn_ended" not in kinds(events) and game.campaign.adventure.turn.number == 1


def test_the_entrance_search_is_offered_on_the_strip_only_before_moving_on():
    game = on_quest()
    search = next(a for a in turn_panel(game.campaign, RULES).actions if a.key == "search")
    assert search.enabled and search.step == "equipment"
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    push(game, *next_clock_faces(game), *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="S"))  # back into the entrance on turn 2: its step 5 as any area's
    dungeon = game.campaign.dungeons.current_dungeon
    assert dungeon.hero == dungeon.entrance and current_step(game.campaign) == "search"
    assert next(a for a in turn_panel(game.campaign, RULES).actions if a.key == "search").enabled
    game.execute(EndTurn())
    search = next(a for a in turn_panel(game.campaign, RULES).actions if a.key == "search")
    assert not search.enabled and "Not at this step (Adjust equipment)" in search.why  # turn 3, step 1


def test_a_closed_door_is_refused_before_any_time_is_spent():
    game = on_quest(entrance=YELLOW_DOORS)
    ch = game.campaign.character
    before = ch.time_track.shaded
    with pytest.raises(CommandRefused, match=r"Turn 1, step 1 \(Adjust equipment\): .*door"):
        game.execute(MoveOn(side="N"))
    assert game.campaign.character.time_track.shaded == before


def test_a_wandering_monster_stops_the_turn_at_step_2_and_a_reload_resumes_there():
    wandering = next(t for t in LAYOUT.triggers if t.kind == "wandering")
    game = on_quest(shaded=wandering.clock - 1)
    push(game, 1, *d100(45), *([5] * 10))  # d10 1: a monster; Table E 45 - 40 = 5: Giant Rats
    events = game.execute(MoveOn(side="N"))
    assert "turn_moved" not in kinds(events) and game.campaign.combat is not None
    assert current_step(game.campaign) == "time" and game.campaign.adventure.turn.exit == "N"

    saved = game.campaign.model_dump_json()
    again = Campaign.model_validate_json(saved)
    assert current_step(again) == "time" and again.adventure.turn.exit == "N"
    again.combat = None  # the fight is over (its own commands are combat's)
    reloaded = game_of(again, *d100(YELLOW_CROSSROADS))
    assert current_step(reloaded.campaign) == "exit"
    shaded = again.character.time_track.shaded
    events = reloaded.execute(MoveOn(side="N"))
    assert "time_advanced" not in kinds(events) and resolved(events).outcome == "proceed"
    assert reloaded.campaign.character.time_track.shaded == shaded


def test_a_missing_table_e_row_waits_as_an_offered_fight():
    game = on_quest()
    campaign = game.campaign
    push(game, *d100(RED_CROSSROADS), *d100(80))  # 80 - 40 = 40: a row the excerpt lacks
    game.execute(MoveOn(side="N"))
    assert campaign.combat is None and campaign.adventure.fight_offered is not None
    with pytest.raises(CommandRefused, match="type its Table E row"):
        game.execute(MoveOn(side="N"))
    with pytest.raises(CommandRefused, match="not in your tables"):
        game.execute(FaceOfferedMonster())
    greyed = {a.key: a for a in turn_panel(campaign, RULES).actions if a.key in ("complete_quest", "fail_quest")}
    assert all(not a.enabled and "waits - fight it first" in a.why for a in greyed.values()) and len(greyed) == 2
    orc = {"monster": "Orc (H)", "av": "40", "def": "1", "dmg": "+0", "hp": "8", "loot": "[K:Table P]", "special": "Pack"}
    game.library.add_user_row("d100.E", Row(range=(36, 40), fields=orc))  # typed in the missing-row dialog
    push(game, *([5] * 10))
    game.execute(FaceOfferedMonster())
    assert game.campaign.combat is not None and game.campaign.combat.monster.name.startswith("Orc")
    assert game.campaign.adventure.fight_offered is None


def test_a_click_on_an_exit_sends_the_turn_while_a_quest_is_under_way():
    campaign = Campaign()
    assert isinstance(command_for_move(campaign, "N"), MoveHero)
    game = on_quest()
    assert command_for_move(game.campaign, "E") == MoveOn(side="E")


def test_no_turn_without_a_quest():
    campaign = Campaign()
    campaign.character = hero()
    game = game_of(campaign, *d100(YELLOW_CROSSROADS))
    game.execute(NewDungeon())
    game.execute(EnterDungeon())
    with pytest.raises(CommandRefused, match="No quest is under way"):
        game.execute(MoveOn(side="N"))


def test_the_strip_model_greys_what_the_step_does_not_allow_and_says_why():
    game = on_quest()
    panel = turn_panel(game.campaign, RULES)
    actions = {a.key: a for a in panel.actions}
    assert panel.step == "equipment" and panel.number == 1 and panel.quest == "Dungeon Training 1"
    assert actions["search"].enabled  # the entrance just stepped into: its own step 5 (issue 19 W5)
    assert actions["fail_quest"].enabled and not actions["complete_quest"].enabled  # nothing looted yet
    assert "objective is not met" in actions["complete_quest"].why
    push(game, *d100(RED_CROSSROADS), *d100(45), *([5] * 10))
    game.execute(MoveOn(side="N"))
    actions = {a.key: a for a in turn_panel(game.campaign, RULES).actions}
    assert not actions["fail_quest"].enabled and "during a fight" in actions["fail_quest"].why
    assert not actions["end_turn"].enabled and "the fight with Giant Rats" in actions["end_turn"].why
    assert "Waiting: the fight with Giant Rats" in turn_panel(game.campaign, RULES).hint


def test_without_a_quest_the_strip_offers_to_begin_one():
    campaign = Campaign()
    campaign.character = hero()
    panel = turn_panel(campaign, RULES)
    assert [a.key for a in panel.actions] == ["begin_quest"] and panel.actions[0].enabled
    assert not turn_panel(Campaign(), RULES).actions[0].enabled


def test_a_monster_that_waits_in_a_mapped_area_must_be_met():
    game = on_quest()
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    campaign = game.campaign
    rats = Monster(name="Giant Rats", av=25, hp=[3, 2, 2])
    campaign.escaped_monsters.append(EscapedMonster(monster=rats, escaped_by="hero", area="7,10"))
    campaign.dungeons = dg.replace_current(
        campaign.dungeons, dg.mark_escaped(campaign.dungeons.current_dungeon, (7, 10), "Giant Rats")
    )
    push(game, *next_clock_faces(game), *([5] * 10))
    events = game.execute(MoveOn(side="S"))
    found = resolved(events)
    assert found.outcome == "monster_waits" and found.monster == "Giant Rats"
    assert "escaped_monster_here" not in kinds(events)  # the turn meets it itself: no second request
    assert game.campaign.combat is not None and game.campaign.combat.monster.name == "Giant Rats"


def test_a_table_g_trap_waits_for_its_test_and_its_notes_are_only_shown():
    game = on_quest()
    hp = game.campaign.character.hp
    push(game, *d100(GREEN_CROSSROADS), *d100(5))  # SPIKED PIT TRAP: its SPIKES note loses HP only on a failed test
    events = game.execute(MoveOn(side="N"))
    assert game.campaign.character.hp == hp
    assert [d.spec.name for d in game.campaign.pending if isinstance(d, CalledTest)] == ["SPIKED PIT TRAP"]
    assert "feature_note" in kinds(events) and "narrative" not in kinds(events)  # shown, not left to correct


def test_replaying_the_turns_log_gives_the_same_campaign():
    campaign = Campaign()
    campaign.meta.seed = 11
    campaign.character = hero()
    start = campaign.model_copy(deep=True)
    game = Game(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.execute(BeginQuest())
    game.execute(EnterDungeon())
    for _ in range(8):
        if current_step(game.campaign) not in ("equipment", "search", "exit"):
            break
        for side in ("N", "E", "W", "S"):
            try:
                game.execute(MoveOn(side=side))
                break
            except CommandRefused:
                continue
        else:
            break
        if current_step(game.campaign) == "search" and not game.campaign.dungeons.current_dungeon.hero_area().searched:
            try:
                game.execute(SearchArea())
            except CommandRefused:
                pass
    played = game.campaign
    assert played.adventure.turn is not None and len(played.log) > 3
    start.start_rng_state = played.start_rng_state
    again = replay(played.log, load_library(None).library, ALL_COMMANDS, start, rules=RULES, tilesets=standard_tilesets())
    for part in ("adventure", "dungeons", "character", "combat", "pending"):
        assert getattr(again, part) == getattr(played, part), part


def test_a_searchs_trap_waits_at_step_5_and_is_told_as_the_searchs():
    game = on_quest()
    push(game, *d100(YELLOW_CROSSROADS))
    game.execute(MoveOn(side="N"))
    ch = game.campaign.character
    clocks = [(ch.time_track.shaded + n) % LAYOUT.clocks + 1 for n in range(2)]
    push(game, *d100(3), *[9 for c in clocks for t in LAYOUT.triggers_at(c) if t.kind == "wandering"], 3)
    events = game.execute(SearchArea())  # Table F 3: +2 time, roll 1d10 on Table G: 3, the PENDULUM TRAP
    assert [d.spec.name for d in game.campaign.pending if isinstance(d, CalledTest)] == ["PENDULUM TRAP"]
    assert current_step(game.campaign) == "search"
    [g] = [e for e in events if e.kind == "area_resolved"]
    assert g.message.startswith("Search, Table F: ") and "Yellow area" not in g.message
    with pytest.raises(CommandRefused, match=r"step 5 \(Search or skip\): you cannot move on yet"):
        game.execute(MoveOn(side="N"))
    again = Campaign.model_validate_json(game.campaign.model_dump_json())
    assert current_step(again) == "search"


def test_door_released_offers_each_closed_door_and_one_click_opens_it_by_hand():
    from d100gui.engine.adventure.corrections import corrections_for
    from d100gui.engine.skill_test_commands import RollTest

    game = on_quest(entrance=27)  # Table M 27: one door, LOCKED (Table D 30)
    dungeon = game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    push(game, 2, 0)
    game.execute(
        RollTest(
            text="DOOR RELEASED – Test: Dex [S: On your map change any door that is still closed to Open] [F: -1 hp]",
            auto_accept=True,
        )
    )
    first, last = corrections_for(game.campaign)
    assert first.label == f"Open the LD door ({where.pos} {where.side})" and last.command is None and last.section == "doors"
    game.execute(first.command)
    door = dg.door_at(game.campaign.dungeons.current_dungeon, where)
    assert door is not None and door.is_open and door.type == "LD" and game.campaign.log[-1].manual


def test_a_door_test_waits_at_step_3_and_the_step_comes_back_after_it():
    from d100gui.engine.adventure.doors import TryDoor
    from d100gui.engine.skill_test_commands import AcceptTest

    game = on_quest(entrance=27)  # Table M 27: one door, LOCKED (Table D 30)
    dungeon = game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    game.campaign.character.supplies.picks = 2
    before = current_step(game.campaign)
    push(game, 9, 9)  # the LOCKED DOOR pick test: 99, a failure waiting to be accepted
    game.execute(TryDoor(pos=where.pos, side=where.side, method="pick"))
    assert current_step(game.campaign) == "exit"
    with pytest.raises(CommandRefused, match=r"step 3 \(Choose an exit\): you cannot move on yet"):
        game.execute(MoveOn(side="S"))
    game.override.push(*next_clock_faces(game) * 3)
    game.execute(AcceptTest())
    assert current_step(game.campaign) == before
