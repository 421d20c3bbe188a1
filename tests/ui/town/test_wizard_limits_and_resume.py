"""The issue's Bad input, through the wizard's real buttons and the real window: every refusal or greyed control
names the exact shortfall or limit, every step is undone back to the start until the wizard is confirmed, and a
campaign closed mid-wizard reopens from its store at the same step, its undo intact."""

from __future__ import annotations

import pytest
from conftest import RULES, hero, new_game
from PySide6.QtCore import Qt

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.town.commands import SellItem
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

LEFT = Qt.MouseButton.LeftButton


def click(qtbot, button) -> None:
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, LEFT)


def skip_to(qtbot, wizard, step: str) -> None:
    """Skip steps with the wizard's Next button until it shows ``step``."""
    while wizard.current_panel() is not wizard.panels[step]:
        click(qtbot, wizard.next_button)


def test_buying_beyond_20_plus_rep_and_without_the_gold_name_the_limit_and_the_shortfall(qtbot, make_wizard):
    ch = hero(gp=105, rep=1)
    ch.supplies.picks, ch.supplies.food = 0, 5
    game = new_game(ch)
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    skip_to(qtbot, wizard, "required")
    required = wizard.panels["required"]
    assert required.boxes["Lock Pick"].maximum() == 21  # 20 + REP 1: the box offers no more
    required.boxes["Lock Pick"].setValue(20)
    click(qtbot, required.buttons["Lock Pick"])
    assert (game.campaign.character.supplies.picks, game.campaign.character.gp) == (20, 5)
    click(qtbot, required.buttons["Food"])
    assert required.message.text() == "1 x FOOD at 10 gp costs 10 gp and you have 5 gp: 5 gp short."
    assert game.campaign.character.supplies.food == 5
    click(qtbot, required.buttons["Lock Pick"])  # the 21st item, the last 5 gp
    assert game.campaign.character.gp == 0
    limit = "At most 21 items from Table R (20 + REP 1): 21 bought, 0 more allowed."
    for name, button in required.buttons.items():
        assert not button.isEnabled(), name
        assert button.toolTip() == limit or "prints no price" in button.toolTip(), name
    assert required.buttons["Oil"].toolTip() == limit and "21 bought" in required.left.text()


def test_training_beyond_rep_pips_is_greyed_with_the_limit(qtbot, make_wizard):
    game = new_game(hero(gp=5000, rep=1))
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    skip_to(qtbot, wizard, "training")
    training = wizard.panels["training"]
    assert training.pips.maximum() == 1  # REP 1: one pip a phase, the box offers no more
    skill = RULES.skills[0]
    training.track.setCurrentIndex(training.track.findData(f"skill:{skill}"))
    click(qtbot, training.train_button)
    assert game.campaign.character.skills[skill].pips == 1
    assert not training.train_button.isEnabled()
    assert training.train_button.toolTip() == "Training takes at most 1 pip a phase (REP 1): 1 trained, 0 left."


def test_an_eleventh_share_is_refused_and_then_greyed_and_pips_have_no_buy_button(qtbot, make_wizard):
    game = new_game(hero(gp=2000, rep=1))
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    skip_to(qtbot, wizard, "investments")
    invest = wizard.panels["investments"]
    kind = RULES.investments.kinds[0]  # Trade, 100 gp a share
    invest.boxes[kind.id].setValue(9)
    click(qtbot, invest.buttons[(kind.id, "buy")])
    assert game.campaign.character.empire[kind.id].shares == 9
    invest.boxes[kind.id].setValue(2)
    click(qtbot, invest.buttons[(kind.id, "buy")])
    assert (
        invest.message.text()
        == f"At most 10 shares in {kind.name}: you hold 9, so 1 more at most (share 11 would pass the limit)."
    )
    assert game.campaign.character.empire[kind.id].shares == 9
    invest.boxes[kind.id].setValue(1)
    click(qtbot, invest.buttons[(kind.id, "buy")])
    buy = invest.buttons[(kind.id, "buy")]
    assert game.campaign.character.empire[kind.id].shares == 10 and not buy.isEnabled()
    assert buy.toolTip() == f"At most 10 shares in {kind.name}: you hold 10, so 0 more at most (share 11 would pass the limit)."
    # pips are never bought: the panel offers no control to buy them, only to sell them
    assert {key for (inv, key) in invest.buttons if inv == kind.id} == {"buy", "sell", "sell_pips"}


def test_selling_the_same_item_twice_names_the_earlier_sale(qtbot, make_wizard):
    game = new_game(hero())
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    skip_to(qtbot, wizard, "sell")
    sell = wizard.panels["sell"]
    click(qtbot, sell.buttons["Dagger"])
    assert "Dagger" not in sell.buttons and sell.sold == ["Dagger (15 gp)"]
    # the same sale sent again (a double click that reaches the engine late) is refused by name
    assert not sell.act(SellItem(where="backpack", place="0", name="Dagger"))
    assert sell.message.text() == "Dagger was already sold (for 15 gp): an item is sold once."


def test_every_step_is_undone_back_to_the_start_until_the_wizard_is_confirmed(qtbot, make_wizard):
    game = new_game(hero(gp=800, rep=2))
    before = game.campaign.character.model_dump()
    wizard = make_wizard(game)
    click(qtbot, wizard.begin.begin_button)
    healer = wizard.panels["refresh"]
    healer.boxes["hp"].setValue(1)
    click(qtbot, healer.pay_button)
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["repair"].buttons["Helm"])
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["sell"].buttons["Dagger"])
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["required"].buttons["Food"])
    click(qtbot, wizard.next_button)
    markets = wizard.panels["markets"]
    game.override = ScriptedSource([0, 3])  # Table A 3: Leather Tasset, 23 gp
    markets.table.setCurrentIndex(markets.table.findData("d100.A"))
    click(qtbot, markets.roll_button)
    click(qtbot, markets.buy_buttons[0])
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["training"].train_button)
    click(qtbot, wizard.next_button)
    kind = RULES.investments.kinds[0]
    click(qtbot, wizard.panels["investments"].buttons[(kind.id, "buy")])
    done = game.campaign.character
    assert done.gp < 800 and done.empire[kind.id].shares == 1 and done.backpack[-1].name == "Leather Tasset"
    steps_seen = []
    while game.campaign.town.active:
        steps_seen.append(game.campaign.town.step)
        click(qtbot, wizard.undo_button)
    assert steps_seen[0] == "investments" and steps_seen[-1] == "refresh"
    assert set(steps_seen) == {"refresh", "repair", "sell", "required", "markets", "training", "investments"}
    assert game.campaign.character.model_dump() == before and wizard.stack.currentWidget() is wizard.begin
    assert not wizard.undo_button.isEnabled()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.gui
def test_a_window_closed_mid_wizard_reopens_from_its_store_at_the_same_step(qtbot):
    def window_for(campaign: Campaign | None = None) -> MainWindow:
        window = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=campaign)
        qtbot.addWidget(window)
        window.show()
        return window

    window = window_for(Campaign(character=hero(gp=300)))
    window.town_action.trigger()
    wizard = window.town_actions.wizard
    click(qtbot, wizard.begin.begin_button)
    click(qtbot, wizard.next_button)
    click(qtbot, wizard.panels["repair"].buttons["Helm"])
    click(qtbot, wizard.next_button)
    path = window.campaign_path
    assert path is not None and path.exists()
    window.close()  # the store is closed: what is on disk is the campaign
    again = window_for()
    assert again.open_campaign(path)
    again.town_action.trigger()
    reopened = again.town_actions.wizard
    assert reopened.current_panel() is reopened.panels["sell"] and "Step 3" in reopened.step_label.text()
    assert "spent 24 gp" in reopened.gold_label.text() and again.game.campaign.character.gp == 276
    click(qtbot, reopened.undo_button)  # undo survives the restart: the move to step 3, then the repair
    assert reopened.current_panel() is reopened.panels["repair"]
    click(qtbot, reopened.undo_button)
    ch = again.game.campaign.character
    assert ch.gp == 300 and ch.equipment["head"].repair_pips == 2
