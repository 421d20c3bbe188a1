"""Pursuit by the two SPEEDs: a monster merely faster catches on 50%, one twice as fast also shifts evasion (issue 22)."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.toolbox.classic.evasion import EVASION_TABLE, evade, pursue, speeds
from d100gui.engine.toolbox.inputs import ToolInputError


@pytest.mark.parametrize(
    ("party", "monsters", "expected"),
    [(12, 12, ("even", False)), (12, 15, ("even", True)), (12, 24, ("monsters", True)), (24, 12, ("party", False)),
     (9, 6, ("even", False))],
)  # fmt: skip
def test_the_speeds_decide_the_shift_and_whether_the_monsters_can_catch(party, monsters, expected):
    assert speeds(party, monsters) == expected


def test_a_merely_faster_monster_catches_on_50(bundled_library, scripted):
    s = scripted(*pct(90), 4, *pct(50))  # not evaded; hex 1: direction 4, caught on 50
    result = evade(s.roller.dice, bundled_library.get(EVASION_TABLE), 4, 3, 10, party_speed=12, monster_speed=15)
    assert s.source.remaining == 0
    assert result.chance == 50  # no shift: 15 is not twice 12
    assert result.pursuit is not None and result.pursuit.catch_chance == 50 and result.pursuit.caught
    s = scripted(*pct(90), 4, *pct(51), 4)  # 51 misses; the chase die 4 ends it
    missed = evade(s.roller.dice, bundled_library.get(EVASION_TABLE), 4, 3, 10, party_speed=12, monster_speed=15)
    assert missed.pursuit is not None and not missed.pursuit.caught and "they give up" in missed.describe()
    assert "The pursuit is over" in missed.describe()


def test_a_slower_monster_never_catches_and_the_text_says_why(bundled_library, scripted):
    s = scripted(*pct(90), 2, 5)
    result = evade(s.roller.dice, bundled_library.get(EVASION_TABLE), 4, 3, 10, party_speed=12, monster_speed=9)
    assert s.source.remaining == 0 and result.pursuit is not None and not result.pursuit.caught
    assert "not faster" in result.describe()


def test_speeds_out_of_range_are_refused(bundled_library, scripted):
    with pytest.raises(ToolInputError, match="Monsters' speed must be 1 to"):
        evade(scripted().roller.dice, bundled_library.get(EVASION_TABLE), 4, 3, 10, party_speed=12, monster_speed=-1)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_seeded_first_hex_catches_are_half_and_a_quarter_in_woods():
    dice = Dice(RandomSource(2022))
    runs = 2000
    open_ground = sum(pursue(dice, True, False).hexes[0].caught for _ in range(runs))
    woods = sum(pursue(dice, True, True).hexes[0].caught for _ in range(runs))
    # 50% and 25%: 4 standard errors at 2,000 runs are 4.5 and 3.9 points
    assert 0.45 * runs <= open_ground <= 0.55 * runs
    assert 0.21 * runs <= woods <= 0.29 * runs


# --------------------------------------------------------------------------- underground: speeds, a free segment, treasure, oil


def test_underground_a_turn_of_flight_opens_or_closes_the_gap_by_the_speeds(scripted):
    from d100gui.engine.toolbox.classic.evasion import underworld_pursuit

    away = underworld_pursuit(scripted().roller.dice, 30, party_speed=12, monster_speed=9)
    assert away.turn_change == 120 and away.distance_after == 150 and not away.follows  # 4 moves x 3" x 10 feet
    assert "opens the gap by 120 feet: 150 feet apart" in away.describe()
    caught_up = underworld_pursuit(scripted().roller.dice, 30, party_speed=9, monster_speed=12)
    assert caught_up.distance_after == 0 and caught_up.follows
    free = underworld_pursuit(scripted().roller.dice, 20, party_speed=6, monster_speed=12, free_segment=True)
    assert free.free_feet == 240 and free.distance_after == 20 and free.follows  # 20 + 240 - 240
    assert "a free move segment" in free.describe()


@pytest.mark.parametrize(("wits", "stops_on"), [("intelligent", 90), ("semi-intelligent", 50), ("non-intelligent", 10)])
def test_dropped_treasure_stops_the_clever_more_often_and_oil_is_the_referee_s(scripted, wits, stops_on):
    from d100gui.engine.toolbox.classic.evasion import underworld_pursuit

    assert not underworld_pursuit(scripted(*pct(stops_on)).roller.dice, 30, treasure=wits).follows
    assert underworld_pursuit(scripted(*pct(stops_on + 1)).roller.dice, 30, treasure=wits).follows
    oil = underworld_pursuit(scripted().roller.dice, 30, oil=True)
    assert "burning oil thrown: it deters many monsters" in oil.describe()


def test_the_underworld_pursuit_command_reads_the_flight_moves_from_the_time_table(bundled_library):
    from test_classic_commands import make

    from d100gui.engine.toolbox.classic_commands import ClassicUnderworldPursuit

    game = make(bundled_library)
    [event] = game.execute(ClassicUnderworldPursuit(distance=60, party_speed=12, monster_speed=6))
    assert "opens the gap by 240 feet: 300 feet apart" in event.message and "it gives up the chase" in event.message


def test_the_pursuit_numbers_come_from_the_table_and_a_players_edit_is_used(bundled_library, scripted):
    from d100gui.engine.toolbox.classic.evasion import PURSUIT_TABLE, PursuitNumbers, pursuit_numbers

    table = bundled_library.get(PURSUIT_TABLE)
    assert pursuit_numbers(table) == PursuitNumbers()  # the shipped table prints the text's numbers
    edited = table.model_copy(
        update={
            "rows": [
                r.model_copy(update={"fields": {**r.fields, "value": "40%"}}) if r.key == "Caught by a faster monster" else r
                for r in table.rows
            ]
        }
    )
    numbers = pursuit_numbers(edited)
    assert numbers.catch == 40 and numbers.treasure("intelligent") == 90 and numbers.follow_on("corner") == 2
    s = scripted(3, *pct(45), 5)
    assert not pursue(s.roller.dice, True, False, numbers).caught  # 45 misses a 40% catch
