"""Edit > Preferences, through the real action: each setting changed with clicks and keys, its effect
checked at once, and kept for the next start (a new window on the same settings file)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QDialogButtonBox, QMessageBox, QSpinBox, QWidget

from d100gui.engine.combat.monster import Monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.hero.creation import creation_commands
from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.skill_test_commands import RollTest
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir, user_layout_path
from d100gui.storage.resources import standard_tileset
from d100gui.storage.tilesets import save_tileset
from d100gui.ui.common.preferences import PreferencesDialog
from d100gui.ui.common.preferences import PreferencesDialog as ReExported
from d100gui.ui.common.settings import Preferences
from d100gui.ui.common.theme import palette_for
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui
GOBLIN = Monster(name="Goblin", av=40, defence=1, dmg=0, hp=[1])
CREATION = tuple(creation_commands("Judith", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]))


@pytest.fixture
def restore_theme():
    app = QApplication.instance()
    palette, style = QPalette(app.palette()), app.style().name()
    yield
    app.setStyle(style)
    app.setPalette(palette)


def new_window(qtbot) -> MainWindow:
    """A window as the app starts one: the stored preferences are read afresh."""
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=7)
    qtbot.addWidget(win)
    return win


@pytest.fixture
def window(qtbot):
    return new_window(qtbot)


def open_prefs(win: MainWindow) -> PreferencesDialog:
    win.prefs_action.trigger()  # Edit > Preferences...
    dialog = win.preferences_dialog
    assert isinstance(dialog, PreferencesDialog) and dialog.isVisible()
    return dialog


def page(qtbot, dialog: PreferencesDialog, name: str) -> None:
    """Click the tab called ``name``."""
    bar = dialog.tabs.tabBar()
    index = next(i for i in range(bar.count()) if bar.tabText(i).replace("&", "") == name)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert dialog.tabs.currentIndex() == index


def choose(qtbot, combo: QComboBox, data: object) -> None:
    """Pick the item holding ``data`` with the arrow keys, as a keyboard player does."""
    target = combo.findData(data)
    assert target >= 0, data
    combo.setFocus()
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up)
    assert combo.currentData() == data


def type_number(qtbot, spin: QSpinBox, value: int) -> None:
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(spin, str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.value() == value


def click(qtbot, widget: QWidget) -> None:
    """A left click; on a check box, on its box (a check box only answers on its box and its words)."""
    pos = QPoint(8, widget.height() // 2) if isinstance(widget, QCheckBox) else widget.rect().center()
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pos)


def press_ok(qtbot, dialog: PreferencesDialog) -> None:
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))


def make_hero(win: MainWindow) -> None:
    win.game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in CREATION:
        assert win.bridge.send(command), command
    win.game.override = None


def test_the_dialog_lives_in_its_own_module_and_is_still_importable_from_dialogs():
    assert ReExported is PreferencesDialog


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_dice_physical_applies_at_once_and_survives_a_restart(window, qtbot):
    dialog = open_prefs(window)
    choose(qtbot, dialog.dice, True)
    press_ok(qtbot, dialog)
    assert window.physical_action.isChecked() and window.game.physical is not None
    assert window.dice_panel.physical.isChecked()  # the dice panel's box follows
    again = new_window(qtbot)
    assert again.physical_action.isChecked() and again.game.physical is not None
    dialog = open_prefs(again)
    assert dialog.dice.currentData() is True
    choose(qtbot, dialog.dice, False)
    press_ok(qtbot, dialog)
    assert again.game.physical is None and not Preferences().physical_dice


def test_missing_row_policy_applies_at_once_and_survives_a_restart(window, qtbot):
    dialog = open_prefs(window)
    choose(qtbot, dialog.policy, MissingRowPolicy.REROLL.value)
    press_ok(qtbot, dialog)
    assert window.game.policy is MissingRowPolicy.REROLL
    assert new_window(qtbot).game.policy is MissingRowPolicy.REROLL


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_skill_tests_that_never_wait_are_settled_at_once_and_logged(window, qtbot):
    make_hero(window)
    dialog = open_prefs(window)
    choose(qtbot, dialog.fate_tests, "never")
    press_ok(qtbot, dialog)
    window.game.override = ScriptedSource([2, 0])
    length = window.game.campaign.log_length
    assert window.bridge.send(RollTest(characteristic="DEX", name="Sneak"))
    campaign = window.game.campaign
    assert not [d for d in campaign.pending if isinstance(d, PendingTest)]  # nobody asked to accept it
    # issue 18: the engine settles it inside the same command (one click, one undo step); the log keeps the policy
    assert campaign.log_length == length + 1 and campaign.log[-1].fate is not None
    assert "test_settled" in [e.kind for e in campaign.log[-1].events]
    window.undo_action.trigger()  # undo takes the whole click back
    assert window.game.campaign.log_length == length
    assert not [d for d in window.game.campaign.pending if isinstance(d, PendingTest)]
    assert new_window(qtbot).prefs.fate_tests == "never"


def test_skill_tests_wait_only_while_the_hero_has_fate(window, qtbot):
    make_hero(window)
    dialog = open_prefs(window)
    choose(qtbot, dialog.fate_tests, "fate")
    press_ok(qtbot, dialog)
    hero = window.game.campaign.character
    assert hero.fate >= window.bridge.rules.fate_cost  # a new hero has Fate: the test waits
    window.game.override = ScriptedSource([2, 0])
    assert window.bridge.send(RollTest(characteristic="DEX", name="Sneak"))
    assert [d for d in window.game.campaign.pending if isinstance(d, PendingTest)]


def test_fight_rolls_that_never_wait_let_the_fight_go_on(window, qtbot):
    make_hero(window)
    dialog = open_prefs(window)
    page(qtbot, dialog, "Play")
    choose(qtbot, dialog.fate_fights, "never")
    press_ok(qtbot, dialog)
    window.game.override = ScriptedSource([5])
    assert window.bridge.send(StartCombat(source="monster", monster=GOBLIN))
    combat = window.game.campaign.combat
    assert combat is not None and combat.waiting == "action"  # the reaction roll did not stop the fight
    assert window.game.campaign.character.fate >= window.bridge.rules.fate_cost  # though Fate was there to spend
    # issue 18: the engine carries on inside start_combat itself (one click, one undo step)
    assert window.game.campaign.log[-1].command["kind"] == "start_combat" and window.game.campaign.log[-1].fate is not None


def test_the_fight_stops_for_fate_by_default(window, qtbot):
    make_hero(window)
    window.game.override = ScriptedSource([5])
    assert window.bridge.send(StartCombat(source="monster", monster=GOBLIN))
    assert window.game.campaign.combat.waiting == "roll"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_tile_set_applies_to_the_campaign_and_to_new_ones(qtbot):
    own = save_tileset(standard_tileset(), title="My printed sheet")
    window = new_window(qtbot)
    dialog = open_prefs(window)
    page(qtbot, dialog, "Map")
    choose(qtbot, dialog.tileset, own.id)
    press_ok(qtbot, dialog)
    assert window.game.campaign.tileset == own.id
    again = new_window(qtbot)
    again.new_action.trigger()  # File > New campaign: on the preferred tile set
    if again.table_setup.choice_dialog is not None:
        again.table_setup.choice_dialog.close()
    assert again.game.campaign.tileset == own.id


def test_sheet_size_and_edge_rule_apply_to_the_next_dungeon(window, qtbot):
    dialog = open_prefs(window)
    page(qtbot, dialog, "Map")
    type_number(qtbot, dialog.sheet_width, 21)
    type_number(qtbot, dialog.sheet_height, 9)
    click(qtbot, dialog.unbounded)
    press_ok(qtbot, dialog)
    window.game.override = ScriptedSource([0, 3])
    window.new_dungeon_action.trigger()
    dungeon = window.game.campaign.dungeons.current_dungeon
    assert (dungeon.width, dungeon.height, dungeon.unbounded) == (21, 9, True)
    assert new_window(qtbot).map_area.sheet_options == ((21, 9), True)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_theme_applies_at_once_and_survives_a_restart(window, qtbot, restore_theme):
    dialog = open_prefs(window)
    page(qtbot, dialog, "Look")
    choose(qtbot, dialog.theme, "dark")
    press_ok(qtbot, dialog)
    window_colour = QApplication.palette().color(QPalette.ColorRole.Window)
    assert window_colour == palette_for("dark").color(QPalette.ColorRole.Window)
    assert Preferences().theme == "dark"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_confirmed_action_asks_first_and_no_means_no(window, qtbot):
    dialog = open_prefs(window)
    click(qtbot, dialog.confirm["new_dungeon"])
    press_ok(qtbot, dialog)
    window.game.override = ScriptedSource([0, 3])
    window.new_dungeon_action.trigger()  # Map > New dungeon
    box = window.confirmations.box
    assert isinstance(box, QMessageBox) and box.isVisible() and "new dungeon" in box.text()
    assert window.game.campaign.dungeons.current_dungeon is None  # nothing happened yet
    click(qtbot, box.button(QMessageBox.StandardButton.No))
    assert window.game.campaign.dungeons.current_dungeon is None
    window.new_dungeon_action.trigger()
    click(qtbot, window.confirmations.box.button(QMessageBox.StandardButton.Yes))
    assert window.game.campaign.dungeons.current_dungeon is not None
    assert new_window(qtbot).prefs.confirms("new_dungeon")


def test_quitting_can_ask_first(window, qtbot):
    dialog = open_prefs(window)
    click(qtbot, dialog.confirm["quit"])
    press_ok(qtbot, dialog)
    window.show()
    window.quit_action.trigger()  # File > Quit
    box = window.confirmations.box
    assert box is not None and box.isVisible() and window.isVisible()
    click(qtbot, box.button(QMessageBox.StandardButton.Yes))
    assert not window.isVisible()


def remove_buttons(rows) -> list:
    return [row[-1] for row in rows.rows]


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_sheet_layout_edited_checked_saved_and_used_at_the_next_start(window, qtbot):
    dialog = open_prefs(window)
    page(qtbot, dialog, "Sheet layout")
    editor = dialog.layout_editor
    type_number(qtbot, editor.lengths["clocks"], 10)
    press_ok(qtbot, dialog)  # triggers at clocks 11 and 12 are now past the end: refused, dialog stays
    assert dialog.isVisible() and "past the last clock (10)" in dialog.error_label.text()
    assert not user_layout_path().exists()
    for row in [r for r in editor.triggers.rows if r[0].value() > 10]:
        click(qtbot, row[-1])  # Remove
    type_number(qtbot, editor.lengths["poison_track"], 8)
    press_ok(qtbot, dialog)
    assert not dialog.isVisible()
    saved = json.loads(user_layout_path().read_text(encoding="utf-8"))
    assert saved["time_track"]["clocks"] == 10 and saved["poison_track"] == 8
    assert "next starts" in window.statusBar().currentMessage()
    again = new_window(qtbot)
    assert again.game.rules.sheet.time_track.clocks == 10 and again.bridge.rules.sheet.poison_track == 8

    dialog = open_prefs(again)
    page(qtbot, dialog, "Sheet layout")
    assert dialog.layout_editor.lengths["clocks"].value() == 10
    click(qtbot, dialog.layout_editor.reset_button)  # Reset to defaults
    assert dialog.layout_editor.lengths["clocks"].value() == 12
    press_ok(qtbot, dialog)
    assert not user_layout_path().exists()
    assert new_window(qtbot).game.rules.sheet.time_track.clocks == 12


def test_a_milestone_without_its_effect_is_refused(window, qtbot):
    dialog = open_prefs(window)
    page(qtbot, dialog, "Sheet layout")
    editor = dialog.layout_editor
    click(qtbot, editor.milestones.add_button)
    press_ok(qtbot, dialog)
    assert dialog.isVisible() and "type both its reward and its effect" in dialog.error_label.text()


def test_a_broken_layout_file_is_not_used_and_the_player_is_told(qtbot):
    user_layout_path().write_text('{"time_track": {"clocks": 0}}', encoding="utf-8")
    window = new_window(qtbot)
    assert window.game.rules.sheet.time_track.clocks == 12  # the shipped layout
    assert "sheet layout was not used" in window.statusBar().currentMessage()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_ctrl_comma_opens_the_preferences(window, qtbot):
    """The standard key for Preferences is empty on Linux: Ctrl+, opens them everywhere."""
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.dice_panel.expression.setFocus()
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert isinstance(window.preferences_dialog, PreferencesDialog) and window.preferences_dialog.isVisible()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_test_rolled_in_the_skill_test_dialog_that_never_waits_is_settled(window, qtbot):
    make_hero(window)
    dialog = open_prefs(window)
    choose(qtbot, dialog.fate_tests, "never")
    press_ok(qtbot, dialog)
    window.test_action.trigger()  # Hero > Skill test...
    test_dialog = window.skill_test_dialog
    window.game.override = ScriptedSource([2, 0])
    click(qtbot, test_dialog.roll_button)
    assert test_dialog.pending_test() is None and not test_dialog.accept_button.isVisible()
    assert window.game.campaign.log[-1].command["kind"] == "roll_test"  # settled in the same command (issue 18)
