"""The adventure log dock through its real widgets: filter buttons, the search box, the export buttons, a click on a line."""

from __future__ import annotations

from html import escape

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from d100gui.engine.adventure.commands import BeginQuest
from d100gui.engine.adventure.turn import EndTurn, MoveOn, SearchArea
from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon_entry import EnterDungeon
from d100gui.engine.game import Game, LogEntry
from d100gui.engine.hero.model import new_character
from d100gui.engine.protocol import Event
from d100gui.engine.quest.events import TurnEnded
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.adventure.log_dock import AdventureLog, LogModel
from d100gui.ui.common.bridge import EngineBridge

pytestmark = pytest.mark.gui
RULES = bundled_rules()


def played() -> EngineBridge:
    """A quest begun, the dungeon entered, one turn into a yellow area, its search (Table F 28), the turn ended."""
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    ch.hp_primary = ch.hp = 20
    ch.supplies.oil, ch.supplies.food = 20, 10
    campaign = Campaign()
    campaign.character = ch
    game = Game(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource([2, 2, 2, 2, 2, 8, 5, 5])
    bridge = EngineBridge(game)
    for command in (BeginQuest(), EnterDungeon(), MoveOn(side="N"), SearchArea(), EndTurn()):
        assert bridge.send(command), command
    return bridge


@pytest.fixture
def dock(qtbot):
    widget = AdventureLog(played())
    qtbot.addWidget(widget)
    widget.resize(500, 400)
    return widget


def kinds_shown(dock: AdventureLog) -> set[str]:
    return {line.kind for line in dock.model.shown()}


def test_every_step_is_listed_with_its_dice(dock):
    kinds = kinds_shown(dock)
    assert {"quest_begun", "time_advanced", "turn_moved", "area_resolved", "area_searched", "turn_ended"} <= kinds
    searched = next(line for line in dock.model.shown() if line.kind == "area_searched")
    assert searched.dice and searched.category == "finds" and searched.area == "7,9"


def test_filter_buttons_show_only_their_kind(qtbot, dock):
    qtbot.mouseClick(dock.filters["time"], Qt.MouseButton.LeftButton)
    assert dock.model.rowCount() > 0
    assert {line.category for line in dock.model.shown()} == {"time"}
    qtbot.mouseClick(dock.filters["finds"], Qt.MouseButton.LeftButton)
    assert {line.category for line in dock.model.shown()} == {"time", "finds"}
    qtbot.mouseClick(dock.filters["time"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dock.filters["finds"], Qt.MouseButton.LeftButton)
    assert dock.model.rowCount() == len(dock.model.book.lines)


def test_the_search_box_keeps_matching_lines(qtbot, dock):
    qtbot.keyClicks(dock.search, "belt check")
    shown = dock.model.shown()
    assert shown and all("belt check" in (line.text + line.dice).lower() for line in shown)
    dock.search.clear()
    assert dock.model.rowCount() == len(dock.model.book.lines)


def test_export_to_markdown_and_html(qtbot, dock, tmp_path):
    qtbot.mouseClick(dock.filters["finds"], Qt.MouseButton.LeftButton)
    target = tmp_path / "log.md"
    dock.ask_path = lambda *_args: str(target)
    qtbot.mouseClick(dock.export_md, Qt.MouseButton.LeftButton)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Adventure log") and "**Finds**" in text and "**Time**" not in text
    page = tmp_path / "log.html"
    dock.ask_path = lambda *_args: str(page)
    qtbot.mouseClick(dock.export_html, Qt.MouseButton.LeftButton)
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<li class='finds'>" in html and "area 7,9" in html


def test_a_click_on_a_line_asks_to_show_its_area(qtbot, dock):
    dock.show()
    qtbot.waitExposed(dock)
    row = next(n for n, line in enumerate(dock.model.shown()) if line.kind == "area_searched")
    index = dock.model.index(row)
    dock.list.scrollTo(index)
    with qtbot.waitSignal(dock.area_requested) as asked:
        qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=dock.list.visualRect(index).center())
    assert asked.args == ["7,9"]


def test_an_undo_takes_its_lines_off(dock):
    before = len(dock.model.book.lines)
    assert dock.bridge.undo()  # the turn's end
    assert len(dock.model.book.lines) == before - 1 and "turn_ended" not in kinds_shown(dock)


def test_an_undo_takes_off_only_its_own_rows(qtbot, dock):
    """The rows of the entries undone are removed from the end: the list is not reset (laid out whole again)."""
    kept = [line.text for line in dock.model.shown()][:-1]
    resets, removed = [], []
    dock.model.modelReset.connect(lambda: resets.append(1))
    dock.model.rowsRemoved.connect(lambda _parent, first, last: removed.append((first, last)))
    rows = dock.model.rowCount()
    assert dock.bridge.undo()  # the turn's end: its one line goes
    assert resets == [] and removed == [(rows - 1, rows - 1)]
    assert [line.text for line in dock.model.shown()] == kept
    assert dock.bridge.redo()  # and comes back at the end
    assert dock.model.shown()[-1].kind == "turn_ended" and dock.model.rowCount() == rows


class CountingModel(LogModel):
    """The dock's model, noting which rows the view asks for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[int] = set()

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        self.asked.add(index.row())
        return super().data(index, role)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_view_asks_only_for_the_rows_on_screen(qtbot, dock):
    ended = Event.of(TurnEnded(number=1), "Turn 1 ends.")
    log = [LogEntry(index=n, command={"kind": "turn_end"}, events=[ended]) for n in range(20_000)]
    model = CountingModel()
    model.sync(log, 0)
    dock.list.setModel(model)  # the dock's own list view, with its settings
    dock.show()
    qtbot.waitExposed(dock)
    QApplication.processEvents()
    assert model.rowCount() == 20_000
    assert 0 < len(model.asked) < 200


def test_the_doors_filter_shows_the_table_d_rolls_of_a_placement(qtbot):
    ch = new_character(RULES)
    ch.creation = None
    ch.hp_primary = ch.hp = 20
    campaign = Campaign()
    campaign.character = ch
    game = Game(campaign, load_library(None).library, ALL_COMMANDS, rules=RULES, tilesets=standard_tilesets())
    game.override = ScriptedSource([2, 7, 3, 4])  # Table M 27: a room with one door; Table D 34: JAMMED
    bridge = EngineBridge(game)
    assert bridge.send(BeginQuest()) and bridge.send(EnterDungeon())
    widget = AdventureLog(bridge)
    qtbot.addWidget(widget)
    qtbot.mouseClick(widget.filters["doors"], Qt.MouseButton.LeftButton)
    [door] = widget.model.shown()
    assert door.kind == "roll_made" and door.category == "doors" and "JD" in door.text


def test_a_long_line_ends_in_dots_within_the_list_and_its_tooltip_has_it_whole(qtbot, dock):
    dock.resize(300, 400)
    dock.show()
    qtbot.waitExposed(dock)
    longest = max(dock.model.shown(), key=lambda line: len(line.text))
    qtbot.keyClicks(dock.search, longest.text[-12:])  # the long line first in the list (its size is every row's)
    first = dock.model.index(0)
    text = first.data()
    QApplication.processEvents()
    assert dock.list.fontMetrics().horizontalAdvance(text) > dock.list.viewport().width()  # too long to show whole
    assert not dock.list.horizontalScrollBar().isVisible()  # no sideways scroll: the row ends in "..."
    assert dock.list.visualRect(first).width() <= dock.list.viewport().width()
    tip = first.data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("<p>") and escape(text) in tip  # whole, as rich text: a long tooltip wraps
    qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=dock.list.visualRect(first).center())
    assert text in dock.whole_line.text() and dock.whole_line.wordWrap()  # the line chosen, whole, under the list
    assert dock.whole_line.width() <= dock.width()  # wrapped within the dock, never widening it
