"""The dice panel's result box keeps a steady height from roll to roll (issue 18's performance): a row a few lines
longer or shorter than the last resized the box, so the history list under it was laid out twice per roll
(155 -> 160 -> 155 px) and the dock's scroll bar came and went, each a pass of layout and paint in a quest's search."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QScrollArea, QVBoxLayout
from test_ui_dice_panel import script, window  # noqa: F401

pytestmark = pytest.mark.gui


class Resizes(QObject):
    """Counts the resize events of the widgets it watches, and the times they are shown or hidden."""

    def __init__(self, *watched) -> None:
        super().__init__()
        self.count = 0
        for widget in watched:
            widget.installEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:
        self.count += event.type() in (QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide)
        return False


def laid_out() -> None:
    for _ in range(3):
        QApplication.processEvents()


def roll_table_g(qtbot, win) -> None:
    """Table G through the panel's own list and button: a row of several lines."""
    panel = win.dice_panel
    assert panel.select_table("d100.G")
    script(win, 4, 2)
    qtbot.mouseClick(panel.table_button, Qt.MouseButton.LeftButton)
    laid_out()


def roll_d100(qtbot, win) -> None:
    """The quick d100 button: a title, no row."""
    script(win, 1, 7)
    qtbot.mouseClick(win.dice_panel.d100_button, Qt.MouseButton.LeftButton)
    laid_out()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_rolls_of_other_lengths_leave_the_history_list_and_the_docks_scroll_bar_alone(qtbot, window):  # noqa: F811
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    panel = window.dice_panel
    box = panel.result_column.parentWidget()
    roll_table_g(qtbot, window)  # the taller of the two first: the room is taken once
    width = panel.result_column.contentsRect().width()
    needed = {"table": QVBoxLayout.heightForWidth(panel.result_column, width)}
    history_height, box_height = panel.history.height(), box.height()
    area = window.dice_dock.widget()
    assert isinstance(area, QScrollArea)
    bar_shown = area.verticalScrollBar().isVisible()
    watched = Resizes(panel.history, box, area.verticalScrollBar())
    for _ in range(4):
        roll_d100(qtbot, window)
        needed["d100"] = QVBoxLayout.heightForWidth(panel.result_column, width)
        assert panel.history.height() == history_height and box.height() == box_height
        roll_table_g(qtbot, window)
        assert panel.history.height() == history_height and box.height() == box_height
    assert needed["table"] - needed["d100"] >= 20  # the two rolls do need other heights (the test can fail)
    assert watched.count == 0
    assert area.verticalScrollBar().isVisible() == bar_shown
    assert panel.history.count() == 9


def test_the_room_kept_is_given_back_when_another_campaign_is_shown(qtbot, window):  # noqa: F811
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    panel = window.dice_panel
    box = panel.result_column.parentWidget()
    roll_table_g(qtbot, window)
    roll_d100(qtbot, window)
    kept = box.height()
    window.new_action.trigger()  # File > New campaign
    if window.table_setup.choice_dialog is not None:
        window.table_setup.choice_dialog.close()
    laid_out()
    assert panel.history.count() == 0
    assert box.height() < kept
