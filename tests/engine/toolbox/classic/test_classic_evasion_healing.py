"""Evasion with its modifiers, pursuit in the wilderness and underground, and healing by rest."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.toolbox.classic.evasion import EVASION_TABLE, evade, underworld_pursuit
from d100gui.engine.toolbox.classic.healing import heal_by_rest
from d100gui.engine.toolbox.inputs import ToolInputError


@pytest.fixture
def evasion(bundled_library, scripted):
    table = bundled_library.get(EVASION_TABLE)

    def run(*faces: int, **kw):
        s = scripted(*faces)
        result = evade(s.roller.dice, table, **kw)
        assert s.source.remaining == 0
        return result

    return run


def test_the_base_chance_comes_from_party_size_and_share_of_the_possible_number(evasion):
    result = evasion(*pct(50), party=4, monsters=3, possible=10)  # 4-9, 30%: 50%
    assert (result.row, result.base, result.chance, result.evaded) == ("4-9 / 26-60%", 50, 50, True)
    assert evasion(*pct(6), party=30, monsters=2, possible=10, chase=False).chance == 5  # 25+, 20%: 05%
    assert evasion(*pct(1), party=2, monsters=7, possible=10).chance == 90  # 1-3, over 60%


@pytest.mark.parametrize(
    ("options", "chance"),
    [
        ({"surprise": "party"}, 60),  # doubled
        ({"surprise": "monsters"}, 0),  # wiped out
        ({"surprise": "monsters", "magic": True}, 30),  # magic keeps the chance
        ({"surprise": "monsters", "woods": True}, 10),  # woods: 10% even when surprised
        ({"woods": True}, 55),  # woods add 25
        ({"speed": "party"}, 55),
        ({"speed": "monsters"}, 5),
        ({"surprise": "monsters", "speed": "party"}, 25),  # speed counts in surprise too
        ({"surprise": "party", "woods": True, "speed": "party"}, 100),  # 60 + 25 + 25, kept within 100
    ],
)
def test_the_modifiers_apply_in_the_text_s_order(evasion, options, chance):
    result = evasion(*pct(100), party=10, monsters=5, possible=10, chase=False, **options)  # 10-24, 50%: 30%
    assert result.base == 30 and result.chance == chance


def test_a_failed_evasion_runs_the_pursuit_until_caught(evasion):
    # not evaded (90 > 50); hex 1: direction 3, caught? 30 (woods: 25%) no, goes on 2; hex 2: direction 1, 25: caught
    result = evasion(*pct(90), 3, *pct(30), 2, 1, *pct(25), party=4, monsters=3, possible=10, woods=True, speed="monsters")
    assert result.chance == 50 and not result.evaded  # woods +25, monsters faster -25
    assert result.pursuit is not None and result.pursuit.caught and len(result.pursuit.hexes) == 2
    assert result.pursuit.catch_chance == 25 and result.pursuit.rest_days == 1.0
    assert "CAUGHT" in result.describe()


def test_pursuers_that_are_not_faster_cannot_catch_and_give_up_on_the_die(evasion):
    result = evasion(*pct(95), 6, 2, 4, 4, party=4, monsters=3, possible=10)
    assert result.pursuit is not None and not result.pursuit.caught
    assert len(result.pursuit.hexes) == 2 and all(h.catch_roll is None for h in result.pursuit.hexes)
    assert result.pursuit.rest_days == 1.0


def test_evasion_refuses_a_party_of_none_and_more_monsters_than_possible(evasion):
    with pytest.raises(ToolInputError, match="Party size must be 1 to 100000; 0 is out of range"):
        evasion(party=0, monsters=1, possible=1)
    with pytest.raises(ToolInputError, match="possible number must be at least the number met"):
        evasion(party=3, monsters=5, possible=4)


def test_underground_the_monster_follows_by_the_way_the_party_goes(scripted):
    assert not underworld_pursuit(scripted().roller.dice, 100).follows  # over 90 feet: no roll, it stops
    assert underworld_pursuit(scripted().roller.dice, 40).follows  # straight on: it keeps following
    assert underworld_pursuit(scripted(2).roller.dice, 40, "corner").follows
    assert not underworld_pursuit(scripted(3).roller.dice, 40, "corner").follows
    assert underworld_pursuit(scripted(1).roller.dice, 40, "secret_door").follows
    assert not underworld_pursuit(scripted(2).roller.dice, 40, "secret_door").follows
    fed = underworld_pursuit(scripted(*pct(10)).roller.dice, 40, food="intelligent")
    assert not fed.follows and fed.food_chance == 10
    assert underworld_pursuit(scripted(*pct(11)).roller.dice, 40, food="intelligent").follows
    assert underworld_pursuit(scripted(*pct(90)).roller.dice, 40, food="non-intelligent").follows is False
    dropped = underworld_pursuit(scripted(*pct(25)).roller.dice, 120, surprised=True)
    assert "dropped an item" in dropped.describe()
    assert underworld_pursuit(scripted().roller.dice, 10, "secret_door", cornered=True).follows


@pytest.mark.parametrize(("days", "back"), [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 2), (11, 5), (40, 5)])
def test_healing_gives_nothing_the_first_day_then_a_point_every_other_day(days, back):
    healing = heal_by_rest(5, days)
    assert healing.regained == back and healing.days_to_heal == 11


def test_healing_refuses_negative_inputs():
    with pytest.raises(ToolInputError, match="Hit points missing must be 0 to"):
        heal_by_rest(-1, 3)
    with pytest.raises(ToolInputError, match="Days of rest must be 0 to"):
        heal_by_rest(3, -2)
    assert heal_by_rest(0, 0).describe().endswith("fully healed")


def test_drowning_by_armour_and_storm(bundled_library, scripted):
    from d100gui.engine.toolbox.classic.swimming import swim

    table = bundled_library.get("classic.swimming")
    plate = swim(scripted(*pct(100)).roller.dice, table, "Plate")
    assert plate.chance == 100 and plate.drowned
    chain = swim(scripted(*pct(81)).roller.dice, table, "Chain-type")
    assert not chain.drowned and chain.must_remove and "must shed the armour" in chain.describe()
    assert swim(scripted(*pct(20)).roller.dice, table, "Leather").drowned
    dry = swim(scripted().roller.dice, table, "None", overboard=False)  # 05%* only if thrown overboard
    assert dry.chance == 0 and dry.roll is None and not dry.drowned
    storm = swim(scripted(*pct(50, 50)).roller.dice, table, "Leather", storm=True)
    assert storm.storm_roll is not None and storm.drowned
    with pytest.raises(ToolInputError, match="Armour must be one of Plate, Chain-type, Leather, None"):
        swim(scripted().roller.dice, table, "Mithril")
