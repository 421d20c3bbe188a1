"""A door clicked on the map shows its Table D methods (the turn strip's actions), through real mouse clicks."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QMenu

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dungeon import map as dg
from d100gui.engine.dungeon.commands import SetDoor
from d100gui.engine.dungeon_entry import NewDungeon
from d100gui.engine.hero.model import Item, new_character
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_rules
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

# a popup menu on the offscreen platform warns that it cannot raise or grab the keyboard (a real display does)
pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore("This plugin does not support raise", "does not support grabbing")]
RULES = bundled_rules()
DEAD_END_ROOM = [2, 7]  # Table M 27: a yellow room whose only way on is one door
JAMMED = [3, 4]  # Table D 34: JAMMED (JD)


def a_hero():
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 30)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.supplies.oil, ch.supplies.food = 20, 10
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    return ch


@pytest.fixture
def window(qtbot):
    campaign = Campaign()
    campaign.character = a_hero()
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5, campaign=campaign)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    qtbot.waitExposed(win)
    win.game.override = ScriptedSource([])
    return win


def click_scene(qtbot, win: MainWindow, point: QPointF) -> None:
    view = win.map_area.view
    view.centerOn(point)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(point))


def side_point(win: MainWindow, side: str) -> QPointF:
    scene = win.map_area.view.map_scene
    rect = scene.area_rect(win.game.campaign.dungeons.current_dungeon.hero)
    s = scene.style.square
    x, y = {"N": (1, 0), "E": (2, 1), "S": (1, 2), "W": (0, 1)}[side]
    return QPointF(rect.x() + (x + 0.5) * s, rect.y() + (y + 0.5) * s)


def in_the_dead_end_room(qtbot, win: MainWindow) -> dg.DoorAt:
    qtbot.mouseClick(win.turn_strip.buttons["begin_quest"], Qt.MouseButton.LeftButton)
    dungeon = win.game.campaign.dungeons.current_dungeon
    win.game.override.push(*DEAD_END_ROOM, *JAMMED)
    click_scene(qtbot, win, win.map_area.view.map_scene.area_rect(dungeon.entrance).center())
    dungeon = win.game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    door = dg.door_at(dungeon, where)
    assert door is not None and door.type == "JD" and not door.is_open
    win.game.override = ScriptedSource([])
    return where


def open_menu(qtbot, win: MainWindow, where: dg.DoorAt) -> QMenu:
    click_scene(qtbot, win, side_point(win, where.side))
    menu = win.move_router.door_menu
    assert menu is not None
    qtbot.waitUntil(menu.isVisible)
    return menu


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_clicking_a_door_shows_its_methods_and_a_method_clicked_opens_it(qtbot, window):
    where = in_the_dead_end_room(qtbot, window)
    strip_keys = {key for key in window.turn_strip.buttons if key.startswith("door_")}
    assert strip_keys == {f"door_{where.pos}_{where.side}_force"}  # the strip has the same action
    menu = open_menu(qtbot, window, where)
    items = {a.objectName(): a for a in menu.actions() if a.objectName()}
    force = items[f"door_door_{where.pos}_{where.side}_force"]
    assert force.text() == "Force it" and force.isEnabled() and "JAMMED" in force.toolTip()
    window.game.override.push(2, 0)  # JAMMED DOOR test: 20 against STR 50, a success
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(force).center())
    assert not menu.isVisible()
    accept = next(b for key, b in window.turn_strip.buttons.items() if key.startswith("accept_"))
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)  # no Fate: accept the roll
    door = dg.door_at(window.game.campaign.dungeons.current_dungeon, where)
    assert door is not None and door.is_open
    assert window.game.campaign.log[-1].command["kind"] == "accept_test"
    assert any(e.command["kind"] == "try_door" for e in window.game.campaign.log)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_method_the_hero_cannot_use_is_greyed_with_its_reason(qtbot, window):
    where = in_the_dead_end_room(qtbot, window)
    game = window.game
    window.bridge.send(SetDoor(pos=where.pos, side=where.side, door_type="TLD", roll=None))
    game.campaign.character.supplies.picks = 0
    menu = open_menu(qtbot, window, where)
    [pick] = [a for a in menu.actions() if a.objectName().endswith("_pick")]
    assert not pick.isEnabled() and "you need a pick" in pick.toolTip()
    by_hand = next(a for a in menu.actions() if a.text() == "Mark it open (by hand)")
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(by_hand).center())
    door = dg.door_at(game.campaign.dungeons.current_dungeon, where)
    assert door is not None and door.is_open


def test_outside_a_quest_a_door_click_opens_the_map_areas_box(qtbot, window):
    assert window.bridge.send(NewDungeon())
    dungeon = window.game.campaign.dungeons.current_dungeon
    window.game.override.push(*DEAD_END_ROOM, *JAMMED)
    click_scene(qtbot, window, window.map_area.view.map_scene.area_rect(dungeon.entrance).center())
    dungeon = window.game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    click_scene(qtbot, window, side_point(window, where.side))
    assert window.move_router.door_menu is None
    box = window.map_area.last_box
    assert box.isVisible() and "closed" in box.text()
    box.close()
    QApplication.processEvents()


def test_the_secret_passage_is_offered_only_when_no_door_can_be_opened_with_what_the_hero_has(qtbot, window):
    where = in_the_dead_end_room(qtbot, window)
    view = window.map_area.view
    offered: list[tuple[str, str]] = []
    view.secret_passage_requested.connect(lambda pos, side: offered.append((pos, side)))
    click_scene(qtbot, window, side_point(window, "N"))  # solid rock beside a jammed door: force the door instead
    assert offered == []
    window.bridge.send(SetDoor(pos=where.pos, side=where.side, door_type="MS", roll=None))  # no Open Magic at hand
    click_scene(qtbot, window, side_point(window, "N"))
    assert offered == [(window.game.campaign.dungeons.current_dungeon.hero_area().key, "N")]
    window.map_area.last_box.close()
