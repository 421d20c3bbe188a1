"""HeroActions: the sheet's requests and the Hero / File menu items reach the same dialogs, print and PDF."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtPrintSupport import QPrintPreviewDialog
from PySide6.QtWidgets import QFileDialog, QWizard

from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.engine.game import Game
from d100gui.engine.hero.creation import creation_commands
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.settings import Preferences
from d100gui.ui.hero.actions import NO_HERO, HeroActions
from d100gui.ui.hero.creation_wizard import CreationWizard
from d100gui.ui.hero.item_dialogs import ItemDialog, SpellDialog
from d100gui.ui.hero.sheet import CharacterSheet
from d100gui.ui.hero.skill_test_dialog import SkillTestDialog
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui
CREATION = tuple(creation_commands("Judith", {"STR": 50, "DEX": 40, "INT": 30}, ["Locks", "Traps"]))


def make_hero(bridge):
    bridge.game.override = ScriptedSource([0, 5, 0, 1, 0, 5, 1, 0])
    for command in CREATION:
        assert bridge.send(command), command
    bridge.game.override = None


@pytest.fixture
def bridge(bundled_library):
    game = Game(Campaign(), bundled_library, ALL_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    return EngineBridge(game)


@pytest.fixture
def sheet(qtbot, bridge):
    widget = CharacterSheet(bridge)
    qtbot.addWidget(widget)
    widget.resize(340, 880)
    widget.show()
    return widget


@pytest.fixture
def actions(sheet, bridge):
    hero_actions = HeroActions(bridge, sheet)
    hero_actions.attach(sheet)
    return hero_actions


@pytest.fixture
def save_to(monkeypatch, tmp_path):
    """The "save as" dialog answers with a file in the temp dir (it would block a test)."""
    target = tmp_path / "judith-sheet.pdf"
    asked = []

    def answer(*args, **_kw):
        asked.append(args[2] if len(args) > 2 else "")
        return str(target), "PDF (*.pdf)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(answer))
    return target, asked


def click(qtbot, button):
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


# --------------------------------------------------------------------------- the sheet's buttons


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_sheet_buttons_request_and_the_actions_answer(qtbot, bridge, sheet, actions, save_to):
    make_hero(bridge)
    click(qtbot, sheet.test_button)
    assert isinstance(actions.test_dialog, SkillTestDialog) and actions.test_dialog.isVisible()
    actions.test_dialog.reject()
    click(qtbot, sheet.print_button)
    assert isinstance(actions.print_dialog, QPrintPreviewDialog)
    actions.print_dialog.reject()
    target, asked = save_to
    click(qtbot, sheet.pdf_button)
    assert asked == ["Judith-sheet.pdf"]  # the suggested name
    assert actions.last_pdf == target and target.read_bytes().startswith(b"%PDF")


def test_the_sheet_requests_but_never_opens_a_dialog_itself(qtbot, bridge, sheet):
    """Without HeroActions attached, the buttons only emit their requests."""
    make_hero(bridge)
    with qtbot.waitSignal(sheet.test_requested, timeout=1000) as test:
        click(qtbot, sheet.test_button)
    assert test.args == [""]
    with qtbot.waitSignal(sheet.print_requested, timeout=1000):
        click(qtbot, sheet.print_button)
    with qtbot.waitSignal(sheet.export_requested, timeout=1000):
        click(qtbot, sheet.pdf_button)
    assert not sheet.findChildren(SkillTestDialog) and not sheet.findChildren(QPrintPreviewDialog)


def test_a_pdf_that_cannot_be_written_is_said_on_the_sheet(qtbot, bridge, sheet, actions, tmp_path):
    make_hero(bridge)
    said = []
    actions.error.connect(said.append)
    assert actions.export_sheet_pdf(str(tmp_path)) is None  # a directory
    assert sheet.message.isVisible() and sheet.message.text().startswith("Could not write")
    assert said == [sheet.message.text()]


def test_a_skill_test_needs_a_finished_hero(actions):
    said = []
    actions.error.connect(said.append)
    assert actions.skill_test() is None and actions.print_sheet() is None and actions.export_sheet_pdf() is None
    assert said == [NO_HERO]


def test_a_door_test_names_its_door_and_passing_it_opens_that_door(qtbot, bridge, actions):
    """What the map's "Test to open..." asks for: the test of a door's Table D row, for that door."""
    make_hero(bridge)
    bridge.game.override = ScriptedSource([0, 3, 1, 2, 3, 2])  # entrance tile 3; N tile 12, E door 32: TLD
    for command in (NewDungeon(), EnterDungeon(), MoveHero(side="N"), MoveHero(side="S")):
        assert bridge.send(command), command
    effect = bridge.game.library.get("d100.D").find(32).fields["effect"]
    dialog = actions.door_test(effect, "7,9", "E")  # the hero is back at the entrance: only the name says which door
    qtbot.addWidget(dialog)
    bridge.game.override = ScriptedSource([2, 0])
    click(qtbot, dialog.roll_button)
    click(qtbot, dialog.accept_button)
    assert bridge.game.campaign.dungeons.current_dungeon.areas["7,9"].exits["E"].door.is_open


def test_double_clicking_an_item_line_opens_its_form(qtbot, bridge, sheet, actions):
    make_hero(bridge)
    row = sheet.equipment.slot_rows["torso"]
    qtbot.mouseDClick(row, Qt.MouseButton.LeftButton, pos=row.rect().center())
    assert isinstance(actions.item_dialog, ItemDialog)
    assert actions.item_dialog.name.text() == "Leather Cuirass"
    actions.item_dialog.value.setValue(40)
    actions.item_dialog._try_accept()
    assert bridge.game.campaign.character.equipment["torso"].value == 40
    assert bridge.game.campaign.log[-1].command["kind"] == "edit_item"


def test_the_add_button_of_a_list_opens_an_empty_form(qtbot, bridge, sheet, actions):
    make_hero(bridge)
    [add] = [b for b in sheet.lists["non_slot"].findChildren(type(sheet.test_button)) if b.text() == "+ Add…"]
    click(qtbot, add)
    actions.item_dialog.name.setText("Silver Key")
    actions.item_dialog._try_accept()
    assert [i.name for i in bridge.game.campaign.character.non_slot_items] == ["Silver Key"]
    assert [r.findChildren(type(sheet.message))[0].text() for r in sheet.lists["non_slot"].rows] == ["Silver Key"]


def test_the_spell_menu_writes_a_spell_through_its_form(bridge, sheet, actions):
    make_hero(bridge)
    menu = sheet.spell_menu(0)
    [write] = [a for a in menu.findChildren(QAction) if a.text() == "Write a spell…"]
    write.trigger()
    dialog = actions.spell_dialog
    assert isinstance(dialog, SpellDialog) and dialog.windowTitle() == "Spell book position 1 (INT 50+)"
    dialog.name.setText("Heal")
    dialog.cost.setText("-1 HP")
    dialog._try_accept()
    assert bridge.game.campaign.character.spell_book[0].name == "Heal"
    assert sheet.spells.spell_names[0].text() == "Heal  (-1 HP)"


def test_an_empty_place_has_no_item_form(bridge, sheet, actions):
    make_hero(bridge)
    sheet.edit_item("equipment", slot="head")  # nothing on the head
    assert actions.item_dialog is None


# --------------------------------------------------------------------------- the window's menus


def menu_action(window, menu_title, text):
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == menu_title]
    [action] = [a for a in menu.actions() if a.text() == text]
    return action


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=7)
    qtbot.addWidget(win)
    return win


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_hero_and_file_menus_reach_hero_actions(qtbot, window, save_to):
    actions = window.hero_actions
    menu_action(window, "&Hero", "Skill &test...").trigger()
    assert actions.test_dialog is None and "Create a character first" in window.statusBar().currentMessage()
    menu_action(window, "&Hero", "New &character...").trigger()
    assert isinstance(actions.creation_wizard, CreationWizard) and window.creation_wizard is actions.creation_wizard
    actions.creation_wizard.reject()
    make_hero(window.bridge)
    menu_action(window, "&Hero", "Skill &test...").trigger()
    assert isinstance(actions.test_dialog, SkillTestDialog) and window.skill_test_dialog is actions.test_dialog
    actions.test_dialog.reject()
    menu_action(window, "&File", "&Print sheet...").trigger()
    assert isinstance(actions.print_dialog, QPrintPreviewDialog)
    actions.print_dialog.reject()
    target, _asked = save_to
    menu_action(window, "&File", "Export sheet to P&DF...").trigger()  # triggered(bool) must not arrive as the path
    assert actions.last_pdf == target and target.exists()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_window_sheet_asks_the_windows_actions(qtbot, window):
    window.show()
    make_hero(window.bridge)
    click(qtbot, window.sheet.test_button)
    assert isinstance(window.hero_actions.test_dialog, SkillTestDialog)
    window.hero_actions.test_dialog.reject()


# --------------------------------------------------------------------------- the wizard's Next button


def test_a_greyed_next_button_says_why(qtbot, bridge):
    wizard = CreationWizard(bridge)
    qtbot.addWidget(wizard)
    wizard.show()
    next_button = wizard.button(QWizard.WizardButton.NextButton)
    assert next_button.isEnabled() and next_button.toolTip() == ""
    click(qtbot, next_button)  # intro: starts the sheet
    click(qtbot, next_button)  # characteristics as offered
    assert not next_button.isEnabled()
    assert next_button.toolTip() == "Choose 2 skills to go on (0 chosen so far)."
    wizard.currentPage().choose("Locks")
    assert next_button.toolTip() == "Choose 2 skills to go on (1 chosen so far)."
    wizard.currentPage().choose("Locks", "Traps")
    assert next_button.isEnabled() and next_button.toolTip() == ""
    click(qtbot, next_button)
    click(qtbot, next_button)  # reputation
    assert not next_button.isEnabled()
    assert next_button.toolTip().startswith("Roll on ") and "(0 of 1 done)" in next_button.toolTip()
    wizard.reject()
