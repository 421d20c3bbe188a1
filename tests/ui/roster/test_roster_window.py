"""The roster and the hall of the fallen, through the window: a hero dies (scripted dice), the campaign
turns read-only, the roster lists them in the hall, and the viewer opens read-only through real clicks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLineEdit

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.hero.model import Item, new_character
from d100gui.engine.hero.sheet_edits import SetSheetField
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui

RULES = bundled_rules()


def d100(n: int) -> list[int]:
    return [0, 0] if n == 100 else [n // 10, n % 10]


def hero(name: str = "Aria", hp: int = 2):
    ch = new_character(RULES)
    ch.creation = None
    ch.name = name
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 40)):
        ch.characteristics[stat].primary = value
    ch.hp_primary, ch.hp, ch.fate, ch.lives = 20, hp, 0, 0
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    return ch


def click(qtbot, button: QAbstractButton) -> None:
    assert button.isEnabled() and button.isVisible(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def window_for(qtbot, campaign: Campaign | None = None) -> MainWindow:
    window = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=campaign)
    qtbot.addWidget(window)
    window.show()
    window.game.override = ScriptedSource([])
    return window


def die_in_a_fight(qtbot, window: MainWindow) -> None:
    """Aria (HP 2, no Fate, no Lives) meets an Orc that hits for 5 + d6: she dies in the first round."""
    window.game.override.push(5)  # the fight's opening d10
    assert window.start_fight(
        StartCombat(source="monster", monster=typed_monster("Orc", av=90, hp=20, dmg=5), fate_windows=False)
    )
    window.game.override.push(*d100(99), *d100(10), 6, 1)  # Aria misses; the Orc hits (d6 6)
    click(qtbot, window.combat_panel.buttons["attack_main"])
    assert window.game.campaign.character is None and window.game.override.remaining == 0


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_hero_who_dies_turns_their_campaign_read_only(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    assert not window.fallen_banner.isVisibleTo(window)
    die_in_a_fight(qtbot, window)
    banner = window.fallen_banner.label.text()
    assert (
        window.fallen_banner.isVisibleTo(window)
        and "Aria fell on" in banner
        and "(HP 0 and no Lives left, fighting Orc)" in banner
    )
    assert "This hero has fallen: read-only" in banner
    assert not window.undo_action.isEnabled() and "has fallen" in window.undo_action.toolTip()
    assert not window.new_dungeon_action.isEnabled()
    length = window.game.campaign.log_length
    window.undo_action.setEnabled(True)  # even reached past the greyed menu item, the command is refused
    window.undo_action.trigger()
    assert window.game.campaign.log_length == length and window.game.campaign.character is None
    assert "has fallen" in window.statusBar().currentMessage()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_roster_lists_the_fallen_and_the_viewer_opens_read_only(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    path = window.campaign_path
    assert path is not None and path.exists()
    window.roster_action.trigger()
    dialog = window.roster.dialog
    assert dialog is not None and dialog.living.rowCount() == 0
    tab_bar = dialog.tabs.tabBar()
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton, pos=tab_bar.tabRect(1).center())
    assert dialog.tabs.currentIndex() == 1
    cells = [dialog.fallen.item(0, c).text() for c in range(dialog.fallen.columnCount())]
    assert cells[0] == "Aria" and cells[4] == "HP 0 and no Lives left, fighting Orc" and cells[3][:2] == "20"
    click(qtbot, dialog.view_button)
    viewer = window.roster.viewer
    assert viewer is not None and viewer.isVisible()
    assert (
        "read-only" in viewer.banner.label.text()
        and not viewer.map_area.new_button.isEnabled()
        and "Aria fell on" in viewer.banner.label.text()
    )
    assert viewer.sheet.stack.currentIndex() == 1 and viewer.sheet.name_edit.text() == "Aria"  # the final sheet
    assert viewer.adventure_log.model.rowCount() > 0  # the adventure log, from the campaign's log
    # every editing control of the sheet is greyed with the reason; a command attempted is refused
    name_edit = viewer.sheet.name_edit
    assert isinstance(name_edit, QLineEdit) and not name_edit.isEnabled() and "read-only" in name_edit.toolTip()
    assert viewer.frozen > 5
    before = viewer.bridge.game.campaign.model_dump_json()
    assert not viewer.sheet.send(SetSheetField(field="name", value="Bob"))
    assert viewer.refusals and "read-only" in viewer.refusals[-1]
    assert viewer.bridge.game.campaign.model_dump_json() == before
    assert not viewer.bridge.undo()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_mark_survives_reopening_and_file_open_opens_read_only(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    path = window.campaign_path
    window.close()  # the store is closed: the roster reads the file itself now
    again = window_for(qtbot)
    again.roster_action.trigger()
    dialog = again.roster.dialog
    assert [dialog.fallen.item(0, c).text() for c in (0, 4)] == ["Aria", "HP 0 and no Lives left, fighting Orc"]
    dialog.show_hall()
    click(qtbot, dialog.view_button)  # read from the file (the store opened and closed again, untouched)
    viewer = again.roster.viewer
    assert viewer is not None and viewer.sheet.name_edit.text() == "Aria" and again.campaign_path is None
    viewer.close()
    assert again.open_campaign(path)
    assert again.fallen_banner.isVisibleTo(again) and not again.undo_action.isEnabled()
    assert not again.bridge.send(SetSheetField(field="name", value="Bob"))
    # Hero > New character in a fallen campaign starts a new hero in a campaign of their own
    again.new_character_action.trigger()
    assert again.campaign_path is None and again.game.campaign.character is None and not again.game.campaign.hall_of_fallen
    assert not again.fallen_banner.isVisibleTo(again)
    assert again.creation_wizard is not None and again.creation_wizard.isVisible()
    assert again.new_dungeon_action.isEnabled() and "has fallen" not in again.new_dungeon_action.toolTip()
    again.creation_wizard.reject()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_living_heroes_are_listed_and_opened_from_the_roster(qtbot):
    window = window_for(qtbot, Campaign(character=hero("Bryn", hp=20)))
    window.bridge.send(SetSheetField(field="gp", value=7))  # the first action makes the campaign's store
    path = window.campaign_path
    window.campaigns.new_campaign()
    window.roster_action.trigger()
    dialog = window.roster.dialog
    assert dialog.living.rowCount() == 1 and dialog.living.item(0, 0).text() == "Bryn"
    assert not dialog.view_button.isEnabled()
    click(qtbot, dialog.open_button)
    assert window.campaign_path == path and window.game.campaign.character.name == "Bryn"


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_creating_a_character_in_a_fallen_campaign_starts_a_campaign_of_their_own(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    fallen_path = window.campaign_path
    window.game.override = None  # the new campaign's own dice
    assert window.bridge.send(window.game.parse_command({"kind": "create_character"}))
    assert window.game.campaign.character is not None and window.game.campaign.character.creation is not None
    assert not window.game.campaign.hall_of_fallen and not window.fallen_banner.isVisibleTo(window)
    assert window.campaign_path is not None and window.campaign_path != fallen_path


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_hero_menus_hall_leads_to_every_heros_hall(qtbot):
    window = window_for(qtbot, Campaign(character=hero()))
    die_in_a_fight(qtbot, window)
    window.fallen_action.trigger()
    box = window.fallen_box
    assert "Aria" in box.text()
    [every] = [b for b in box.buttons() if b.text() == "Every hero's hall…"]
    qtbot.mouseClick(every, Qt.MouseButton.LeftButton)
    dialog = window.roster.dialog
    assert dialog is not None and dialog.tabs.currentIndex() == 1 and dialog.fallen.item(0, 0).text() == "Aria"
