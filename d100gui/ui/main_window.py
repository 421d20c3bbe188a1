"""The main window: it builds its parts in ``_init_*`` helpers and wires them in one place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QFrame,
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QScrollArea,
)

from d100gui import __version__
from d100gui.engine.combat.round import FaceEscapedMonster, StartCombat
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.commands import AddTableRow, ProvideRow
from d100gui.engine.dice.dice import FaceRequest
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.dice.tables import PackInvalid
from d100gui.engine.dungeon.commands import DOOR_TABLE, ResolveDoorRow, SelectDungeon, SetTileSet
from d100gui.engine.dungeon.tiles import TileSetInvalid
from d100gui.engine.game import Campaign, Event, Game
from d100gui.storage import packs, tilesets
from d100gui.storage.campaigns import SUFFIX, CampaignFileError, campaigns_dir, load_campaign, save_campaign
from d100gui.storage.packs import LoadedLibrary
from d100gui.storage.resources import bundled_rules, standard_tilesets
from d100gui.ui.campaign_list import CampaignListDialog
from d100gui.ui.combat.panel import CombatPanel
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import MissingRowDialog, PhysicalDiceDialog, PreferencesDialog
from d100gui.ui.common.settings import Preferences
from d100gui.ui.common.theme import apply_theme
from d100gui.ui.dice.panel import DicePanel
from d100gui.ui.hero.creation_wizard import CreationWizard
from d100gui.ui.hero.sheet import CharacterSheet
from d100gui.ui.hero.skill_test_dialog import SkillTestDialog
from d100gui.ui.map.area import MapArea
from d100gui.ui.map.export import export_pdf, export_png, export_svg, print_map
from d100gui.ui.map.tile_editor import TileEditorDialog

AskFaces = Callable[[list[FaceRequest]], Sequence[int] | None]


class MainWindow(QMainWindow):
    """Map in the centre, character sheet and dice panel docked."""

    def __init__(
        self, loaded: LoadedLibrary, prefs: Preferences, seed: int | None = None, campaign: Campaign | None = None
    ) -> None:
        super().__init__()
        self.loaded = loaded
        self.prefs = prefs
        self.campaign_path: Path | None = None
        self.ask_faces: AskFaces = self._ask_faces_dialog
        campaign = campaign or self._new_campaign(seed)
        self.game = Game(
            campaign,
            loaded.library,
            ALL_COMMANDS,
            policy=prefs.missing_row_policy,
            rules=bundled_rules(),
            tilesets=standard_tilesets(),
        )
        self.load_tilesets()
        self.bridge = EngineBridge(self.game, self)
        self.setWindowTitle("d100gui")
        self._init_central()
        self.map_area.sheet_options = (prefs.sheet_size, prefs.unbounded_sheet)
        self._init_docks()
        self._init_actions()
        self._init_menus()
        self._connect_signals()
        self._update_title()
        self.statusBar().showMessage(f"{len(loaded.library)} tables loaded.")

    @staticmethod
    def _new_campaign(seed: int | None) -> Campaign:
        campaign = Campaign()
        if seed is not None:
            campaign.meta.seed = seed
        return campaign

    @property
    def library(self):
        return self.game.library

    # ------------------------------------------------------------------ parts
    def _init_central(self) -> None:
        self.map_area = MapArea(self.bridge)
        self.map_placeholder = self.map_area.placeholder
        self.setCentralWidget(self.map_area)

    def _init_docks(self) -> None:
        self.sheet_dock = QDockWidget("Character", self)
        self.sheet_dock.setObjectName("sheetDock")
        self.sheet = CharacterSheet(self.bridge)
        self.sheet_dock.setWidget(self.sheet)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.sheet_dock)
        self.combat_panel = CombatPanel(self.bridge)
        self.combat_dock = QDockWidget("Combat", self)
        self.combat_dock.setObjectName("combatDock")
        combat_scroll = QScrollArea()
        combat_scroll.setWidget(self.combat_panel)
        combat_scroll.setWidgetResizable(True)
        combat_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.combat_dock.setWidget(combat_scroll)
        self.dice_panel = DicePanel(self.bridge)
        self.dice_dock = QDockWidget("Dice and tables", self)
        self.dice_dock.setObjectName("diceDock")
        dice_scroll = QScrollArea()
        dice_scroll.setWidget(self.dice_panel)
        dice_scroll.setWidgetResizable(True)
        dice_scroll.setFrameShape(QFrame.Shape.NoFrame)
        dice_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.dice_dock.setWidget(dice_scroll)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dice_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.combat_dock)
        self.tabifyDockWidget(self.dice_dock, self.combat_dock)
        self.dice_dock.raise_()
        self.resizeDocks([self.sheet_dock, self.dice_dock], [340, 440], Qt.Orientation.Horizontal)

    def _init_actions(self) -> None:
        def action(text: str, slot: Callable[[], object], shortcut: QKeySequence | str | None = None) -> QAction:
            act = QAction(text, self)
            if shortcut is not None:
                act.setShortcut(QKeySequence(shortcut))
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        self.new_action = action("&New campaign", self.new_campaign, QKeySequence.StandardKey.New)
        self.open_action = action("&Open...", self.open_campaign_dialog, QKeySequence.StandardKey.Open)
        self.save_as_action = action("Save &As...", self.save_as, QKeySequence.StandardKey.SaveAs)
        self.campaigns_action = action("&Campaigns...", self.show_campaign_list, "Ctrl+Shift+O")
        self.undo_action = action("&Undo", self.bridge.undo, QKeySequence.StandardKey.Undo)
        self.redo_action = action("&Redo", self.bridge.redo, "Ctrl+Shift+Z")
        self.new_dungeon_action = action("&New dungeon", self.map_area.new_dungeon, "Ctrl+Shift+D")
        self.fit_map_action = action("&Fit map to window", self.map_area.view.fit_to_dungeon, "Ctrl+0")
        self.edit_map_action = action("&Edit map by hand", lambda: None, "Ctrl+E")
        self.edit_map_action.setCheckable(True)
        self.print_map_action = action("Print &map...", self.print_map, "Ctrl+Alt+P")
        self.export_map_action = action("E&xport map...", self.export_map, "Ctrl+Alt+E")
        self.tile_editor_action = action("&Tile editor (Table M)...", self.open_tile_editor)
        self.fallen_action = action("Hall of the &fallen...", self.show_hall_of_fallen)
        self.new_character_action = action("New &character...", self.open_creation_wizard, "Ctrl+Shift+N")
        self.test_action = action("Skill &test...", self.open_skill_test, "Ctrl+T")
        self.print_sheet_action = action("&Print sheet...", self.sheet.open_print_preview, QKeySequence.StandardKey.Print)
        self.export_sheet_action = action("Export sheet to P&DF...", lambda: self.sheet.export_pdf(), "Ctrl+Shift+E")
        self.roll_d100_action = action("Roll d&100", lambda: self.dice_panel.roll_expression("d100"), "Ctrl+D")
        self.repeat_action = action("&Repeat last roll", self.dice_panel.repeat_last, "Ctrl+R")
        self.physical_action = action("&Physical dice", lambda: None, "Ctrl+Shift+P")
        self.physical_action.setCheckable(True)
        self.import_pack_action = action("&Import table pack...", self.import_pack)
        self.export_pack_action = action("&Export my table pack...", self.export_pack)
        self.export_csv_action = action("Export table as &CSV...", self.export_table_csv)
        self.import_csv_action = action("Import table from CS&V...", self.import_table_csv)
        self.prefs_action = action("&Preferences...", self.edit_preferences, QKeySequence.StandardKey.Preferences)
        self.quit_action = action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        self.about_action = action("&About d100gui", self.about)

    def _init_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for act in (self.new_action, self.open_action, self.campaigns_action):
            file_menu.addAction(act)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addAction(self.save_as_action)
        file_menu.addSeparator()
        file_menu.addAction(self.print_sheet_action)
        file_menu.addAction(self.export_sheet_action)
        file_menu.addSeparator()
        for act in (self.import_pack_action, self.export_pack_action, self.import_csv_action, self.export_csv_action):
            file_menu.addAction(act)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.prefs_action)
        map_menu = bar.addMenu("&Map")
        for act in (self.new_dungeon_action, self.fit_map_action, self.edit_map_action):
            map_menu.addAction(act)
        map_menu.addSeparator()
        for act in (self.print_map_action, self.export_map_action):
            map_menu.addAction(act)
        map_menu.addSeparator()
        self.dungeons_menu = map_menu.addMenu("&Dungeons")
        self.dungeons_menu.aboutToShow.connect(self._fill_dungeons_menu)
        map_menu.addAction(self.tile_editor_action)
        self.tileset_menu = map_menu.addMenu("Tile &set")
        self.tileset_menu.aboutToShow.connect(self._fill_tileset_menu)
        hero_menu = bar.addMenu("&Hero")
        hero_menu.addAction(self.new_character_action)
        hero_menu.addAction(self.test_action)
        hero_menu.addSeparator()
        hero_menu.addAction(self.fallen_action)
        dice_menu = bar.addMenu("&Dice")
        for act in (self.roll_d100_action, self.repeat_action, self.physical_action):
            dice_menu.addAction(act)
        view_menu = bar.addMenu("&View")
        view_menu.addAction(self.sheet_dock.toggleViewAction())
        view_menu.addAction(self.dice_dock.toggleViewAction())
        view_menu.addAction(self.combat_dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.about_action)

    def _connect_signals(self) -> None:
        self.bridge.error.connect(self.show_error)
        self.bridge.decision_requested.connect(self.ask_missing_row)
        self.bridge.log_appended.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.dice_panel.physical_toggled.connect(self.set_physical)
        self.physical_action.toggled.connect(self.dice_panel.physical.setChecked)
        self.dice_panel.physical.toggled.connect(self.physical_action.setChecked)
        self.bridge.command_done.connect(self.autosave)
        self.bridge.user_row_added.connect(self.save_user_rows)
        self.bridge.decision_event.connect(self.answer_decision)
        self.sheet.create_requested.connect(self.open_creation_wizard)
        self.dice_panel.fight_requested.connect(self.start_fight)
        self.map_area.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.map_area.test_requested.connect(self.open_skill_test)
        self.edit_map_action.toggled.connect(self.map_area.view.set_edit_mode)
        self.map_area.view.edit_mode_changed.connect(self.edit_map_action.setChecked)
        self.combat_panel.fight_active_changed.connect(lambda on: self.combat_dock.raise_() if on else None)

    # ------------------------------------------------------------------ behaviour
    def show_error(self, message: str) -> None:
        self.dice_panel.result_text.setText(f"<span style='color:#c0392b'>{message}</span>")
        self.statusBar().showMessage(message, 10000)

    def set_physical(self, on: bool) -> None:
        self.game.physical = (lambda reqs: self.ask_faces(reqs)) if on else None
        self.statusBar().showMessage("Physical dice: type your faces." if on else "The app rolls the dice.", 5000)

    def _ask_faces_dialog(self, requests: list[FaceRequest]) -> Sequence[int] | None:
        dialog = PhysicalDiceDialog(requests, self)
        return dialog.faces() if dialog.exec() else None

    def ask_missing_row(self, index: int, entry: HistoryEntry) -> MissingRowDialog | None:
        """Open the "type the row" dialog without blocking; saving goes through the engine."""
        if entry.table is None or entry.table.missing is None:
            return None
        table = self.library.get(entry.table.table_id)
        dialog = MissingRowDialog(table, entry.roll.final, entry.table.missing, self)
        dialog.accepted.connect(lambda: self._store_row(index, dialog))
        dialog.open()
        self.missing_row_dialog = dialog
        return dialog

    def _store_row(self, index: int, dialog: MissingRowDialog) -> None:
        entry = self.game.campaign.dice_history[index]
        if entry.table is not None:
            self.bridge.send(ProvideRow(entry=index, row=dialog.row()))

    def save_user_rows(self, table_id: str) -> None:
        """A row the player typed is in use: keep it in their own table pack."""
        path = self.loaded.user_pack_path
        if path is None:
            return
        try:
            packs.save_user_table(path, self.library.get(table_id))
        except (OSError, PackInvalid) as exc:
            self.show_error(f"The row is in use but could not be saved to {path}: {exc}")

    # ------------------------------------------------------------------ map
    def _dungeon_or_say(self):
        dungeon = self.game.campaign.dungeons.current_dungeon
        if dungeon is None:
            self.show_error("There is no dungeon to print yet: start one first (Map > New dungeon).")
        return dungeon

    def print_map(self) -> bool:
        dungeon = self._dungeon_or_say()
        return bool(dungeon and print_map(dungeon, self))

    def export_map(self, path: str | None = None, dpi: int = 150, colour: bool = True) -> Path | None:
        """Export the current map to PNG, SVG or PDF (chosen by the file's suffix)."""
        dungeon = self._dungeon_or_say()
        if dungeon is None:
            return None
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, "Export map", f"{dungeon.name or 'map'}.pdf", "PDF (*.pdf);;PNG image (*.png);;SVG (*.svg)"
            )
            if not path:
                return None
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
            self.show_error(f"Could not export the map to {target}: {exc.strerror or exc}")
            return None
        self.statusBar().showMessage(f"Map exported to {target}.", 8000)
        return target

    def load_tilesets(self) -> None:
        """The standard tile set and every usable tile set of the player's."""
        sets = {}
        for entry in tilesets.list_tilesets():
            if entry.usable:
                try:
                    sets[entry.id] = tilesets.load_tileset(entry.id)
                except (TileSetInvalid, tilesets.TileSetStorageError):
                    continue
        self.game.tilesets = sets

    def open_tile_editor(self) -> TileEditorDialog:
        current = self.game.tilesets.get(self.game.campaign.tileset) or self.game.tilesets["standard"]
        dialog = TileEditorDialog(current, self)
        dialog.tileset_saved.connect(lambda _id: self.load_tilesets())
        dialog.open()
        self.tile_editor = dialog
        return dialog

    def _fill_dungeons_menu(self) -> None:
        """One dungeon per quest attempt: pick which one the map shows."""
        self.dungeons_menu.clear()
        book = self.game.campaign.dungeons
        if not book.dungeons:
            self.dungeons_menu.addAction("(none yet)").setEnabled(False)
        for index, dungeon in enumerate(book.dungeons):
            label = f"{dungeon.name}" + (f" - {dungeon.quest}" if dungeon.quest else "") + f" ({len(dungeon.areas)} areas)"
            act = self.dungeons_menu.addAction(label)
            act.setCheckable(True)
            act.setChecked(index == book.current)
            act.triggered.connect(lambda _=False, i=index: self.bridge.send(SelectDungeon(index=i)))

    def show_hall_of_fallen(self) -> QMessageBox:
        """The heroes who died, kept read-only."""
        fallen = self.game.campaign.hall_of_fallen
        if fallen:
            lines = [
                f"<b>{h.name or 'Unnamed hero'}</b>: REP {h.rep}, {h.gp} gp, quests completed {h.quest_log.completed}, "
                f"monsters defeated {len(h.combat_track)}"
                for h in fallen
            ]
            text = "<br>".join(lines)
        else:
            text = "No hero has fallen in this campaign."
        box = QMessageBox(QMessageBox.Icon.Information, "Hall of the fallen", text, QMessageBox.StandardButton.Close, self)
        box.open()
        self.fallen_box = box
        return box

    def _fill_tileset_menu(self) -> None:
        self.tileset_menu.clear()
        for set_id, tileset in self.game.tilesets.items():
            act = self.tileset_menu.addAction(tileset.title)
            act.setCheckable(True)
            act.setChecked(set_id == self.game.campaign.tileset)
            act.triggered.connect(lambda _=False, i=set_id: self.bridge.send(SetTileSet(tileset=i)))

    def start_fight(self, table_value: int) -> bool:
        """Fight the monster a Table E roll gave (the dice panel's "Fight" button)."""
        if self.bridge.send(StartCombat(source="table_e", table_value=table_value)):
            self.combat_dock.raise_()
            return True
        return False

    def answer_decision(self, event: Event) -> MissingRowDialog | None:
        """Ask the player for a row their tables lack: a door roll, or loot or a curse in a fight."""
        if event.kind in ("combat_loot_missing", "combat_curse_missing"):
            return self._ask_table_row(event)
        if event.kind == "escaped_monster_here":
            self.statusBar().showMessage(event.message, 10000)
            if self.bridge.send(FaceEscapedMonster(pos=str(event.data["pos"]))):
                self.combat_dock.raise_()
            return None
        if event.kind != "door_row_missing":
            return None
        table = self.library.get(DOOR_TABLE)
        roll = int(event.data["roll"])
        gap = table.gap_containing(roll) or (roll, roll)
        dialog = MissingRowDialog(table, roll, gap, self)
        pos, side = str(event.data["pos"]), str(event.data["side"])
        dialog.accepted.connect(lambda: self.bridge.send(ResolveDoorRow(pos=pos, side=side, row=dialog.row())))
        dialog.open()
        self.missing_row_dialog = dialog
        return dialog

    def _ask_table_row(self, event: Event) -> MissingRowDialog | None:
        data = event.data.get("table_roll") or {}
        table_id = str(data.get("table_id", ""))
        roll = int((data.get("roll") or {}).get("final", 0))
        if table_id not in self.library:
            return None
        table = self.library.get(table_id)
        gap = table.gap_containing(roll) or (roll, roll)
        dialog = MissingRowDialog(table, roll, gap, self)
        dialog.accepted.connect(lambda: self.bridge.send(AddTableRow(table_id=table_id, row=dialog.row())))
        dialog.open()
        self.missing_row_dialog = dialog
        return dialog

    def open_creation_wizard(self) -> CreationWizard:
        wizard = CreationWizard(self.bridge, self)
        wizard.open()
        self.creation_wizard = wizard
        return wizard

    def open_skill_test(self, text: str | None = None) -> SkillTestDialog | None:
        character = self.game.campaign.character
        if character is None or character.creation is not None:
            self.show_error("Create a character first (Hero > New character).")
            return None
        dialog = SkillTestDialog(self.bridge, text or None, self)
        dialog.open()
        self.skill_test_dialog = dialog
        return dialog

    def edit_preferences(self) -> PreferencesDialog:
        dialog = PreferencesDialog(
            self.prefs.missing_row_policy, self.prefs.theme, self, self.prefs.sheet_size, self.prefs.unbounded_sheet
        )

        def accepted() -> None:
            size, unbounded = dialog.chosen_sheet()
            self.prefs.sheet_size, self.prefs.unbounded_sheet = size, unbounded
            self.map_area.sheet_options = (size, unbounded)
            self.apply_preferences(dialog.chosen_policy().value, dialog.chosen_theme())

        dialog.accepted.connect(accepted)
        dialog.open()
        self.preferences_dialog = dialog
        return dialog

    def apply_preferences(self, policy: str, theme: str) -> None:
        self.prefs.missing_row_policy = MissingRowPolicy(policy)
        self.prefs.theme = theme
        self.prefs.sync()
        self.game.policy = MissingRowPolicy(policy)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            self.map_area.set_dark(apply_theme(app, theme) == "dark")

    def import_pack(self, path: str | None = None) -> bool:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Import table pack", "", "Table packs (*.json)")
            if not path:
                return False
        try:
            pack = packs.import_pack(Path(path), self.library)
            packs.merge_into_user_pack(self.loaded.user_pack_path, pack)
        except (PackInvalid, OSError) as exc:
            self._refuse("The table pack was not imported", exc)
            return False
        self.library.overlay(pack)
        self.bridge.tables_changed.emit()
        self.statusBar().showMessage(f"Imported {len(pack.tables)} table(s) from {path}.", 8000)
        return True

    def export_pack(self, path: str | None = None) -> bool:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Export my table pack", "my-tables.json", "Table packs (*.json)")
            if not path:
                return False
        pack = packs.current_user_pack(self.loaded.user_pack_path)
        packs.export_pack(pack, Path(path))
        self.statusBar().showMessage(f"Exported {len(pack.tables)} table(s) to {path}.", 8000)
        return True

    def _chosen_table(self) -> str | None:
        table_id = self.dice_panel.selected_table_id()
        if table_id:
            return table_id
        ids = self.library.ids()
        choice, ok = QInputDialog.getItem(self, "Choose a table", "Table", ids, 0, False)
        return choice if ok else None

    def export_table_csv(self, path: str | None = None, table_id: str | None = None) -> bool:
        table_id = table_id or self._chosen_table()
        if not table_id:
            return False
        table = self.library.get(table_id)
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, f"Export {table.title}", f"{table_id}.csv", "CSV (*.csv)")
            if not path:
                return False
        Path(path).write_text(packs.table_to_csv(table), encoding="utf-8")
        self.statusBar().showMessage(f"Exported {table.title} to {path}.", 8000)
        return True

    def import_table_csv(self, path: str | None = None, table_id: str | None = None) -> bool:
        table_id = table_id or self._chosen_table()
        if not table_id:
            return False
        base = self.library.get(table_id)
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, f"Import rows for {base.title}", "", "CSV (*.csv)")
            if not path:
                return False
        try:
            text = Path(path).read_text(encoding="utf-8")
            table = packs.table_from_csv(text, base, path)
            packs.save_user_table(self.loaded.user_pack_path, table)
        except (PackInvalid, OSError, UnicodeDecodeError) as exc:
            self._refuse("The CSV was not imported", exc)
            return False
        self.library.overlay(packs.Pack(id="csv", title="csv", tables=[table]))
        self.bridge.tables_changed.emit()
        self.statusBar().showMessage(f"Imported {len(table.rows)} row(s) into {base.title}.", 8000)
        return True

    # ------------------------------------------------------------------ campaigns
    def _update_title(self) -> None:
        name = self.campaign_path.name.removesuffix(SUFFIX) if self.campaign_path else "new campaign (not saved yet)"
        self.setWindowTitle(f"d100gui - {name}")
        self.undo_action.setEnabled(self.game.can_undo)
        self.redo_action.setEnabled(self.game.can_redo)

    def autosave(self) -> None:
        """Save after every action. A new campaign gets its file on its first action."""
        if self.campaign_path is None:
            self.campaign_path = campaigns_dir() / f"{self.game.campaign.meta.id}{SUFFIX}"
            self.prefs.add_recent(self.campaign_path)
        try:
            save_campaign(self.game.campaign, self.campaign_path)
        except OSError as exc:
            self.show_error(f"Could not save {self.campaign_path}: {exc.strerror or exc}. Use File > Save As.")
        self._update_title()

    def _switch_to(self, campaign: Campaign, path: Path | None) -> None:
        self.game = Game(
            campaign,
            self.library,
            ALL_COMMANDS,
            policy=self.prefs.missing_row_policy,
            rules=self.game.rules,
            tilesets=self.game.tilesets,
        )
        self.game.physical = (lambda reqs: self.ask_faces(reqs)) if self.physical_action.isChecked() else None
        self.campaign_path = path
        if path is not None:
            self.prefs.add_recent(path)
        self.bridge.set_game(self.game)
        self._update_title()

    def new_campaign(self) -> None:
        self._switch_to(Campaign(), None)
        self.statusBar().showMessage("New campaign. It is saved automatically from its first action.", 8000)

    def open_campaign(self, path: str | Path) -> bool:
        """Open a campaign file; a bad file is refused, left untouched, and its backups offered."""
        path = Path(path)
        try:
            campaign = load_campaign(path)
        except CampaignFileError as exc:
            self._refuse_campaign(exc)
            return False
        self._switch_to(campaign, path)
        self.statusBar().showMessage(f"Opened {path.name}.", 8000)
        return True

    def _refuse_campaign(self, exc: CampaignFileError) -> None:
        text = f"{exc}\n\nThe file has not been changed."
        box = QMessageBox(QMessageBox.Icon.Warning, "Campaign not opened", text, QMessageBox.StandardButton.Close, self)
        self.restore_buttons = {}
        for backup in exc.backups:
            button = box.addButton(f"Open backup {backup.suffix.lstrip('.')}", QMessageBox.ButtonRole.AcceptRole)
            self.restore_buttons[button] = backup
        box.buttonClicked.connect(lambda button: self._open_backup(self.restore_buttons.get(button), exc.path))
        self.show_error(str(exc))
        box.open()
        self.last_message_box = box

    def _open_backup(self, backup: Path | None, original: Path) -> bool:
        """Open a backup as a new file beside the damaged one (which stays untouched)."""
        if backup is None:
            return False
        try:
            campaign = load_campaign(backup)
        except CampaignFileError as exc:
            self._refuse_campaign(exc)
            return False
        target = original.with_name(original.name.removesuffix(SUFFIX) + "-restored" + SUFFIX)
        self._switch_to(campaign, target)
        save_campaign(campaign, target)
        self.statusBar().showMessage(f"Opened backup {backup.name} as {target.name}.", 8000)
        return True

    def open_campaign_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open campaign", str(campaigns_dir()), f"Campaigns (*{SUFFIX} *.json)")
        if path:
            self.open_campaign(path)

    def save_as(self, path: str | None = None) -> bool:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save campaign as", str(campaigns_dir()), f"Campaigns (*{SUFFIX})")
            if not path:
                return False
        target = Path(path)
        if not target.name.endswith(SUFFIX):
            target = target.with_name(target.name.removesuffix(".json") + SUFFIX)
        try:
            save_campaign(self.game.campaign, target)
        except OSError as exc:
            self.show_error(f"Could not save {target}: {exc.strerror or exc}")
            return False
        self.campaign_path = target
        self.prefs.add_recent(target)
        self._update_title()
        return True

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.prefs.recent()
        if not recent:
            self.recent_menu.addAction("(none yet)").setEnabled(False)
        for path in recent:
            act = self.recent_menu.addAction(path.name.removesuffix(SUFFIX))
            act.setToolTip(str(path))
            act.triggered.connect(lambda _=False, p=path: self.open_campaign(p))

    def show_campaign_list(self) -> CampaignListDialog:
        dialog = CampaignListDialog(campaigns_dir(), self)
        dialog.chosen.connect(self.open_campaign)
        dialog.open()
        self.campaign_list_dialog = dialog
        return dialog

    def closeEvent(self, event) -> None:
        self.prefs.qsettings.setValue("window/geometry", self.saveGeometry())
        self.prefs.qsettings.setValue("window/state", self.saveState())
        self.prefs.sync()
        super().closeEvent(event)

    def restore_window_state(self) -> bool:
        """Window geometry and dock layout as the player left them; True if both came back."""
        geometry = self.prefs.qsettings.value("window/geometry")
        state = self.prefs.qsettings.value("window/state")
        restored_geometry = geometry is not None and self.restoreGeometry(geometry)
        restored_state = state is not None and self.restoreState(state)
        return bool(restored_geometry and restored_state)

    def _refuse(self, title: str, exc: Exception) -> None:
        self.show_error(f"{title}: {exc}")
        box = QMessageBox(QMessageBox.Icon.Warning, title, str(exc), QMessageBox.StandardButton.Ok, self)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.open()
        self.last_message_box = box

    def show_startup_problems(self) -> None:
        if self.loaded.problems:
            self._refuse("Your table pack has problems", Exception("\n\n".join(self.loaded.problems)))

    def about(self) -> None:
        QMessageBox.about(
            self,
            "About d100gui",
            f"<b>d100gui {__version__}</b><br>A desktop companion for the solo dungeon crawl D100 Dungeon,"
            " with a toolbox for classic rule systems.",
        )
