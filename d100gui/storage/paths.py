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


#: the player's own copy of the sheet layout (Edit > Preferences > Sheet layout), beside settings.ini
LAYOUT_OVERRIDE_FILE = "sheet-layout.json"


def user_layout_path() -> Path:
    """Where the player's edited sheet layout is kept; absent until they save one."""
    return user_config_dir() / LAYOUT_OVERRIDE_FILE


def user_log_dir() -> Path:
    """The app's own log (unhandled errors, Qt's warnings): appdirs' user log folder, or ``$D100GUI_HOME/logs``."""
    override = _home_override()
    path = override / "logs" if override else Path(appdirs.user_log_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path
