"""The d20 Scars combat pack ships exactly the tables and rows the rule text prints."""

from __future__ import annotations

import pytest

from d100gui.engine.dice.tables import Pack
from d100gui.storage.packs import read_pack_file
from d100gui.storage.resources import resource_dir


@pytest.fixture(scope="module")
def pack() -> Pack:
    return read_pack_file(resource_dir() / "tables" / "d20-scars.json")


def test_pack_holds_the_reaction_table_and_the_rules_numbers(pack: Pack) -> None:
    assert [t.id for t in pack.tables] == ["d20.reaction", "d20.rules"]  # the rules table: issue 22, deliver 2


def test_reaction_rows(pack: Pack) -> None:
    table = pack.tables[0]
    assert table.die == "2d6"
    assert table.die_range() == (2, 12)
    assert [c.key for c in table.columns] == ["reaction"]
    assert len(table.rows) == 5
    assert [r.range for r in table.rows] == [(2, 3), (4, 6), (7, 7), (8, 10), (11, 12)]
    assert [r.fields["reaction"] for r in table.rows] == ["Friendly.", "Helpful.", "Uninterested.", "Hostile.", "Murderous."]
    assert table.missing_ranges() == []
    assert all(not r.partial and not r.links for r in table.rows)


@pytest.mark.parametrize(
    ("roll", "reaction"),
    [(2, "Friendly."), (5, "Helpful."), (7, "Uninterested."), (10, "Hostile."), (12, "Murderous.")],
)
def test_reaction_lookup(pack: Pack, roll: int, reaction: str) -> None:
    row = pack.tables[0].find(roll)
    assert row is not None
    assert row.fields["reaction"] == reaction
