"""The campaign on disk: its store, new, open, save as, export and import, backups, the list.

Each campaign is one SQLite store (``storage.store``): the game's change listener hands every
action, undo and redo to the store, which writes it in its own transaction, so there is no
"Save". A save that fails (disk full, store full, file gone) is told to the player and the
action is kept and written again on the next one, never dropped silently. Opening another
campaign closes the old store. A file that cannot be opened is left untouched, and the
backups of an older JSON campaign are offered. JSON stays the portable format
(File > Export campaign / Import campaign).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QMessageBox, QWidget

from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import Campaign, Change, Game
from d100gui.storage.campaigns import SUFFIX, CampaignFileError, CampaignSummary, campaigns_dir, load_campaign, save_campaign
from d100gui.storage.store import STORE_SUFFIX, CampaignStore, export_json, import_json, open_campaign
from d100gui.ui.campaign_list import CampaignListDialog
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.settings import Preferences

#: what a save can fail with: the store refusing to grow, the disk, the database
SAVE_ERRORS = (CampaignFileError, OSError, sqlite3.Error)


def free_path(path: Path) -> Path:
    """``path``, or ``NAME-2.d100``, ``NAME-3.d100``... if it is taken (a new store never overwrites)."""
    stem = path.name.removesuffix(STORE_SUFFIX)
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{stem}-{number}{STORE_SUFFIX}")
    return candidate


def store_target(path: str | Path) -> Path:
    """A chosen file name as a store's: ``hero``, ``hero.json`` or ``hero.d100.json`` -> ``hero.d100``."""
    target = Path(path)
    name = target.name.removesuffix(".json").removesuffix(STORE_SUFFIX)
    return target.with_name(name + STORE_SUFFIX)


class CampaignFiles(QObject):
    """File > New, Open, Open Recent, Save As, Export, Import and Campaigns, and the store of the game."""

    message = Signal(str)  # what was done, for the status bar (``notes`` of a migrated campaign too)
    error = Signal(str)  # why nothing was done, or why a save failed
    path_changed = Signal()  # the campaign's file changed (new, opened, saved as): the title follows

    def __init__(self, bridge: EngineBridge, prefs: Preferences, window: QWidget) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.prefs = prefs
        self.window = window
        self.path: Path | None = None
        self.store: CampaignStore | None = None
        self.unsaved: list[Change] = []  # actions whose save failed, written again on the next action
        self.save_problem = ""  # the last save failure, "" once saving works again
        self.save_box: QMessageBox | None = None  # the dialog telling it (once per run of failures)
        self.last_message_box: QMessageBox | None = None  # the last campaign file refused
        self.restore_buttons: dict[QAbstractButton, Path] = {}  # that box's "Open backup" buttons
        self.list_dialog: CampaignListDialog | None = None
        self._listen(bridge.game)

    # ------------------------------------------------------------------ saving
    def _listen(self, game: Game) -> None:
        game.change_listeners.append(self._on_change)

    def _on_change(self, change: Change) -> None:
        """The game's change listener: queue the action and write what is queued."""
        if self.store is not None:
            self.unsaved.append(change)
            self._flush()

    def _flush(self) -> None:
        store = self.store
        try:
            while store is not None and self.unsaved:
                store.save(self.unsaved[0])
                del self.unsaved[0]
        except SAVE_ERRORS as exc:
            self._save_failed(exc)
            return
        self._saved()

    def autosave(self) -> None:
        """After every action: a new campaign gets its store on its first one; a failed save is retried."""
        if self.store is None:
            try:  # the campaigns folder too may be blocked (a file in its place): told, and tried again
                path = self.path or free_path(campaigns_dir() / f"{self.bridge.game.campaign.meta.id}{STORE_SUFFIX}")
                self._adopt(CampaignStore.create(path, self.bridge.game.campaign, self.bridge.game))
            except SAVE_ERRORS as exc:
                self.path = None
                self._save_failed(exc)
                return
            self._saved()
        elif self.unsaved:
            self._flush()
        if self.store is not None and (warning := self.store.size_warning):
            self.message.emit(warning)
        self.path_changed.emit()

    def _adopt(self, store: CampaignStore) -> None:
        """Save the bridge's game in ``store`` from now on (its stored undo history comes with it)."""
        game = self.bridge.game
        store.attach(game)
        game.change_listeners.remove(store.save)  # saves go through _on_change, which keeps failures
        self.store = store
        self.path = store.path
        self.prefs.add_recent(store.path)

    def _save_failed(self, exc: BaseException) -> None:
        reason = getattr(exc, "strerror", None) or str(exc)
        where = self.path or "the campaign"
        self.save_problem = f"Could not save {where}: {reason}. The action is kept and saved with your next one."
        self.error.emit(self.save_problem)
        if self.save_box is None:
            self.save_box = QMessageBox(
                QMessageBox.Icon.Warning, "Campaign not saved", self.save_problem, QMessageBox.StandardButton.Ok, self.window
            )
            self.save_box.open()

    def _saved(self) -> None:
        if self.save_problem:
            self.message.emit("Saved again: every action is on disk.")
        self.save_problem = ""
        self.save_box = None

    def close(self) -> None:
        """Close the store (on quit, or before another campaign): at rest it is one file, no ``-wal``."""
        if self.store is not None:
            if self.unsaved:
                self._flush()
            try:
                self.store.close()
            except SAVE_ERRORS as exc:
                self.error.emit(f"Could not close {self.store.path}: {exc}")
            self.store = None
        self.unsaved = []

    # ------------------------------------------------------------------ switching
    def _switch_to(self, campaign: Campaign, store: CampaignStore | None) -> None:
        self.close()
        old = self.bridge.game
        game = Game(campaign, old.library, ALL_COMMANDS, policy=old.policy, rules=old.rules, tilesets=old.tilesets)
        game.physical = old.physical
        self.bridge.game = game  # _adopt attaches the store to the game the bridge shows
        self._listen(game)
        self.path = None
        if store is not None:
            self._adopt(store)
        self.bridge.set_game(game)
        self.path_changed.emit()

    def say_notes(self) -> bool:
        """Say what a migration changed in the campaign just loaded (its ``meta.notes``); True if any."""
        notes = " ".join(self.bridge.game.campaign.meta.notes)
        if notes:
            self.message.emit(notes)
        return bool(notes)

    def new_campaign(self) -> None:
        """A blank campaign; its store is made on its first action."""
        self._switch_to(Campaign(), None)
        self.message.emit("New campaign. It is saved automatically from its first action.")

    def open_campaign(self, path: str | Path) -> bool:
        """Open a campaign (a store, or an older JSON file converted beside it); a bad file is refused untouched."""
        path = Path(path)
        try:
            store = open_campaign(path)
            try:
                campaign = store.load()
            except BaseException:
                store.close()
                raise
        except CampaignFileError as exc:
            self._refuse(exc)
            return False
        self._switch_to(campaign, store)
        if not self.say_notes():
            converted = "" if store.path == path else f" (converted to {store.path.name}; the original is kept)"
            self.message.emit(f"Opened {store.path.name}.{converted}")
        return True

    def _refuse(self, exc: CampaignFileError) -> None:
        text = f"{exc}\n\nThe file has not been changed."
        box = QMessageBox(QMessageBox.Icon.Warning, "Campaign not opened", text, QMessageBox.StandardButton.Close, self.window)
        self.restore_buttons = {}
        for backup in exc.backups:
            button = box.addButton(f"Open backup {backup.suffix.lstrip('.')}", QMessageBox.ButtonRole.AcceptRole)
            self.restore_buttons[button] = backup
        box.buttonClicked.connect(lambda button: self.open_backup(self.restore_buttons.get(button), exc.path))
        self.error.emit(str(exc))
        box.open()
        self.last_message_box = box

    def open_backup(self, backup: Path | None, original: Path) -> bool:
        """Open a backup as a new store beside the damaged file (which stays untouched)."""
        if backup is None:
            return False
        try:
            campaign = load_campaign(backup)
            target = free_path(
                original.with_name(store_target(original).name.removesuffix(STORE_SUFFIX) + "-restored" + STORE_SUFFIX)
            )
            store = CampaignStore.create(target, campaign)
        except CampaignFileError as exc:
            self._refuse(exc)
            return False
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not write the restored campaign: {exc}")
            return False
        self._switch_to(store.load(), store)
        if not self.say_notes():
            self.message.emit(f"Opened backup {backup.name} as {target.name}.")
        return True

    def open_dialog(self) -> bool:
        """File > Open: choose a campaign file (the dialog starts where the last one was used)."""
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open campaign", self.prefs.start_path(), f"Campaigns (*{STORE_SUFFIX} *{SUFFIX} *.json)"
        )
        if not path:
            return False
        self.prefs.remember_folder(path)
        return self.open_campaign(path)

    # ------------------------------------------------------------------ copies
    def save_as(self, path: str | None = None) -> bool:
        """Copy the campaign to a new store (asked for without a path); it saves there from now on."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Save campaign as", self.prefs.start_path(), f"Campaigns (*{STORE_SUFFIX})"
            )
            if not path:
                return False
            self.prefs.remember_folder(path)
        target = store_target(path)
        try:
            if target.exists():
                raise CampaignFileError(target, "a file of that name exists already; choose another name")
            if self.store is None:
                store = CampaignStore.create(target, self.bridge.game.campaign, self.bridge.game)
            else:
                self._flush()
                if self.unsaved:  # the copy would miss them: keep playing here until they are saved
                    raise CampaignFileError(target, f"the last actions are not saved yet ({self.save_problem})")
                store = import_json(export_json(self.store), target)
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not save {target}: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.close()
        self._adopt(store)
        self.path_changed.emit()
        return True

    def export_dialog(self, path: str | None = None) -> bool:
        """File > Export campaign: the portable JSON (state and whole log), for another machine or a replay."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Export campaign", self.prefs.start_path(), f"Campaign JSON (*{SUFFIX})"
            )
            if not path:
                return False
            self.prefs.remember_folder(path)
        target = Path(path)
        if not target.name.endswith(".json"):
            target = target.with_name(target.name.removesuffix(STORE_SUFFIX) + SUFFIX)
        campaign = self.bridge.game.campaign
        try:
            text = export_json(self.store) if self.store is not None else campaign.model_dump_json()
            save_campaign(campaign, target, text)
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not export to {target}: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.message.emit(f"Exported the campaign to {target}.")
        return True

    def import_dialog(self, path: str | None = None) -> bool:
        """File > Import campaign: a campaign JSON becomes a new store in the campaigns folder, and is opened."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.window, "Import campaign", self.prefs.start_path(), f"Campaign JSON (*{SUFFIX} *.json)"
            )
            if not path:
                return False
            self.prefs.remember_folder(path)
        source = Path(path)
        target = free_path(campaigns_dir() / store_target(source).name)
        try:
            load_campaign(source)  # refuses a bad file with the same messages as Open (size, depth, range)
            store = import_json(source.read_text(encoding="utf-8"), target)
            campaign = store.load()
        except CampaignFileError as exc:
            self._refuse(exc)
            return False
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not import {source}: {getattr(exc, 'strerror', None) or exc}")
            return False
        self._switch_to(campaign, store)
        if not self.say_notes():
            self.message.emit(f"Imported {source.name} as {target.name}.")
        return True

    def show_list(self) -> CampaignListDialog:
        """File > Campaigns: every saved campaign, to open one (the one in play read from memory)."""
        dialog = CampaignListDialog(campaigns_dir(), self.window, current=self.current_summary())
        dialog.chosen.connect(self.open_campaign)
        dialog.open()
        self.list_dialog = dialog
        return dialog

    def current_summary(self) -> CampaignSummary | None:
        """The campaign in play as the list shows it (its store is locked by this window)."""
        if self.path is None:
            return None
        campaign = self.bridge.game.campaign
        hero = campaign.character
        return CampaignSummary(
            path=self.path,
            hero=(hero.name if hero is not None else "") or "(no hero yet)",
            rep=None if hero is None else hero.rep,
            gold=None if hero is None else hero.gp,
            quests_done=None if hero is None else hero.quest_log.completed,
            last_played=campaign.meta.last_played,
        )
