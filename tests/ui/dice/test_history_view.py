"""The dice history is a model/view list that reads the history a page at a time (issue 9):
a roll with thousands of rolls behind it reads a page or two, never the whole history."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.history import HistoryEntry
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.store import CampaignStore
from d100gui.ui.common.settings import Preferences
from d100gui.ui.dice.history_view import PAGE, HistoryModel
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui
LONG = 20 * PAGE  # many pages (the benchmark measures 100,000)


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=7)
    qtbot.addWidget(win)
    return win


class Counting:
    """A history source that counts what it is asked for."""

    def __init__(self, entries: list[HistoryEntry]) -> None:
        self.entries = entries
        self.read = 0

    @property
    def dice_history_length(self) -> int:
        return len(self.entries)

    def dice_history_page(self, offset: int, limit: int) -> list[HistoryEntry]:
        self.read += min(limit, max(0, len(self.entries) - offset))
        return self.entries[offset : offset + limit]


def _roll_once(window, qtbot, *faces: int) -> HistoryEntry:
    window.game.override = ScriptedSource(list(faces))
    qtbot.mouseClick(window.dice_panel.d100_button, Qt.MouseButton.LeftButton)
    return window.game.campaign.dice_history[-1]


def test_a_roll_with_a_long_history_reads_a_page_not_the_history(window, qtbot, tmp_path):
    first = _roll_once(window, qtbot, 1, 2)
    campaign = window.game.campaign.model_copy(deep=True)
    campaign.dice_history = [first] * LONG
    store = CampaignStore.create(tmp_path / "long.d100", campaign)
    store.close()
    assert window.campaigns.open_campaign(tmp_path / "long.d100")  # the store keeps most rolls on disk
    panel = window.dice_panel
    panel.show()
    QApplication.processEvents()
    model = panel.history.history_model
    assert panel.history.count() == LONG
    read = model.pages_read
    _roll_once(window, qtbot, 4, 2)
    QApplication.processEvents()
    assert panel.history.count() == LONG + 1
    assert panel.history.item(LONG).text().startswith(f"{LONG + 1}. ")
    assert model.pages_read - read <= 2  # the page of the new row, maybe the one above it on screen
    bar = panel.history.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()  # the newest roll is in sight
    panel.resize(panel.width(), panel.height() - 100)  # a smaller dock keeps it in sight
    QApplication.processEvents()
    assert bar.value() == bar.maximum()
    assert panel.history.item(0).text().startswith("1. ")


def test_the_model_pages_and_follows_appends_and_changes():
    entries = [HistoryEntry.model_validate(_entry(i)) for i in range(PAGE * 3 + 5)]
    source = Counting(entries)
    model = HistoryModel(source)
    model.reload()
    assert model.rowCount() == len(entries) and source.read == 0  # the count only
    assert model.text(PAGE * 2 + 1) == f"{PAGE * 2 + 2}. {entries[PAGE * 2 + 1].describe()}"
    assert source.read == PAGE
    model.text(PAGE * 2 + 7)
    assert source.read == PAGE  # the same page, kept
    source.entries.append(entries[0])
    model.roll_shown(len(entries) - 1)
    assert model.rowCount() == len(entries)
    assert model.text(len(entries) - 1) == f"{len(entries)}. {entries[0].describe()}"
    source.entries[PAGE * 2 + 1] = entries[1]
    model.roll_shown(PAGE * 2 + 1)
    assert model.text(PAGE * 2 + 1) == f"{PAGE * 2 + 2}. {entries[1].describe()}"
    assert model.text(-1) is None and model.text(len(entries)) is None


def test_undo_takes_the_row_off_and_copy_reads_every_page(window, qtbot):
    _roll_once(window, qtbot, 1, 2)
    _roll_once(window, qtbot, 3, 4)
    assert window.dice_panel.history.count() == 2
    window.undo_action.trigger()
    assert window.dice_panel.history.count() == 1
    qtbot.mouseClick(window.dice_panel.copy_button, Qt.MouseButton.LeftButton)
    text = QApplication.clipboard().text()
    assert "1. " in text and "2. " not in text


def _entry(i: int) -> dict:
    return {
        "roll": {
            "expression": "d100",
            "purpose": f"roll {i}",
            "terms": [],
            "dice": [],
            "natural": i % 100 + 1,
            "final": i % 100 + 1,
        },
        "note": f"n{i}",
    }
