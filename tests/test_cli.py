"""The command line: --help, --version, --screenshot, --roll."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from d100gui import __version__
from d100gui.app import build_parser


def run(*args, home):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "d100gui", *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_help_lists_options():
    text = build_parser().format_help()
    for option in ("--screenshot", "--version", "--seed", "--roll", "--theme"):
        assert option in text


def test_version(tmp_path):
    result = run("--version", home=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"d100gui {__version__}"


@pytest.mark.gui
def test_screenshot_writes_a_1400x900_png_with_a_roll(tmp_path):
    out = tmp_path / "shot.png"
    result = run("--screenshot", str(out), "--seed", "3", "--roll", "d100.E", home=tmp_path)
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1400, 900)


def test_unknown_table_for_roll_fails_clearly(tmp_path):
    result = run("--screenshot", str(tmp_path / "x.png"), "--roll", "d100.nope", home=tmp_path)
    assert result.returncode == 2
    assert "no table 'd100.nope'" in result.stderr


def _replay(path, home):
    return run("replay", "--check", str(path), home=home)


@pytest.mark.gui
def test_replay_of_a_store_played_with_physical_dice_matches(qtbot, _fresh_home):
    from PySide6.QtCore import Qt

    from d100gui.storage import packs
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)  # the app's dice
    win.game.physical = lambda requests: [2] * len(requests)  # then the player's own dice
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)
    assert win.game.campaign.dice_history[1].roll.manual
    path = win.campaign_path
    win.close()
    result = _replay(path, _fresh_home)
    assert result.returncode == 0, result.stderr
    assert "matches" in result.stderr


def test_replay_says_which_tile_set_is_missing(tmp_path, _fresh_home):
    from d100gui.engine.game import Campaign
    from d100gui.storage.campaigns import save_campaign

    path = tmp_path / "elsewhere.d100.json"
    save_campaign(Campaign(tileset="my-caves"), path)
    result = _replay(path, _fresh_home)
    assert result.returncode == 2
    assert "tile set 'my-caves'" in result.stderr


@pytest.mark.gui
@pytest.mark.parametrize("physical_first", [True, False])
def test_replay_of_fate_re_rolls_matches(qtbot, _fresh_home, physical_first):
    from d100gui.engine.dice.commands import RerollDice, RollDice
    from d100gui.storage import packs
    from d100gui.storage.paths import user_data_dir
    from d100gui.ui.common.settings import Preferences
    from d100gui.ui.main_window import MainWindow

    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=8)
    qtbot.addWidget(win)
    by_hand = lambda requests: [1] * len(requests)
    win.game.physical = by_hand if physical_first else None
    assert win.bridge.send(RollDice(expression="3d6"))
    win.game.physical = None if physical_first else by_hand
    assert win.bridge.send(RerollDice(entry=0, dice=[0, 2]))  # a Fate re-roll, with the other kind of dice
    win.game.physical = None
    assert win.bridge.send(RollDice(expression="d100"))  # the random state after it must match too
    path = win.campaign_path
    win.close()
    result = _replay(path, _fresh_home)
    assert result.returncode == 0, result.stderr
    assert "matches" in result.stderr
