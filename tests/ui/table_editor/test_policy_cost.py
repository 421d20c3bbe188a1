"""Issue 19, deliver 5: the first-run choice says what it costs (how many rows each table lacks, read from the
table library; sample play re-rolls among printed rows until the tables are completed) and offers the three
ways to complete them: paste, type, import a pack."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.row_check import completeness
from d100gui.engine.dice.tables import Row
from d100gui.ui.table_editor.editor import TableEditor
from d100gui.ui.table_editor.paste import PasteDialog
from d100gui.ui.table_editor.setup import PolicyChoiceDialog

pytestmark = pytest.mark.gui

CLICK = Qt.MouseButton.LeftButton


def first_run(window) -> PolicyChoiceDialog:
    window.table_files.show_startup_problems()  # what the app does once the window is up
    dialog = window.table_setup.choice_dialog
    assert isinstance(dialog, PolicyChoiceDialog) and dialog.isVisible()
    return dialog


def lacking_rows(dialog: PolicyChoiceDialog) -> dict[str, tuple[str, str]]:
    view = dialog.lacking
    return {view.item(r, 0).text(): (view.item(r, 1).text(), view.item(r, 2).text()) for r in range(view.rowCount())}


def test_the_first_run_choice_says_how_many_rows_each_table_lacks(window):
    dialog = first_run(window)
    rows = lacking_rows(dialog)
    weapons = window.library.get("d100.W")
    covered, total = completeness(weapons)
    assert rows["Table W – Weapon"] == (f"4 ({covered} of {total} results)", f"{total - covered} of {total}")
    assert rows["Table W – Weapon"] == ("4 (8 of 100 results)", "92 of 100")  # the excerpt prints 1-2 ... 7-8
    every = [t for t in window.library if t.rollable and t.missing_ranges()]
    assert set(rows) == {t.title for t in every}  # every table with a gap, and only those
    cost = dialog.cost.text()
    assert "re-rolled among the printed rows" in cost and "until you complete the tables" in cost
    assert [b.text() for b in dialog.job_buttons.values()] == ["Paste a table…", "Type rows…", "Import a table pack…"]


def test_the_counts_follow_the_players_rows(window):
    window.library.add_user_row(
        "d100.W",
        Row(range=(9, 10), fields={"type": "(R)", "weapon": "Sling", "adjustment": "-2 DMG", "value": "12", "repair": "3"}),
    )
    window.table_policy_action.trigger()  # Tables > Missing rows...
    assert lacking_rows(window.table_setup.choice_dialog)["Table W – Weapon"][1] == "90 of 100"


def test_paste_a_table_applies_the_choice_and_opens_the_paste_preview(qtbot, window):
    QApplication.clipboard().setText(
        "Table W – Weapon (D100)\n1-2\t(R)\tSling\t-2 DMG\t12\t3\n3-4\t(R)\tCatapult\t-2 DMG\t15\t3\n"
    )
    dialog = first_run(window)
    qtbot.mouseClick(dialog.buttons_by_choice["sample"], CLICK)
    qtbot.mouseClick(dialog.job_buttons["paste"], CLICK)
    assert not dialog.isVisible()
    assert window.game.policy is MissingRowPolicy.REROLL  # sample play until the tables are complete
    editor = window.table_setup.editor
    assert isinstance(editor, TableEditor) and editor.isVisible()
    assert isinstance(editor.paste_dialog, PasteDialog) and editor.paste_dialog.isVisible()
    assert editor.current == "d100.W" and editor.paste_dialog.table.id == "d100.W"  # the title line names the table
    assert editor.paste_dialog.preview.rowCount() == 2


def test_type_rows_opens_the_editor(qtbot, window):
    dialog = first_run(window)
    qtbot.mouseClick(dialog.job_buttons["type"], CLICK)
    assert window.game.policy is MissingRowPolicy.ASK
    assert isinstance(window.table_setup.editor, TableEditor) and window.table_setup.editor.isVisible()


def test_import_a_table_pack_imports_it(qtbot, window, tmp_path, monkeypatch):
    # not printed: a fictional row for a gap of Table W made of printed cells, only in this test's file
    pack = {
        "id": "friend",
        "title": "a friend's rows",
        "tables": [
            {
                "id": "d100.W",
                "title": "Table W – Weapon",
                "columns": [{"key": "weapon", "label": "Weapon"}],
                "rows": [{"range": [9, 10], "fields": {"weapon": "Sling"}, "partial": True}],
            }
        ],
    }
    path = tmp_path / "friend.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    dialog = first_run(window)
    qtbot.mouseClick(dialog.job_buttons["import"], CLICK)
    assert not dialog.isVisible()
    assert window.library.get("d100.W").find(9) is not None
    assert "Imported 1 table(s)" in window.statusBar().currentMessage()
