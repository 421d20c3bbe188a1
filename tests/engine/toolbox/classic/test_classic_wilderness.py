"""A day of wilderness travel, with scripted dice: movement, the lost check, each encounter variant."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.toolbox.classic.meeting import meet
from d100gui.engine.toolbox.classic.wilderness import WildernessDay, WildernessTrip, day_movement, wilderness_day
from d100gui.engine.toolbox.inputs import ToolInputError


def test_a_day_afoot_in_clear_country_lost_and_meeting_bandits(scripted):
    # lost die 1 (clear: lost on 1), direction 4; encounter die 6; type 1 = Men; Men (typical) 1 = Bandits;
    # surprise 3 and 4 (nobody); distance 4d6 = 1+2+3+4 tens of yards
    s = scripted(1, 4, 6, 1, 1, 3, 4, 1, 2, 3, 4)
    day = wilderness_day(s.roller, WildernessTrip(), "clear", "Man on foot", party_size=4)
    assert s.source.remaining == 0
    assert day.movement is not None and day.movement.hexes == 3
    assert day.lost and day.direction is not None and day.direction.final == 4
    [check] = day.checks
    assert check.hit and check.needed == "6"
    [met] = day.encounters
    assert [n.roll.text for n in met.tree.walk()] == ["Men", "Bandits"]
    assert met.tree.children[0].roll.column == "typical"
    assert met.meeting.distance == 100 and met.meeting.unit == "yards"
    assert day.trip == WildernessTrip(day=1, since_rest=1)
    text = day.describe()
    assert "lost! heads off in direction 4" in text and "Men -> Bandits" in text and "100 yards away" in text


def test_afloat_a_five_brings_a_waterborne_encounter_at_mid_day_and_a_six_the_normal_one(scripted):
    # first die 5: swimmers d12 2 = Nixies, party surprised (1 vs 6), 1d3 = 2 -> 20 yards
    # second die 6: type (river) 5 = Swimmer -> swimmers 12 = Dragon Turtle, surprise 5/5, 4d6 = 24 -> 240 yards
    s = scripted(5, 6, 2, 1, 6, 2, 5, 12, 5, 5, 6, 6, 6, 6)
    day = wilderness_day(s.roller, WildernessTrip(), "river", "Boat")
    assert s.source.remaining == 0
    assert day.lost_roll is None  # a boat on the water does not get lost
    midday, evening = day.encounters
    assert (midday.kind, midday.when, midday.tree.roll.text) == ("waterborne", "mid-day", "Nixies")
    assert midday.meeting.party_surprised and midday.meeting.distance == 20
    assert (evening.kind, [n.roll.text for n in evening.tree.walk()]) == ("normal", ["Swimmer", "Dragon Turtle"])
    assert evening.meeting.distance == 240


def test_in_the_air_the_mid_day_encounter_is_aerial(scripted):
    s = scripted(3, 5, 4, 1, 5, 4, 4, 4, 4, 4)  # lost 3 (mountains 1-2: on course), mid-day 5, evening 4; flyer 1
    day = wilderness_day(s.roller, WildernessTrip(), "mountains", "Griffon")
    [met] = day.encounters
    assert (met.kind, met.tree.roll.text) == ("aerial", "Pegasi") and not day.lost
    assert s.source.remaining == 0


def test_a_ship_at_sea_rolls_once_and_meets_on_a_six(scripted):
    s = scripted(5)
    assert wilderness_day(s.roller, WildernessTrip(), "river", "Galley", at_sea=True).encounters == []
    # one die 6: type (river) 5 = Swimmer -> swimmers d12 9 = Mermen; surprise 3/3; 4d6 = 4 -> 40 yards
    s = scripted(6, 5, 9, 3, 3, 1, 1, 1, 1)
    [met] = wilderness_day(s.roller, WildernessTrip(), "river", "Galley", at_sea=True).encounters
    assert s.source.remaining == 0
    assert (met.kind, met.when, [n.roll.text for n in met.tree.walk()]) == ("normal", "at sea", ["Swimmer", "Mermen"])


def test_a_ship_at_sea_meets_men_in_the_waterborne_column(scripted):
    # one die 6: type (river) 1 = Men -> Waterbourne d12 9 ('---': again) 2 = Pirates; surprise 5/5; 4d6 = 4
    s = scripted(6, 1, 9, 2, 5, 5, 1, 1, 1, 1)
    day = wilderness_day(s.roller, WildernessTrip(), "river", "Galley", at_sea=True)
    assert s.source.remaining == 0
    [check] = day.checks
    assert (check.when, check.needed, check.hit) == ("at sea", "6", True)
    [met] = day.encounters
    assert (met.when, [n.roll.text for n in met.tree.walk()]) == ("at sea", ["Men", "Pirates"])
    assert met.tree.children[0].roll.column == "waterbourne"


def test_a_day_of_rest_throws_two_dice_and_clears_the_days_moved(scripted):
    s = scripted(4, 3, 6, 1, 3, 3, 1, 1, 1, 1)  # swamp meets on 4-6: the first die does; type 6 = Undead, 1 = Skeletons
    day = wilderness_day(s.roller, WildernessTrip(day=6, since_rest=6), "swamp", resting=True)
    assert day.movement is None and day.lost_roll is None
    assert [c.hit for c in day.checks] == [True, False]
    [met] = day.encounters
    assert [n.roll.text for n in met.tree.walk()] == ["Undead", "Skeletons"] and met.meeting.distance == 40
    assert day.trip == WildernessTrip(day=7, since_rest=0)


def test_six_days_of_movement_call_for_a_rest_and_bad_inputs_are_refused(scripted):
    with pytest.raises(ToolInputError, match="moved 6 days in a row: it must rest"):
        wilderness_day(scripted().roller, WildernessTrip(day=6, since_rest=6), "clear")
    with pytest.raises(ToolInputError, match="Party size must be 1 to 100000; 0 is out of range"):
        wilderness_day(scripted().roller, WildernessTrip(), "clear", party_size=0)
    with pytest.raises(ToolInputError, match="Terrain must be one of clear, woods"):
        wilderness_day(scripted().roller, WildernessTrip(), "ocean")
    with pytest.raises(ToolInputError, match="not on the movement table"):
        wilderness_day(scripted().roller, WildernessTrip(), "clear", "Bicycle")


def test_the_city_has_no_lost_check(scripted):
    s = scripted(2)
    day = wilderness_day(s.roller, WildernessTrip(), "city", "Man on foot")
    assert day.lost_roll is None and day.checks[0].needed == "6" and day.encounters == []


@pytest.mark.parametrize(
    ("means", "terrain", "extra", "hexes"),
    [
        ("Man on foot", "mountains", {}, 1),  # 3 movement, 3 a hex
        ("Man on foot", "mountains", {"track": True}, 1),  # a track: 2 a hex
        ("Light Horse", "woods", {}, 5),
        ("Light Horse", "woods", {"track": True}, 10),  # no penalty on a track through woods
        ("Light Horse", "woods", {"exploring": True}, 2),  # exploring: a draft horse's 5, woods 2 a hex
        ("Light Horse", "clear", {"party_size": 150}, 9),  # over 100: a hex less
        ("Light Horse", "clear", {"party_size": 1500}, 8),  # over 1,000: two
        ("Roc", "mountains", {"exploring": True}, 24),  # flyers explore at half pace, terrain does not slow them
        ("Heavy Horse", "clear", {"crossing": True}, 4),  # the crossing hex costs 3, then 3 clear hexes
        ("Man on foot", "desert", {"crossing": True}, 1),
    ],
)
def test_movement_by_means_terrain_and_party(bundled_library, scripted, means, terrain, extra, hexes):
    options = {"party_size": 4, "exploring": False, "track": False, "crossing": False, **extra}
    movement = day_movement(scripted().roller, means, terrain, **options)
    assert movement.hexes == hexes


def test_surprise_shortens_the_distance(scripted):
    s = scripted(3, 3, 1, 1)
    assert meet(s.roller.dice, "underworld").distance == 20  # nobody surprised: 2d4 tens of feet
    s = scripted(2, 5, 1)
    close = meet(s.roller.dice, "underworld")
    assert close.party_surprised and not close.monsters_surprised and close.distance == 10
    assert "close enough to attack" in close.describe()
    s = scripted(1, 1, 2, 2)
    assert meet(s.roller.dice, "wilderness", surprise_possible=False).distance == 60  # no surprise dice at all


def test_a_leader_met_brings_his_men_and_rolls_for_each_magic_item_of_his_class(scripted):
    # clear: lost 2 (no), encounter 6; type 1 = Men; typical 4 = Wizard (an MU): 2d6 men (3+4),
    # wand 60% (59: yes) rolled on the wands: 75 a staff, ignored, 36 Fear; ring 30% (31: no),
    # misc. magic 20% (5: yes): 48 Boots of Speed; surprise 3/3; 4d6 = 4
    s = scripted(2, 6, 1, 4, 3, 4, *pct(59, 75, 36, 31, 5, 48), 3, 3, 1, 1, 1, 1)
    [met] = wilderness_day(s.roller, WildernessTrip(), "clear").encounters
    assert s.source.remaining == 0
    assert met.followers is not None and met.followers.final == 7
    assert [(i.item, i.chance, i.carried) for i in met.leader_items] == [
        ("magic wand", 60, True), ("magic ring", 30, False), ("magic misc. mg.", 20, True),
    ]  # fmt: skip
    wand, ring, misc = met.leader_items
    [found] = wand.found
    assert found.item.text == "Fear" and [r.final for r in found.item.ignored] == [75]  # a staff is no wand
    assert ring.found == [] and [f.item.text for f in misc.found] == ["Boots of Speed*"]
    assert (
        "with 7 men of levels 1-4; magic: magic wand (Wands and Staves: Fear), "
        "magic misc. mg. (Miscellaneous Magic: Boots of Speed*)" in met.describe()
    )


def test_a_patriarchs_weapon_and_staff_are_rolled_on_the_kinds_a_cleric_carries(scripted):
    # clear: lost 2, encounter 6; Men; typical 12 = Patriarch (a Cleric): 2d6 men (2+3);
    # weapon 40% (40: yes): class 50 (Potions) ignored, 38 Misc. Weapons: 30 = 3-30 Magic Arrows (3d10: 1+2+3);
    # staff 30% (30: yes): 40 (a wand) and 99 (Staff of Power, MUs only) ignored, 72 Staff of Healing;
    # shield 20% (21: no); surprise 3/3; 4d6 = 4
    s = scripted(2, 6, 1, 12, 2, 3, *pct(40, 50, 38, 30), 1, 2, 3, *pct(30, 40, 99, 72, 21), 3, 3, 1, 1, 1, 1)
    [met] = wilderness_day(s.roller, WildernessTrip(), "clear").encounters
    assert s.source.remaining == 0
    weapon, staff, shield = met.leader_items
    [arrows] = weapon.found
    assert arrows.kind is not None and arrows.kind.text == "Misc. Weapons" and [r.final for r in arrows.kind.ignored] == [50]
    assert arrows.item.text == "3-30 Magic Arrows" and [d.value for d in arrows.item.dice] == [6]
    [healing] = staff.found
    assert healing.item.text == "Staff of Healing*" and [r.final for r in healing.item.ignored] == [40, 99]
    assert not shield.carried and shield.found == []
    text = met.describe()
    assert "magic weapon (Miscellaneous Weapons: 3-30 Magic Arrows, 3-30 Magic Arrows: 6)" in text
    assert "magic staff (Wands and Staves: Staff of Healing*)" in text


def test_a_lords_sword_is_completed_and_his_shield_is_a_shield(scripted):
    # clear: lost 2, encounter 6; Men; typical 7 = Lord (a Fighting-Man): 2d6 men (6+6);
    # sword 50% (50: yes): Sword +1, Lawful (10), Intelligence 3, purpose 50; shield 25% (25: yes): 40 (Armor +1)
    # and 70 (Armor & Shield) ignored, 80 Shield +2; armor 25% (26: no); surprise 3/3; 4d6 = 4
    s = scripted(2, 6, 1, 7, 6, 6, *pct(50, 1, 10), 3, *pct(50, 25, 40, 70, 80, 26), 3, 3, 1, 1, 1, 1)
    day = wilderness_day(s.roller, WildernessTrip(), "clear")
    assert WildernessDay.model_validate_json(day.model_dump_json()) == day  # kept in the log, the sword and all
    [met] = day.encounters
    assert s.source.remaining == 0
    sword, shield, armor = met.leader_items
    [blade] = sword.found
    assert blade.sword is not None and blade.sword.name == "Sword +1" and blade.sword.alignment.text == "Sword is Lawful"
    assert blade.sword.intelligence_score == 3
    assert [f.item.text for f in shield.found] == ["Shield +2"] and not armor.carried
    assert (
        "magic sword (Sword +1; Lawful; Intelligence 3" in met.describe() and "magic shield (Armor: Shield +2)" in met.describe()
    )
