"""The campaign on disk: autosave after every action, new, open, save as, backups, the list.

A campaign is saved after each command (atomically, by ``storage.campaigns``), so there is
no "Save". Opening another campaign replaces the bridge's game; every view re-reads it.
A file that cannot be opened is left untouched, and its backups are offered.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QMessageBox, QWidget

from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.game import Campaign, Game
from d100gui.storage.campaigns import SUFFIX, CampaignFileError, campaigns_dir, load_campaign, save_campaign
from d100gui.ui.campaign_list import CampaignListDialog
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.settings import Preferences


class CampaignFiles(QObject):
    """File > New, Open, Open Recent, Save As and Campaigns, and the autosave after each action."""

    message = Signal(str)  # what was done, for the status bar (``notes`` of a migrated campaign too)
    error = Signal(str)  # why nothing was done
    path_changed = Signal()  # the campaign's file changed (new, opened, saved as): the title follows

    def __init__(self, bridge: EngineBridge, prefs: Preferences, window: QWidget) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.prefs = prefs
        self.window = window
        self.path: Path | None = None
        self.last_message_box: QMessageBox | None = None  # the last campaign file refused
        self.restore_buttons: dict[QAbstractButton, Path] = {}  # that box's "Open backup" buttons
        self.list_dialog: CampaignListDialog | None = None

    def autosave(self) -> None:
        """Save after every action. A new campaign gets its file on its first action."""
        if self.path is None:
            self.path = campaigns_dir() / f"{self.bridge.game.campaign.meta.id}{SUFFIX}"
            self.prefs.add_recent(self.path)
        try:
            save_campaign(self.bridge.game.campaign, self.path)
        except OSError as exc:
            self.error.emit(f"Could not save {self.path}: {exc.strerror or exc}. Use File > Save As.")
        self.path_changed.emit()

    def _switch_to(self, campaign: Campaign, path: Path | None) -> None:
        old = self.bridge.game
        game = Game(campaign, old.library, ALL_COMMANDS, policy=old.policy, rules=old.rules, tilesets=old.tilesets)
        game.physical = old.physical
        self.path = path
        if path is not None:
            self.prefs.add_recent(path)
        self.bridge.set_game(game)
        self.path_changed.emit()

    def say_notes(self) -> bool:
        """Say what a migration changed in the campaign just loaded (its ``meta.notes``); True if any."""
        notes = " ".join(self.bridge.game.campaign.meta.notes)
        if notes:
            self.message.emit(notes)
        return bool(notes)

    def new_campaign(self) -> None:
        """A blank campaign; its file is made on its first action."""
        self._switch_to(Campaign(), None)
        self.message.emit("New campaign. It is saved automatically from its first action.")

    def open_campaign(self, path: str | Path) -> bool:
        """Open a campaign file; a bad file is refused, left untouched, and its backups offered."""
        path = Path(path)
        try:
            campaign = load_campaign(path)
        except CampaignFileError as exc:
            self._refuse(exc)
            return False
        self._switch_to(campaign, path)
        if not self.say_notes():
            self.message.emit(f"Opened {path.name}.")
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
        """Open a backup as a new file beside the damaged one (which stays untouched)."""
        if backup is None:
            return False
        try:
            campaign = load_campaign(backup)
        except CampaignFileError as exc:
            self._refuse(exc)
            return False
        target = original.with_name(original.name.removesuffix(SUFFIX) + "-restored" + SUFFIX)
        self._switch_to(campaign, target)
        save_campaign(campaign, target)
        if not self.say_notes():
            self.message.emit(f"Opened backup {backup.name} as {target.name}.")
        return True

    def open_dialog(self) -> bool:
        """File > Open: choose a campaign file (the dialog starts where the last one was used)."""
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open campaign", self.prefs.start_path(), f"Campaigns (*{SUFFIX} *.json)"
        )
        if not path:
            return False
        self.prefs.remember_folder(path)
        return self.open_campaign(path)

    def save_as(self, path: str | None = None) -> bool:
        """Save the campaign under another name (asked for without a path); it autosaves there from now on."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Save campaign as", self.prefs.start_path(), f"Campaigns (*{SUFFIX})"
            )
            if not path:
                return False
            self.prefs.remember_folder(path)
        target = Path(path)
        if not target.name.endswith(SUFFIX):
            target = target.with_name(target.name.removesuffix(".json") + SUFFIX)
        try:
            save_campaign(self.bridge.game.campaign, target)
        except OSError as exc:
            self.error.emit(f"Could not save {target}: {exc.strerror or exc}")
            return False
        self.path = target
        self.prefs.add_recent(target)
        self.path_changed.emit()
        return True

    def show_list(self) -> CampaignListDialog:
        """File > Campaigns: every saved campaign, to open one."""
        dialog = CampaignListDialog(campaigns_dir(), self.window)
        dialog.chosen.connect(self.open_campaign)
        dialog.open()
        self.list_dialog = dialog
        return dialog
