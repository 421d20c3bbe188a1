"""The main window and dice panel, built from real engine objects (no mocks)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.dialogs import MissingRowDialog, PhysicalDiceDialog
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    loaded = packs.load_library(user_data_dir())
    win = MainWindow(loaded, Preferences(), seed=7)
    qtbot.addWidget(win)
    return win


def script(win, *faces):
    win.game.override = ScriptedSource(faces)


def press_ok(dialog):
    """Click the dialog's OK button, as the player does."""
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def choose_files(monkeypatch, opened=(), saved=()):
    """The file dialogs answer with these paths, one per opening."""
    opens, saves = [str(p) for p in opened], [str(p) for p in saved]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (opens.pop(0), "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (saves.pop(0), "")))


def test_quick_buttons_roll_and_draw_dice(window, qtbot):
    script(window, 4, 2)
    qtbot.mouseClick(window.dice_panel.d100_button, Qt.MouseButton.LeftButton)
    faces = window.dice_panel.faces.faces()
    assert [(f.role, f.face) for f in faces] == [("tens", 4), ("units", 2)]
    assert "42" in window.dice_panel.result_title.text()
    assert window.dice_panel.history.count() == 1


def test_expression_box_and_bad_expression_message(window, qtbot):
    panel = window.dice_panel
    script(window, 1, 2, 3)
    panel.expression.setText("3d4+1")
    qtbot.keyClick(panel.expression, Qt.Key.Key_Return)
    assert "7" in panel.result_title.text()
    panel.expression.setText("3d0")
    qtbot.mouseClick(panel.expression_button, Qt.MouseButton.LeftButton)
    assert "d0 is not a die" in panel.result_text.text()
    assert panel.history.count() == 1


def test_every_bundled_table_is_listed_and_searchable(window):
    panel = window.dice_panel
    assert set(panel.visible_table_ids()) == set(window.library.ids())
    panel.table_filter.setText("encounter")
    ids = panel.visible_table_ids()
    assert "d100.E" in ids and "d100.A" not in ids


def test_table_roll_shows_row_and_followup(window, qtbot):
    panel = window.dice_panel
    script(window, 2, 8, 1, 2)
    assert panel.select_table("d100.B")
    qtbot.mouseClick(panel.table_button, Qt.MouseButton.LeftButton)
    assert "ITEM" in panel.result_text.text()
    [button] = panel.followup_buttons()
    assert "Table I" in button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.game.campaign.dice_history[-1].table.row.fields["item"] == "WORN KEY"
    assert panel.history.count() == 2


def test_modifier_is_applied_and_clamped(window, qtbot):
    panel = window.dice_panel
    script(window, 1, 5)
    panel.select_table("d100.E")
    panel.modifier.setValue(-40)
    qtbot.mouseClick(panel.table_button, Qt.MouseButton.LeftButton)
    assert "Giant Rats" in panel.result_text.text()
    assert window.game.campaign.dice_history[-1].roll.final == 1


def test_fate_reroll_of_selected_die(window, qtbot):
    panel = window.dice_panel
    script(window, 6, 8, 2)
    qtbot.mouseClick(panel.d100_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.faces, Qt.MouseButton.LeftButton, pos=panel.faces._rect(0).center().toPoint())
    assert panel.reroll_button.isEnabled()
    qtbot.mouseClick(panel.reroll_button, Qt.MouseButton.LeftButton)
    assert window.game.campaign.dice_history[-1].roll.natural == 28


def test_shortcuts_roll_and_repeat(window, qtbot):
    script(window, 1, 1, 2, 2)
    window.roll_d100_action.trigger()
    window.repeat_action.trigger()
    assert [e.roll.natural for e in window.game.campaign.dice_history] == [11, 22]
    assert window.roll_d100_action.shortcut().toString() == "Ctrl+D"
    assert window.repeat_action.shortcut().toString() == "Ctrl+R"


def test_copy_history(window, qtbot):
    script(window, 3)
    qtbot.mouseClick(window.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(window.dice_panel.copy_button, Qt.MouseButton.LeftButton)
    assert "1. d6" in QApplication.clipboard().text()


def test_physical_dice_ask_and_validate(window, qtbot):
    asked = []
    window.ask_faces = lambda reqs: asked.append(len(reqs)) or [7, 3]
    window.dice_panel.physical.click()  # the box, as the player ticks it
    assert window.physical_action.isChecked()
    qtbot.mouseClick(window.dice_panel.d100_button, Qt.MouseButton.LeftButton)
    assert asked == [2]
    assert window.game.campaign.dice_history[-1].roll.natural == 73
    window.ask_faces = lambda reqs: [7]
    qtbot.mouseClick(window.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    assert "d6 face is 1-6" in window.dice_panel.result_text.text()
    window.ask_faces = lambda reqs: None
    qtbot.mouseClick(window.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    assert "cancelled" in window.dice_panel.result_text.text()
    assert len(window.game.campaign.dice_history) == 1
    window.physical_action.trigger()  # Dice > Physical dice: off again, the box follows
    assert not window.dice_panel.physical.isChecked() and window.game.physical is None
    assert "The app rolls the dice." in window.statusBar().currentMessage()


def test_physical_dice_dialog_rejects_bad_faces(qtbot):
    from d100gui.engine.dice.dice import FaceRequest

    reqs = [FaceRequest(10, "tens", "test", "d100"), FaceRequest(10, "units", "test", "d100")]
    dialog = PhysicalDiceDialog(reqs)
    qtbot.addWidget(dialog)
    dialog.edits[0].setText("12")
    dialog.edits[1].setText("3")
    press_ok(dialog)
    assert "from 0 to 9" in dialog.error_label.text()
    assert dialog.result() == 0
    dialog.edits[0].setText("1")
    press_ok(dialog)
    assert dialog.faces() == [1, 3]


def test_missing_row_dialog_saves_to_user_pack(window, qtbot, _fresh_home):
    script(window, 9, 0)
    window.dice_panel.select_table("d100.W")
    qtbot.mouseClick(window.dice_panel.table_button, Qt.MouseButton.LeftButton)
    dialog = window.missing_row_dialog
    assert isinstance(dialog, MissingRowDialog)
    assert (dialog.roll, dialog.missing) == (90, (9, 100))
    press_ok(dialog)
    assert "Fill in" in dialog.error_label.text()
    for key, value in {"type": "(H)", "weapon": "Typed Blade", "adjustment": "+1 DMG", "value": "90", "repair": "18"}.items():
        dialog.fields[key].setText(value)
    press_ok(dialog)
    assert window.game.campaign.dice_history[-1].table.row.fields["weapon"] == "Typed Blade"
    stored = json.loads((user_data_dir() / packs.USER_PACK_FILE).read_text(encoding="utf-8"))
    assert stored["tables"][0]["id"] == "d100.W"
    assert stored["tables"][0]["rows"][0]["fields"]["weapon"] == "Typed Blade"


def test_reroll_policy_preference(window, qtbot):
    window.prefs_action.trigger()  # Edit > Preferences
    dialog = window.preferences_dialog
    dialog.policy.setCurrentIndex(dialog.policy.findData(MissingRowPolicy.REROLL.value))
    dialog.theme.setCurrentIndex(dialog.theme.findData("light"))
    dialog.accept()
    assert Preferences().missing_row_policy is MissingRowPolicy.REROLL
    script(window, 9, 0, 0, 1)
    window.dice_panel.select_table("d100.W")
    qtbot.mouseClick(window.dice_panel.table_button, Qt.MouseButton.LeftButton)
    assert "Sample play" in window.dice_panel.result_text.text()


def test_import_bad_pack_is_refused_with_path(window, tmp_path, monkeypatch):
    bad = tmp_path / "bad-pack.json"
    bad.write_text(
        '{"id": "x", "title": "x", "tables": [{"id": "x.t", "title": "T", "columns": [], "rows": []}]}', encoding="utf-8"
    )
    choose_files(monkeypatch, opened=[bad])
    window.import_pack_action.trigger()
    box = window.table_files.last_message_box
    assert "bad-pack.json" in box.text()
    assert "table x.t" in box.text()
    assert "The table pack was not imported" in window.dice_panel.result_text.text()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_import_export_pack_and_csv(window, tmp_path, monkeypatch):
    good = tmp_path / "extra.json"
    good.write_text(
        json.dumps(
            {
                "id": "x",
                "title": "x",
                "tables": [
                    {
                        "id": "x.coin",
                        "title": "Coin",
                        "die": "d6",
                        "columns": [{"key": "side", "label": "Side"}],
                        "rows": [{"range": [1, 3], "fields": {"side": "Heads"}}, {"range": [4, 6], "fields": {"side": "Tails"}}],
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    out, csv_path = tmp_path / "mine.json", tmp_path / "coin.csv"
    choose_files(monkeypatch, opened=[good, csv_path], saved=[out, csv_path])
    window.import_pack_action.trigger()
    assert "x.coin" in window.dice_panel.visible_table_ids()
    assert "Imported 1 table(s)" in window.statusBar().currentMessage()
    window.export_pack_action.trigger()
    assert "x.coin" in out.read_text(encoding="utf-8")
    assert window.dice_panel.select_table("x.coin")
    window.export_csv_action.trigger()
    csv_path.write_text(csv_path.read_text(encoding="utf-8").replace("Tails", "Edge"), encoding="utf-8")
    window.import_csv_action.trigger()
    assert window.library.get("x.coin").find(5).fields["side"] == "Edge"
    assert "Imported 2 row(s) into Coin" in window.statusBar().currentMessage()


def test_broken_user_pack_is_shown_once_and_tables_still_load(qtbot, _fresh_home):
    (user_data_dir() / packs.USER_PACK_FILE).write_text("{ not json", encoding="utf-8")
    loaded = packs.load_library(user_data_dir())
    win = MainWindow(loaded, Preferences())
    qtbot.addWidget(win)
    win.table_files.show_startup_problems()
    assert "not valid JSON" in win.table_files.last_message_box.text()
    assert "d100.A" in win.dice_panel.visible_table_ids()


def test_placeholders_say_no_character_and_no_dungeon(window):
    assert "No dungeon yet" in window.map_placeholder.text()
    assert "No character yet" in window.sheet.empty_label.text()
    assert window.sheet.empty_label.isVisibleTo(window.sheet)


def test_selecting_a_table_shows_its_modifier_note(window):
    window.dice_panel.select_table("d100.E")
    text = window.dice_panel.table_notes.text()
    assert text.startswith("Modifier: ")
    assert "encounter modifier" in text
    assert "not printed in the excerpt" in text


def test_export_csv_without_a_selected_table_asks_by_title(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    offered = []

    def get_item(_parent, _title, _label, items, *_args):
        offered.extend(items)
        return "Table E - Encounter" if "Table E - Encounter" in items else items[0], True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    choose_files(monkeypatch, saved=[tmp_path / "e.csv"])
    window.dice_panel.table_list.setCurrentItem(None)
    window.export_csv_action.trigger()
    assert not any(label.startswith("d100.") for label in offered)  # titles, not internal ids
    assert (tmp_path / "e.csv").read_text(encoding="utf-8")
    assert "Exported" in window.statusBar().currentMessage()


def test_a_table_e_roll_offers_its_fight_and_the_button_starts_it(qtbot):
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.hero.model import new_character
    from d100gui.storage.resources import bundled_rules

    hero = new_character(bundled_rules())
    hero.creation, hero.name = None, "Aria"
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=Campaign(character=hero))
    qtbot.addWidget(win)
    script(win, 0, 5, 5)  # Table E 05: Giant Rats; their reaction d10 5
    win.dice_panel.select_table("d100.A")
    qtbot.mouseClick(win.dice_panel.table_button, Qt.MouseButton.LeftButton)
    assert "Fight this monster" not in [b.text() for b in win.dice_panel.followup_buttons()]
    script(win, 0, 5, 5)
    win.dice_panel.select_table("d100.E")
    qtbot.mouseClick(win.dice_panel.table_button, Qt.MouseButton.LeftButton)
    [fight] = [b for b in win.dice_panel.followup_buttons() if b.text() == "Fight this monster"]
    qtbot.mouseClick(fight, Qt.MouseButton.LeftButton)
    assert win.game.campaign.combat is not None
    assert win.game.campaign.combat.monster.name.lower().startswith("giant rat")


def test_the_follow_up_buttons_are_kept_from_roll_to_roll(window, qtbot):
    """A roll tells the kept follow-up buttons their words and what they do (none made and deleted per roll)."""
    panel = window.dice_panel
    script(window, 2, 8, 4, 2, 2, 8)
    assert panel.select_table("d100.B")
    qtbot.mouseClick(panel.table_button, Qt.MouseButton.LeftButton)
    [first] = panel.followup_buttons()
    qtbot.mouseClick(panel.d100_button, Qt.MouseButton.LeftButton)  # a plain roll: nothing to follow
    assert panel.followup_buttons() == [] and first.isHidden()
    qtbot.mouseClick(panel.table_button, Qt.MouseButton.LeftButton)  # Table B 28 again
    [again] = panel.followup_buttons()
    assert again is first and not again.isHidden() and "Table I" in again.text()
    script(window, 1, 2)
    qtbot.mouseClick(again, Qt.MouseButton.LeftButton)  # the kept button follows the newest roll's link
    assert window.game.campaign.dice_history[-1].table.row.fields["item"] == "WORN KEY"
