"""Help > Keyboard shortcuts: made from the window's real actions; every shortcut listed, none shared."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMenu

from d100gui.ui.help.shortcuts import PANEL_KEYS, clashes

pytestmark = pytest.mark.gui


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_every_action_with_a_shortcut_is_listed_and_no_two_share_one(make_window, qtbot):
    win = make_window()
    win.shortcuts_action.trigger()
    sheet = win.help.shortcut_sheet
    assert sheet is not None and sheet.isVisible()
    listed = sheet.listed()
    native = QKeySequence.SequenceFormat.NativeText
    with_keys = [a for a in win.actions() if not a.shortcut().isEmpty()]
    assert len(with_keys) > 15
    for act in with_keys:
        what = act.text().replace("&", "").removesuffix("...")
        assert any(w == what and act.shortcut().toString(native) in k for w, k in listed), f"{what} is not on the sheet"
    assert clashes(win) == {}, "two actions share a shortcut"
    portable = [s.toString() for a in with_keys for s in a.shortcuts()]
    assert len(portable) == len(set(portable))


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_sheet_lists_the_fight_keys_and_is_under_help(make_window, qtbot):
    win = make_window()
    assert win.shortcuts_action in win.findChild(QMenu, "helpMenu").actions()
    assert win.shortcuts_action.shortcut().toString() == "Ctrl+/"
    assert win.help_action.shortcut().toString() == "F1"
    win.shortcuts_action.trigger()
    panel_keys = [e for e in win.help.shortcut_sheet.entries if e.group == PANEL_KEYS]
    fight_keys = {s.key().toString() for s in win.combat_panel.findChildren(QShortcut)}
    assert fight_keys and fight_keys <= {seq for e in panel_keys for seq in e.sequences}


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_sheet_follows_a_new_action(make_window, qtbot):
    """It is made from the actions, so one added later is on the next sheet."""
    win = make_window()
    extra = win.addAction("Roll the bones")
    extra.setShortcut(QKeySequence("Ctrl+Alt+B"))
    win.shortcuts_action.trigger()
    assert ("Roll the bones", QKeySequence("Ctrl+Alt+B").toString(QKeySequence.SequenceFormat.NativeText)) in (
        win.help.shortcut_sheet.listed()
    )
    extra.setShortcut(QKeySequence("Ctrl+D"))  # Dice > Roll d100's
    assert "Ctrl+D" in clashes(win)
