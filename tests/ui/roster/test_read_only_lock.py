"""ReadOnlyLock on a plain widget: controls greyed with the reason, kept greyed while their widget re-enables them,
new children locked too, and every control given back as its widget last wanted it."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLineEdit, QPushButton, QVBoxLayout, QWidget

from d100gui.ui.roster.read_only import ReadOnlyLock

WHY = "Aria has fallen: read-only."


def _panel(qtbot):
    panel = QWidget()
    qtbot.addWidget(panel)
    box = QVBoxLayout(panel)
    roll, search, idle = QPushButton("Roll"), QLineEdit(), QPushButton("Roll table")
    roll.setToolTip("Roll the dice")
    idle.setEnabled(False)
    for w in (roll, search, idle):
        box.addWidget(w)
    return panel, box, roll, search, idle


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_lock_greys_keeps_greyed_and_gives_back(qtbot):
    panel, box, roll, search, idle = _panel(qtbot)
    lock = ReadOnlyLock(keep=lambda w: w is search)
    lock.watch([panel])
    lock.set_reason(WHY)
    assert not roll.isEnabled() and roll.toolTip() == WHY and search.isEnabled() and not idle.isEnabled()
    idle.setEnabled(True)  # the widget enables a control of its own accord: it stays greyed, its wish noted
    roll.setToolTip("Roll 2d6")  # ... and sets a tooltip of its own: the reason stays shown
    assert not idle.isEnabled() and idle.toolTip() == WHY and roll.toolTip() == WHY
    later = QPushButton("Roll Table F")  # a follow-up added while locked is locked too
    box.addWidget(later)
    assert not later.isEnabled() and later.toolTip() == WHY
    gone = QPushButton("Fight this monster")
    box.addWidget(gone)
    gone.setParent(None)
    gone.deleteLater()
    qtbot.wait(1)
    lock.set_reason("")
    assert roll.isEnabled() and roll.toolTip() == "Roll 2d6" and idle.isEnabled() and later.isEnabled()
    assert later.toolTip() == "" and search.isEnabled()
    roll.setEnabled(False)  # unlocked: the widget is in charge again
    assert not roll.isEnabled()
