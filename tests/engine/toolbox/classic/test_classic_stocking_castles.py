"""Room stocking and castles, with scripted dice."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.toolbox.classic.castles import castle_encounter
from d100gui.engine.toolbox.classic.stocking import stock_rooms
from d100gui.engine.toolbox.inputs import ToolInputError


def test_a_monster_guards_treasure_and_an_empty_room_holds_none(scripted):
    # room 1: monster die 1 -> matrix (level 1) 1 -> Table 1, d8 1 = Kobolds; treasure die 3 (1-3 with a monster):
    #   silver 100 x d6 4, gold 50% (50: there) x d6 3 = 30 GP, gems 99, jewelry 99, magic 99: none
    # room 2: monster die 3 -> empty; treasure die 2 (only a 1 in an empty room): none
    s = scripted(1, 1, 1, 3, 4, *pct(50), 3, *pct(99, 99, 99), 3, 2)
    stocking = stock_rooms(s.roller, 1, 2)
    assert s.source.remaining == 0
    first, second = stocking.rooms
    assert first.monster is not None and first.monster.name == "Kobolds"
    assert first.treasure is not None and first.treasure.total_gp == 70
    assert second.monster is None and second.treasure is None
    assert stocking.total_gp == 70
    lines = stocking.describe().splitlines()
    assert lines[1] == "Room 1: Kobolds (Table 1); treasure: 400 SP, 30 GP (worth 70 GP)"
    assert lines[2] == "Room 2: empty; no treasure"


def test_an_empty_room_has_treasure_only_on_a_one(scripted):
    s = scripted(6, 1, 1, *pct(51, 99, 99, 99))
    [room] = stock_rooms(s.roller, 1, 1).rooms
    assert room.monster is None and room.treasure is not None and room.treasure.total_gp == 10


def test_stocking_refuses_level_zero_and_no_rooms(scripted):
    with pytest.raises(ToolInputError, match="Dungeon level must be 1 or more; 0 is out of range"):
        stock_rooms(scripted().roller, 0, 3)
    with pytest.raises(ToolInputError, match="Number of rooms must be 1 to 500; 0 is out of range"):
        stock_rooms(scripted().roller, 1, 0)


def test_a_lord_rides_out_with_griffons_and_a_magic_user(scripted):
    # come out 2 (one hex: 1-2), occupant 1 = Lord, guards column 2 = Griffons*6 (d6: 5), hostile 2, walls 4 x 30,
    # the Fighting-Men row's level dice (MU 1d4+4: 2 -> 6, Cleric 1d4+2: 3 -> 5), MU 25% (20: yes), Cleric 50% (70: no),
    # toll d6 3 x 100
    s = scripted(2, 1, 2, 5, 2, 4, 2, 3, *pct(20, 70), 3)
    castle = castle_encounter(s.roller, 1)
    assert s.source.remaining == 0
    assert castle.comes_out and castle.attitude == "hostile" and castle.men_on_walls == 120
    assert castle.occupant is not None and castle.occupant.text == "Griffons*6" and castle.occupant.dice[0].value == 5
    mu, cleric = castle.companions
    assert (mu.who, mu.present, mu.level) == ("MU", True, 6) and not cleric.present
    text = castle.describe()
    assert "Lord (hostile), guards: Griffons*6 = 5 with as many Heroes riding" in text
    assert "MU, level 6" in text and "toll if demanded: 300 GP" in text


def test_the_come_out_chance_falls_with_distance_and_a_hail_always_brings_them(scripted):
    assert not castle_encounter(scripted(4).roller, 0).comes_out  # on the hex: 1-3
    assert not castle_encounter(scripted(2).roller, 2).comes_out  # two hexes away: only a 1
    # hailed on the hex: no come-out die; 5 = Patriarch (always Lawful: no attitude die), column 1 Heroes20 (d20: 7)
    s = scripted(5, 1, 7, 3, 6, 2, *pct(40))
    castle = castle_encounter(s.roller, 0, hailed=True)
    assert castle.come_out_roll is None and castle.attitude == "lawful" and castle.attitude_roll is None
    [assistants] = castle.companions
    assert assistants.present and assistants.count == 6 and assistants.level == 5
    assert "tithe" in castle.describe()
    with pytest.raises(ToolInputError, match="Hexes from the castle must be 0 to 2; 3 is out of range"):
        castle_encounter(scripted().roller, 3)


@pytest.mark.parametrize(("attitude_die", "pursue_die", "pursues"), [(2, 3, True), (2, 4, False), (5, 1, True), (5, 2, False)])
def test_occupants_pursue_a_party_that_moves_on_by_their_attitude(scripted, attitude_die, pursue_die, pursues):
    # hailed; 1 = Lord; column 3 Myrmidons10 (d10: 4); attitude; walls 1; MU/Cleric level dice 1, 1; chances 99, 99; toll 1
    s = scripted(1, 3, 4, attitude_die, 1, 1, 1, *pct(99, 99), 1, pursue_die)
    castle = castle_encounter(s.roller, 0, hailed=True, moving_on=True)
    assert s.source.remaining == 0
    assert castle.pursues is pursues
    assert ("they pursue" in castle.describe()) is pursues
