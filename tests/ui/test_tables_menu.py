"""The Tables menu: the table editor, the missing-row choice, and the player's table pack in and out."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QFileDialog

from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow
from d100gui.ui.table_editor.editor import TableEditor
from d100gui.ui.table_editor.setup import PolicyChoiceDialog

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=4)
    qtbot.addWidget(win)
    return win


def menu_items(window, title: str):
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == title]
    return {a.text(): a for a in menu.actions() if not a.isSeparator()}


def test_the_tables_menu_holds_the_editor_the_choice_and_the_pack_files(window):
    items = menu_items(window, "&Tables")
    assert list(items) == [
        "Table &editor...",
        "&Missing rows...",
        "&Import table pack...",
        "&Export my table pack...",
        "Import table from CS&V...",
        "Export table as &CSV...",
    ]
    assert not any("table" in text.lower() for text in menu_items(window, "&File"))  # moved out of File


def test_the_menu_items_open_the_editor_and_the_choice(window):
    items = menu_items(window, "&Tables")
    items["Table &editor..."].trigger()
    assert isinstance(window.table_setup.editor, TableEditor) and window.table_setup.editor.isVisible()
    items["&Missing rows..."].trigger()
    assert isinstance(window.table_setup.choice_dialog, PolicyChoiceDialog)


def test_export_then_import_my_pack_from_the_tables_menu(window, tmp_path, monkeypatch):
    from d100gui.engine.dice.tables import Row

    window.library.add_user_row("d100.P", Row(range=(16, 18), fields={"part": "HORN", "value": "14gp"}))
    window.table_files.save_user_rows("d100.P")
    out = tmp_path / "shared.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(out), "")))
    items = menu_items(window, "&Tables")
    items["&Export my table pack..."].trigger()
    [table] = json.loads(out.read_text(encoding="utf-8"))["tables"]
    assert table["id"] == "d100.P" and table["rows"][0]["fields"]["part"] == "HORN"
    items["&Import table pack..."].trigger()
    assert "Imported 1 table(s)" in window.statusBar().currentMessage()
