"""Where files live: bundled resources and the player's directories (from appdirs).

Everything that needs a path asks here, so tests can point the user directories at a
temporary folder with one environment variable (``D100GUI_HOME``).
"""

from __future__ import annotations

import os
from pathlib import Path

import appdirs

APP_NAME = "d100gui"
APP_AUTHOR = "d100gui"


def _home_override() -> Path | None:
    value = os.environ.get("D100GUI_HOME")
    return Path(value) if value else None


def user_data_dir() -> Path:
    """The player's data: campaigns, their table packs, their tile sets."""
    override = _home_override()
    path = override / "data" if override else Path(appdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_config_dir() -> Path:
    override = _home_override()
    path = override / "config" if override else Path(appdirs.user_config_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path
