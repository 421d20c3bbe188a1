"""Issue 10 #3: after a move the screen shows exactly the new state, without a re-fit or a reopen.

The map keeps drawings and a background cache, so a repaint covers only what changed. These
tests compare what is on screen (the window's backing store) right after the player's click
with the same window fully repainted: any difference is something left behind.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import typed_monster
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.hero.model import new_character
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def on_screen(win: MainWindow) -> QImage:
    """What the window shows once its posted events are done (its backing store, as the platform would put it
    on screen). Layouts settle over a few turns of the event loop (a dock's scroll area may take one more
    turn to show its scroll bar): wait until two grabs agree, so what differs afterwards is paint left
    behind, which no amount of waiting repaints."""
    screen = win.screen()
    assert screen is not None
    shown = QImage()
    for _ in range(10):
        for _ in range(3):
            QApplication.processEvents()
        again = screen.grabWindow(win.winId()).toImage()
        if again == shown:
            break
        shown = again
    return shown


def left_behind(win: MainWindow) -> int:
    """How many pixels differ from a full repaint of the map (0: nothing stale on screen)."""
    shown = on_screen(win)
    win.map_area.view.viewport().update()
    fresh = on_screen(win)
    return sum(
        1 for y in range(0, shown.height(), 2) for x in range(0, shown.width(), 2) if shown.pixel(x, y) != fresh.pixel(x, y)
    )


def click_exit(win: MainWindow, qtbot, side: str) -> None:
    """Point at the hero's exit (it lights up), then click it, as the player does."""
    view = win.map_area.view
    hero = win.game.campaign.dungeons.current_dungeon.hero
    at = view.mapFromScene(view.map_scene.exit_mark_rect(hero, side).center())
    qtbot.mouseMove(view.viewport(), at)
    qtbot.wait(10)  # the highlight is painted before the click
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)


def shown_window(qtbot, campaign: Campaign | None = None) -> MainWindow:
    """The window at 1400x900 on screen, a new dungeon entered and fitted."""
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5, campaign=campaign)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    win.game.override = ScriptedSource([0, 3, 1, 2, 3, 2])  # entrance tile 3 (straight N); north tile 12, E door 32
    win.new_dungeon_action.trigger()
    qtbot.wait(50)  # the first fit, once the view has its size, and its first paints
    return win


@pytest.fixture
def shown(qtbot):
    return shown_window(qtbot)


@pytest.fixture
def hero_shown(qtbot):
    hero = new_character(bundled_rules())
    hero.creation, hero.name = None, "Aria"
    hero.characteristics["DEX"].primary = 40
    hero.hp_primary = hero.hp = 20
    return shown_window(qtbot, Campaign(character=hero))


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_move_into_a_new_area_leaves_no_hero_marker_or_highlight_behind(shown, qtbot):
    assert left_behind(shown) == 0
    click_exit(shown, qtbot, "N")
    assert shown.game.campaign.dungeons.current_dungeon.hero == (7, 9)
    assert left_behind(shown) == 0


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_move_back_into_a_mapped_area_leaves_nothing_behind(shown, qtbot):
    click_exit(shown, qtbot, "N")
    left_behind(shown)
    click_exit(shown, qtbot, "S")
    assert shown.game.campaign.dungeons.current_dungeon.hero == (7, 10)
    assert left_behind(shown) == 0


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_escaped_monster_mark_shows_as_soon_as_the_hero_escapes(hero_shown, qtbot):
    shown = hero_shown
    click_exit(shown, qtbot, "N")
    shown.game.override = ScriptedSource([5, 2, 5])  # reaction d10 5; the escape test d100 25 succeeds
    goblin = typed_monster("Goblin", av=40, hp=10, defence=1, dmg=0)
    assert shown.bridge.send(StartCombat(source="monster", monster=goblin, fate_windows=False))
    shown.game.campaign.combat.hp = [4]  # wounded enough for the rules to let the hero escape
    shown.combat_dock.raise_()
    button = shown.combat_panel.buttons["escape"]
    assert button.isEnabled(), button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # Escape (E)
    assert shown.game.campaign.combat is None
    assert shown.game.campaign.dungeons.current_dungeon.areas["7,9"].escaped == "Goblin"
    shape = shown.map_area.view.map_scene.area_shape("7,9")
    assert "\u2020 Goblin" in shape.labels  # drawn on the map now, not after reopening
    assert left_behind(shown) == 0
