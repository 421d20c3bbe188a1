"""The one list of rolls waiting for a row (engine/dice/waiting.py): an effect's roll is found and answered by
its dice-history line, a curse's by itself, and a quest's end keeps only the curse."""

from __future__ import annotations

from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.dice.waiting import RowWaiting, curse_waiting, past_quest, waiting_on, without_curse, without_entry
from d100gui.storage.packs import load_library


def _curse_roll():
    roller = TableRoller(load_library(None).library, Dice(ScriptedSource([5, 0])))
    rolled = roller.roll("d100.C", "Table C - Curses (Open Magic failed)")
    assert rolled.row is None  # 50: a gap in the bundled excerpt
    return rolled


def test_an_effects_roll_and_a_curse_wait_in_one_list_and_are_answered_apart():
    rolled = _curse_roll()
    curse = RowWaiting.curse(rolled)
    assert (curse.then, curse.entry, curse.table_id, curse.source) == ("curse", None, "d100.C", rolled.roll.purpose)
    search = RowWaiting(entry=3, table_id="d100.F", source="Search", depth=1)
    rows = [search, curse]
    assert search.then == "effect"
    assert waiting_on(rows, 3) is search and waiting_on(rows, 0) is None
    assert curse_waiting(rows) == rolled and curse_waiting([search]) is None
    assert without_entry(rows, 3) == [curse]  # the curse has no dice-history line to be answered by
    assert without_curse(rows) == [search]
    assert past_quest(rows) == [curse]  # the effect's roll ends with its quest, the curse does not


def test_a_row_waiting_saved_before_it_had_a_then_reads_as_an_effects():
    saved = RowWaiting.model_validate({"entry": 4, "table_id": "d100.G", "source": "Search", "depth": 0})
    assert saved.then == "effect" and saved.table_roll is None and saved.entry == 4
