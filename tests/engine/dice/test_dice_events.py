"""Dice events are declared, typed and keep the data keys the views read."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.events import RollMade, RowMissing, RowProvided
from d100gui.engine.dice.tables import Pack, Row, TableLibrary
from d100gui.engine.dice_commands import AddTableRow, ProvideRow, RollDice, RollTable
from d100gui.engine.game import Game
from d100gui.engine.protocol import EVENT_KINDS, Event
from d100gui.storage.resources import bundled_rules, standard_tilesets

WEAPON_ROW = Row(
    range=(89, 92), fields={"type": "(H)", "weapon": "Test Blade", "adjustment": "+1 DMG", "value": "100", "repair": "20"}
)


def make(bundled_library, *faces: int) -> Game:
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource(faces)
    return game


def test_each_dice_kind_is_declared_once_on_the_dice_topic():
    for kind, payload in (("roll_made", RollMade), ("row_missing", RowMissing), ("row_provided", RowProvided)):
        assert EVENT_KINDS[kind].payload is payload
        assert EVENT_KINDS[kind].topic == "dice"
        assert EVENT_KINDS[kind].doc


def test_a_roll_is_a_typed_roll_made_with_its_history_index(bundled_library):
    game = make(bundled_library, 3, 4, 2, 7)
    game.execute(RollDice(expression="2d6"))
    [event] = game.execute(RollTable(table_id="d100.B"))
    assert (event.kind, event.topic, event.data) == ("roll_made", "dice", {"index": 1})
    assert event.payload() == RollMade(index=1)
    assert event.message.startswith("2. ")


def test_a_missing_row_then_the_typed_row(bundled_library):
    game = make(bundled_library, 9, 0)
    [missing] = game.execute(RollTable(table_id="d100.W"))
    assert missing.payload() == RowMissing(index=0)
    [provided] = game.execute(ProvideRow(entry=0, row=WEAPON_ROW))
    assert provided.data == {"table_id": "d100.W", "index": 0}  # "index" in data: a dice-history entry
    assert provided.payload() == RowProvided(table_id="d100.W", index=0)


def test_a_row_typed_outside_the_dice_panel_names_no_history_entry(bundled_library):
    game = make(bundled_library)
    [provided] = game.execute(AddTableRow(table_id="d100.W", row=WEAPON_ROW))
    assert provided.data == {"table_id": "d100.W"}
    assert provided.topic == "dice"
    assert provided.payload().index is None


def test_row_provided_carries_the_row_when_it_is_known():
    event = Event.of(RowProvided(table_id="d100.D", row=WEAPON_ROW), "")
    assert event.data["row"]["fields"]["weapon"] == "Test Blade"
    assert "index" not in event.data
    assert Event.model_validate_json(event.model_dump_json()).payload() == RowProvided(table_id="d100.D", row=WEAPON_ROW)
