"""A campaign names what its replay needs: its tile set and the player's own table rows it read."""

from __future__ import annotations

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Row, TableLibrary
from d100gui.engine.dice_commands import ProvideRow, RollTable, SampleRow
from d100gui.engine.game import Game
from d100gui.engine.replay_needs import missing_player_rows, missing_resources
from d100gui.storage.resources import bundled_packs, bundled_rules, standard_tilesets

MY_ROW = Row(range=(26, 100), fields={"monster": "Cellar Ghoul"}, text="my own row", user=True, partial=True)


def _library(*user_rows: Row) -> TableLibrary:
    library = TableLibrary(bundled_packs())
    for row in user_rows:
        library.add_user_row("d100.E", row)
    return library


def _game(library: TableLibrary) -> Game:
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource([4, 2])
    return game


def test_a_roll_on_the_players_own_row_is_recorded_in_the_log() -> None:
    game = _game(_library(MY_ROW))
    game.execute(RollTable(table_id="d100.E"))
    [entry] = game.campaign.log
    assert [(r.table_id, r.row.fields) for r in entry.player_rows] == [("d100.E", MY_ROW.fields)]


def test_a_roll_made_by_a_roller_of_another_policy_is_recorded_too() -> None:
    """Sample play rolls with its own policy (``TableRoller.with_policy``): the rows it reads still reach the log."""
    game = _game(_library(MY_ROW))
    game.execute(SampleRow(table_id="d100.E"))
    [entry] = game.campaign.log
    assert [(r.table_id, r.row.fields) for r in entry.player_rows] == [("d100.E", MY_ROW.fields)]


def test_each_action_records_only_the_rows_it_read() -> None:
    game = _game(_library(MY_ROW))
    game.execute(RollTable(table_id="d100.E"))
    game.override = ScriptedSource([0, 5])  # 5: a printed row
    game.execute(RollTable(table_id="d100.E"))
    assert [len(e.player_rows) for e in game.campaign.log] == [1, 0]


def test_a_roll_on_a_printed_row_records_nothing() -> None:
    game = _game(_library())
    game.execute(RollTable(table_id="d100.E"))
    assert game.campaign.log[0].player_rows == []


def test_a_machine_without_the_row_is_told_which_row_is_missing() -> None:
    game = _game(_library(MY_ROW))
    game.execute(RollTable(table_id="d100.E"))
    elsewhere = _library()
    assert missing_player_rows(game.campaign.log, elsewhere) == ["d100.E row 26-100"]
    assert missing_player_rows(game.campaign.log, _library(MY_ROW)) == []
    sentence = missing_resources(game.campaign.log, "standard", standard_tilesets(), elsewhere)
    assert "1 of the player's own table row(s): d100.E row 26-100" in sentence


def test_a_row_the_log_types_in_itself_is_not_missing() -> None:
    game = _game(_library())  # the printed Table E excerpt stops at 25: a roll of 42 lands in the gap
    game.execute(RollTable(table_id="d100.E"))
    waiting = game.campaign.dice_history[0].table
    assert waiting is not None and waiting.missing
    game.execute(ProvideRow(entry=0, row=MY_ROW))
    game.override = ScriptedSource([5, 0])
    game.execute(RollTable(table_id="d100.E"))
    assert game.campaign.log[-1].player_rows  # it read the typed row
    assert missing_player_rows(game.campaign.log, _library()) == []


def test_a_missing_tile_set_is_named() -> None:
    assert "tile set 'my-caves'" in missing_resources([], "my-caves", standard_tilesets(), _library())
