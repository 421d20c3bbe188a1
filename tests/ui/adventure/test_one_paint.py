"""An action is painted once, laid out, and only the views it touched do any work (issue 18's performance).

Counted in events, never timed: a search clicked in the turn strip reaches the window as one UpdateRequest (the
layouts its refresh asked for done before it; the map's own repaint in the same paint), no layout is left for a
later turn of the event loop, the combat panel with no fight is not touched, and the adventure log's list, behind
another dock's tab, scrolls to the newest line when it is brought to the front, not at every action.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QWidget
from test_turn_strip import next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

from d100gui.engine.dice_commands import RollTable

pytestmark = pytest.mark.gui


class Events(QObject):
    """Counts, application-wide, the events of ``kinds`` each receiver gets while it is on."""

    def __init__(self, *kinds: QEvent.Type) -> None:
        super().__init__()
        self.kinds = kinds
        self.seen: list[tuple[QEvent.Type, QObject]] = []
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() in self.kinds:
            self.seen.append((event.type(), obj))
        return False

    def count(self, kind: QEvent.Type, receiver: QObject | None = None, within: QWidget | None = None) -> int:
        def matches(obj: QObject) -> bool:
            if receiver is not None:
                return obj is receiver
            return within is None or (isinstance(obj, QWidget) and (obj is within or within.isAncestorOf(obj)))

        return sum(1 for k, obj in self.seen if k == kind and matches(obj))

    def close(self) -> None:
        QApplication.instance().removeEventFilter(self)


def settled() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_a_search_paints_each_widget_once_with_nothing_laid_out_after_the_action(qtbot, window):  # noqa: F811
    on_quest_in_the_dungeon(qtbot, window)
    strip = window.turn_strip
    window.game.override.push(1, 2, *([9] * 4))  # Table F 12: two Poison pips (the sheet, the status line change)
    settled()
    events = Events(QEvent.Type.Paint, QEvent.Type.LayoutRequest)
    try:
        qtbot.mouseClick(strip.buttons["search"], Qt.MouseButton.LeftButton)
        assert window.game.campaign.dungeons.current_dungeon.hero_area().searched
        events.seen.clear()  # what the click left for the event loop: the window's paint, nothing to lay out
        settled()
        assert events.count(QEvent.Type.LayoutRequest) == 0, [type(o).__name__ for _k, o in events.seen]
        painted = [o for k, o in events.seen if k == QEvent.Type.Paint and o is not window]
        for changed in (strip.status_line, window.map_area.view.viewport()):  # the clocks and the map changed
            assert painted.count(changed) == 1
        twice = {type(o).__name__ for o in painted if painted.count(o) > 1}
        assert not twice  # one paint pass: no widget painted again after a later layout or the map's own update
    finally:
        events.close()


def test_a_move_then_a_search_with_no_fight_leave_the_combat_panels_widgets_untouched(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.combat_dock.show()
    window.combat_dock.raise_()  # in front: a refresh would repaint it
    panel = window.combat_panel
    settled()
    renders = panel.renders
    events = Events(QEvent.Type.Paint, QEvent.Type.LayoutRequest, QEvent.Type.UpdateRequest)
    try:
        window.game.override.push(*next_clock_faces(window), 2, 2)  # Table M 22: a yellow crossroads
        player.click_map(player.exit_point("N"))
        window.game.override.push(1, 2, *([9] * 4))  # Table F 12: no fight
        qtbot.mouseClick(window.turn_strip.buttons["search"], Qt.MouseButton.LeftButton)
        settled()
        assert window.game.campaign.combat is None and window.game.campaign.log_length > 2
        assert panel.renders == renders
        assert events.count(QEvent.Type.Paint, within=panel) == 0
        assert events.count(QEvent.Type.LayoutRequest, within=panel) == 0
        assert events.count(QEvent.Type.Paint) > 0  # the window did paint the actions (the counter works)
    finally:
        events.close()


def test_the_log_behind_another_tab_scrolls_to_the_newest_line_when_brought_to_the_front(qtbot, window):  # noqa: F811
    log = window.adventure_log
    window.dice_dock.raise_()  # the log dock behind the dice panel's tab
    settled()
    assert log.list.visibleRegion().isEmpty()  # a dock behind a tab is moved out of the window, not hidden
    window.game.override.push(*([5] * 400))  # Table A 55, each roll
    for _ in range(80):  # more lines than the list shows
        assert window.bridge.send(RollTable(table_id="d100.A"))
    assert log.model.rowCount() >= 80
    bar = log.list.verticalScrollBar()
    window.log_dock.raise_()
    settled()
    assert not log.list.visibleRegion().isEmpty() and bar.maximum() > 0 and bar.value() == bar.maximum()
    newest = log.model.index(log.model.rowCount() - 1, 0)
    assert log.list.viewport().rect().contains(log.list.visualRect(newest).center())
    assert window.bridge.send(RollTable(table_id="d100.A"))  # shown: it follows each new line at once
    settled()
    assert bar.value() == bar.maximum()


def test_a_roll_behind_the_combat_tab_is_shown_in_the_dice_panel_when_it_comes_to_the_front(qtbot, window):  # noqa: F811
    panel = window.dice_panel
    window.combat_dock.raise_()  # a fight's panel in front, the dice panel behind its tab
    settled()
    assert panel.visibleRegion().isEmpty()
    events = Events(QEvent.Type.LayoutRequest, QEvent.Type.Paint)
    try:
        window.game.override.push(4, 2)  # Table A 42
        assert window.bridge.send(RollTable(table_id="d100.A"))
        settled()
        assert events.count(QEvent.Type.LayoutRequest, within=panel.result_title.parentWidget()) == 0  # not laid out
        assert panel.history.history_model.rowCount() == 1  # the history follows at once
    finally:
        events.close()
    window.dice_dock.raise_()  # brought to the front: the roll is shown before it paints
    assert "Table A" in panel.result_title.text() and "<b>42</b>" in panel.result_title.text()
    assert panel.result_text.text()  # its row


def test_a_turn_and_a_search_lay_out_the_centre_only_never_the_main_window(qtbot, window):  # noqa: F811
    """The status line's new turn and clocks, the strip's new buttons: laid out in the centre, which keeps its size
    (a layout that ran told its parent to run too, up to the main window and its docks, at every action)."""
    player = on_quest_in_the_dungeon(qtbot, window)
    settled()
    events = Events(QEvent.Type.LayoutRequest, QEvent.Type.Resize)
    try:
        window.game.override.push(*next_clock_faces(window), 2, 2)  # Table M 22: a yellow crossroads
        player.click_map(player.exit_point("N"))
        window.game.override.push(1, 2, *([9] * 4))  # Table F 12
        qtbot.mouseClick(window.turn_strip.buttons["search"], Qt.MouseButton.LeftButton)
        settled()
        assert window.game.campaign.adventure.turn.number >= 1 and window.turn_strip.status_line.status is not None
        assert events.count(QEvent.Type.LayoutRequest, within=window.turn_strip) > 0  # the strip did lay out
        assert events.count(QEvent.Type.LayoutRequest, receiver=window) == 0
        assert events.count(QEvent.Type.LayoutRequest, receiver=window.centralWidget()) == 0
        assert events.count(QEvent.Type.Resize, receiver=window.map_area) == 0  # the map below kept its size
    finally:
        events.close()


def test_the_strip_and_the_status_line_keep_their_room_through_the_quest(window):  # noqa: F811
    """Room a waiting test or a fight's hint needed is kept while the quest goes on, however long unused (given back
    after 10 actions, it was soon needed again: the map below was resized about one turn in four), and given back
    when the quest begins or ends."""
    for steady, key in ((window.turn_strip.column.steady, ("quest", "Q")), (window.turn_strip.status_line.steady, "Q")):
        steady.changed(key)
        assert steady.height(500, 120) == 120  # a fight's hint and a test's dice: the room grows at once
        for _ in range(50):  # fifty actions that need 40 px less
            assert steady.height(500, 80) == 120
            assert steady.changed(key) is False
        assert steady.changed(("between", "") if isinstance(key, tuple) else "") is True  # the quest ended
        assert steady.height(500, 80) == 80
