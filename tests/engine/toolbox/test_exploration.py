"""The exploration procedure tool with scripted dice: clocks, lights, encounter cadence, rests, injuries."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.dice import Dice, RandomSource, ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox.exploration import RestKind, TravelEncounter
from d100gui.engine.toolbox.inline import dice_in
from d100gui.engine.toolbox.inputs import ToolInputError

QUIET_CARD = (12, 12)  # a 2d12 encounter check of 24: nothing comes


def dice(*faces: int) -> Dice:
    return Dice(ScriptedSource(faces))


def roller(library, *faces: int) -> tuple[TableRoller, ScriptedSource]:
    source = ScriptedSource(faces)
    return TableRoller(library, Dice(source)), source


# --------------------------------------------------------------------------- table data


def test_action_costs_come_from_the_table(bundled_library):
    table = bundled_library.get(ex.ACTIONS_TABLE)
    costs = {c.action: c for c in ex.action_costs(table)}
    assert len(costs) == len(table.rows)
    assert costs["search a room thoroughly"].turns == 10
    assert costs["pick a lock"].turns == 5 and "Open Locks" in costs["pick a lock"].note
    assert ex.action_cost(table, "Listen at a door or the ground").turns == 4


def test_an_unknown_action_is_refused_with_the_known_ones(bundled_library):
    with pytest.raises(ToolInputError, match=r"no action 'dance'.*pick a lock"):
        ex.action_cost(bundled_library.get(ex.ACTIONS_TABLE), "dance")


def test_item_durations_in_turns(bundled_library):
    durations = ex.item_durations(bundled_library.get(ex.DURATIONS_TABLE))
    assert durations["Torch"] == 100 and durations["Lantern"] == 6000 and durations["Flashlight"] == 3600
    assert durations["matchstick"] == 1 and durations["monster bait"] == 150 and durations["candle"] == 600


def test_travel_rests_count_as_rest(bundled_library):
    costs = {c.action: c for c in ex.action_costs(bundled_library.get(ex.TRAVEL_ACTIONS_TABLE))}
    assert costs["Long Rest"].turns == 24 and costs["Long Rest"].rest and costs["Short Rest"].rest
    assert not costs["cooking"].rest and costs["cooking"].turns == 2


# --------------------------------------------------------------------------- the dungeon clock


def test_turns_add_up_to_rounds(bundled_library):
    step = ex.take_action(ex.DungeonClock(), dice(), bundled_library.get(ex.ACTIONS_TABLE), "search a room thoroughly")
    step = ex.spend_turns(step.clock, dice(), 13, "custom")
    assert (step.clock.rounds, step.clock.turn, step.clock.seconds) == (2, 3, 138)
    assert step.spent == 13 and not step.interrupted


def test_a_torch_warns_a_round_before_it_goes_out(bundled_library):
    clock, warning = ex.light(ex.DungeonClock(), bundled_library.get(ex.DURATIONS_TABLE), "torch")
    assert warning is None and clock.lights[0].duration == 100
    step = ex.spend_turns(clock, dice(), 89)
    assert step.lights == [] and step.clock.lights[0].remaining == 11
    step = ex.spend_turns(step.clock, dice(), 1)
    assert [(e.kind, e.remaining) for e in step.lights] == [("low", 10)]
    step = ex.spend_turns(step.clock, dice(), 9)
    assert step.lights == []  # warned once only
    step = ex.spend_turns(step.clock, dice(*QUIET_CARD), 1)
    assert [(e.name, e.kind, e.at_turn) for e in step.lights] == [("Torch", "out", 100)]
    assert step.clock.lights == []
    assert "Torch goes out" in step.describe()


def test_a_matchstick_is_low_as_soon_as_it_is_lit(bundled_library):
    clock, warning = ex.light(ex.DungeonClock(), bundled_library.get(ex.DURATIONS_TABLE), "matchstick")
    assert warning is not None and warning.kind == "low" and warning.remaining == 1
    step = ex.spend_turns(clock, dice(), 1)
    assert [e.kind for e in step.lights] == ["out"]


def test_custom_light_sources_and_snuffing(bundled_library):
    durations = bundled_library.get(ex.DURATIONS_TABLE)
    clock, _ = ex.light(ex.DungeonClock(), durations, "glow moss", turns=30)
    clock, _ = ex.light(clock, durations, "Candle")
    assert [x.name for x in clock.lights] == ["glow moss", "candle"]
    assert [x.name for x in ex.snuff(clock, 0).lights] == ["candle"]
    with pytest.raises(ToolInputError, match="Light number must be 0 to 1; 2 is out of range"):
        ex.snuff(clock, 2)
    with pytest.raises(ToolInputError, match=r"no item 'glow moss'.*give its duration"):
        ex.light(clock, durations, "glow moss")


def test_the_encounter_check_comes_every_ten_rounds():
    source = ScriptedSource([*QUIET_CARD, *QUIET_CARD])
    step = ex.spend_turns(ex.DungeonClock(), Dice(source), 250)
    assert [c.at_turn for c in step.checks] == [100, 200]
    assert not any(c.encounter for c in step.checks) and source.remaining == 0
    assert step.clock.round == 5 and step.clock.rounds == 25


def test_an_encounter_on_7_or_less_interrupts_the_action():
    clock = ex.DungeonClock(elapsed=250)
    step = ex.spend_turns(clock, dice(3, 4, 4, 2), 60, "search a chest")
    [check] = step.checks
    assert check.encounter and check.roll.final == 7 and check.table_roll is not None and check.table_roll.final == 42
    assert step.spent == 50 and step.unspent == 10 and step.interrupted
    assert "an encounter, d% 42" in step.describe()
    assert not ex.spend_turns(clock, dice(4, 4), 50).checks[0].encounter  # 8: nothing


def test_the_encounter_schedule_can_be_changed():
    step = ex.spend_turns(ex.DungeonClock(encounter_every_rounds=1), dice(*QUIET_CARD * 3), 30)
    assert [c.at_turn for c in step.checks] == [10, 20, 30]


# --------------------------------------------------------------------------- the travel clock


def test_travel_rounds_days_and_the_round_check():
    clock = ex.TravelClock()
    assert (clock.day, clock.round_name, clock.hour_of_round, clock.clock_hour) == (1, "Morning", 1, 4)
    step = ex.spend_hours(clock, dice(3, 4), 8, "travel")
    assert [c.kind for c in step.checks] == [TravelEncounter.NONE]
    assert (step.clock.round_name, step.clock.clock_hour, step.clock.rounds_since_rest) == ("Afternoon", 12, 1)
    step = ex.spend_hours(step.clock, dice(4, 4, 4, 4), 16)
    assert (step.clock.day, step.clock.round_name, step.clock.clock_hour) == (2, "Morning", 4)


def test_a_hostile_encounter_comes_in_the_hour_rolled_on_1d8():
    step = ex.spend_hours(ex.TravelClock(), dice(1, 2, 5, 1, 7), 8, "travel")
    assert step.met is not None and step.met.kind is TravelEncounter.HOSTILE_OR_NEUTRAL
    assert step.met.hour == 5 and step.met.table_roll is not None and step.met.table_roll.final == 17
    assert step.spent == 4 and step.unspent == 4 and step.clock.hour_of_round == 5
    rest = ex.spend_hours(step.clock, dice(), 4, "travel")  # no second check this round
    assert rest.checks == [] and rest.met is None and rest.clock.round_name == "Afternoon"


def test_a_friendly_encounter_on_11_and_an_encounter_in_hour_1_comes_at_once():
    step = ex.spend_hours(ex.TravelClock(), dice(5, 6, 1, 5, 0), 3)
    assert step.met is not None and step.met.kind is TravelEncounter.FRIENDLY and step.spent == 0
    assert step.met.table_roll is not None and step.met.table_roll.final == 50


def test_two_rounds_of_travel_owe_a_round_of_rest(bundled_library):
    actions = bundled_library.get(ex.TRAVEL_ACTIONS_TABLE)
    step = ex.spend_hours(ex.TravelClock(), dice(4, 4, 4, 4), 16, "travel")
    assert step.clock.must_rest and "rest a round or push on" in step.describe()
    rested = ex.take_travel_action(step.clock, dice(4, 4), actions, "Short Rest")
    assert rested.rest and not rested.clock.must_rest and rested.clock.rounds_since_rest == 0


def test_a_round_only_partly_rested_still_counts_as_travel():
    step = ex.spend_hours(ex.TravelClock(), dice(4, 4), 4, rest=True)
    step = ex.spend_hours(step.clock, dice(), 4)
    assert step.clock.rounds_since_rest == 1


# --------------------------------------------------------------------------- pushing on and injuries


def test_pushing_on_costs_stress_and_strength_and_risks_injury(bundled_library):
    tables, source = roller(bundled_library, 1, 2, 1, 3, 0, 5, 2, 4, 4, 4)
    result = ex.push_on(tables, [ex.Traveller(name="Ash", hd=2), ex.Traveller(name="Bo", hd=1)])
    ash, bo = result.rolls
    assert (ash.stress, ash.strength_damage, ash.check.final, ash.injured) == (2, 1, 4, True)
    assert ash.wound_points is not None and ash.wound_points.final == 3
    assert ash.injury is not None and ash.injury.injury == "sprained ankle"
    assert [d.roll.final for d in ash.injury.dice if d.roll] == [2]
    assert (bo.stress, bo.check.final, bo.injured, bo.injury) == (1, 12, False, None)
    assert source.remaining == 0


def test_pushing_on_with_nobody_is_refused(bundled_library):
    with pytest.raises(ToolInputError, match="Party size must be 1 or more"):
        ex.push_on(TableRoller(bundled_library, dice()), [])


def test_a_negative_hd_pushing_on_is_refused_with_the_range(bundled_library):
    with pytest.raises(ToolInputError, match="Ash's HD must be 0 or more; -1 is out of range"):
        ex.push_on(TableRoller(bundled_library, dice()), [ex.Traveller(name="Ash", hd=-1)])


def test_dice_inside_an_injury_are_rolled_with_their_clause(bundled_library):
    tables, _ = roller(bundled_library, 6, 0, 3, 7)  # 60: concussion
    result = ex.roll_injury(tables)
    assert result.injury == "concussion"
    assert [(d.clause, d.roll.final if d.roll else None) for d in result.dice] == [
        ("1d4 Wound Points", 3),
        ("Dazed for 1d8 hours", 7),
    ]
    assert "Dazed for 1d8 hours: 7" in result.describe()


def test_rates_and_conditions_are_left_to_roll_when_they_apply(bundled_library):
    tables, source = roller(bundled_library, 9, 7, 2, 3)  # 97: broken spine
    result = ex.roll_injury(tables)
    spent, rate = result.dice
    assert spent.roll is not None and spent.roll.final == 5
    assert rate.later and rate.roll is None and rate.clause == "1d4 Stress per 10 minutes until treated"
    assert source.remaining == 0


def test_an_as_injury_brings_the_dice_of_the_row_it_names(bundled_library):
    tables, source = roller(bundled_library, 9, 2, 2, 7, 3)  # 92: as the off-hand shoulder, which is as pulled muscle
    result = ex.roll_injury(tables)
    assert result.as_injury is not None and result.as_injury.injury == "dislocated shoulder (off-hand)"
    assert result.as_injury.as_injury is not None and result.as_injury.as_injury.injury == "pulled muscle"
    rolled = [(d.clause, d.roll.final) for d in result.all_dice() if d.roll]
    assert rolled == [("1d4 Wound Points", 2), ("1d12 Stress", 7), ("1d4 Agility and Strength damage", 3)]
    assert source.remaining == 0


def test_roll_again_on_99_adds_infection_and_another_injury(bundled_library):
    tables, source = roller(bundled_library, 9, 9, 0, 5, 3)
    result = ex.roll_injury(tables)
    assert result.injury == "roll again plus wound is Infected"
    assert result.dice[0].later and result.dice[0].roll is None  # per failed save: not now
    [again] = result.again
    assert again.injury == "sprained ankle" and again.dice[0].roll is not None and again.dice[0].roll.final == 3
    assert source.remaining == 0


def test_roll_again_twice_on_100(bundled_library):
    # each re-roll's dice right after it, as the table roller reads its row (issue 22: the dice panel rolls them too)
    tables, source = roller(bundled_library, 0, 0, 1, 0, 2, 6, 0, 1, 4)
    result = ex.roll_injury(tables)
    assert result.injury == "roll again twice" and result.dice == []
    assert [a.injury for a in result.again] == ["sprained ankle", "concussion"]
    assert source.remaining == 0
    assert "sprained ankle" in result.describe() and "concussion" in result.describe()


def test_a_roll_again_chain_stops_at_its_depth(bundled_library):
    tables, source = roller(bundled_library, *[9, 9] * (ex.MAX_INJURY_DEPTH + 1))
    result = ex.roll_injury(tables)
    depth = 0
    while result.again:
        [result] = result.again
        depth += 1
    assert depth == ex.MAX_INJURY_DEPTH and result.cut_short and source.remaining == 0


def _walk(result: ex.InjuryResult) -> list[ex.InjuryResult]:
    return [result, *(x for again in result.again for x in _walk(again))]


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_thousands_of_injuries_roll_through_with_no_dice_left_unrolled(bundled_library):
    tables = TableRoller(bundled_library, Dice(RandomSource(13)))
    seen = set()
    for _ in range(3000):
        for injury in _walk(ex.roll_injury(tables)):
            assert injury.injury is not None and not injury.cut_short
            assert all(d.roll is not None or d.later for d in injury.all_dice())
            seen.add(injury.injury)
    assert len(seen) == len(bundled_library.get(ex.INJURY_TABLE).rows)


def test_every_injury_row_has_its_dice_found(bundled_library):
    table = bundled_library.get(ex.INJURY_TABLE)
    without = [r.fields["injury"] for r in table.rows if not dice_in(r.fields.get("details", "")) and not r.links]
    assert without == ["dislocated shoulder (main hand)"]  # its dice are the off-hand row's


# --------------------------------------------------------------------------- rests


def test_a_partial_rest_restores_per_ten_minutes():
    result = ex.rest(dice(), RestKind.PARTIAL, minutes=30)
    assert (result.stress, result.attribute_points, result.wound_points_per_wound) == (3, 3, 0)
    healed = ex.rest(dice(), RestKind.PARTIAL, minutes=60, wounds=2, heal_check=True)
    assert healed.wound_points_per_wound == 1


def test_a_short_rest_heals_by_hd_per_hour_and_1d4_per_wound_with_heal():
    result = ex.rest(dice(2, 4), RestKind.SHORT, hd=2, wounds=2, heal_check=True)
    assert (result.minutes, result.stress, result.mana, result.wound_points_per_wound) == (480, 16, 16, 8)
    assert [r.final for r in result.heal_rolls] == [2, 4] and not result.all_stress_and_mana


def test_a_full_rest_restores_everything_and_3d4_per_wound():
    result = ex.rest(dice(1, 2, 3), RestKind.FULL, hd=1, wounds=1)
    assert result.all_stress_and_mana and result.minutes == 24 * 60
    assert [r.final for r in result.heal_rolls] == [6]


def test_a_partial_rest_on_the_dungeon_clock_passes_its_minutes():
    step, result = ex.rest_in_dungeon(ex.DungeonClock(), dice(*QUIET_CARD * 2), minutes=20)
    assert step.spent == 200 and len(step.checks) == 2
    assert result is not None and result.minutes == 20 and result.stress == 2


def test_an_encounter_cuts_a_partial_rest_to_the_whole_ten_minutes_before_it():
    step, result = ex.rest_in_dungeon(ex.DungeonClock(), dice(3, 4, 1, 1), minutes=30)
    assert step.interrupted and step.spent == 100 and result is not None and result.minutes == 10
    step, result = ex.rest_in_dungeon(ex.DungeonClock(elapsed=50), dice(3, 4, 1, 1), minutes=10)
    assert step.spent == 50 and result is None


def test_a_short_rest_on_the_road_is_a_round_of_rest():
    step, result = ex.rest_on_the_road(ex.TravelClock(rounds_since_rest=2), dice(4, 4), RestKind.SHORT, hd=1)
    assert step.spent == 8 and step.rest and not step.clock.must_rest
    assert result is not None and result.stress == 8


def test_an_encounter_spoils_a_short_rest():
    step, result = ex.rest_on_the_road(ex.TravelClock(), dice(1, 1, 3, 0, 5), RestKind.SHORT)
    assert step.met is not None and step.spent == 2 and result is None
    with pytest.raises(ToolInputError, match="take it on the dungeon clock"):
        ex.rest_on_the_road(ex.TravelClock(), dice(), RestKind.PARTIAL)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ex.rest(dice(), RestKind.PARTIAL, minutes=15), "whole 10 minutes; 15 is not"),
        (lambda: ex.rest(dice(), RestKind.PARTIAL, minutes=0), "Minutes of partial rest must be 10 to 1440; 0 is out of range."),
        (lambda: ex.rest(dice(), RestKind.SHORT, hd=-1), "HD must be 0 or more; -1 is out of range."),
        (lambda: ex.spend_turns(ex.DungeonClock(), dice(), 0), "Turns must be 1 to 10000; 0 is out of range."),
        (lambda: ex.spend_hours(ex.TravelClock(), dice(), -3), "Hours must be 1 to 720; -3 is out of range."),
    ],
)
def test_out_of_range_input_is_refused_with_the_valid_range(call, message):
    with pytest.raises(ToolInputError) as refused:
        call()
    assert message in str(refused.value)


def test_clocks_and_results_round_trip_through_json(bundled_library):
    clock, _ = ex.light(ex.DungeonClock(), bundled_library.get(ex.DURATIONS_TABLE), "Torch")
    step = ex.spend_turns(clock, dice(3, 4, 4, 2), 100)
    assert ex.DungeonStep.model_validate_json(step.model_dump_json()) == step
    travel = ex.spend_hours(ex.TravelClock(), dice(1, 2, 5, 1, 7), 8)
    assert ex.TravelClock.model_validate_json(travel.clock.model_dump_json()) == travel.clock
    tables, _ = roller(bundled_library, 0, 0, 1, 0, 2, 6, 0, 1, 4)  # each re-roll, then its dice
    injury = ex.roll_injury(tables)
    assert ex.InjuryResult.model_validate_json(injury.model_dump_json()) == injury


def test_the_travel_clock_counts_the_rounds_of_the_player_s_table():
    from d100gui.engine.dice.tables import Table
    from d100gui.engine.toolbox.exploration import TRAVEL_ROUNDS, TravelClock, travel_rounds

    def rounds(*rows: tuple[str, str]) -> Table:
        return Table.model_validate({
            "id": "explore.travel_rounds", "title": "t", "die": None,
            "columns": [{"key": "round", "label": "Round"}, {"key": "from", "label": "From"}],
            "rows": [{"key": k, "fields": {"round": k, "from": f}} for k, f in rows],
        })  # fmt: skip

    renamed = travel_rounds(rounds(("Dawn", "6am"), ("Dusk", "2pm"), ("Dark", "10pm")))
    assert renamed == (("Dawn", 6), ("Dusk", 14), ("Dark", 22))
    clock = TravelClock(elapsed=9, rounds=renamed)
    assert clock.round_name == "Dusk" and clock.clock_hour == 15
    assert travel_rounds(rounds(("A", "4am"), ("B", "9am"), ("C", "8pm"))) == TRAVEL_ROUNDS  # not 8-hour Rounds
    assert travel_rounds(rounds(("A", "noonish"), ("B", "12pm"), ("C", "8pm"))) == TRAVEL_ROUNDS


def test_an_injury_rolled_in_the_dice_panel_rolls_its_dice_too(bundled_library):
    """Issue 22: the injury rows carry their dice, so the dice panel's roll shows them rolled, as the Injury tool does."""
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.commands import ALL_COMMANDS
    from d100gui.engine.dice_commands import RollTable
    from d100gui.engine.game import Game
    from d100gui.storage.resources import bundled_rules, standard_tilesets

    game = Game(Campaign(), bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([6, 0, 2, 5])  # 60: concussion; 1d4 Wound Points 2, Dazed for 1d8 hours 5
    game.execute(RollTable(table_id=ex.INJURY_TABLE))
    entry = game.campaign.dice_history[0]
    assert entry.table is not None and [d.value for d in entry.table.dice] == [2, 5]
    assert "1d4 Wound Points: 2" in entry.describe()  # (the history line is shortened after that)
    tool = ex.roll_injury(TableRoller(bundled_library, Dice(ScriptedSource([6, 0, 2, 5])), MissingRowPolicy.ASK))
    assert "1d4 Wound Points: 2; Dazed for 1d8 hours: 5" in tool.describe()  # the tool reads the same rolls
