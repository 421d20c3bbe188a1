"""The classic procedures pack: the referee's procedures' numbers as printed, each rule quoted verbatim (issue 22)."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack, check_links, check_table
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import resource_dir

RULE_TEXT = resource_dir().parent.parent / "shared" / "rules" / "classic-underworld-and-wilderness.txt"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "classic-procedures.json")


def cell(pack: Pack, table_id: str, key: str, column: str) -> str:
    table = next(t for t in pack.tables if t.id == table_id)
    row = table.find_key(key)
    assert row is not None, key
    return row.fields[column]


def test_pack_holds_exactly_these_tables_each_valid(pack: Pack) -> None:
    assert [t.id for t in pack.tables] == [
        "classic.underworld_checks", "classic.underworld_time", "classic.sword_alignment_damage", "classic.spell_rings",
        "classic.treasure_fire_lightning", "classic.hiring_costs", "classic.barony", "classic.air_sea", "classic.pursuit",
        "classic.castle_rules", "classic.stocking_rules", "classic.wilderness_rules",
        "classic.item_rules", "classic.healing", "classic.dice",
    ]  # fmt: skip
    assert all(check_table(t) == [] for t in pack.tables)
    assert check_links(pack.tables, list(pack.tables)) == []
    assert all(t.die is None and all(r.key and r.range is None for r in t.rows) for t in pack.tables)


def test_the_numbers_as_printed(pack: Pack) -> None:
    checks = "classic.underworld_checks"
    assert cell(pack, checks, "Secret passage: Elves", "on") == "1-4"
    assert cell(pack, checks, "Spike slips", "on") == "5-6" and cell(pack, checks, "Listen: Humans", "on") == "1"
    assert cell(pack, "classic.underworld_time", "Moves per turn", "value") == "2"
    assert cell(pack, "classic.sword_alignment_damage", "Law -- Chaos", "damage") == "2 Dice (2-12 points)"
    assert cell(pack, "classic.spell_rings", "Clerical spells", "value") == "20%"
    assert cell(pack, "classic.treasure_fire_lightning", "Jewelry", "fire") == "devalue Jewelry by 25%"
    assert cell(pack, "classic.barony", "Villages", "value") == "2-8"


def test_every_rule_and_value_is_words_of_the_text(pack: Pack) -> None:
    """Mechanics verbatim: each quoted rule (and each printed cost or range) is found in the rule text."""
    text = RULE_TEXT.resolve().read_text(encoding="utf-8") if RULE_TEXT.resolve().exists() else ""
    if not text:
        pytest.skip("the rule texts are not next to this checkout")
    flat = " ".join(text.split()).lower()
    quoted = [r.fields["rule"] for t in pack.tables for r in t.rows if "rule" in r.fields]
    quoted += [r.text for t in pack.tables for r in t.rows if r.text]
    quoted += [r.fields["damage"] for r in next(t for t in pack.tables if t.id == "classic.sword_alignment_damage").rows]
    assert len(quoted) > 25
    missing = [q for q in quoted if " ".join(q.split()).lower() not in flat]
    assert missing == []
