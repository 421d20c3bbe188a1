"""A typed row checked against its table's columns (issue 10, bug 7), and the one-off re-roll among printed rows."""

from __future__ import annotations

import pytest

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.row_check import ColumnKind, check_row, column_kinds, completeness, effect_reading
from d100gui.engine.dice.tables import Column, Pack, Row, Table, TableLibrary
from d100gui.engine.dice_commands import RollDice, RollTable, SampleRow
from d100gui.engine.game import Game
from d100gui.engine.protocol import CommandRefused
from d100gui.storage.resources import bundled_rules, standard_tilesets


@pytest.fixture(scope="module")
def rules():
    return bundled_rules()


def test_column_kinds_are_read_from_the_printed_rows(bundled_library, rules):
    armour = column_kinds(bundled_library.get("d100.A"), rules)
    assert armour["slot"] is ColumnKind.SLOT
    assert armour["def"] is ColumnKind.NUMBER and armour["value"] is ColumnKind.NUMBER
    assert armour["item"] is ColumnKind.TEXT
    encounter = column_kinds(bundled_library.get("d100.E"), rules)
    assert encounter["hp"] is ColumnKind.NUMBERS and encounter["av"] is ColumnKind.NUMBER
    assert encounter["monster"] is ColumnKind.TEXT
    # without rules no slot can be checked: the column is plain text
    assert column_kinds(bundled_library.get("d100.A"))["slot"] is ColumnKind.TEXT


def test_the_testers_bad_armour_row_is_refused_cell_by_cell(bundled_library, rules):
    table = bundled_library.get("d100.A")
    gap = table.gap_containing(40)
    row = Row(range=(40, 40), fields={"slot": "Tail", "item": "Odd", "def": "lots", "value": "free", "repair": "5 gp"})
    check = check_row(table, row, rules, covers=40, within=gap)
    assert not check.ok
    assert "'Tail' is not a slot" in check.cell("slot").problem and "Legs" in check.cell("slot").problem
    assert "needs a number" in check.cell("def").problem and "0 DEF" in check.cell("def").problem
    assert "needs a number" in check.cell("value").problem
    assert check.cell("item").ok and check.cell("repair").ok
    fixed = row.model_copy(update={"fields": {**row.fields, "slot": "Feet", "def": "1 DEF", "value": "40 gp"}})
    assert check_row(table, fixed, rules, covers=40, within=gap).ok


def test_monster_hp_wants_numbers_joined_by_slashes(bundled_library, rules):
    table = bundled_library.get("d100.E")
    fields = {"monster": "Orc (H)", "av": "30", "def": "1", "dmg": "+1", "hp": "lots", "loot": "[K:Table P]", "special": ""}
    check = check_row(table, Row(range=(88, 88), fields=fields), rules, covers=88)
    assert "joined by '/'" in check.cell("hp").problem
    # a monster may have no special ability: the printed Giant Ants row has none (issue 19)
    assert not check.cell("special").problem
    good = {**fields, "hp": "6/6", "special": "Pack"}
    assert check_row(table, Row(range=(88, 88), fields=good), rules, covers=88).ok


def test_a_value_the_table_prints_elsewhere_or_a_dash_is_accepted_in_a_number_column(bundled_library, rules):
    table = bundled_library.get("d100.J")
    assert column_kinds(table, rules)["holdings"] is ColumnKind.NUMBER
    fields = {"trade": "+1 Pip", "finance": "No Gain", "holdings": "No Gain", "wars": "-"}
    lo, _hi = table.missing_ranges()[0]
    assert check_row(table, Row(range=(lo, lo), fields=fields), rules).ok


def test_effect_text_is_shown_as_the_engine_reads_it(bundled_library, rules):
    table = bundled_library.get("d100.D")
    row = Row(range=(90, 90), fields={"door": "IRON GATE (IG)", "effect": "Test: Str -20 [S: Open] [F:-1HP] (Strong)"})
    reading = check_row(table, row, rules, covers=90).cell("effect").reading
    assert "STR -20" in reading and "failure: Lose 1 HP" in reading
    assert "not a rule the app applies" in effect_reading("The walls whisper.")
    assert effect_reading("") == ""


def test_ranges_must_cover_the_roll_stay_in_the_gap_and_not_overlap(bundled_library, rules):
    table = bundled_library.get("d100.P")
    fields = {"part": "HORN", "value": "14gp"}
    assert "include the roll of 20" in check_row(table, Row(range=(16, 18), fields=fields), covers=20).range_problem
    assert "missing range 16-100" in check_row(table, Row(range=(10, 18), fields=fields), within=(16, 100)).range_problem
    assert "overlaps the printed row 13-15" in check_row(table, Row(range=(14, 18), fields=fields)).range_problem
    mine = Row(range=(16, 20), fields=fields, user=True)
    assert "overlaps your row 16-20" in check_row(table, Row(range=(18, 22), fields=fields), others=[mine]).range_problem
    assert "starts at 30 but ends at 20" in check_row(table, Row(range=(30, 20), fields=fields)).range_problem
    assert "outside the die" in check_row(table, Row(range=(95, 120), fields=fields)).range_problem
    assert check_row(table, Row(fields=fields)).range_problem == "The row needs a range: From and To, whole numbers."


def test_completeness_counts_results_covered(bundled_library):
    assert completeness(bundled_library.get("d100.E")) == (25, 100)
    coin = Table(id="x.coin", title="Coin", die="d6", columns=[Column(key="side", label="Side")], rows=[])
    assert completeness(coin) == (0, 6)


# --------------------------------------------------------------------------- re-roll among printed rows, this time


def _game(bundled_library, *faces):
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    game = Game(Campaign(), library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    game.override = ScriptedSource(faces)
    return game


def test_sample_row_rerolls_a_waiting_history_roll_among_printed_rows(bundled_library):
    game = _game(bundled_library, 9, 0, 9, 9, 0, 3)  # Table W: 90 (missing), then 99 (missing), then 3 (Catapult)
    game.execute(RollTable(table_id="d100.W"))
    assert game.campaign.dice_history[0].table.row is None
    [event] = game.execute(SampleRow(entry=0))
    assert event.kind == "roll_made" and "sample play" in event.message
    sample = game.campaign.dice_history[1]
    assert sample.parent == 0 and sample.table.sample and sample.table.row.fields["weapon"] == "Catapult"
    assert [r.final for r in sample.table.discarded] == [90, 99]
    assert game.policy is MissingRowPolicy.ASK  # this time only


def test_sample_row_for_a_roll_made_elsewhere_and_refusals(bundled_library):
    game = _game(bundled_library, 0, 5)
    game.execute(SampleRow(table_id="d100.P", purpose="loot"))
    assert game.campaign.dice_history[0].table.row.fields["part"] == "BONE"
    game.override = None
    game.execute(RollDice(expression="d6"))
    with pytest.raises(CommandRefused, match="not waiting for a row"):
        game.execute(SampleRow(entry=1))
