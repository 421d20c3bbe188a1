"""A tooltip on every control of the sheet, the map, the combat panel and the wizards.

Each test walks a widget's children (buttons, check boxes, spin boxes, line edits, combo
boxes, toolbar actions; shown or not) in the states a player meets, and fails listing every
control without a tooltip. A dialog's standard OK / Cancel / Close are left out (see
:mod:`controls`).
"""

from __future__ import annotations

import pytest
from controls import without_tooltip

from d100gui.demo import build_demo_campaign
from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.hero.model import Item, new_character
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules
from d100gui.ui.common.settings import Preferences
from d100gui.ui.hero.item_dialogs import ItemDialog, SpellDialog
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui
RULES = bundled_rules()


def check(root, when: str = "") -> None:
    """Fail listing every control of ``root`` without a tooltip."""
    missing = without_tooltip(root)
    assert missing == [], f"{when + ': ' if when else ''}controls without a tooltip:\n" + "\n".join(missing)


def _window(qtbot, campaign: Campaign | None) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5, campaign=campaign)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    return win


@pytest.fixture
def demo(qtbot) -> MainWindow:
    """The demo: a hero made by the rules, mid-quest in a mapped dungeon."""
    loaded = packs.load_library(user_data_dir())
    return _window(qtbot, build_demo_campaign(loaded.library))


def _town_hero():
    """A hero back from a quest, with things to heal, repair, sell and train."""
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Wilma"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary, ch.hp, ch.gp, ch.rep, ch.poison = 20, 15, 900, 2, 1
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H", value=40, repair_cost=8)
    ch.equipment["head"] = Item(name="Helm", kind="armour", slot="head", value=120, repair_pips=2)
    ch.backpack = [Item(name="Dagger", kind="weapon", value=15)]
    return ch


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_control_of_the_sheet_has_a_tooltip(demo, qtbot):
    check(demo.sheet)
    empty = _window(qtbot, None)  # no hero yet: "Create a character…"
    check(empty.sheet)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_control_of_the_map_has_a_tooltip(demo, qtbot):
    check(demo.map_area)
    demo.edit_map_action.trigger()  # Map > Edit map by hand: the edit panel
    check(demo.map_area)
    demo.tile_editor_action.trigger()  # Map > Tile editor
    check(demo.map_actions.tile_editor)
    empty = _window(qtbot, None)  # "No dungeon yet"
    check(empty.map_area)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_control_of_the_combat_panel_has_a_tooltip(demo, qtbot):
    panel = demo.combat_panel
    check(panel, "before a fight")
    check(panel.open_start_dialog(), "Start a fight…")
    monster = typed_monster("Goblin", av=40, hp=5)
    assert demo.bridge.send(StartCombat(source="monster", monster=monster, fate_windows=True)), panel.last_error
    check(panel, "during a fight")
    steps = 0
    while demo.game.campaign.combat is not None and steps < 40:  # round by round: every decision the fight shows
        attack = panel.buttons["attack_main"]
        attack.click() if attack.isVisible() and attack.isEnabled() else panel.continue_or_apply()
        steps += 1
        check(panel, f"after {steps} steps of the fight")
    assert demo.game.campaign.combat is None, "the fight was played to its end"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_control_of_the_between_quests_wizard_has_a_tooltip(qtbot):
    win = _window(qtbot, Campaign(character=_town_hero()))
    win.town_action.trigger()  # Town > Before your next quest
    wizard = win.town_actions.wizard
    check(wizard, "before the phase begins")
    wizard.begin.begin_button.click()
    steps = 0
    while wizard.next_button.isEnabled():
        check(wizard, f"at step {wizard.state.step}")
        wizard.next_button.click()
        steps += 1
    assert steps >= 6, "every step was walked"
    check(wizard, f"at step {wizard.state.step}")


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_every_control_of_the_creation_wizard_has_a_tooltip(qtbot):
    win = _window(qtbot, None)
    win.new_character_action.trigger()  # Hero > New character
    wizard = win.creation_wizard
    assert wizard is not None
    check(wizard)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_every_control_of_the_sheet_s_dialogs_has_a_tooltip(demo, qtbot):
    test = demo.open_skill_test("PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)")
    assert test is not None and test.objectName() == "skillTestDialog"  # F1's topic finds it by this name
    check(test)
    for dialog in (ItemDialog(RULES), SpellDialog(1, 50)):
        qtbot.addWidget(dialog)
        check(dialog)
