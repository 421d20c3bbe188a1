"""The toolbox listens to the bridge's one ``changed(ChangeSet)`` signal only (issue 22): none of the older
per-part signals has a toolbox receiver, and undo still reaches every panel through the change set."""

from __future__ import annotations

import pytest
from PySide6.QtCore import SIGNAL
from test_toolbox_dock import add_fighter, click, click_tool, type_into

from d100gui.engine.toolbox import scars as sc

pytestmark = pytest.mark.gui

OLD_SIGNALS = ("command_done()", "campaign_changed()", "character_changed()", "map_changed()")


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_no_toolbox_panel_listens_to_the_old_signals(make_dock):
    table, dock = make_dock()
    for key in list(dock.tools):
        dock.choose(key)  # every panel built, as a player opening each tool would
    assert len(dock.built) == len(dock.tools) > 50
    bridge = table.bridge
    assert {s: bridge.receivers(SIGNAL(s)) for s in OLD_SIGNALS} == dict.fromkeys(OLD_SIGNALS, 0)
    assert bridge.receivers(SIGNAL("changed(PyObject)")) > len(dock.tools) // 2  # the panels listen to this one


def test_undo_reaches_the_fight_tracker_and_the_ritual_s_status_through_the_change_set(qtbot, make_dock):
    table, dock = make_dock()
    fight = click_tool(qtbot, dock, "Fight tracker")
    add_fighter(qtbot, fight, "Vera", sc.Side.ADVENTURER, 4, 9, 0)
    add_fighter(qtbot, fight, "Orc", sc.Side.ENEMY, 5, 10, 2)
    click(qtbot, fight.start_button)
    fight.attacker.setCurrentText("Orc")
    fight.target.setCurrentText("Vera")
    type_into(qtbot, fight.attribute, "10")
    table.dice.push(9, 3)
    click(qtbot, fight.attack_button)
    ritual = click_tool(qtbot, dock, "Ritual")
    assert "Vera 3" in ritual.status.text()
    assert fight.result_box.result is not None and dock.runner.results
    table.bridge.undo()  # the attack taken back: both panels read the fight again, the results too
    assert "Vera 0" in ritual.status.text() and "health 9/9" in fight.fighters.item(0).text()
    assert [r.title for r in dock.runner.results] == ["Fight tracker"]  # only the fight's start is left
