"""The classic rules' treasure and underworld tables, checked against the printed text."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack, Table, TableLibrary, check_links
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import bundled_packs, resource_dir

PACK_FILE = resource_dir() / "tables" / "classic-underworld.json"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(PACK_FILE)


def table(pack: Pack, table_id: str) -> Table:
    return next(t for t in pack.tables if t.id == table_id)


def singles(n: int) -> list[tuple[int, int]]:
    return [(i, i) for i in range(1, n + 1)]


# Every table: its die and its printed ranges (or keys for reference tables).
EXPECTED: dict[str, tuple[str | None, list]] = {
    "classic.gem_base_value": ("d100", [(1, 10), (11, 25), (26, 75), (76, 90), (91, 100)]),
    "classic.gem_step_up": ("d6", [(1, 1)]),
    "classic.gem_categories_above_1000": (None, ["5000", "10,000", "50,000", "100,000", "500,000"]),
    "classic.jewelry_base_value": ("d100", [(1, 20), (21, 80), (81, 100)]),
    "classic.treasure_by_level": (None, ["1", "2-3", "4-5", "6-7", "8-9", "10-12", "13 or more"]),
    "classic.monster_determination_matrix": ("d6", singles(6)),
    "classic.monster_level_1": ("d8", singles(8)),
    "classic.monster_level_2": ("d10", singles(10)),
    "classic.monster_level_3": ("d10", singles(10)),
    "classic.monster_level_4": ("d10", singles(10)),
    "classic.monster_level_5": ("d12", singles(12)),
    "classic.monster_level_6": ("d12", singles(12)),
    "classic.monster_random_actions": ("2d6", [(2, 5), (6, 8), (9, 12)]),
    "classic.shifting_wall": ("d6", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 6)]),
    "classic.castle_occupant": ("d6", singles(6)),
}


def test_pack_holds_exactly_the_expected_tables(pack: Pack) -> None:
    assert pack.id == "classic-underworld"
    assert [t.id for t in pack.tables] == list(EXPECTED)
    assert all(t.id.startswith("classic.") for t in pack.tables)


@pytest.mark.parametrize("table_id", list(EXPECTED))
def test_row_count_and_ranges(pack: Pack, table_id: str) -> None:
    t = table(pack, table_id)
    die, expected = EXPECTED[table_id]
    assert t.die == die
    assert len(t.rows) == len(expected)
    if die is None:
        assert [r.key for r in t.rows] == expected
        assert all(r.range is None for r in t.rows)
    else:
        assert [r.range for r in t.rows] == expected
    assert not any(r.partial for r in t.rows)


def test_no_gaps_the_unprinted_gem_step_up_faces_mean_no_change(pack: Pack) -> None:
    gaps = {t.id: t.missing_ranges() for t in pack.tables if t.missing_ranges()}
    assert gaps == {}
    step = table(pack, "classic.gem_step_up")
    assert [r.range for r in step.rows] == [(1, 1)]  # the only printed row; 2-6 are implied, never stored
    assert not step.find(1).implied
    for face in range(2, 7):
        implied = step.find(face)
        assert implied.implied and implied.fields == {"result": "no change: the gem stays in its category"}
    assert step.find(7) is None


def test_links_resolve_in_the_bundled_library(pack: Pack) -> None:
    library = TableLibrary(bundled_packs())  # treasure by level leads on to the magic pack
    assert check_links(pack.tables, list(library)) == []


def test_gems_and_jewelry(pack: Pack) -> None:
    gems = table(pack, "classic.gem_base_value")
    assert [r.fields["value"] for r in gems.rows] == ["10 GP", "50", "100", "500", "1000"]
    assert gems.find(100).fields["value"] == "1000"
    assert gems.find(1).fields["value"] == "10 GP"
    step = table(pack, "classic.gem_step_up")
    assert step.find(1).fields["result"] == "the gem is of the next higher category"
    above = table(pack, "classic.gem_categories_above_1000")
    assert [r.fields["value"] for r in above.rows] == ["5000", "10,000", "50,000", "100,000", "500,000"]
    jewelry = table(pack, "classic.jewelry_base_value")
    assert [r.fields["value"] for r in jewelry.rows] == ["3d6 x 100 GP", "1d6 x 1000 GP", "1d10 x 1000 GP"]


def test_treasure_by_level(pack: Pack) -> None:
    t = table(pack, "classic.treasure_by_level")
    rows = {r.key: r.fields for r in t.rows}
    assert rows["1"] == {"silver": "100*", "gold": "10*", "gems_jewelry": "05% each*", "magic": "05%"}
    assert rows["2-3"]["silver"] == "100**"
    assert rows["8-9"] == {"silver": "5000*", "gold": "1000*", "gems_jewelry": "40% each**", "magic": "20%"}
    assert rows["13 or more"] == {"silver": "10,000*", "gold": "5000*", "gems_jewelry": "50% each**", "magic": "30%"}
    texts = [n.text for n in t.notes]
    assert "* multiply by # rolled on a d6" in texts
    assert "** multiply by # rolled on a d12" in texts


# The matrix as printed: level beneath the surface -> die range per Monster Level Table 1-6.
PRINTED_MATRIX = {
    "level_1": ["1-2", "3-4", "5", "6", "-", "-"],
    "level_2": ["1", "2", "3-4", "5", "6", "-"],
    "level_3": ["-", "1", "2", "3-4", "5", "6"],
    "level_4_5": ["-", "-", "1", "2-3", "4-5", "6"],
    "level_6_7": ["-", "-", "-", "1", "2-4", "5-6"],
    "level_8_9": ["-", "-", "-", "-", "1-2", "3-6"],
    "level_10_12": ["-", "-", "-", "-", "1", "2-6"],
    "level_13_plus": ["-", "-", "-", "-", "-", "1-6"],
}


def _faces(cell: str) -> set[int]:
    if cell == "-":
        return set()
    lo, _, hi = cell.partition("-")
    return set(range(int(lo), int(hi or lo) + 1))


def test_matrix_matches_the_printed_cross_reference(pack: Pack) -> None:
    t = table(pack, "classic.monster_determination_matrix")
    assert [c.key for c in t.columns] == list(PRINTED_MATRIX)
    for column, cells in PRINTED_MATRIX.items():
        for face in range(1, 7):
            (number,) = [i + 1 for i, cell in enumerate(cells) if face in _faces(cell)]
            assert t.find(face).fields[column] == f"Table {number}"
    assert t.find(1).fields["level_1"] == "Table 1"
    assert t.find(6).fields["level_1"] == "Table 4"
    assert t.find(1).fields["level_13_plus"] == "Table 6"


def test_matrix_rows_link_each_named_table_once(pack: Pack) -> None:
    t = table(pack, "classic.monster_determination_matrix")
    for row in t.rows:
        named = sorted({int(v.removeprefix("Table ")) for v in row.fields.values()})
        assert [link.table for link in row.links] == [f"classic.monster_level_{n}" for n in named]
        assert all(link.times == "1" and link.label for link in row.links)
    first = t.find(1)
    assert [(link.table, link.label) for link in first.links] == [
        ("classic.monster_level_1", "Dungeon levels 1, 2"),
        ("classic.monster_level_2", "Dungeon level 3"),
        ("classic.monster_level_3", "Dungeon levels 4-5"),
        ("classic.monster_level_4", "Dungeon levels 6-7"),
        ("classic.monster_level_5", "Dungeon levels 8-9, 10-12"),
        ("classic.monster_level_6", "Dungeon levels 13+"),
    ]


MONSTERS = {
    1: ["Kobolds", "Goblins", "Skeletons", "Orcs", "Giant Rats", "Centipedes", "Bandits", "Spiders"],
    2: ["Hobgoblins", "Zombies", "Lizards", "Warriors", "Conjurers", "Gnolls", "Thouls", "Ghouls", "Berserkers", "Theurgists"],
    3: [
        "Wights",
        "Heros",
        "Giant Hogs",
        "Giant Ants",
        "Ochre Jelly",
        "Thaumaturgists",
        "Swashbucklers",
        "Magicians",
        "Giants Snakes",
        "Giant Weasels",
    ],
    4: [
        "Wraiths",
        "Ogres",
        "Evil Priests",
        "Myrmidons",
        "Giant Beetles",
        "Giant Scorpions",
        "Lycanthropes",
        "Gargoyles",
        "White Apes",
        "Enchanters",
    ],
    5: [
        "Trolls",
        "Superheroes",
        "Wyverns",
        "Spectres",
        "Mummies",
        "Minotaurs",
        "Manticores",
        "Cockatrices",
        "Sorcerers",
        "Wyverns",
        "Hydra (6-8 Heads)",
        "Medusae",
    ],
    6: [
        "Giants",
        "Hydra (9-12 heads)",
        "Dragons",
        "Basilisks",
        "Gorgons",
        "Chimeras",
        "Vampires",
        "Lords",
        "Spectres",
        "Wizards*",
        "Evil High Priests*",
        "Purple Worms",
    ],
}


@pytest.mark.parametrize("level", list(MONSTERS))
def test_monster_level_tables_verbatim(pack: Pack, level: int) -> None:
    t = table(pack, f"classic.monster_level_{level}")
    assert t.title == f"Monster Level Table {level}"
    assert [r.fields["monster"] for r in t.rows] == MONSTERS[level]


def test_random_actions(pack: Pack) -> None:
    t = table(pack, "classic.monster_random_actions")
    assert [r.fields["reaction"] for r in t.rows] == ["negative reaction", "uncertain reaction", "positive reaction"]
    assert t.roll_modifier_note() is not None


def test_shifting_wall(pack: Pack) -> None:
    t = table(pack, "classic.shifting_wall")
    assert [r.fields["direction"] for r in t.rows] == ["N.", "E.", "S.", "W.", "it stays put!"]


def test_castle_occupant(pack: Pack) -> None:
    t = table(pack, "classic.castle_occupant")
    assert [r.fields["occupant"] for r in t.rows] == ["Lord", "Superhero", "Wizard", "Necromancer", "Patriarch", "Evil H.P."]
    assert t.find(1).fields == {
        "occupant": "Lord",
        "guards_1": "Champs.8",
        "guards_2": "Griffons*6",
        "guards_3": "Myrmidons10",
        "guards_4": "Giants4",
    }
    assert t.find(2).fields["guards_1"] == "Myrmi's.8"
    assert t.find(6).fields["guards_3"] == "White Apes20"
