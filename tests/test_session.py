"""The dice session: commands in, events out, history kept."""

from __future__ import annotations

import pytest

from d100gui.engine.dice import Dice, ScriptedSource
from d100gui.engine.roller import MissingRowPolicy
from d100gui.engine.session import (
    DiceSession,
    FollowLink,
    ProvideRow,
    RerollDice,
    RollDice,
    RollMade,
    RollTable,
    RowMissing,
    RowProvided,
    SessionError,
)
from d100gui.engine.tables import Pack, Row, TableLibrary


def make(bundled_library, *faces, policy=MissingRowPolicy.ASK):
    """A session over a private copy of the bundled tables (player rows may be laid over it)."""
    lib = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    return DiceSession(lib, Dice(ScriptedSource(faces)), policy)


def test_roll_dice_and_history(bundled_library):
    session = make(bundled_library, 3, 4)
    [event] = session.execute(RollDice(expression="2d6"))
    assert isinstance(event, RollMade)
    assert event.entry.roll.natural == 7
    assert "1. 2d6" in session.history_text()


def test_table_roll_then_follow_link(bundled_library):
    # Table B 26-30 ITEM links to Table I; then roll 11 on Table I (WORN KEY)
    session = make(bundled_library, 2, 7, 1, 1)
    [first] = session.execute(RollTable(table_id="d100.B"))
    assert first.entry.table.row.fields["name"] == "ITEM"
    [nested] = session.execute(FollowLink(entry=0, link=0))
    assert nested.entry.parent == 0
    assert nested.entry.table.table_id == "d100.I"
    assert nested.entry.table.row.fields["item"] == "WORN KEY"


def test_missing_row_asks_then_provided(bundled_library):
    session = make(bundled_library, 9, 0)
    [event] = session.execute(RollTable(table_id="d100.W"))
    assert isinstance(event, RowMissing)
    assert event.entry.table.missing == (9, 100)
    row = Row(range=(89, 92), fields={"type": "(H)", "weapon": "Test Blade", "adjustment": "+1 DMG", "value": "100", "repair": "20"})
    [done] = session.execute(ProvideRow(entry=0, row=row))
    assert isinstance(done, RowProvided)
    assert session.history[0].table.row.fields["weapon"] == "Test Blade"
    assert session.library.get("d100.W").find(90).user
    with pytest.raises(SessionError, match="not waiting"):
        session.execute(ProvideRow(entry=0, row=row))


def test_reroll_table_entry_finds_new_row(bundled_library):
    session = make(bundled_library, 0, 1, 1)
    session.execute(RollTable(table_id="d100.A"))
    [event] = session.execute(RerollDice(entry=0, dice=[0]))
    assert event.entry.roll.natural == 11
    assert event.entry.table.row.fields["item"] == "Leather Gauntlets"
    assert event.entry.roll.rerolled == [0]


def test_bad_commands_are_refused(bundled_library):
    session = make(bundled_library)
    with pytest.raises(SessionError, match="no table"):
        session.execute(RollTable(table_id="d100.ZZ"))
    with pytest.raises(SessionError, match="no roll number 4"):
        session.execute(FollowLink(entry=3, link=0))
