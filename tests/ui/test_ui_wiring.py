"""The main window's wiring: sheet dock, creation wizard, test dialog, typed rows saved."""

from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon.commands import MoveHero
from d100gui.engine.dungeon_entry import EnterDungeon, NewDungeon
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.hero.creation_wizard import CreationWizard
from d100gui.ui.hero.skill_test_dialog import SkillTestDialog
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot):
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    return win


def test_sheet_is_in_the_character_dock_and_asks_to_create(window):
    assert window.sheet_dock.widget() is window.sheet
    window.sheet.create_requested.emit()
    assert isinstance(window.creation_wizard, CreationWizard)
    assert window.new_character_action.shortcut().toString() == "Ctrl+Shift+N"


def test_skill_test_needs_a_hero(window):
    window.test_action.trigger()  # Hero > Skill test
    assert window.skill_test_dialog is None
    assert "Create a character first" in window.dice_panel.result_text.text()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_skill_test_dialog_opens_for_the_demo_hero(qtbot):
    from d100gui.demo import build_demo_campaign

    loaded = packs.load_library(user_data_dir())
    win = MainWindow(loaded, Preferences(), campaign=build_demo_campaign(loaded.library))
    qtbot.addWidget(win)
    win.test_action.trigger()
    assert isinstance(win.skill_test_dialog, SkillTestDialog)
    win.map_area.test_requested.emit("PENDULUM TRAP – Test: Dex -10 [S: Avoid Trap] [F:-4 hp] (Traps,Aware,Lucky)")
    assert isinstance(win.skill_test_dialog, SkillTestDialog)
    assert win.test_action.shortcut().toString() == "Ctrl+T"


def test_door_roll_into_missing_row_asks_and_saves_the_row(window):
    window.game.override = ScriptedSource([0, 3, 1, 2, 9, 0])  # entrance tile 3; tile 12 north, its door rolls 90
    assert window.bridge.send(NewDungeon())
    assert window.bridge.send(EnterDungeon())
    assert window.bridge.send(MoveHero(side="N"))
    dialog = window.missing_row_dialog
    assert (dialog.roll, dialog.missing) == (90, (42, 100))
    dialog.fields["door"].setText("IRON GATE (IG)")
    dialog.fields["effect"].setText("Test: Str -20 [S: Open] [F:-1HP] (Strong)")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    door = window.game.campaign.dungeons.current_dungeon.areas["7,9"].exits["E"].door
    assert door.label == "IG (90)"
    stored = json.loads((user_data_dir() / packs.USER_PACK_FILE).read_text(encoding="utf-8"))
    [table] = [t for t in stored["tables"] if t["id"] == "d100.D"]
    assert table["rows"][0]["fields"]["door"] == "IRON GATE (IG)"


def test_walking_into_an_escaped_monster_starts_the_fight(qtbot):
    """The rules (engine.fight_start.follow_up), not the window, say the monster must be met again."""
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.combat.monster import typed_monster
    from d100gui.engine.fight_commands import CombatEscape
    from d100gui.engine.fight_start import StartCombat
    from d100gui.engine.hero.model import new_character
    from d100gui.storage.resources import bundled_rules

    hero = new_character(bundled_rules())
    hero.creation, hero.name = None, "Aria"
    hero.characteristics["DEX"].primary = 40
    hero.hp_primary = hero.hp = 20
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), campaign=Campaign(character=hero))
    qtbot.addWidget(win)
    # entrance tile 3 (straight N), north tile 12; reaction d10 5; escape test d100 25; reaction 7 when met again
    win.game.override = ScriptedSource([0, 3, 1, 2, 3, 2, 5, 2, 5, 7])
    send = win.bridge.send
    assert send(NewDungeon()) and send(EnterDungeon()) and send(MoveHero(side="N"))
    assert send(
        StartCombat(source="monster", monster=typed_monster("Goblin", av=40, hp=10, defence=1, dmg=0), fate_windows=False)
    )
    win.game.campaign.combat.hp = [4]
    assert send(CombatEscape()) and win.game.campaign.combat is None
    assert send(MoveHero(side="S"))
    win.map_area.view.move_requested.emit("N")  # the player walks back in
    assert win.game.campaign.combat is not None and win.game.campaign.combat.hp == [10]
    assert "you must encounter it" in win.statusBar().currentMessage()
