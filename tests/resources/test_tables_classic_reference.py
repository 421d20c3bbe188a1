"""The classic reference pack ships exactly the blocks the rule text prints and no other pack held.

Movement and terrain costs, sword purpose, staff powers, artifacts, barony investments,
aerial turns, naval movement, oar fatigue and speed changes, crews, swimming, campaign time
and the exchange rate (the exploration text's travel rounds are in the exploration pack).
"""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack, Table, check_links, check_table
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import resource_dir

RULE_TEXT = resource_dir().parent.parent / "shared" / "rules" / "classic-underworld-and-wilderness.txt"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "classic-reference.json")


def table(pack: Pack, table_id: str) -> Table:
    return next(t for t in pack.tables if t.id == table_id)


def column(pack: Pack, table_id: str, key: str) -> list[str]:
    return [r.fields[key] for r in table(pack, table_id).rows]


def test_pack_holds_exactly_these_tables_each_valid(pack: Pack) -> None:
    assert [t.id for t in pack.tables] == [
        "classic.wilderness_movement", "classic.wilderness_terrain_cost", "classic.wilderness_large_party",
        "classic.sword_purpose", "classic.sword_purposes", "classic.sword_purpose_ability", "classic.staff_of_power",
        "classic.staff_of_wizardry", "classic.artifacts", "classic.artifact_harm", "classic.barony_investments",
        "classic.aerial_turns", "classic.naval_movement", "classic.oar_fatigue", "classic.oar_speed_changes",
        "classic.crew_numbers", "classic.swimming", "classic.campaign_time", "classic.exchange_rate",
    ]  # fmt: skip
    assert all(check_table(t) == [] for t in pack.tables)
    assert check_links(pack.tables, list(pack.tables)) == []
    reference = [t for t in pack.tables if t.die is None]
    assert all(r.key and r.range is None for t in reference for r in t.rows)


def test_movement_as_printed(pack: Pack) -> None:
    move = table(pack, "classic.wilderness_movement")
    printed = {r.key: (r.fields["hexes"], r.fields["mode"]) for r in move.rows}
    assert printed == {
        "Man on foot": ("3", "land"), "Wagon or Cart": ("4", "land"), "Draft Horse": ("5", "land"),
        "Heavy Horse": ("6", "land"), "Medium Horse": ("8", "land"), "Light Horse": ("10", "land"),
        "Raft": ("10 (3)", "water"), "Boat": ("15 (5)", "water"), "Merchant": ("12", "water"), "Galley": ("20 (6)", "water"),
        "Dragon": ("24", "flying"), "Griffon": ("30", "flying"), "Hippogriff": ("40", "flying"), "Roc": ("48", "flying"),
        "Pegasus": ("48", "flying"), "Broom": ("40", "flying"), "Carpet": ("30", "flying"), "Efreet": ("20", "flying"),
        "Djinn or Air Elemental": ("30", "flying"),
    }  # fmt: skip
    assert column(pack, "classic.wilderness_terrain_cost", "cost") == ["3", "3", "3", "2", "2", "2", "no movement penalty"]
    assert column(pack, "classic.wilderness_large_party", "penalty") == ["1 hex penalty", "2 hex penalty"]


def test_sword_purpose(pack: Pack) -> None:
    purpose = table(pack, "classic.sword_purpose")
    assert purpose.die == "d100" and [r.range for r in purpose.rows] == [(91, 100)]
    assert purpose.find(90) is not None and purpose.find(90).implied  # "91 or higher": anything less is none
    assert column(pack, "classic.sword_purposes", "purpose") == [
        "Slay Magic-Users", "Slay Fighting-Men", "Defeat Law", "Slay Clerics", "Slay Monsters", "Defeat Chaos",
    ]  # fmt: skip
    assert [r.key for r in table(pack, "classic.sword_purpose_ability").rows] == ["Law", "Neutrality", "Chaos"]


def test_staves_artifacts_and_investments(pack: Pack) -> None:
    assert column(pack, "classic.staff_of_power", "power") == [
        "Cold", "Fire Balls", "Lightning Bolts", "Striking", "Continual Light", "TK",
    ]  # fmt: skip
    wizardry = column(pack, "classic.staff_of_wizardry", "power")
    assert wizardry == [
        "Paralyzation",
        "Invisibility",
        "Wall of Fire",
        "Elementals*",
        "Passwall",
        "Whirlwind (as Djinni)",
        "Webs",
    ]
    assert len(column(pack, "classic.artifacts", "artifact")) == 5
    assert column(pack, "classic.artifact_harm", "effect")[-1] == "Take 10 HD of Damage"
    assert len(column(pack, "classic.barony_investments", "investment")) == 15


def test_naval_tables(pack: Pack) -> None:
    naval = {r.key: r.fields for r in table(pack, "classic.naval_movement").rows}
    assert list(naval) == [
        "Galley, Lg", "Galley, Sm.", "Longship", "Merchant, Lg.", "Merchant, Sm.", "Sailed Warship", "Boat", "Raft",
    ]  # fmt: skip
    assert naval["Longship"] == {
        "type": "Longship", "slow": "12", "cruise": "18", "fast": "25", "running": "30/35", "broad": "25/30",
        "quarter": "20/25", "beating": "---",
    }  # fmt: skip
    assert naval["Raft"]["cruise"] == "10" and naval["Raft"]["quarter"] == "---"
    assert column(pack, "classic.oar_fatigue", "factors") == [
        "1 Fatigue Factor", "2 Fatigue Factors", "3 Fatigue Factor", "10 Fatigue Factors",
    ]  # fmt: skip
    changes = table(pack, "classic.oar_speed_changes").rows
    assert [(r.fields["from"], r.fields["to"]) for r in changes][:2] == [("Fast", "Slow"), ("Cruise", "Stop")]
    assert len(changes) == 7
    crews = {r.key: r.fields["crew"] for r in table(pack, "classic.crew_numbers").rows}
    assert crews["Longship"] == "75 crew (64 rowers max.)" and crews["Sailed Warship"] == "15-20 Crew"


def test_swimming_time_and_money(pack: Pack) -> None:
    assert column(pack, "classic.swimming", "chance") == ["100%", "80%", "20%", "05%*"]
    assert column(pack, "classic.swimming", "remove") == ["---", "yes", "no", "---"]
    assert column(pack, "classic.campaign_time", "time") == ["1 week", "1 move = 1day", "1 week of game time"]
    assert column(pack, "classic.exchange_rate", "per_gp") == ["1", "10", "50"]


def test_every_cell_appears_in_the_rule_text(pack: Pack) -> None:
    """Rows as printed: every cell (bar the travel mode we add) is words of the text, never a made-up row."""
    text = RULE_TEXT.resolve().read_text(encoding="utf-8") if RULE_TEXT.resolve().exists() else ""
    if not text:
        pytest.skip("the rule texts are not next to this checkout")
    flat = " ".join(text.split()).lower()
    for t in pack.tables:
        for row in t.rows:
            for key, cell in row.fields.items():
                if key == "mode":
                    continue  # our column: how the means of travel goes (land, water, flying)
                assert cell.lower().rstrip("*") in flat, (t.id, row.key, cell)
