"""Preferences and window state, kept in an INI file in the player's config directory."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dungeon.map import DEFAULT_HEIGHT, DEFAULT_WIDTH
from d100gui.storage.paths import user_config_dir

MAX_RECENT = 8

#: which rolls wait for the player to accept them or spend Fate (Edit > Preferences > Play)
FATE_TEST_CHOICES = ("always", "fate", "never")  # skill tests outside a fight
FATE_FIGHT_CHOICES = ("fate", "never")  # rolls in a fight (the engine stops only while the hero has Fate)

#: the actions that can ask first, with the words the preferences show (off by default: every action is saved
#: and can be undone, so asking is for the player who wants it; but those of ASK_BY_DEFAULT)
CONFIRMATIONS = {
    "new_campaign": "Starting a new campaign (File > New campaign)",
    "new_dungeon": "Starting a new dungeon (Map > New dungeon)",
    "quit": "Quitting d100gui",
    "fail_quest": "Failing a quest (its fail costs are paid, such as half your gold)",
}
#: the confirmations on until the player turns them off: one click would cost the hero (issue 19)
ASK_BY_DEFAULT = frozenset({"fail_quest"})


def documents_dir() -> Path:
    """Where file dialogs start until the player has used one: their documents folder.

    ``D100GUI_HOME`` (set by the tests) puts it in ``$D100GUI_HOME/documents``, like every
    other user directory, so no test opens a dialog in the real one.
    """
    home = os.environ.get("D100GUI_HOME")
    if home:
        path = Path(home) / "documents"
        path.mkdir(parents=True, exist_ok=True)
        return path
    found = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(found) if found else Path.home()


class Preferences:
    """Typed access to the stored preferences."""

    def __init__(self) -> None:
        self._s = QSettings(str(user_config_dir() / "settings.ini"), QSettings.Format.IniFormat)

    @property
    def qsettings(self) -> QSettings:
        return self._s

    @property
    def missing_row_policy(self) -> MissingRowPolicy:
        value = str(self._s.value("tables/missing_row_policy", MissingRowPolicy.ASK.value))
        try:
            return MissingRowPolicy(value)
        except ValueError:
            return MissingRowPolicy.ASK

    @missing_row_policy.setter
    def missing_row_policy(self, value: MissingRowPolicy) -> None:
        self._s.setValue("tables/missing_row_policy", value.value)

    @property
    def theme(self) -> str:
        value = str(self._s.value("ui/theme", "system"))
        return value if value in ("system", "light", "dark") else "system"

    @theme.setter
    def theme(self, value: str) -> None:
        self._s.setValue("ui/theme", value)

    @property
    def sheet_size(self) -> tuple[int, int]:
        """Mapping sheet size in areas (default: the engine's standard sheet)."""
        default = DEFAULT_WIDTH, DEFAULT_HEIGHT
        try:
            w, h = int(str(self._s.value("map/width", DEFAULT_WIDTH))), int(str(self._s.value("map/height", DEFAULT_HEIGHT)))
        except (TypeError, ValueError):
            return default
        return (w, h) if 3 <= w <= 200 and 2 <= h <= 200 else default

    @sheet_size.setter
    def sheet_size(self, value: tuple[int, int]) -> None:
        self._s.setValue("map/width", value[0])
        self._s.setValue("map/height", value[1])

    @property
    def unbounded_sheet(self) -> bool:
        """Exits beyond the sheet edge lead on instead of being dead ends."""
        return str(self._s.value("map/unbounded", "false")).lower() == "true"

    @unbounded_sheet.setter
    def unbounded_sheet(self, value: bool) -> None:
        self._s.setValue("map/unbounded", "true" if value else "false")

    @property
    def follow_hero(self) -> bool:
        """Scroll the map after each move so the hero stays in view (Map > Keep the hero in view)."""
        return str(self._s.value("map/follow_hero", "true")).lower() == "true"

    @follow_hero.setter
    def follow_hero(self, value: bool) -> None:
        self._s.setValue("map/follow_hero", "true" if value else "false")

    @property
    def physical_dice(self) -> bool:
        """The player rolls real dice and types the faces (Dice > Physical dice)."""
        return self._flag("dice/physical", False)

    @physical_dice.setter
    def physical_dice(self, value: bool) -> None:
        self._s.setValue("dice/physical", "true" if value else "false")

    @property
    def fate_tests(self) -> str:
        """When a skill test outside a fight waits: "always", "fate" (while the hero has Fate) or "never"."""
        value = str(self._s.value("fate/tests", "always"))
        return value if value in FATE_TEST_CHOICES else "always"

    @fate_tests.setter
    def fate_tests(self, value: str) -> None:
        self._s.setValue("fate/tests", value if value in FATE_TEST_CHOICES else "always")

    @property
    def fate_fights(self) -> str:
        """When a fight's roll waits: "fate" (while the hero has Fate, the engine's way) or "never"."""
        value = str(self._s.value("fate/fights", "fate"))
        return value if value in FATE_FIGHT_CHOICES else "fate"

    @fate_fights.setter
    def fate_fights(self, value: str) -> None:
        self._s.setValue("fate/fights", value if value in FATE_FIGHT_CHOICES else "fate")

    @property
    def tileset(self) -> str:
        """The Table M tile set new campaigns roll on (the campaign on screen keeps its own until changed)."""
        return str(self._s.value("map/tileset", "standard") or "standard")

    @tileset.setter
    def tileset(self, value: str) -> None:
        self._s.setValue("map/tileset", value)

    def confirms(self, action: str) -> bool:
        """Does ``action`` (a key of :data:`CONFIRMATIONS`) ask before it runs?"""
        return self._flag(f"confirm/{action}", action in ASK_BY_DEFAULT)

    def set_confirms(self, action: str, on: bool) -> None:
        self._s.setValue(f"confirm/{action}", "true" if on else "false")

    def _flag(self, key: str, default: bool) -> bool:
        return str(self._s.value(key, "true" if default else "false")).lower() == "true"

    @property
    def tour_shown(self) -> bool:
        """The first-run tour of the panels was shown (Help > Tour shows it again)."""
        return str(self._s.value("help/tour_shown", "false")).lower() == "true"

    @tour_shown.setter
    def tour_shown(self, value: bool) -> None:
        self._s.setValue("help/tour_shown", "true" if value else "false")

    def dialog_folder(self) -> Path:
        """The folder the last file dialog was used in (if it still exists), else the documents folder."""
        last = str(self._s.value("files/last_folder", "") or "")
        return Path(last) if last and Path(last).is_dir() else documents_dir()

    def start_path(self, name: str = "") -> str:
        """Where a file dialog opens: :meth:`dialog_folder`, with ``name`` as the suggested file."""
        folder = self.dialog_folder()
        return str(folder / name) if name else str(folder)

    def remember_folder(self, chosen: str | Path) -> None:
        """A file dialog answered ``chosen`` (a file or a folder): the next one starts in its folder."""
        path = Path(chosen)
        folder = path if path.is_dir() else path.parent
        self._s.setValue("files/last_folder", str(folder))

    def recent(self) -> list[Path]:
        """Recently opened campaign files that still exist, newest first."""
        return [Path(p) for p in _paths(self._s.value("campaigns/recent", [])) if Path(p).exists()]

    def add_recent(self, path: Path) -> None:
        entries = [str(path), *[p for p in _paths(self._s.value("campaigns/recent", [])) if p != str(path)]]
        self._s.setValue("campaigns/recent", entries[:MAX_RECENT])

    def sync(self) -> None:
        self._s.sync()


def _paths(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [str(v) for v in value if v]
    return []
