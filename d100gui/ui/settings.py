"""Preferences and window state, kept in an INI file in the player's config directory."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from d100gui.engine.roller import MissingRowPolicy
from d100gui.storage.paths import user_config_dir


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

    def sync(self) -> None:
        self._s.sync()
