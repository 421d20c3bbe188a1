"""A sheet render repaints only the number boxes whose value changed (issue 18's performance): QSpinBox.setValue
repaints the box even for the value it shows, and the sheet renders its ~30 boxes on every action that touches
the hero (a quest turn shades the time track), so each action repainted them all."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication
from test_ui_sheet import bridge, create_hero, sheet  # noqa: F401

from d100gui.engine.hero.sheet_edits import SetSheetField

pytestmark = pytest.mark.gui


class Paints(QObject):
    def __init__(self, widget) -> None:
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:
        self.count += event.type() == QEvent.Type.Paint
        return False


def test_an_action_repaints_the_number_box_it_changed_and_not_the_others(bridge, sheet):  # noqa: F811
    create_hero(bridge)
    for _ in range(3):
        QApplication.processEvents()
    gp, hp = Paints(sheet.header.header_boxes["gp"]), Paints(sheet.health.hp_box)
    renders = sheet.renders
    assert bridge.send(SetSheetField(field="gp", value=120))
    for _ in range(3):
        QApplication.processEvents()
    assert sheet.renders == renders + 1  # the sheet was rendered
    assert sheet.header.header_boxes["gp"].value() == 120 and gp.count >= 1
    assert hp.count == 0 and sheet.health.hp_box.value() == bridge.game.campaign.character.hp
