"""Issue 19, deliver 5: the missing-row dialogs of the town's market rolls and Table J offer "Re-roll among printed
rows" like every other row dialog, and the re-roll settles the roll that asked for it."""

from __future__ import annotations

from PySide6.QtCore import Qt

from d100gui.engine.dice.dice import ScriptedSource
from tests.ui.town.conftest import RULES, hero, new_game

LEFT = Qt.MouseButton.LeftButton


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, LEFT)


def test_a_market_rolls_row_dialog_re_rolls_among_printed_rows(qtbot, make_wizard):
    game = new_game(hero(gp=500))
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    for _ in range(4):  # refresh, repair, sell, required: skipped
        click(qtbot, wizard.next_button)
    markets = wizard.panels["markets"]
    game.override = ScriptedSource([5, 0])  # Table A 50: not in the excerpt
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    click(qtbot, markets.roll_button)
    click(qtbot, markets.row_buttons[0])
    dialog = markets.dialog
    assert dialog.roll == 50 and dialog.sample_once.isVisible() and not dialog.sample_always.isVisible()
    game.override = ScriptedSource([0, 3])  # the re-roll: 3, Leather Tasset (23 gp)
    click(qtbot, dialog.sample_once)
    rolled = game.campaign.town.market_rolls[0]
    assert rolled.sample and rolled.row.fields["item"] == "Leather Tasset"
    assert markets.buy_buttons[0].text() == "Buy for 23 gp"
    assert game.library.get("d100.A").find(50) is None  # nothing saved


def test_table_js_row_dialog_re_rolls_among_printed_rows_and_applies_it(qtbot, make_wizard):
    ch = hero(gp=500)
    kind = RULES.investments.kinds[0]
    ch.empire[kind.id].shares = 2
    game = new_game(ch)
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    while wizard.current_panel() is not wizard.panels["investments"]:
        click(qtbot, wizard.next_button)
    invest = wizard.panels["investments"]
    game.override = ScriptedSource([7, 5])  # Table J 75: not in the excerpt
    click(qtbot, invest.roll_button)
    click(qtbot, invest.row_button)
    dialog = invest.dialog
    assert dialog.roll == 75 and dialog.sample_once.isVisible()
    game.override = ScriptedSource([4, 5])  # the re-roll: 45, Trade +1 Pip
    click(qtbot, dialog.sample_once)
    rolled = game.campaign.town.investment_roll
    assert rolled.sample and rolled.roll.final == 45
    assert game.campaign.town.investments_applied and game.campaign.character.empire[kind.id].pips == 2
