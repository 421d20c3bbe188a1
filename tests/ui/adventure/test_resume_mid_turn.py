"""Saved mid-turn (mid-door, mid-search, mid-fight) through the real store: close the window, reopen, same step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_turn_strip import LAYOUT, YELLOW_CROSSROADS, Player, next_clock_faces, on_quest_in_the_dungeon, window  # noqa: F401

from d100gui.engine.dungeon import map as dg
from d100gui.engine.hero.decisions import CalledTest
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui
RED_CROSSROADS, GIANT_RATS = [2, 9], [4, 5]  # Table M 29; Table E 45 - 40 (Dungeon Training 1) = 5
DEAD_END_ROOM, JAMMED = [2, 7], [3, 4]  # Table M 27: one door; Table D 34
FIND_A_TRAP, PENDULUM = [0, 3], 3  # Table F 3: +2 time, roll 1d10 on Table G; Table G 3: PENDULUM TRAP


def clock_faces(win: MainWindow, clocks: int) -> list[int]:
    shaded = win.game.campaign.character.time_track.shaded
    return [9 for n in range(clocks) for t in LAYOUT.triggers_at((shaded + n) % LAYOUT.clocks + 1) if t.kind == "wandering"]


def shown(win: MainWindow) -> tuple[str, dict[str, bool]]:
    """The step the strip marks and its actions (enabled or greyed), as the player sees them."""
    return win.turn_strip.current_step(), {key: b.isEnabled() for key, b in win.turn_strip.buttons.items()}


def close_and_reopen(qtbot, win: MainWindow) -> MainWindow:
    """Close the window (the store keeps every action) and open the campaign again in a new one."""
    before, saved, path = shown(win), win.game.campaign.model_dump_json(), win.campaign_path
    assert path is not None
    win.close()
    again = MainWindow(packs.load_library(user_data_dir()), Preferences())
    qtbot.addWidget(again)
    again.resize(1200, 800)
    again.show()
    qtbot.waitExposed(again)
    assert again.open_campaign(path)
    assert again.game.campaign.model_dump_json() == saved
    assert shown(again) == before
    return again


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_saved_mid_fight_the_reopened_window_is_still_in_the_fight_at_step_4(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *RED_CROSSROADS, *GIANT_RATS, *([5] * 10))
    player.click_map(player.exit_point("N"))
    assert window.game.campaign.combat is not None and window.turn_strip.current_step() == "area"
    again = close_and_reopen(qtbot, window)
    assert again.game.campaign.combat is not None and again.game.campaign.combat.monster.name.startswith("Giant Rats")
    hero = again.game.campaign.dungeons.current_dungeon.hero
    player = Player(qtbot, again)
    with qtbot.waitSignal(again.bridge.error) as refused:
        player.click_map(player.exit_point("S"))  # back the way it came: refused in the fight, naming the step
    assert "step 4 (The area)" in refused.args[0] and "during a fight" in refused.args[0]
    assert again.game.campaign.dungeons.current_dungeon.hero == hero


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_saved_mid_door_the_rolled_test_waits_in_the_reopened_window(qtbot, window):  # noqa: F811
    qtbot.mouseClick(window.turn_strip.buttons["begin_quest"], Qt.MouseButton.LeftButton)
    dungeon = window.game.campaign.dungeons.current_dungeon
    window.game.override.push(*DEAD_END_ROOM, *JAMMED)
    player = Player(qtbot, window)
    player.click_map(player.view.map_scene.area_rect(dungeon.entrance).center())
    dungeon = window.game.campaign.dungeons.current_dungeon
    [where] = dg.doorways_of(dungeon, dungeon.hero)
    window.game.override.push(2, 0)  # the JAMMED DOOR test: 20 against STR 50, a success not yet accepted
    qtbot.mouseClick(window.turn_strip.buttons[f"door_{where.pos}_{where.side}_force"], Qt.MouseButton.LeftButton)
    assert any(key.startswith("accept_") for key in window.turn_strip.buttons)
    assert window.turn_strip.current_step() == "exit"  # a door is opened while choosing an exit (step 3)
    assert not {"fight", "continue"} & set(window.turn_strip.buttons)  # nothing greyed that has no use here
    again = close_and_reopen(qtbot, window)
    accept = next(b for key, b in again.turn_strip.buttons.items() if key.startswith("accept_"))
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    door = dg.door_at(again.game.campaign.dungeons.current_dungeon, where)
    assert door is not None and door.is_open  # the reopened window finishes the door where it stood


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_saved_mid_search_the_finds_trap_waits_at_step_5(qtbot, window):  # noqa: F811
    player = on_quest_in_the_dungeon(qtbot, window)
    window.game.override.push(*next_clock_faces(window), *YELLOW_CROSSROADS)
    player.click_map(player.exit_point("N"))
    window.game.override.push(*FIND_A_TRAP)
    window.game.override.push(*clock_faces(window, 2), PENDULUM)
    qtbot.mouseClick(window.turn_strip.buttons["search"], Qt.MouseButton.LeftButton)
    assert [d.spec.name for d in window.game.campaign.pending if isinstance(d, CalledTest)] == ["PENDULUM TRAP"]
    assert window.turn_strip.current_step() == "search"  # the search's trap is step 5's, not step 4's
    again = close_and_reopen(qtbot, window)
    [roll] = [b for key, b in again.turn_strip.buttons.items() if key.startswith("roll_")]
    assert roll.isEnabled() and not again.turn_strip.buttons["end_turn"].isEnabled()
