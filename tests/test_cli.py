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
