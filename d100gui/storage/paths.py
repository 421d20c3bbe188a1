"""Where files live: bundled resources and the player's directories (from platformdirs).

Everything that needs a path asks here, so tests can point the user directories at a
temporary folder with one environment variable (``D100GUI_HOME``).

Earlier versions asked ``appdirs`` (no release since 2020; ``platformdirs`` is its maintained
successor with the same API). Both give the same data and config folders on every platform;
only the log folder differs, on Linux and the other XDG desktops (appdirs: ``~/.cache/d100gui/log``,
platformdirs: ``~/.local/state/d100gui/log``), so :func:`user_log_dir` moves an old one over once.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import platformdirs

APP_NAME = "d100gui"
APP_AUTHOR = "d100gui"


def _home_override() -> Path | None:
    value = os.environ.get("D100GUI_HOME")
    return Path(value) if value else None


def user_data_dir() -> Path:
    """The player's data: campaigns, their table packs, their tile sets."""
    override = _home_override()
    path = override / "data" if override else Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_config_dir() -> Path:
    override = _home_override()
    path = override / "config" if override else Path(platformdirs.user_config_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


#: the player's own copy of the sheet layout (Edit > Preferences > Sheet layout), beside settings.ini
LAYOUT_OVERRIDE_FILE = "sheet-layout.json"


def user_layout_path() -> Path:
    """Where the player's edited sheet layout is kept; absent until they save one."""
    return user_config_dir() / LAYOUT_OVERRIDE_FILE


def legacy_log_dir(platform: str | None = None) -> Path | None:
    """Where appdirs put the log folder when it differs from platformdirs' (XDG desktops), else None."""
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "darwin")):
        return None  # the same folder under both libraries
    cache = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(cache) / APP_NAME / "log"


def user_log_dir() -> Path:
    """The app's own log (unhandled errors, Qt's warnings): the platform's user log folder, or ``$D100GUI_HOME/logs``.

    A log folder an earlier version left where appdirs put it is moved here the first time (when
    nothing is here yet), so the crash log a player is asked for is found in one place.
    """
    override = _home_override()
    if override:
        path = override / "logs"
    else:
        path = Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR))
        _move_legacy_logs(legacy_log_dir(), path)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _move_legacy_logs(old: Path | None, new: Path) -> None:
    """Move ``old`` to ``new`` when only ``old`` exists; never overwrite, never fail the start for it."""
    if old is None or old == new or new.exists() or not old.is_dir() or old.is_symlink():
        return
    try:
        new.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(old), str(new))
    except OSError:
        return  # a log folder that cannot move is left where it is; the new one starts empty
