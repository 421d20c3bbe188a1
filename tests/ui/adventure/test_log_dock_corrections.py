"""The adventure log dock in the window: a hand correction's lines are shown apart, and any line can be read whole."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from test_turn_strip import on_quest_in_the_dungeon, window  # noqa: F401 (the window fixture)

from d100gui.engine.dungeon.commands import MarkArea
from d100gui.ui.adventure.log_dock import CORRECTION_MARK, CORRECTION_ROLE, CORRECTION_TIP, LINE_ROLE
from d100gui.ui.common.theme import apply_theme

pytestmark = pytest.mark.gui


def corrected_rows(win) -> list[int]:
    model = win.adventure_log.model
    return [row for row in range(model.rowCount()) if model.index(row).data(CORRECTION_ROLE)]


def mark_by_hand(qtbot, win) -> None:
    """During the quest, the hero's area marked interacted by hand (a map edit, as the map's menus send it)."""
    on_quest_in_the_dungeon(qtbot, win)
    hero = win.game.campaign.dungeons.current_dungeon.hero
    assert win.bridge.send(MarkArea(pos=f"{hero[0]},{hero[1]}", mark="interacted"))
    assert win.game.campaign.log[-1].manual


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_hand_correction_is_marked_apart_in_the_log(qtbot, window):  # noqa: F811
    mark_by_hand(qtbot, window)
    model, dock = window.adventure_log.model, window.adventure_log
    rows = corrected_rows(window)
    entry = window.game.campaign.log_length - 1
    assert rows and {model.index(r).data(LINE_ROLE).entry for r in rows} == {entry}  # the correction's lines, only
    row = rows[-1]
    index = model.index(row)
    assert index.data().startswith(CORRECTION_MARK)
    assert index.data(Qt.ItemDataRole.FontRole).italic()
    assert CORRECTION_TIP in index.data(Qt.ItemDataRole.ToolTipRole)
    plain = model.index(rows[0] - 1)  # the turn's own step before it: not marked
    assert not plain.data(CORRECTION_ROLE) and not plain.data().startswith(CORRECTION_MARK)
    assert plain.data(Qt.ItemDataRole.FontRole) is None
    dock.list.scrollTo(index)
    qtbot.mouseClick(dock.list.viewport(), Qt.MouseButton.LeftButton, pos=dock.list.visualRect(index).center())
    assert CORRECTION_TIP in dock.whole_line.text()
    assert window.bridge.undo()  # taken back: no line of it is left marked
    assert corrected_rows(window) == []


@pytest.fixture
def themed():
    app = QApplication.instance()
    yield lambda name: apply_theme(app, name)
    apply_theme(app, "light")


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_correction_mark_reads_in_both_themes(qtbot, window, themed, theme):  # noqa: F811
    themed(theme)
    mark_by_hand(qtbot, window)
    model = window.adventure_log.model
    index = model.index(corrected_rows(window)[-1])
    # drawn in the theme's own text colour (no colour of its own that one theme could swallow), set apart by the
    # mark and the italics
    assert index.data(Qt.ItemDataRole.ForegroundRole) is None and index.data(Qt.ItemDataRole.BackgroundRole) is None
    palette = window.adventure_log.list.palette()
    text, base = palette.color(QPalette.ColorRole.Text), palette.color(QPalette.ColorRole.Base)
    assert abs(text.lightness() - base.lightness()) > 100
    assert window.adventure_log.list.fontMetrics().inFont(CORRECTION_MARK[0])  # the mark has a glyph in the list's font
