"""The before-next-quest wizard through its real buttons, on a real game with scripted dice."""

from __future__ import annotations

from pathlib import Path

from conftest import RULES, hero, new_game
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.game import Game
from d100gui.storage.campaigns import load_campaign, save_campaign
from d100gui.ui.town.wizard import TownWizard

LEFT = Qt.MouseButton.LeftButton


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, LEFT)


def begin(qtbot, wizard: TownWizard) -> None:
    click(qtbot, wizard.begin.begin_button)


def test_the_wizard_walks_every_step_through_its_buttons(qtbot, make_wizard):
    game = new_game(hero(gp=800, rep=2))
    wizard = make_wizard(game)
    ch = lambda: game.campaign.character
    begin(qtbot, wizard)
    # 1. tracks refreshed, the healer
    assert (ch().keys, ch().levers, ch().time_track.shaded) == (0, 0, 0)
    assert (ch().supplies.oil, ch().supplies.food) == (20, 5)
    healer = wizard.panels["refresh"]
    assert "Keys 0" in healer.tracks.text().replace("keys", "Keys")
    healer.boxes["poison"].setValue(2)
    healer.boxes["hp"].setValue(3)
    cost = 2 * RULES.healer.poison_pip + 3 * RULES.healer.hp
    assert healer.total.text() == f"The healer asks {cost} gp."
    click(qtbot, healer.pay_button)
    assert (ch().poison, ch().hp, ch().gp) == (0, 20, 800 - cost)
    assert ch().equipment["head"].repair_pips == 2 and [i.name for i in ch().backpack] == ["Dagger"]  # items untouched
    assert f"Gold: {800 - cost} gp" in wizard.gold_label.text() and f"spent {cost} gp" in wizard.gold_label.text()
    gp = ch().gp
    click(qtbot, wizard.next_button)
    # 2. repair: 1/5 of the Helm's value a pip, shown before it is paid
    repair = wizard.panels["repair"]
    assert wizard.current_panel() is repair and "Step 2" in wizard.step_label.text()
    assert "Sword" not in repair.buttons and repair.buttons["Helm"].toolTip().startswith("24 gp a pip")
    repair.boxes["Helm"].setValue(2)
    click(qtbot, repair.buttons["Helm"])
    assert ch().equipment["head"].repair_pips == 0 and ch().gp == gp - 48
    assert (ch().poison, ch().keys, ch().time_track.shaded) == (0, 0, 0) and [i.name for i in ch().backpack] == ["Dagger"]
    gp = ch().gp
    click(qtbot, wizard.next_button)
    # 3. sell the Dagger
    sell = wizard.panels["sell"]
    assert sell.buttons["Dagger"].text() == "Sell for 15 gp"
    click(qtbot, sell.buttons["Dagger"])
    assert ch().backpack == [] and ch().gp == gp + 15
    assert ch().equipment["main_weapon"].name == "Sword" and ch().equipment["head"].name == "Helm"
    gp = ch().gp
    click(qtbot, wizard.next_button)
    # 4. required items: food
    required = wizard.panels["required"]
    required.boxes["Food"].setValue(2)
    click(qtbot, required.buttons["Food"])
    assert ch().supplies.food == 7 and ch().gp == gp - 20
    assert ch().supplies.oil == 20 and ch().backpack == [] and all(slot is None for slot in ch().belt)
    assert "2 bought" in required.left.text()
    gp = ch().gp
    click(qtbot, wizard.next_button)
    # 5. the markets: a Table A roll, then buy it
    markets = wizard.panels["markets"]
    game.override = ScriptedSource([0, 3])  # Table A 3: Leather Tasset, 23 gp
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    click(qtbot, markets.roll_button)
    assert markets.buy_buttons[0].text() == "Buy for 23 gp"
    click(qtbot, markets.buy_buttons[0])
    assert ch().backpack[-1].name == "Leather Tasset" and ch().gp == gp - 23
    assert not markets.roll_button.isEnabled() and "bought" in markets.roll_button.toolTip()
    gp = ch().gp
    click(qtbot, wizard.next_button)
    # 6. training: a skill pip
    training = wizard.panels["training"]
    skill = RULES.skills[0]
    training.track.setCurrentIndex(training.track.findData(f"skill:{skill}"))
    assert training.price.text() == f"{RULES.training.skill_pip} gp a pip"
    click(qtbot, training.train_button)
    assert ch().gp == gp - RULES.training.skill_pip and game.campaign.town.totals.trained_pips == 1
    assert ch().skills[skill].pips == 1 and [i.name for i in ch().backpack] == ["Leather Tasset"]  # the track shaded
    click(qtbot, wizard.next_button)
    # investments: none held, so no Table J; buy a share
    invest = wizard.panels["investments"]
    assert not invest.roll_button.isEnabled() and "No shares" in invest.roll_button.toolTip()
    kind = RULES.investments.kinds[0]
    gp = ch().gp
    click(qtbot, invest.buttons[(kind.id, "buy")])
    assert ch().empire[kind.id].shares == 1 and ch().gp == gp - kind.share_value, invest.message.text()
    click(qtbot, wizard.finish_button)
    assert not game.campaign.town.active and wizard.stack.currentWidget() is wizard.begin


def test_refusals_show_the_engines_shortfall_beside_the_control(qtbot, make_wizard):
    game = new_game(hero(gp=30, rep=1))
    wizard = make_wizard(game)
    begin(qtbot, wizard)
    healer = wizard.panels["refresh"]
    healer.boxes["poison"].setValue(2)
    click(qtbot, healer.pay_button)
    assert healer.message.isVisible() and "50 gp short" in healer.message.text()
    click(qtbot, wizard.next_button)
    repair = wizard.panels["repair"]
    click(qtbot, repair.buttons["Helm"])
    assert "costs 24 gp and you have 30 gp" not in repair.message.text()  # 24 is affordable: it is paid
    assert game.campaign.character.gp == 6
    click(qtbot, repair.buttons["Helm"])
    assert "18 gp short" in repair.message.text()
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.next_button)
    required = wizard.panels["required"]
    required.boxes["Food"].setValue(required.boxes["Food"].maximum())
    click(qtbot, required.buttons["Food"])
    assert "At most" in required.message.text() or "short" in required.message.text()
    assert game.campaign.character.gp == 6


def test_greyed_controls_say_why(qtbot, make_wizard):
    ch = hero()
    ch.poison, ch.hp = 0, ch.hp_primary
    wizard = make_wizard(new_game(ch))
    assert "Nothing to undo" in wizard.undo_button.toolTip() and not wizard.undo_button.isEnabled()
    begin(qtbot, wizard)
    healer = wizard.panels["refresh"]
    assert not healer.pay_button.isEnabled() and healer.pay_button.toolTip().startswith("Nothing to heal")


def test_ctrl_z_is_the_games_undo_step_by_step(qtbot, make_wizard):
    game = new_game(hero(gp=300))
    wizard = make_wizard(game)
    begin(qtbot, wizard)
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["repair"].buttons["Helm"])
    assert game.campaign.character.gp == 276
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    wizard.next_button.setFocus()
    QApplication.processEvents()
    qtbot.keyClick(wizard, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert game.campaign.character.gp == 300 and game.campaign.character.equipment["head"].repair_pips == 2
    qtbot.keyClick(wizard, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert game.campaign.town.step == "refresh" and wizard.current_panel() is wizard.panels["refresh"]
    click(qtbot, wizard.undo_button)
    assert not game.campaign.town.active and wizard.stack.currentWidget() is wizard.begin
    assert game.campaign.character.keys == 3


def test_a_save_mid_wizard_resumes_at_the_same_step(qtbot, make_wizard, tmp_path: Path):
    game = new_game(hero(gp=300))
    wizard = make_wizard(game)
    begin(qtbot, wizard)
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["repair"].buttons["Helm"])
    click(qtbot, wizard.next_button)
    path = tmp_path / "wilma.d100campaign.json"
    save_campaign(game.campaign, path)
    again = load_campaign(path)
    resumed = Game(again, game.library, game.command_types.values(), rules=RULES, tilesets=game.tilesets)
    reopened = make_wizard(resumed)
    assert reopened.current_panel() is reopened.panels["sell"] and "Step 3" in reopened.step_label.text()
    assert "spent 24 gp" in reopened.gold_label.text()
    click(qtbot, reopened.panels["sell"].buttons["Dagger"])
    assert resumed.campaign.character.gp == 276 + 15


def test_a_missing_market_row_is_typed_in_through_the_missing_row_dialog(qtbot, make_wizard):
    game = new_game(hero(gp=500))
    wizard = make_wizard(game)
    begin(qtbot, wizard)
    for _ in range(4):  # refresh, repair, sell, required: skipped
        click(qtbot, wizard.next_button)
    markets = wizard.panels["markets"]
    assert wizard.current_panel() is markets
    game.override = ScriptedSource([5, 0])  # Table A 50: not in the excerpt
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    click(qtbot, markets.roll_button)
    click(qtbot, markets.buy_buttons[0] if 0 not in markets.row_buttons else markets.row_buttons[0])
    dialog = markets.dialog
    assert dialog is not None and dialog.roll == 50
    for key, value in {"slot": "Head", "item": "Iron Helm", "def": "1 DEF", "value": "120 gp", "repair": "24 gp"}.items():
        dialog.fields[key].setText(value)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert markets.buy_buttons[0].text() == "Buy for 120 gp"
    click(qtbot, markets.buy_buttons[0])
    assert game.campaign.character.backpack[-1].name == "Iron Helm" and game.campaign.character.gp == 380
    assert "spent 120 gp" in wizard.gold_label.text()


def test_table_j_is_rolled_for_shares_held_before_trading(qtbot, make_wizard):
    ch = hero(gp=500)
    kind = RULES.investments.kinds[0]
    ch.empire[kind.id].shares = 2
    game = new_game(ch)
    wizard = make_wizard(game)
    begin(qtbot, wizard)
    click(qtbot, wizard.next_button)
    while wizard.current_panel() is not wizard.panels["investments"]:
        click(qtbot, wizard.next_button)
    invest = wizard.panels["investments"]
    assert not invest.buttons[(kind.id, "buy")].isEnabled() and "Roll Table J first" in invest.buttons[(kind.id, "buy")].toolTip()
    click(qtbot, wizard.finish_button)
    assert "Roll Table J" in invest.message.text() and game.campaign.town.active
    game.override = ScriptedSource([0, 5])
    click(qtbot, invest.roll_button)
    assert game.campaign.town.investment_roll is not None and invest.result.text()
    assert not invest.roll_button.isEnabled()
    click(qtbot, wizard.finish_button)
    assert not game.campaign.town.active
