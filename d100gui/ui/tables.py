"""The player's own tables on disk: import and export table packs and CSV, keep typed rows.

Table packs are files, so this lives beside the window rather than in the dice panel; the
rows themselves join the library the game rolls on, and ``bridge.tables_changed`` tells
every view.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from d100gui.engine.dice.tables import Pack, PackInvalid, TableLibrary
from d100gui.storage import packs
from d100gui.storage.packs import LoadedLibrary
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import warning_box
from d100gui.ui.common.settings import Preferences


class TableFiles(QObject):
    """Tables > Import/Export table pack and CSV, and saving the rows the player types."""

    message = Signal(str)  # what was done, for the status bar
    error = Signal(str)  # why nothing was done
    startup_shown = Signal()  # the start-up report is done: the first-run questions may follow

    def __init__(
        self,
        bridge: EngineBridge,
        loaded: LoadedLibrary,
        window: QWidget,
        selected_table: Callable[[], str | None],
        prefs: Preferences | None = None,
    ) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.loaded = loaded
        self.window = window
        self.prefs = prefs
        self.selected_table = selected_table
        self.last_message_box: QMessageBox | None = None

    @property
    def library(self) -> TableLibrary:
        return self.bridge.game.library

    def refuse(self, title: str, exc: Exception) -> None:
        """Say why a file was not taken, in the status bar and in a box the player can copy from."""
        self.error.emit(f"{title}: {exc}")
        self.last_message_box = warning_box(self.window, title, str(exc))

    def show_startup_problems(self) -> None:
        """The player's table pack had problems when it was loaded: list them once."""
        if self.loaded.problems:
            self.refuse("Your table pack has problems", Exception("\n\n".join(self.loaded.problems)))
        self.startup_shown.emit()

    def save_user_rows(self, table_id: str) -> None:
        """A row the player typed is in use: keep it in their own table pack."""
        path = self.loaded.user_pack_path
        if path is None:
            return
        try:
            packs.save_user_table(path, self.library.get(table_id))
        except (OSError, PackInvalid) as exc:
            self.error.emit(f"The row is in use but could not be saved to {path}: {exc}")

    def _overlay(self, pack: Pack) -> None:
        self.library.overlay(pack)
        self.bridge.tables_changed.emit()

    def _start(self, name: str = "") -> str:
        """Where a file dialog opens: the last folder used, else the documents folder."""
        return self.prefs.start_path(name) if self.prefs is not None else name

    def _chosen(self, path: str) -> str:
        if path and self.prefs is not None:
            self.prefs.remember_folder(path)
        return path

    def import_pack(self, path: str | None = None) -> bool:
        """Add a table pack's tables to the player's own pack (asks for the file without a path)."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Import table pack", self._start(), "Table packs (*.json)")
            if not self._chosen(path):
                return False
        try:
            pack = packs.import_pack(Path(path), self.library)
            packs.merge_into_user_pack(self.loaded.user_pack_path, pack)
        except (PackInvalid, OSError) as exc:
            self.refuse("The table pack was not imported", exc)
            return False
        self._overlay(pack)
        self.message.emit(f"Imported {len(pack.tables)} table(s) from {path}.")
        return True

    def export_pack(self, path: str | None = None) -> bool:
        """Write the player's own table pack to a file to share."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Export my table pack", self._start("my-tables.json"), "Table packs (*.json)"
            )
            if not self._chosen(path):
                return False
        pack = packs.current_user_pack(self.loaded.user_pack_path)
        packs.export_pack(pack, Path(path))
        self.message.emit(f"Exported {len(pack.tables)} table(s) to {path}.")
        return True

    def _chosen_table(self) -> str | None:
        table_id = self.selected_table()
        if table_id:
            return table_id
        ids = self.library.ids()
        titles = [self.library.get(i).title for i in ids]
        labels = [f"{t} ({i})" if titles.count(t) > 1 else t for t, i in zip(titles, ids, strict=True)]
        choice, ok = QInputDialog.getItem(self.window, "Choose a table", "Table", labels, 0, False)
        return ids[labels.index(choice)] if ok and choice in labels else None

    def export_table_csv(self, path: str | None = None, table_id: str | None = None) -> bool:
        """Write one table's rows as CSV (the table selected in the dice panel, or one asked for)."""
        table_id = table_id or self._chosen_table()
        if not table_id:
            return False
        table = self.library.get(table_id)
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.window, f"Export {table.title}", self._start(f"{table_id}.csv"), "CSV (*.csv)"
            )
            if not self._chosen(path):
                return False
        Path(path).write_text(packs.table_to_csv(table), encoding="utf-8")
        self.message.emit(f"Exported {table.title} to {path}.")
        return True

    def import_table_csv(self, path: str | None = None, table_id: str | None = None) -> bool:
        """Read rows for one table from CSV into the player's own pack."""
        table_id = table_id or self._chosen_table()
        if not table_id:
            return False
        base = self.library.get(table_id)
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, f"Import rows for {base.title}", self._start(), "CSV (*.csv)")
            if not self._chosen(path):
                return False
        try:
            table = packs.read_csv_file(Path(path), base)
            packs.save_user_table(self.loaded.user_pack_path, table)
        except (PackInvalid, OSError, UnicodeDecodeError) as exc:
            self.refuse("The CSV was not imported", exc)
            return False
        self._overlay(Pack(id="csv", title="csv", tables=[table]))
        self.message.emit(f"Imported {len(table.rows)} row(s) into {base.title}.")
        return True
