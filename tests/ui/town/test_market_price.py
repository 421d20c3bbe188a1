"""The markets step shows the engine's price for each roll; a Table S row says "no price printed" and is
bought at the price the player types, through the real controls."""

from __future__ import annotations

from conftest import hero, new_game
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from d100gui.engine.dice.dice import ScriptedSource

LEFT = Qt.MouseButton.LeftButton


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, LEFT)


def at_markets(qtbot, wizard):
    click(qtbot, wizard.begin.begin_button)
    for _ in range(4):  # refresh, repair, sell, required: skipped
        click(qtbot, wizard.next_button)
    markets = wizard.panels["markets"]
    assert wizard.current_panel() is markets
    return markets


def test_a_spell_with_no_printed_price_is_bought_at_the_typed_price(qtbot, make_wizard):
    game = new_game(hero(gp=500, rep=2))
    wizard = make_wizard(game)
    markets = at_markets(qtbot, wizard)
    game.override = ScriptedSource([1, 4, 0, 3])  # Table S 14: HEAL (no price printed); Table A 3: Leather Tasset
    markets.table.setCurrentIndex(markets.table.findData("d100.S"))
    click(qtbot, markets.roll_button)
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    click(qtbot, markets.roll_button)
    heal, tasset = markets.buy_buttons
    assert tasset.text() == "Buy for 23 gp"  # the engine's price (TownView.market)
    assert heal.text() == "Buy at this price" and 0 in markets.price_boxes and 1 not in markets.price_boxes
    shown = [label.text() for label in markets.findChildren(type(markets.left))]
    assert "No price printed:" in shown
    box = markets.price_boxes[0]
    assert box.value() == 0 and not heal.isEnabled() and "Type the price your rulebook prints" in heal.toolTip()
    box.setValue(180)
    click(qtbot, heal)
    ch = game.campaign.character
    assert ch.gp == 320 and ch.spell_book[0].name == "Heal"
    assert "spent 180 gp" in wizard.gold_label.text()
    tasset = markets.buy_buttons[1]
    assert not tasset.isEnabled() and "Heal is already bought" in tasset.toolTip()


def test_a_typed_price_the_hero_cannot_pay_is_refused_on_the_panel(qtbot, make_wizard):
    game = new_game(hero(gp=100, rep=1))
    wizard = make_wizard(game)
    markets = at_markets(qtbot, wizard)
    game.override = ScriptedSource([1, 4])
    markets.table.setCurrentIndex(markets.table.findData("d100.S"))
    click(qtbot, markets.roll_button)
    markets.price_boxes[0].setValue(250)
    click(qtbot, markets.buy_buttons[0])
    assert "250 gp and you have 100 gp: 150 gp short" in markets.message.text()
    assert game.campaign.character.gp == 100 and not any(game.campaign.character.spell_book)


def test_a_typed_market_row_is_saved_to_the_players_pack(qtbot, make_wizard):
    """``provide_market_row`` tells ``row_provided``: the bridge asks for the row to be saved to the pack."""
    game = new_game(hero(gp=500))
    wizard = make_wizard(game)
    markets = at_markets(qtbot, wizard)
    game.override = ScriptedSource([5, 0])  # Table A 50: not in the excerpt
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    click(qtbot, markets.roll_button)
    click(qtbot, markets.row_buttons[0])
    dialog = markets.dialog
    for key, value in {"slot": "Head", "item": "Iron Helm", "def": "1 DEF", "value": "120 gp", "repair": "24 gp"}.items():
        dialog.fields[key].setText(value)
    with qtbot.waitSignal(wizard.bridge.user_row_added, timeout=1000) as saved:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert saved.args == ["d100.A"]
