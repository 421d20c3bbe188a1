"""The adventure log's lines from the events: categories, areas followed through payloads, undo, exports."""

from __future__ import annotations

from d100gui.engine.adventure.logbook import LogBook, category_of, matches, to_html, to_markdown
from d100gui.engine.combat.events import CombatNote
from d100gui.engine.dice.dice import Dice, ScriptedSource
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.dungeon.events import MapChanged
from d100gui.engine.game import LogEntry
from d100gui.engine.hero.events import GoldChanged
from d100gui.engine.protocol import Event
from d100gui.engine.quest.events import AreaSearched, OilBurned, TurnMoved
from d100gui.storage.packs import load_library


def entry(n: int, kind: str, *events: Event) -> LogEntry:
    return LogEntry(index=n, command={"kind": kind}, events=list(events))


def find_roll():
    return TableRoller(load_library(None).library, Dice(ScriptedSource([2, 8]))).roll("d100.F", "Search")


def test_lines_know_their_kind_area_and_dice():
    moved = Event.of(TurnMoved(number=1, side="N", pos="7,9", colour="Y", placed=True), "Turn 1")
    searched = Event.of(AreaSearched(pos="7,9", colour="Y", bonus=0, table_roll=find_roll()), "Search")
    oil = Event.of(OilBurned(clock=3, spent=True, oil=4, in_darkness=False), "Oil")
    book = LogBook()
    book.extend([entry(0, "new_dungeon", Event.of(MapChanged(), "New sheet")), entry(1, "turn_move", moved, oil)])
    book.extend([entry(2, "turn_search", searched)])
    lines = book.lines
    assert [line.category for line in lines] == ["other", "other", "time", "finds"]
    assert [line.area for line in lines] == ["", "7,9", "7,9", "7,9"] and lines[-1].dungeon == 0
    assert "28" in lines[-1].dice and lines[2].dice == ""
    book.truncate(2)
    assert len(book.lines) == 3 and book.entries == 2
    book.extend([entry(2, "turn_search", searched)])
    assert book.lines[-1].area == "7,9"


def test_money_doors_and_fights_by_kind_or_command():
    assert category_of(Event.of(GoldChanged(delta=5), "gp")) == "money"
    assert category_of(Event.of(MapChanged(), "open"), "open_door") == "doors"
    assert category_of(Event.of(CombatNote(), "A note")) == "fights"


def test_filter_and_exports():
    book = LogBook()
    oil = Event.of(OilBurned(clock=3, spent=True, oil=4, in_darkness=False), "A flask <of> oil")
    book.extend([entry(0, "advance_time", oil)])
    [line] = book.lines
    assert matches(line, frozenset({"time"}), "flask") and not matches(line, frozenset({"money"}), "")
    assert not matches(line, frozenset(), "gold")
    assert "- **Time**: A flask <of> oil" in to_markdown(book.lines)
    assert "A flask &lt;of&gt; oil" in to_html(book.lines)


def test_a_roll_told_by_another_line_of_its_action_is_listed_once():
    from test_turn import YELLOW_CROSSROADS, d100, on_quest

    from d100gui.engine.adventure.turn import MoveOn, SearchArea

    game = on_quest()
    game.override = ScriptedSource([*d100(YELLOW_CROSSROADS), *d100(28), 9, 5])  # then Table F 28: +1 time, a belt check
    game.execute(MoveOn(side="N"))
    game.execute(SearchArea())
    history = game.campaign.dice_history

    def table_of(index: int) -> str:
        entry = history[index]
        return entry.table.table_id if entry.table is not None else ""

    book = LogBook(table_of)
    book.extend(game.campaign.log)
    search = [line for line in book.lines if line.command == "turn_search"]
    assert [line.kind for line in search if line.kind in ("roll_made", "area_searched")] == ["area_searched"]  # no copy
    tiles = [line for line in book.lines if line.kind == "roll_made" and line.command == "turn_move"]
    assert tiles and "Table M" in tiles[0].text  # a roll nothing else tells stays
