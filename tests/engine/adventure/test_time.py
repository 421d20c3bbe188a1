"""The time track's procedure through the Game: each trigger, darkness, hunger, wandering monsters, the refresh."""

from __future__ import annotations

import pytest
from adventure_support import RULES, dice_left, game_for, hero, in_a_fight, kinds, state

from d100gui.engine.adventure.commands import AdvanceTime, FailQuest, LightLantern, ProvideEncounterRow, ResumeTime
from d100gui.engine.dice.tables import Row
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import TimeBonus
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.quest.events import AfflictionChecked, FightOffered, FoodEaten, OilBurned, WanderingChecked

LAYOUT = RULES.sheet.time_track


def clock_of(kind: str, after: int = 0) -> int:
    """The first clock after ``after`` printed with a ``kind`` symbol (from the sheet layout)."""
    return min(t.clock for t in LAYOUT.triggers if t.kind == kind and t.clock > after)


def only(kind: str) -> int:
    """A clock that carries ``kind`` and nothing else."""
    return next(c for c in range(1, LAYOUT.clocks) if [t.kind for t in LAYOUT.triggers_at(c)] == [kind])


def at(ch, clock: int) -> None:
    """Put the track just before ``clock``."""
    ch.time_track.shaded = clock - 1


def test_an_oil_symbol_spends_a_flask():
    ch = hero(oil=5)
    at(ch, only("oil"))
    game = game_for(ch)
    events = game.execute(AdvanceTime())
    assert ch.supplies.oil == 4 and not ch.in_darkness
    burned = events[1].payload()
    assert isinstance(burned, OilBurned) and burned.spent and burned.oil == 4
    assert kinds(events) == ["time_advanced", "oil_burned"]


def test_no_oil_means_darkness_until_a_flask_is_spent_again():
    ch = hero(oil=0)
    at(ch, only("oil"))
    game = game_for(ch)
    game.execute(AdvanceTime())
    assert ch.in_darkness
    assert derive(ch, RULES).characteristics["STR"] == 50 + RULES.darkness_modifier
    ch.supplies.oil = 1  # a flask found in the dark
    at(ch, only("oil") + 1)
    nxt = next(c for c in range(ch.time_track.shaded + 1, LAYOUT.clocks) if any(t.kind == "oil" for t in LAYOUT.triggers_at(c)))
    events = []
    while ch.time_track.shaded < nxt:
        game.override.push(*([9] * 3))  # any wandering check on the way fails
        events += game.execute(AdvanceTime())
    lit = [e.payload() for e in events if e.kind == "oil_burned"]
    assert lit and lit[-1].spent and lit[-1].lit_again
    assert not ch.in_darkness and ch.supplies.oil == 0
    assert derive(ch, RULES).characteristics["STR"] == 50


def test_the_lantern_may_be_lit_before_the_next_oil_symbol():
    ch = hero(oil=0)
    ch.in_darkness = True
    game = game_for(ch)
    with pytest.raises(CommandRefused, match="no oil"):
        game.execute(LightLantern())
    ch = game.campaign.character  # a refused command restores the campaign: the sheet is a new object
    ch.supplies.oil = 2
    game.execute(LightLantern())
    assert not ch.in_darkness and ch.supplies.oil == 1
    with pytest.raises(CommandRefused, match="lit"):
        game.execute(LightLantern())


def test_a_food_symbol_eats_a_ration_and_no_food_costs_hp():
    food_clock = clock_of("food")
    ch = hero(food=1)
    at(ch, food_clock)
    game = game_for(ch)
    game.execute(AdvanceTime())
    assert ch.supplies.food == 0 and ch.hp == 20
    at(ch, food_clock)
    events = game.execute(AdvanceTime())
    eaten = next(e.payload() for e in events if e.kind == "food_eaten")
    assert isinstance(eaten, FoodEaten) and not eaten.spent and eaten.hp_lost == 1
    assert ch.hp == 19


def test_a_wandering_check_above_the_number_brings_nothing():
    clock = only("wandering")
    number = LAYOUT.triggers_at(clock)[0].number
    ch = hero()
    at(ch, clock)
    game = game_for(ch, number + 1)
    events = game.execute(AdvanceTime())
    check = events[1].payload()
    assert isinstance(check, WanderingChecked) and not check.appeared and check.number == number
    assert state(game).fight_offered is None and dice_left(game) == 0


def test_a_wandering_monster_rolls_table_e_with_the_quest_modifier_clamped_and_holds_the_rest_of_the_time():
    clock = only("wandering")
    number = LAYOUT.triggers_at(clock)[0].number
    ch = hero()
    ch.quest_encounter_modifier = -40
    at(ch, clock)
    game = game_for(ch, number, 3, 0)  # d10 at the number; Table E 30 - 40 -> clamped to 1
    events = game.execute(AdvanceTime(clocks=3))
    offered = next(e.payload() for e in events if e.kind == "fight_offered")
    assert isinstance(offered, FightOffered)
    roll = offered.table_roll.roll
    assert roll.natural == 30 and [m.value for m in roll.modifiers] == [-40] and roll.final == 1
    assert offered.table_roll.row is not None and offered.table_roll.row.fields["monster"].startswith("Giant Rats")
    summary = events[0].payload()
    assert summary.shaded == 1 and summary.clocks_left == 2
    adventure = state(game)
    assert adventure.fight_offered is not None and adventure.clocks_owed == 2
    with pytest.raises(CommandRefused, match="fight it first"):
        game.execute(AdvanceTime())
    with pytest.raises(CommandRefused, match="fight it first"):
        game.execute(FailQuest())
    ch = game.campaign.character
    adventure = state(game)
    assert adventure.take_fight() is not None  # combat takes the monster
    game.override.push(9, 9)
    game.execute(ResumeTime())
    assert ch.time_track.shaded == clock + 2 and adventure.clocks_owed == 0
    with pytest.raises(CommandRefused, match="No clocks"):
        game.execute(ResumeTime())


def test_a_table_e_roll_past_the_top_is_clamped_to_the_table():
    clock = only("wandering")
    ch = hero()
    ch.quest_encounter_modifier = 30
    at(ch, clock)
    game = game_for(ch, 1, 9, 0)  # 90 + 30 -> 100
    events = game.execute(AdvanceTime())
    offered = next(e.payload() for e in events if e.kind == "fight_offered")
    assert offered.table_roll.roll.final == 100
    assert offered.table_roll.row is None and offered.missing  # the excerpt stops early: the player is asked
    hi = offered.missing[1]
    fields = {"monster": "Typed Monster (C)", "av": "50", "def": "2", "dmg": "+1", "hp": "9", "loot": "", "special": ""}
    events = game.execute(ProvideEncounterRow(row=Row(range=(hi, hi), fields=fields, partial=True)))
    again = events[-1].payload()
    assert isinstance(again, FightOffered) and again.table_roll.row.fields["monster"] == "Typed Monster (C)"
    assert state(game).fight_offered.table_roll.row is not None
    with pytest.raises(CommandRefused, match="No wandering monster"):
        game.execute(ProvideEncounterRow(row=Row(range=(hi, hi), fields=fields, partial=True)))


def test_the_last_clock_refreshes_the_track_then_checks_poison_and_disease():
    ch = hero()
    ch.poison, ch.disease = 3, 2
    ch.time_track.bonuses = [TimeBonus(stat="STR", amount=5, source="Table B")]
    at(ch, LAYOUT.clocks)
    game = game_for(ch, 2, 5)  # poison: 2 <= 3 hits; disease: 5 > 2 does not
    events = game.execute(AdvanceTime())
    assert ch.time_track.shaded == 0 and ch.time_track.bonuses == []
    assert kinds(events)[-3:] == ["time_track_refreshed", "affliction_checked", "affliction_checked"]
    refreshed = events[-3].payload()
    assert refreshed.bonuses_cleared == 1
    poison, disease = (e.payload() for e in events[-2:])
    assert isinstance(poison, AfflictionChecked) and poison.hit and poison.pips_after == 2
    assert isinstance(disease, AfflictionChecked) and not disease.hit
    assert ch.poison == 2 and ch.disease == 2 and ch.hp == 19
    assert dice_left(game) == 0


def test_an_hp_bonus_ending_at_the_refresh_tells_the_hp_it_takes():
    ch = hero()
    ch.time_track.bonuses = [TimeBonus(stat="HP", amount=5, source="Table B")]
    ch.hp = 25
    at(ch, LAYOUT.clocks)
    game = game_for(ch)
    events = game.execute(AdvanceTime())
    [refreshed] = [e for e in events if e.kind == "time_track_refreshed"]
    assert ch.hp == 20 and (refreshed.data["hp_lost"], refreshed.data["hp"]) == (5, 20)  # read by the statistics
    assert "HP down 5 to 20" in refreshed.message


def test_disease_costs_hp_but_keeps_its_pips_and_empty_tracks_roll_nothing():
    ch = hero()
    ch.disease = 4
    at(ch, LAYOUT.clocks)
    game = game_for(ch, 4)  # no poison pips: only the disease d10 is rolled
    game.execute(AdvanceTime())
    assert ch.disease == 4 and ch.hp == 19 and dice_left(game) == 0


def test_every_clock_fires_in_order_over_a_whole_track():
    ch = hero()
    wandering = sum(1 for t in LAYOUT.triggers if t.kind == "wandering")
    game = game_for(ch, *([0] * wandering))  # face 0 reads 10: every check fails
    events = game.execute(AdvanceTime(clocks=LAYOUT.clocks))
    fired = [e.kind for e in events[1:]]
    expected = []
    for c in range(1, LAYOUT.clocks + 1):
        expected += [
            {"oil": "oil_burned", "food": "food_eaten", "wandering": "wandering_checked"}[t.kind] for t in LAYOUT.triggers_at(c)
        ]
    assert fired == [*expected, "time_track_refreshed"]
    oil_symbols = sum(1 for t in LAYOUT.triggers if t.kind == "oil")
    assert ch.supplies.oil == 20 - oil_symbols and ch.time_track.total == LAYOUT.clocks


def test_no_time_is_refused():
    game = game_for(hero())
    with pytest.raises(CommandRefused, match="no time"):
        game.execute(AdvanceTime(clocks=0))


def test_the_track_is_not_shaded_during_a_fight():
    game = game_for(hero())
    in_a_fight(game)
    with pytest.raises(CommandRefused, match="during a fight"):
        game.execute(AdvanceTime())
