"""Issue 19 (confusing): the town window has a Close button, closes once *Confirm and finish* ends the
phase (it went back to "Begin", as if the phase started over), and keeps its size after market rolls
(it grew over the adventure log). Through the real buttons."""

from __future__ import annotations

import pytest
from conftest import RULES, hero, new_game
from PySide6.QtCore import Qt

from d100gui.engine.dice.dice import ScriptedSource

LEFT = Qt.MouseButton.LeftButton


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, LEFT)


def test_the_close_button_closes_the_window_and_keeps_the_phase(qtbot, make_wizard):
    game = new_game(hero())
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    assert wizard.close_button.text() == "Close" and wizard.close_button.isVisible()
    click(qtbot, wizard.close_button)
    assert not wizard.isVisible()
    assert game.campaign.town.active  # closing is not finishing: the phase waits at its step


def test_confirm_and_finish_closes_the_window(qtbot, make_wizard):
    game = new_game(hero())
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    click(qtbot, wizard.finish_button)
    assert not game.campaign.town.active
    assert not wizard.isVisible()  # not back at "Begin the between-quests phase", as if it began again


def test_a_refused_finish_keeps_the_window_open(qtbot, make_wizard):
    ch = hero(gp=500)
    ch.empire[RULES.investments.kinds[0].id].shares = 2  # Table J must be rolled first: the engine refuses to finish
    game = new_game(ch)
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    while wizard.current_panel() is not wizard.panels["investments"]:
        click(qtbot, wizard.next_button)
    click(qtbot, wizard.finish_button)
    assert game.campaign.town.active and wizard.isVisible()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_market_rolls_do_not_grow_the_window(qtbot, make_wizard):
    game = new_game(hero(gp=500, rep=6))
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    for _ in range(4):  # refresh, repair, sell, required: skipped
        click(qtbot, wizard.next_button)
    markets = wizard.panels["markets"]
    assert wizard.current_panel() is markets
    wizard.resize(640, 300)  # a short window, as over the adventure log
    qtbot.wait(10)
    height, least = wizard.height(), wizard.minimumSizeHint().height()
    game.override = ScriptedSource([0, 3] * 40)  # Table A 3, as many times as the phase allows
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    while markets.roll_button.isEnabled():
        click(qtbot, markets.roll_button)
    qtbot.wait(10)
    assert len(markets.buy_buttons) >= 6
    assert wizard.height() == height and wizard.minimumSizeHint().height() == least  # the rolls scroll
