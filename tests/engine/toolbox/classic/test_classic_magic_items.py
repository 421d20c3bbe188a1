"""The magic item generator: magic or map, the class, the item; maps, scrolls and potions roll what they need."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.dice.dice import Dice, RandomSource
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoller
from d100gui.engine.toolbox.classic.magic import magic_find, magic_item
from d100gui.engine.toolbox.inputs import ToolInputError


def test_a_scroll_of_spells_rolls_each_spells_level_and_whose_spells(scripted):
    s = scripted(*pct(50, 70, 40), 2, 4, 6, *pct(20))  # magic, scrolls, 3 spells, levels 2 4 6, clerics' (25%)
    found = magic_find(s.roller)
    assert s.source.remaining == 0
    item = found.item
    assert item.item.text == "3 Spells" and [r.final for r in item.spell_levels] == [2, 4, 6]
    assert item.cleric_scroll
    assert "clerics' spells of level 2, 4, 6" in found.describe()


def test_a_potion_lasts_6_plus_d6_turns_and_dragon_control_names_the_dragons(scripted):
    s = scripted(*pct(1, 41, 78), 3, 5)
    item = magic_find(s.roller).item
    assert s.source.remaining == 0
    assert item.item.text == "Dragon Control*" and item.duration.final == 9
    [dragons] = item.further
    assert dragons.roll.text == "Red Dragons" and dragons.roll.roll.expression == "1d6"  # one of the six types


def test_a_curse_scroll_rolls_its_curse(scripted):
    s = scripted(*pct(1, 70, 55), 8)
    item = magic_find(s.roller).item
    assert [t.roll.text for t in item.further] == ["Transportation to another planet"]


def test_a_magic_map_with_no_swords_ignores_sword_rolls(scripted):
    s = scripted(*pct(80, 70), 6, *pct(5, 25, 1), *pct(22, 31), *pct(23, 61))
    found = magic_find(s.roller)
    assert s.source.remaining == 0
    assert found.map is not None and found.map.kind.text == "Magic Map"
    assert [i.item.text for i in found.map.items] == ["Shield +1", "Armor +1", "Armor & Shield +1"]
    assert [r.final for r in found.map.items[0].kind.ignored] == [5]


def test_a_magic_and_treasure_map_reads_the_rows_it_points_at(scripted):
    s = scripted(*pct(80, 95), 1, 3, *pct(25, 95))  # #1 Treasure (10,000-40,000 silver: 3) and #1 Magic (any 1 item)
    found = magic_find(s.roller)
    assert s.source.remaining == 0
    treasure_map = found.map
    assert [c.table_id for c in treasure_map.contents] == [
        "classic.map_magic_treasure",
        "classic.map_treasure",
        "classic.map_magic",
    ]
    assert all(c.fixed for c in treasure_map.contents[1:])
    assert treasure_map.totals() == {"Silver": 30000}
    assert [i.item.text for i in treasure_map.items] == ["Armor & Shield +2"]
    assert "30,000 Silver" in found.describe()


def test_a_treasure_map_follows_1_and_2_above(scripted):
    s = scripted(*pct(80, 10), 6, *pct(42), 2, 5)  # treasure map, row 6: 3 above + 1-100 gems; 3 is 1 & 2 above
    treasure_map = magic_find(s.roller).map
    assert s.source.remaining == 0
    assert [c.row.range_label() for c in treasure_map.contents] == ["6", "3", "1", "2"]
    assert treasure_map.totals() == {"Gems": 42, "Silver": 20000, "Gold": 25000}


def test_a_magic_item_without_the_map_roll(scripted):
    s = scripted(*pct(36, 30), 1, 2, 3)  # misc. weapons, 3-30 magic arrows: 3d10
    item = magic_item(s.roller)
    assert [d.value for d in item.item.dice] == [6]


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_thousands_of_finds_roll_through(bundled_library):
    roller = TableRoller(bundled_library, Dice(RandomSource(4)), MissingRowPolicy.REROLL)  # wands 26-30 is not printed
    kinds = set()
    for _ in range(2000):
        found = magic_find(roller)
        kinds.add("map" if found.map else found.item.item.table_id)
        assert found.describe()
    assert len(kinds) == 9


def test_a_staff_of_wizardry_lists_its_powers_and_the_staff_of_power_s(bundled_library, scripted):
    from d100gui.engine.toolbox.classic.magic import magic_item_of

    s = scripted(*pct(100))  # 00 on wands and staves: Staff of Wizardry
    item = magic_item_of(s.roller, "classic.wands_staves")
    assert item.item.text.startswith("Staff of Wizardry")
    assert item.powers[:6] == ["Cold", "Fire Balls", "Lightning Bolts", "Striking", "Continual Light", "TK"]
    assert item.powers[6:] == ["Paralyzation", "Invisibility", "Wall of Fire", "Elementals*", "Passwall",
                               "Whirlwind (as Djinni)", "Webs"]  # fmt: skip
    assert "powers: Cold, Fire Balls" in item.describe()
    s = scripted(*pct(98))
    assert magic_item_of(s.roller, "classic.wands_staves").powers == item.powers[:6]
    s = scripted(*pct(1))
    assert magic_item_of(s.roller, "classic.wands_staves").powers == []


def test_a_maps_guardians_are_left_to_the_referee_unless_a_monster_level_is_picked(scripted):
    faces = (*pct(80, 95), 1, 3, *pct(25, 95))  # the magic and treasure map above
    left = magic_find(scripted(*faces).roller)
    assert left.map is not None and left.map.guardians is None and "guarded: the referee's choice" in left.describe()
    s = scripted(*faces, 3)  # then the 5th level monster table's d12: 3 = Wyverns
    found = magic_find(s.roller, guardians=5)
    assert s.source.remaining == 0
    assert found.map is not None and found.map.guardians is not None
    assert found.map.guardians.roll.text == "Wyverns" and found.map.guardians.roll.table_id == "classic.monster_level_5"
    assert "(guarded by Wyverns (" in found.describe()
    with pytest.raises(ToolInputError, match="Map guardians come from monster level 5 or 6 \\(or 0: left to you\\); 4 is not"):
        magic_find(scripted(*faces).roller, guardians=4)
