"""The classic rules' magic-item tables (resources/tables/classic-magic.json) match the printed text."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack, Table, TableLibrary, check_links
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import bundled_packs, resource_dir


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "classic-magic.json")


def _table(pack: Pack, table_id: str) -> Table:
    return next(t for t in pack.tables if t.id == table_id)


def _r(*pairs: tuple[int, int] | int) -> list[tuple[int, int]]:
    return [(p, p) if isinstance(p, int) else p for p in pairs]


# table id -> (die, printed ranges in order)
RANGES: dict[str, tuple[str, list[tuple[int, int]]]] = {
    "classic.magic_maps": ("d100", _r((1, 75), (76, 100))),
    "classic.magic_items": ("d100", _r((1, 20), (21, 35), (36, 40), (41, 65), (66, 85), (86, 90), (91, 95), (96, 100))),
    "classic.maps": ("d100", _r((1, 60), (61, 90), (91, 100))),
    "classic.swords": (
        "d100",
        _r(
            (1, 35),
            (36, 40),
            (41, 45),
            (46, 50),
            (51, 60),
            (61, 65),
            (66, 70),
            (71, 75),
            (76, 78),
            (79, 80),
            (81, 82),
            83,
            (84, 100),
        ),
    ),
    "classic.armor": ("d100", _r((1, 30), (31, 60), (61, 75), (76, 83), (84, 90), (91, 97), (98, 100))),
    "classic.misc_weapons": (
        "d100",
        _r((1, 25), (26, 40), (41, 55), (56, 60), (61, 65), (66, 70), (71, 80), (81, 85), (86, 89), 90, (91, 96), (97, 99), 100),
    ),
    "classic.potions": (
        "d100",
        _r(
            *[(a, a + 3) for a in range(1, 37, 4)],
            (37, 38),
            (39, 40),
            (41, 44),
            (45, 48),
            (49, 52),
            (53, 55),
            (56, 60),
            *[(a, a + 3) for a in range(61, 101, 4)],
        ),
    ),
    "classic.scrolls": ("d100", _r((1, 20), (21, 35), (36, 45), (46, 50), (51, 60), (61, 70), (71, 80), (81, 90), (91, 100))),
    "classic.scroll_curse": ("d8", _r((1, 2), (3, 4), (5, 6), 7, 8)),
    "classic.rings": (
        "d100",
        _r(
            (1, 9),
            (10, 15),
            (16, 21),
            (22, 30),
            (31, 39),
            (40, 49),
            (50, 60),
            (61, 70),
            (71, 80),
            (81, 85),
            (86, 90),
            (91, 92),
            (93, 94),
            (95, 96),
            (97, 98),
            99,
            100,
        ),
    ),
    "classic.wands_staves": (
        "d100",
        _r(
            (1, 15),
            (16, 20),
            (21, 25),
            (31, 35),
            (36, 40),
            (41, 45),
            (46, 50),
            (51, 55),
            (56, 60),
            (61, 65),
            (66, 70),
            (71, 80),
            (81, 85),
            (86, 90),
            (91, 95),
            (96, 97),
            (98, 99),
            100,
        ),
    ),
    "classic.misc_magic": (
        "d100",
        _r(
            (1, 4),
            (5, 6),
            7,
            (8, 12),
            (13, 15),
            (16, 18),
            (19, 24),
            (25, 29),
            30,
            31,
            32,
            33,
            (34, 35),
            (36, 38),
            (39, 47),
            (48, 52),
            (53, 57),
            (58, 62),
            (63, 67),
            (68, 72),
            (73, 75),
            76,
            (77, 87),
            88,
            89,
            90,
            (91, 97),
            (98, 99),
            100,
        ),
    ),
    "classic.map_treasure": ("d8", _r(1, 2, 3, 4, 5, 6, 7, 8)),
    "classic.map_magic": ("d8", _r((1, 3), (4, 5), 6, 7, 8)),
    "classic.map_magic_treasure": ("d8", _r(1, 2, 3, 4, 5, 6, 7, 8)),
    "classic.sword_alignment": ("d100", _r((1, 65), (66, 90), (91, 100))),
    "classic.sword_intelligence": ("d12", _r((1, 6), 7, 8, 9, 10, 11, 12)),
    "classic.sword_primary_powers": (
        "d100",
        _r((1, 15), (16, 30), (31, 40), (41, 50), (51, 60), (61, 70), (71, 80), (81, 90), (91, 95), (96, 99), 100),
    ),
    "classic.sword_languages": ("d100", _r((1, 50), (51, 70), (71, 85), (86, 95), (96, 99), 100)),
    "classic.sword_extraordinary": (
        "d100",
        _r(
            (1, 10),
            (11, 20),
            (21, 30),
            (31, 40),
            (41, 50),
            (51, 59),
            (60, 68),
            (69, 77),
            (78, 82),
            (83, 87),
            (88, 92),
            (93, 97),
            (98, 99),
            100,
        ),
    ),
}

# reference tables (not rolled): id -> row keys in order
KEYS: dict[str, list[str]] = {
    "classic.sword_egoism_influence": ["6 or more", "2-5", "0-1"],
    "classic.scroll_protection_undead": ["1-3 HD", "4-5 HD", "6 or more HD"],
    "classic.item_saving_throws": [
        "Staff of Power",
        "Staff of Wizardry",
        "Fire Ball Wand Lightning Bolt Wand",
        "Fire Resistance Ring",
        "Ring of Protection",
        "Magic Armor, Shield, or Weapon (Base) +1",
        "Magic Armor, Shield, or Weapon (Base) +2",
        "Magic Armor, Shield, or Weapon (Base) +3",
    ],
}

ROW_COUNTS = {
    "classic.magic_maps": 2,
    "classic.magic_items": 8,
    "classic.maps": 3,
    "classic.swords": 13,
    "classic.armor": 7,
    "classic.misc_weapons": 13,
    "classic.potions": 26,
    "classic.scrolls": 9,
    "classic.scroll_curse": 5,
    "classic.rings": 17,
    "classic.wands_staves": 18,
    "classic.misc_magic": 29,
    "classic.map_treasure": 8,
    "classic.map_magic": 5,
    "classic.map_magic_treasure": 8,
    "classic.sword_alignment": 3,
    "classic.sword_intelligence": 7,
    "classic.sword_primary_powers": 11,
    "classic.sword_languages": 6,
    "classic.sword_extraordinary": 14,
    "classic.sword_egoism_influence": 3,
    "classic.scroll_protection_undead": 3,
    "classic.item_saving_throws": 8,
}


def test_pack_has_exactly_these_tables(pack: Pack) -> None:
    assert pack.id == "classic-magic"
    assert [t.id for t in pack.tables] == list(ROW_COUNTS)
    assert set(ROW_COUNTS) == set(RANGES) | set(KEYS)


@pytest.mark.parametrize("table_id", list(ROW_COUNTS))
def test_row_count(pack: Pack, table_id: str) -> None:
    assert len(_table(pack, table_id).rows) == ROW_COUNTS[table_id]


@pytest.mark.parametrize("table_id", list(RANGES))
def test_die_and_ranges(pack: Pack, table_id: str) -> None:
    table = _table(pack, table_id)
    die, ranges = RANGES[table_id]
    assert table.die == die
    assert [tuple(r.range) for r in table.rows] == ranges
    assert not any(r.partial for r in table.rows)


@pytest.mark.parametrize("table_id", list(KEYS))
def test_reference_tables(pack: Pack, table_id: str) -> None:
    table = _table(pack, table_id)
    assert table.die is None
    assert [r.key for r in table.rows] == KEYS[table_id]
    assert all(r.range is None for r in table.rows)


def test_only_gap_is_wands_26_30(pack: Pack) -> None:
    gaps = {t.id: t.missing_ranges() for t in pack.tables if t.missing_ranges()}
    assert gaps == {"classic.wands_staves": [(26, 30)]}


@pytest.mark.parametrize(
    ("table_id", "roll", "key", "value"),
    [
        ("classic.magic_maps", 76, "result", "Map"),
        ("classic.magic_items", 91, "item", "Wands/Staves"),
        ("classic.maps", 100, "item", "Magic & Treasure Map"),
        ("classic.swords", 61, "item", "Sword, Flaming: +1 +2 vs. Trolls (Pegasi, Hippogriffs, + Rocs)"),
        ("classic.swords", 83, "item", "Sword, One Life Energy Draining Ability"),
        ("classic.swords", 100, "item", "Sword -2 (Cursed Sword)"),
        ("classic.armor", 98, "item", "Shield +3"),
        ("classic.misc_weapons", 90, "item", 'War Hammer +3, 6" Throwing Range with Return'),
        ("classic.misc_weapons", 100, "item", "Spear +3"),
        ("classic.potions", 77, "item", "Dragon Control*"),
        ("classic.potions", 1, "item", "Growth"),
        ("classic.scrolls", 51, "item", "1 Curse*"),
        ("classic.scroll_curse", 7, "curse", "Transportation 1,000 miles, random direction"),
        ("classic.rings", 100, "item", "Many Wishes (4-24)"),
        ("classic.rings", 93, "item", "TK"),
        ("classic.wands_staves", 46, "item", "Paralization"),
        ("classic.wands_staves", 96, "item", "Staff of Withering*"),
        ("classic.misc_magic", 30, "item", "Censor Controlling Air Elementals"),
        ("classic.misc_magic", 100, "item", "Mirror of Life Trapping"),
        ("classic.map_treasure", 1, "map_to", "10,000 - 40,000 Silver"),
        ("classic.map_magic", 8, "map_to", "5 Items, 1 a Scroll & 1 a Potion"),
        ("classic.map_magic_treasure", 4, "map_to", "Map to #7 Treasure and #6 Magic (already there)"),
        ("classic.sword_alignment", 66, "alignment", "Sword is Neutral"),
        ("classic.sword_intelligence", 3, "mental", "None endowed"),
        ("classic.sword_intelligence", 12, "communicate", "Telepathy"),
        ("classic.sword_primary_powers", 71, "power", "Detect Meal & What Kind"),
        ("classic.sword_languages", 97, "languages", "Five"),
        ("classic.sword_extraordinary", 93, "ability", "1-4 Times Normal Strength for 1-10 Turns Employable Once/Day"),
    ],
)
def test_key_fields(pack: Pack, table_id: str, roll: int, key: str, value: str) -> None:
    row = _table(pack, table_id).find(roll)
    assert row is not None
    assert row.fields[key] == value


def test_reference_values(pack: Pack) -> None:
    saves = {r.key: r.fields["save"] for r in _table(pack, "classic.item_saving_throws").rows}
    assert saves["Fire Ball Wand Lightning Bolt Wand"] == "14*"
    assert saves["Fire Resistance Ring"] == "10**"
    assert saves["Magic Armor, Shield, or Weapon (Base) +3"] == "10"
    undead = {r.key: r.fields["effected"] for r in _table(pack, "classic.scroll_protection_undead").rows}
    assert undead == {"1-3 HD": "2-24 effected", "4-5 HD": "2-12 effected", "6 or more HD": "1-6 effected"}
    ego = {r.key: r.fields["result"] for r in _table(pack, "classic.sword_egoism_influence").rows}
    assert ego["2-5"] == "75% chance the score prevail"


def _links(pack: Pack, table_id: str, roll: int) -> list[tuple[str, str]]:
    row = _table(pack, table_id).find(roll)
    assert row is not None
    return [(link.table, link.times) for link in row.links]


def test_links(pack: Pack) -> None:
    assert _links(pack, "classic.magic_maps", 1) == [("classic.magic_items", "1")]
    assert _links(pack, "classic.magic_maps", 100) == [("classic.maps", "1")]
    categories = {
        1: "classic.swords",
        21: "classic.armor",
        36: "classic.misc_weapons",
        41: "classic.potions",
        66: "classic.scrolls",
        86: "classic.rings",
        91: "classic.wands_staves",
        96: "classic.misc_magic",
    }
    for roll, target in categories.items():
        assert _links(pack, "classic.magic_items", roll) == [(target, "1")]
    assert _links(pack, "classic.maps", 1) == [("classic.map_treasure", "1")]
    assert _links(pack, "classic.maps", 61) == [("classic.map_magic", "1")]
    assert _links(pack, "classic.maps", 91) == [("classic.map_magic_treasure", "1")]
    assert _links(pack, "classic.scrolls", 55) == [("classic.scroll_curse", "1")]
    assert _links(pack, "classic.sword_primary_powers", 96) == [("classic.sword_primary_powers", "2")]
    assert _links(pack, "classic.sword_primary_powers", 100) == [("classic.sword_extraordinary", "1")]
    assert _links(pack, "classic.sword_languages", 100) == [("classic.sword_languages", "2")]
    assert _links(pack, "classic.sword_extraordinary", 98) == [("classic.sword_extraordinary", "2")]
    assert _links(pack, "classic.sword_extraordinary", 100) == [("classic.sword_extraordinary", "3")]
    assert _links(pack, "classic.sword_intelligence", 1) == []
    assert _links(pack, "classic.sword_intelligence", 8) == [("classic.sword_primary_powers", "2")]
    assert _links(pack, "classic.sword_intelligence", 12) == [
        ("classic.sword_primary_powers", "3"),
        ("classic.sword_languages", "1"),
        ("classic.sword_extraordinary", "1"),
    ]
    library = TableLibrary(bundled_packs())  # links may lead into the other classic packs (Dragon Control)
    assert check_links(pack.tables, list(library)) == []
