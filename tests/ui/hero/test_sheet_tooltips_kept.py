"""A sheet render sends no tooltip its widgets already have (issue 18's performance): Qt sends a ToolTipChange event
for every setToolTip, same words or not, and the sheet renders its ~60 equipment, belt and spell-book tooltips on
every action that touches the hero."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget
from test_ui_sheet import bridge, create_hero, sheet  # noqa: F401

from d100gui.engine.hero.sheet_edits import SetSheetField

pytestmark = pytest.mark.gui


class TipChanges(QObject):
    def __init__(self, within: QWidget) -> None:
        super().__init__()
        self.within = within
        self.count = 0
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.ToolTipChange and isinstance(obj, QWidget) and self.within.isAncestorOf(obj):
            self.count += 1
        return False


def test_an_action_that_leaves_the_items_and_spells_sends_their_tooltips_no_more(bridge, sheet):  # noqa: F811
    create_hero(bridge)
    spell_tip = sheet.spells.spell_names[0].toolTip()
    tips = TipChanges(sheet)
    try:
        renders = sheet.renders
        assert bridge.send(SetSheetField(field="gp", value=120))  # the hero changed: the sheet renders
        assert sheet.renders == renders + 1
        assert tips.count == 0
        assert sheet.spells.spell_names[0].toolTip() == spell_tip and spell_tip  # the tooltips are still there
    finally:
        QApplication.instance().removeEventFilter(tips)
