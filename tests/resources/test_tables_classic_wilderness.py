"""The classic wilderness pack ships exactly the tables and rows the rule text prints.

Covers the wilderness wandering monster tables and their subtables, castle residents'
companions, wilderness evasion, specialists and men-at-arms costs, the aerial combat hit
tables and the naval wind tables.
"""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Link, Pack, Table, TableLibrary, check_links
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import bundled_packs, resource_dir


def singles(lo: int, hi: int) -> list[tuple[int, int]]:
    return [(n, n) for n in range(lo, hi + 1)]


# id -> (die, ranges) for rolled tables
ROLLED: dict[str, tuple[str, list[tuple[int, int]]]] = {
    "classic.wilderness_encounter_type": ("d8", singles(1, 8)),
    "classic.wilderness_men": ("d12", singles(1, 12)),
    "classic.wilderness_flyers": ("d12", singles(1, 12)),
    "classic.wilderness_undead": ("d12", singles(1, 12)),
    "classic.wilderness_giants": ("d12", singles(1, 12)),
    "classic.wilderness_lycanthropes": ("d12", singles(1, 12)),
    "classic.wilderness_swimmers": ("d12", singles(1, 12)),
    "classic.wilderness_dragons": ("d12", singles(1, 12)),
    "classic.wilderness_animals": ("d12", singles(1, 12)),
    "classic.hit_on_flying_creature": ("d10", singles(1, 10)),
    "classic.wind_force": ("2d6", [(2, 3), (4, 8), (9, 11), (12, 12)]),
    "classic.wind_direction": ("d8", singles(1, 8)),
}

EVASION_KEYS = [
    f"{party} / {monsters}"
    for party in ("1-3", "4-9", "10-24", "25+")
    for monsters in (
        "25% or less of possible #",
        "26%-60%" if party == "1-3" else "26-60%",
        "Over 60%",
    )
]

# id -> keys for reference (unrolled) tables
REFERENCE: dict[str, list[str]] = {
    "classic.wilderness_lost_encounter": ["Lost", "Encounter"],
    "classic.wilderness_leader_magic": [
        "Fighting-Man: sword",
        "Fighting-Man: shield",
        "Fighting-Man: armor",
        "MU: wand",
        "MU: ring",
        "MU: misc. mg.",
        "Cleric: weapon",
        "Cleric: staff",
        "Cleric: shield",
        "Cleric: 10% line",
    ],
    "classic.castle_companions": ["Fighting-Men", "MU", "Cleric"],
    "classic.wilderness_evasion": EVASION_KEYS,
    "classic.specialists": [
        "Alchemist",
        "Armorer",
        "Assassin",
        "Animal Trainer",
        "Engineer",
        "Sage",
        "Seaman",
        "Ship Captain",
        "Smith",
        "Spy",
    ],
    "classic.men_at_arms": [
        "Non-Fighter",
        "Light Foot",
        "Heavy Foot",
        "Archer",
        "Crossbowman",
        "Longbowman",
        "Light Horseman",
        "Medium Horseman",
        "Heavy Horseman",
    ],
    "classic.critical_hit": ["Rider*", "Head", "Wing", "Body", "Tail"],
}


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "classic-wilderness.json")


def table(pack: Pack, table_id: str) -> Table:
    return next(t for t in pack.tables if t.id == table_id)


def column(pack: Pack, table_id: str, key: str) -> list[str]:
    return [r.fields.get(key, "") for r in table(pack, table_id).rows]


def test_pack_holds_exactly_these_tables(pack: Pack) -> None:
    ids = [t.id for t in pack.tables]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(ROLLED) | set(REFERENCE)
    assert all(t.id.startswith("classic.") for t in pack.tables)


@pytest.mark.parametrize(("table_id", "expected"), sorted(ROLLED.items()))
def test_rolled_table_ranges(pack: Pack, table_id: str, expected: tuple[str, list[tuple[int, int]]]) -> None:
    die, ranges = expected
    t = table(pack, table_id)
    assert t.die == die
    assert len(t.rows) == len(ranges)
    assert [r.range for r in t.rows] == ranges
    assert t.missing_ranges() == []


@pytest.mark.parametrize(("table_id", "keys"), sorted(REFERENCE.items()))
def test_reference_table_keys(pack: Pack, table_id: str, keys: list[str]) -> None:
    t = table(pack, table_id)
    assert t.die is None
    assert len(t.rows) == len(keys)
    assert [r.key for r in t.rows] == keys
    assert all(r.range is None for r in t.rows)


def test_every_field_is_non_empty_and_only_one_row_is_partial(pack: Pack) -> None:
    partial = []
    for t in pack.tables:
        for r in t.rows:
            assert all(v.strip() for v in r.fields.values())
            if r.partial:
                partial.append((t.id, r.key))
    assert partial == [("classic.wilderness_leader_magic", "Cleric: 10% line")]


def test_links_stay_inside_the_pack_except_the_leaders_items(pack: Pack) -> None:
    own = {t.id for t in pack.tables}
    outside = {t.id for t in pack.tables for r in t.rows for link in r.links if link.table not in own}
    assert outside == {"classic.wilderness_leader_magic"}  # only a leader's items lead on, into the magic pack
    inside = [t for t in pack.tables if t.id not in outside]
    assert check_links(inside, list(pack.tables)) == []  # tables, columns and pointed-at rows all exist
    assert check_links(pack.tables, list(TableLibrary(bundled_packs()))) == []


def _kept(library: TableLibrary, link: Link) -> list[str]:
    """What a link's roll can come to: the printed results of the rows its ``reroll`` ranges keep."""
    target = library.get(link.table)
    return [r.text or " ".join(r.fields.values()) for r in target.rows if r.range and not link.ignores(r.low)]


def test_each_leader_item_is_rolled_on_its_own_kind_of_item(pack: Pack) -> None:
    library = TableLibrary(bundled_packs())
    rows = {r.key: r for r in table(pack, "classic.wilderness_leader_magic").rows}
    kept = {key: _kept(library, link) for key, row in rows.items() for link in row.links}
    assert [len(row.links) for row in rows.values()] == [1] * 9 + [0]  # the 10% line names no item
    assert set(kept) == set(rows) - {"Cleric: 10% line"}
    assert kept["Fighting-Man: shield"] == kept["Cleric: shield"] == ["Shield +1", "Shield +2", "Shield +3"]
    assert kept["Fighting-Man: armor"] == ["Armor +1", "Armor +2"]
    assert kept["Cleric: weapon"] == ["Swords", "Misc. Weapons"]
    assert len(kept["Fighting-Man: sword"]) == 13 and len(kept["MU: ring"]) == 17 and len(kept["MU: misc. mg."]) == 29
    assert not any("Staff" in w for w in kept["MU: wand"]) and len(kept["MU: wand"]) == 11
    staves = kept["Cleric: staff"]  # the staves a cleric may employ: marked * (clerics only) or ** (clerics and MUs)
    assert len(staves) == 5 and all("Staff" in w and not w.endswith("***") for w in staves)


def test_lost_and_encounter_chances(pack: Pack) -> None:
    lost, encounter = table(pack, "classic.wilderness_lost_encounter").rows
    terrains = ["clear", "woods", "river", "swamp", "mountains", "desert", "city"]
    assert [lost.fields[k] for k in terrains] == ["1", "1-2", "1", "1-3", "1-2", "1-3", "---"]
    assert [encounter.fields[k] for k in terrains] == ["6", "5-6", "5-6", "4-6", "4-6", "5-6", "6"]


def test_encounter_type_columns_and_links(pack: Pack) -> None:
    t = table(pack, "classic.wilderness_encounter_type")
    assert [c.key for c in t.columns] == ["clear", "woods", "river", "swamp", "mountains", "desert", "city"]
    assert column(pack, t.id, "clear") == ["Men", "Flyer", "Giant", "Lycs.", "Animals", "Men", "Animals", "Dragon"]
    assert column(pack, t.id, "swamp") == ["Men", "Flyer", "Giant", "Lycs.", "Swimmer", "Undead", "Undead", "Dragon"]
    assert column(pack, t.id, "mountains") == ["Men", "Flyer", "Giant", "Lycs.", "Animals", "Giants", "Dragon", "Dragon"]
    assert column(pack, t.id, "desert") == ["Men", "Flyer", "Giant", "Men", "Animals", "Dragon", "---", "---"]
    assert column(pack, t.id, "city") == ["Men", "Undead", "Undead", "Men", "---", "---", "---", "---"]
    links = {r.range[0]: [(link.table, link.column, link.when) for link in r.links] for r in t.rows}
    others = ["clear", "woods", "river", "swamp", "city"]
    assert links[1] == [
        ("classic.wilderness_men", "typical", others),
        ("classic.wilderness_men", "mountain", ["mountains"]),
        ("classic.wilderness_men", "desert", ["desert"]),
    ]
    assert links[2] == [
        ("classic.wilderness_flyers", "", ["clear", "woods", "river", "swamp", "mountains", "desert"]),
        ("classic.wilderness_undead", "", ["city"]),
    ]
    assert links[5] == [
        ("classic.wilderness_animals", "basic", ["clear"]),
        ("classic.wilderness_lycanthropes", "", ["woods"]),
        ("classic.wilderness_swimmers", "", ["river", "swamp"]),
        ("classic.wilderness_animals", "mountains", ["mountains"]),
        ("classic.wilderness_animals", "arid_plains", ["desert"]),
    ]
    assert [(table_id, when) for table_id, _, when in links[6]] == [
        ("classic.wilderness_men", ["clear", "woods"]),
        ("classic.wilderness_swimmers", ["river"]),
        ("classic.wilderness_undead", ["swamp"]),
        ("classic.wilderness_giants", ["mountains"]),
        ("classic.wilderness_dragons", ["desert"]),
    ]
    assert links[8] == [("classic.wilderness_dragons", "", ["clear", "woods", "river", "swamp", "mountains"])]
    # every terrain column with a named type has exactly one link for it; "---" has none (it is rolled again)
    for r in t.rows:
        for terrain in [*others, "mountains", "desert"]:
            wanted = 0 if r.fields[terrain] == "---" else 1
            assert sum(terrain in link.when for link in r.links) == wanted
    assert t.no_entry == "---"
    assert any(n.kind == "text" and "column" in n.text for n in t.notes)


def test_men_columns(pack: Pack) -> None:
    tid = "classic.wilderness_men"
    assert column(pack, tid, "typical")[:4] == ["Bandits", "Brigands", "Necromancer", "Wizard"]
    assert column(pack, tid, "mountain")[-3:] == ["Caveman", "Patriarch", "Berserkers"]
    assert column(pack, tid, "desert")[6:] == [
        "(Red Martians)",
        "(Tharks)",
        "(Black Martians)",
        "(Yellow Martians)",
        "(Tharks)",
        "(White Martians)",
    ]
    assert (
        column(pack, tid, "waterbourne")
        == ["Buccaneers", "Pirates", "Buccaneers", "Pirates", "Buccaneers", "Mermen"] + ["---"] * 6
    )


@pytest.mark.parametrize(
    ("table_id", "key", "values"),
    [
        (
            "classic.wilderness_flyers",
            "flyer",
            [
                "Pegasi",
                "Rocs",
                "Chimerae",
                "Hippogriffs",
                "Griffons",
                "Manticores",
                "Rocs",
                "Wyverns",
                "Dragons",
                "Pegasi",
                "Hippogriffs",
                "---",
            ],
        ),
        (
            "classic.wilderness_undead",
            "undead",
            ["Skeletons", "Zombies", "Ghouls", "Wights", "Wraiths", "Mummies", "Spectres", "Vampires"] + ["---"] * 4,
        ),
        (
            "classic.wilderness_giants",
            "giant",
            [
                "Kobolds",
                "Goblins",
                "Orcs",
                "Hobgoblins",
                "Gnolls",
                "Ogres",
                "Trolls",
                "Giants",
                "Gnomes",
                "Dwarves",
                "Elves",
                "Treants",
            ],
        ),
        ("classic.wilderness_lycanthropes", "lycanthrope", ["Werewolves", "Wereboars", "Weretigers", "Werebears"] + ["---"] * 8),
        (
            "classic.wilderness_swimmers",
            "swimmer",
            [
                "Giant Crabs",
                "Nixies",
                "Giant Octopi",
                "Giant Squid",
                "Sea Monster",
                "Giant Snakes",
                "Crocodiles",
                "Giant Leeches",
                "Mermen",
                "Nixies",
                "Giant Fish",
                "Dragon Turtle",
            ],
        ),
        (
            "classic.wilderness_dragons",
            "dragon",
            [
                "Black Dragons",
                "White Dragons",
                "Green Dragons",
                "Blue Dragons",
                "Red Dragons",
                "Gold Dragons",
                "Cockatrices",
                "Basilisks",
                "Wyverns",
                "---",
                "Chimerae",
                "Hydra (7-12 heads)",
            ],
        ),
    ],
)
def test_monster_type_subtables(pack: Pack, table_id: str, key: str, values: list[str]) -> None:
    assert column(pack, table_id, key) == values


def test_animals(pack: Pack) -> None:
    tid = "classic.wilderness_animals"
    assert [c.label for c in table(pack, tid).columns] == [
        "Basic Animals",
        "Optional Woods",
        "Optional Swamps",
        "Optional Arid Plains",
        "Optional Mountains",
    ]
    assert column(pack, tid, "basic")[-1] == "Snakes"
    assert column(pack, tid, "woods")[8:] == ["---"] * 4
    assert column(pack, tid, "swamps")[:4] == ["Tyr. Rex", "Pter'dyle.", "Triceratops", "Bronto's."]
    assert column(pack, tid, "swamps")[6] == "Pter'dle."
    assert column(pack, tid, "arid_plains")[0] == "Apts"
    assert column(pack, tid, "mountains")[3] == "Mastadons"


def test_leader_magic(pack: Pack) -> None:
    rows = {r.key: r for r in table(pack, "classic.wilderness_leader_magic").rows}
    assert rows["Fighting-Man: sword"].fields["chance"] == "50%"
    assert rows["MU: wand"].fields["chance"] == "60%"
    assert rows["Cleric: weapon"].fields["chance"] == "40%"
    last = rows["Cleric: 10% line"]
    assert last.partial
    assert last.fields == {"class": "Cleric", "chance": "10%"}


def test_castle_companions(pack: Pack) -> None:
    companions = {r.key: r for r in table(pack, "classic.castle_companions").rows}
    assert companions["Fighting-Men"].fields == {
        "resident": "Fighting-Men",
        "chance": "25% for MU 50% for Cleric",
        "level": "5-8 3-6",
    }
    assert companions["MU"].fields["chance"] == "25% chance for Fighting-Man 50% chance for Apprentice"
    assert companions["Cleric"].fields["chance"] == "50% chance for 1-6 Assisstants"
    assert companions["Cleric"].fields["level"] == "4-7"
    assert all(r.text for r in companions.values())


def test_evasion(pack: Pack) -> None:
    t = table(pack, "classic.wilderness_evasion")
    assert column(pack, t.id, "chance") == ["50%", "70%", "90%", "30%", "50%", "70%", "15%", "30%", "50%", "05%", "20%", "30%"]
    modifiers = {n.value for n in t.notes if n.kind == "roll_modifier"}
    assert {"x2", "+25%"} <= modifiers


def test_specialists_and_men_at_arms(pack: Pack) -> None:
    costs = {r.key: r.fields["cost"] for r in table(pack, "classic.specialists").rows}
    assert costs == {
        "Alchemist": "1000/month",
        "Armorer": "100/month",
        "Assassin": "2000/mission",
        "Animal Trainer": "500/month",
        "Engineer": "750/month",
        "Sage": "2000/month",
        "Seaman": "10/month",
        "Ship Captain": "250/month",
        "Smith": "25/month",
        "Spy": "500/mission",
    }
    maa = {r.key: r.fields for r in table(pack, "classic.men_at_arms").rows}
    assert maa["Heavy Foot"] == {"classification": "Heavy Foot", "man": "3", "dwarf": "4", "elf": "5", "orc": "1 1/2"}
    assert maa["Archer"]["elf"] == "10"
    assert maa["Heavy Horseman"]["man"] == "20"


def test_hit_on_flying_creature(pack: Pack) -> None:
    tid = "classic.hit_on_flying_creature"
    assert column(pack, tid, "front") == ["Rider"] * 2 + ["Head"] * 2 + ["Wing"] * 2 + ["Body"] * 4
    assert column(pack, tid, "side") == ["Rider"] + ["Head"] * 2 + ["Wing"] * 2 + ["Body"] * 4 + ["Tail"]
    assert column(pack, tid, "top") == ["Rider"] + ["Head"] * 2 + ["Wing"] * 4 + ["Body"] * 2 + ["Tail"]
    assert column(pack, tid, "bottom") == ["Head"] * 2 + ["Wing"] * 3 + ["Body"] * 4 + ["Tail"]
    assert column(pack, tid, "tail") == ["Rider"] * 2 + ["Head"] + ["Wing"] * 2 + ["Body"] * 3 + ["Tail"] * 2


def test_critical_hits(pack: Pack) -> None:
    rows = {r.key: r.fields for r in table(pack, "classic.critical_hit").rows}
    assert rows["Rider*"]["withdraw"] == "100%"
    assert rows["Head"] == {
        "location": "Head",
        "probability": "20%",
        "speed": "10%",
        "dive": "30%",
        "withdraw": "40%",
        "crash": "20%",
    }
    assert rows["Tail"]["probability"] == "NIL"


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        (2, "Calm"),
        (3, "Calm"),
        (4, "Light to Moderate Breeze"),
        (8, "Light to Moderate Breeze"),
        (9, "Fresh to Strong Breeze"),
        (11, "Fresh to Strong Breeze"),
        (12, "Gale or Storm"),
    ],
)
def test_wind_force(pack: Pack, roll: int, result: str) -> None:
    row = table(pack, "classic.wind_force").find(roll)
    assert row is not None
    assert row.fields["result"] == result


def test_wind_direction(pack: Pack) -> None:
    assert column(pack, "classic.wind_direction", "direction") == [
        "North",
        "Northeast",
        "East",
        "Southeast",
        "South",
        "Southwest",
        "West",
        "Northwest",
    ]
