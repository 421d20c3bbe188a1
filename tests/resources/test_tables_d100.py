"""The bundled D100 Dungeon pack: every table, its rows and ranges exactly as the rulebook prints them."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack, Table
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import resource_dir


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "d100-dungeon.json")


def _table(pack: Pack, table_id: str) -> Table:
    return next(t for t in pack.tables if t.id == table_id)


# table id -> (die, ranges as printed, ranges shipped partial)
EXPECTED: dict[str, tuple[str, list[tuple[int, int]], list[tuple[int, int]]]] = {
    "d100.A": ("d100", [(1, 4), (5, 8), (9, 12), (13, 16)], []),
    "d100.B": ("d100", [(1, 5), (6, 10), (11, 15), (16, 20), (21, 25), (26, 30), (31, 35), (36, 37), (38, 39)], []),
    "d100.C": ("d100", [(n, n) for n in range(1, 10)], []),
    "d100.D": ("d100", [(1, 29), (30, 31), (32, 33), (34, 35), (36, 37), (38, 39), (40, 41)], [(40, 41)]),
    "d100.E": ("d100", [(1, 10), (11, 20), (21, 25)], [(21, 25)]),
    "d100.F": ("d100", [(1, 5), (6, 10), (11, 15), (16, 20), (21, 25), (26, 30)], []),
    "d100.G": ("d100", [(n, n) for n in range(1, 7)], []),
    "d100.I": ("d100", [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14)], []),
    "d100.J": ("d100", [(1, 6), (7, 16), (17, 30), (31, 40), (41, 50)], []),
    "d100.L": ("d100", [(1, 8), (9, 17), (18, 26), (27, 31), (32, 36)], []),
    "d100.P": ("d100", [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15)], []),
    "d100.Q": ("d100", [(1, 2), (3, 4), (5, 6), (7, 8)], [(7, 8)]),
    "d100.R": ("d100", [(1, 15), (16, 30), (31, 45), (46, 50), (51, 55), (56, 60), (61, 65), (66, 70)], [(66, 70)]),
    "d100.S": ("d100", [(1, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 24), (25, 28)], [(25, 28)]),
    "d100.TA": ("d100", [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 46), (47, 49)], [(47, 49)]),
    "d100.TB": ("d100", [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 46), (47, 49)], [(47, 49)]),
    "d100.TC": ("d100", [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 46), (47, 49)], [(47, 49)]),
    "d100.W": ("d100", [(1, 2), (3, 4), (5, 6), (7, 8)], []),
    "d100.reaction": ("d10", [(n, n) for n in range(1, 11)], []),
    "d100.hit_location": ("d10", [(n, n) for n in range(1, 10)], [(9, 9)]),
    "d100.dark_magic": ("d10", [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)], []),
}


def test_pack_holds_exactly_the_expected_tables(pack: Pack) -> None:
    assert pack.id == "d100-dungeon"
    assert [t.id for t in pack.tables] == list(EXPECTED)
    assert "d100.M" not in {t.id for t in pack.tables}


@pytest.mark.parametrize("table_id", list(EXPECTED))
def test_rows_and_ranges(pack: Pack, table_id: str) -> None:
    die, ranges, partial = EXPECTED[table_id]
    table = _table(pack, table_id)
    assert table.die == die
    assert len(table.rows) == len(ranges)
    assert [r.range for r in table.rows] == ranges
    assert [r.range for r in table.rows if r.partial] == partial
    for row in table.rows:
        assert all(value.strip() for value in row.fields.values())
        if not row.partial:
            assert set(row.fields) >= {c.key for c in table.columns if not c.optional}


def test_links_point_inside_the_pack(pack: Pack) -> None:
    ids = {t.id for t in pack.tables}
    for table in pack.tables:
        for row in table.rows:
            for link in row.links:
                assert link.table in ids, (table.id, row.range_label(), link.table)


def test_table_a(pack: Pack) -> None:
    row = _table(pack, "d100.A").find(1)
    assert row is not None
    assert row.fields == {"slot": "Legs", "item": "Leather Tasset", "def": "0 DEF", "value": "23 gp", "repair": "5 gp"}
    assert _table(pack, "d100.A").find(16).fields["item"] == "Leather Arm Guards"


def test_table_b_effects_and_item_link(pack: Pack) -> None:
    table = _table(pack, "d100.B")
    assert table.column("effect").effect
    assert table.find(3).fields == {"name": "STRONGER", "effect": "add +5 STR to the Time Track."}
    item = table.find(28)
    assert item.fields["name"] == "ITEM"
    assert [(lk.table, lk.times) for lk in item.links] == [("d100.I", "1")]
    assert table.find(39).fields["name"] == "TREAT DISEASE"


def test_table_c(pack: Pack) -> None:
    table = _table(pack, "d100.C")
    assert table.find(1).fields["name"] == "DIVINE WRATH"
    unskilled = table.find(4)
    assert unskilled.fields["effect"].startswith("Roll d10 for a skill and suffer -10 from its bonus")
    assert unskilled.links == []
    assert table.find(8).fields["effect"] == "cannot move [+3]."


def test_table_d(pack: Pack) -> None:
    table = _table(pack, "d100.D")
    assert table.find(15).fields == {"door": "OPEN (OPEN)", "effect": "The door is open"}
    assert table.find(33).fields["effect"] == (
        "To open test TRAP LOCKED DOOR – Test: Dex [S:Open] [F:-1 Pick, -1 hp, +1 ] (Locks,Traps)"
    )
    magic = table.find(40)
    assert magic.partial and magic.fields == {"door": "MAGIC (MS)"}
    assert table.notes[0].text == "You need to have a pick in order to pick a lock."


def test_table_e(pack: Pack) -> None:
    table = _table(pack, "d100.E")
    note = table.roll_modifier_note()
    assert note is not None and note.value == "quest encounter modifier"
    rats = table.find(5)
    assert rats.fields == {
        "monster": "Giant Rats (C)",
        "av": "25",
        "def": "0",
        "dmg": "-2",
        "hp": "3/2/2",
        "loot": "[K:Table P]",
        "special": "Disease, Pack",
    }
    assert [(lk.table, lk.modifier) for lk in rats.links] == [("d100.P", 0)]
    assert table.find(15).fields["special"] == "Fly, Surprise, Pack"
    ants = table.find(21)
    assert ants.partial and "special" not in ants.fields and ants.fields["hp"] == "3/2/3/3"
    assert table.column("loot").effect and not table.column("special").effect


def test_table_f(pack: Pack) -> None:
    table = _table(pack, "d100.F")
    bonus = [n for n in table.notes if n.kind == "column_bonus"]
    assert [n.text for n in bonus] == ["Column key: +0 to ROLL / +10 to ROLL / +5 to ROLL / +20 to ROLL."]
    assert [table.find(lo).fields["time"] for lo in (1, 6, 11, 16, 21, 26)] == ["+2", "+2", "+2", "+1", "+1", "+1"]
    assert table.column("time").effect
    assert [lk.table for lk in table.find(1).links] == ["d100.G"]
    assert [lk.table for lk in table.find(6).links] == ["d100.E"]
    assert table.find(30).fields["effect"] == "make a belt check."


def test_table_g(pack: Pack) -> None:
    table = _table(pack, "d100.G")
    assert table.find(3).fields == {
        "name": "PENDULUM TRAP",
        "effect": "Test - PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)",
    }
    snake = table.find(4)
    assert "GIANT SNAKE – AV:55 DEF:3 HP:16 DMG:+2 [K:Table P +10] (Poison)" in snake.fields["effect"]
    assert [(lk.table, lk.modifier) for lk in snake.links] == [("d100.P", 10)]


def test_table_i(pack: Pack) -> None:
    table = _table(pack, "d100.I")
    assert table.find(11).fields == {"item": "WORN KEY", "effect": "(Shade in 1 Key Pip)", "value": "8gp"}
    assert table.find(14).fields == {"item": "FOOD", "effect": "(+1 Food)", "value": "10gp"}
    assert table.find(1).fields == {"item": "PESTLE AND MORTAL", "value": "2gp"}
    assert table.find(15) is None


def test_table_j_cross_reference(pack: Pack) -> None:
    table = _table(pack, "d100.J")
    assert [c.key for c in table.columns] == ["trade", "finance", "holdings", "wars"]
    assert table.find(1).fields == {"trade": "-3 Pips", "finance": "-4 Pips", "holdings": "-1 Share", "wars": "-2 Shares"}
    assert table.find(50).fields == {"trade": "+1 Pip", "finance": "No Gain", "holdings": "-1 Pips", "wars": "-2 Pips"}
    values = {n.value for n in table.notes}
    assert "Trade 100gp / Finance 300gp / Holdings 500gp / Wars 1000gp" in values
    assert "Trade 20gp / Finance 60gp / Holdings 100gp / Wars 200gp" in values


def test_tables_l_p_q(pack: Pack) -> None:
    assert _table(pack, "d100.L").find(36).fields == {
        "legend": "LEGEND of the Giants",
        "adjustment": "+3 DMG",
        "value": "900gp",
        "repair": "180gp",
    }
    parts = _table(pack, "d100.P")
    assert [r.fields["part"] for r in parts.rows] == ["EARS", "BONE", "ARM/WING", "TOOTH", "NAIL/CLAW"]
    assert parts.find(16) is None
    quests = _table(pack, "d100.Q")
    assert quests.find(1).fields == {
        "quest": "Dungeon Training 1",
        "objective": "Basic dungeoning, loot 3 Parts.",
        "enc_mod": "-40",
        "reward": "50gp",
        "fail": "- ½ gp",
    }
    last = quests.find(8)
    assert last.partial and "fail" not in last.fields and last.fields["reward"] == "80gp"


def test_tables_r_s(pack: Pack) -> None:
    req = _table(pack, "d100.R")
    assert req.find(1).fields == {"item": "LOCK PICK", "effect": "(+1 Pick)", "value": "5gp"}
    dodge = req.find(70)
    assert dodge.partial and dodge.fields["item"] == "BREW OF LESSER DODGE" and "value" not in dodge.fields
    spells = _table(pack, "d100.S")
    assert spells.find(1).fields == {"spell": "OPEN MAGIC", "effect": "Opens magic sealed doors.", "cost": "-1 HP"}
    assert spells.find(6).fields["cost"] == "-5 STR"
    ice = spells.find(25)
    assert ice.partial and ice.fields["spell"] == "ICE STORM" and "cost" not in ice.fields


def test_treasure_tables(pack: Pack) -> None:
    ta, tb, tc = (_table(pack, tid) for tid in ("d100.TA", "d100.TB", "d100.TC"))
    assert [t.find(20).fields["value"] for t in (ta, tb, tc)] == ["100gp", "150gp", "250gp"]
    assert ta.find(20).fields["effect"].startswith("(Add one Objective)")
    assert ta.find(47).fields["item"] == "BREW OF FINER DODGE"
    assert tb.find(47).fields["item"] == "BREW OF GREATER INTELLIGENCE"
    assert tc.find(47).fields == {"item": "GEM STONES"}
    assert tc.find(1).fields["effect"] == "Drink to gain +4 DMG for your next DAMAGE Dice roll."


def test_table_w(pack: Pack) -> None:
    table = _table(pack, "d100.W")
    assert table.find(1).fields == {"type": "(R)", "weapon": "Sling", "adjustment": "-2 DMG", "value": "12", "repair": "3"}
    assert table.find(8).fields["weapon"] == "Stave"
    assert table.find(9) is None


def test_reaction_hit_location_dark_magic(pack: Pack) -> None:
    reaction = _table(pack, "d100.reaction")
    assert reaction.find(10).fields["reaction"] == "Monster will Escape"
    assert reaction.find(1).fields["reaction"] == "Monster has less than ½ its HP gains AV+10"
    assert [reaction.find(n).fields["reaction"] for n in range(3, 8)] == ["Monster will Attack as normal"] * 5
    hit = _table(pack, "d100.hit_location")
    assert hit.find(1).fields == {"roll": "1", "location": "Head", "mod": "+3"}
    assert hit.find(8).fields["mod"] == "Belt Check"
    assert hit.find(9).fields == {"roll": "9", "location": "Legs"}
    assert hit.find(10) is None
    dark = _table(pack, "d100.dark_magic")
    assert dark.find(10).fields == {"spell": "Death Bolt", "effect": "Character loses 2 HP"}
    assert dark.find(1).fields == {"spell": "Dark Strike", "effect": "+20 Monsters AV"}
