"""What the Map menu does: print and export the map, the tile sets and their editor, which dungeon shows.

The map area shows the dungeon and turns clicks into commands; the menu's jobs that open a
dialog or write a file live here, so a menu item, its shortcut and a test take one path.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QWidget

from d100gui.engine.dungeon.commands import SelectDungeon, SetTileSet
from d100gui.engine.dungeon.map import Dungeon
from d100gui.engine.dungeon.tiles import TileSet, TileSetInvalid
from d100gui.storage import tilesets
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.settings import Preferences

if TYPE_CHECKING:  # the export and the editor are imported when first used, not at start-up
    from d100gui.ui.map.tile_editor import TileEditorDialog

NO_DUNGEON = "There is no dungeon to print yet: start one first (Map > New dungeon)."
EXPORT_FILTERS = "PDF (*.pdf);;PNG image (*.png);;SVG (*.svg)"


class MapActions(QObject):
    """Print, export, tile sets and dungeon choice for the Map menu; says what happened by signal."""

    message = Signal(str)  # what was done, for the status bar
    error = Signal(str)  # why nothing was done

    def __init__(self, bridge: EngineBridge, window: QWidget, prefs: Preferences | None = None) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.window = window
        self.prefs = prefs or Preferences()  # where file dialogs start
        self.tile_editor: TileEditorDialog | None = None

    def _dungeon_or_say(self) -> Dungeon | None:
        dungeon = self.bridge.game.campaign.dungeons.current_dungeon
        if dungeon is None:
            self.error.emit(NO_DUNGEON)
        return dungeon

    def print_map(self) -> bool:
        """Open the print dialog for the current map (Map > Print map)."""
        from d100gui.ui.map.export import print_map

        dungeon = self._dungeon_or_say()
        return bool(dungeon and print_map(dungeon, self.window))

    def export_map(self, path: str | None = None, dpi: int = 150, colour: bool = True) -> Path | None:
        """Export the current map to PNG, SVG or PDF (chosen by the file's suffix); without a path, ask."""
        dungeon = self._dungeon_or_say()
        if dungeon is None:
            return None
        if path is None:
            suggested = f"{dungeon.name or 'map'}.pdf"
            path, _ = QFileDialog.getSaveFileName(self.window, "Export map", self.prefs.start_path(suggested), EXPORT_FILTERS)
            if not path:
                return None
            self.prefs.remember_folder(path)
        from d100gui.ui.map.export import export_pdf, export_png, export_svg

        target = Path(path)
        try:
            if target.suffix.lower() == ".png":
                export_png(dungeon, target, dpi=dpi, colour=colour)
            elif target.suffix.lower() == ".svg":
                export_svg(dungeon, target, colour=colour)
            else:
                target = target.with_suffix(".pdf")
                export_pdf(dungeon, target, colour=colour)
        except OSError as exc:
            self.error.emit(f"Could not export the map to {target}: {exc.strerror or exc}")
            return None
        self.message.emit(f"Map exported to {target}.")
        return target

    def load_tilesets(self) -> None:
        """The standard tile set and every usable tile set of the player's."""
        sets: dict[str, TileSet] = {}
        for entry in tilesets.list_tilesets():
            if entry.usable:
                try:
                    sets[entry.id] = tilesets.load_tileset(entry.id)
                except (TileSetInvalid, tilesets.TileSetStorageError):
                    continue
        self.bridge.game.tilesets = sets

    def open_tile_editor(self) -> TileEditorDialog:
        """Map > Tile editor, on the campaign's tile set; a saved set is usable at once."""
        from d100gui.ui.map.tile_editor import TileEditorDialog

        game = self.bridge.game
        current = game.tilesets.get(game.campaign.tileset) or game.tilesets["standard"]
        dialog = TileEditorDialog(current, self.window, folders=self.prefs)
        dialog.tileset_saved.connect(lambda _id: self.load_tilesets())
        dialog.open()
        self.tile_editor = dialog
        return dialog

    def select_dungeon(self, index: int) -> bool:
        """Show another quest attempt's dungeon (Map > Dungeons)."""
        return self.bridge.send(SelectDungeon(index=index))

    def choose_tileset(self, set_id: str) -> bool:
        """Draw the map with another tile set (Map > Tile set)."""
        return self.bridge.send(SetTileSet(tileset=set_id))
