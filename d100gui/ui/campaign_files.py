"""The campaign on disk: its store, new, open, save as, export and import, backups, the list.

Each campaign is one SQLite store (``storage.store``), attached to the game: it writes every
action, undo and redo in its own transaction, so there is no "Save". A save that fails (disk full,
store full, file gone) stays queued in the store, written again with the next action, and is told
to the player after the action (:meth:`CampaignFiles.autosave`), never dropped silently. Opening another
campaign closes the old store. A file that cannot be opened is left untouched, and the
backups of an older JSON campaign are offered. JSON stays the portable format
(File > Export campaign / Import campaign; a long campaign's export is compressed).

A store damaged or out of range is refused whole at open (``DamagedStore``), and the refusal offers
the repair that fits, with the player's consent: open it without its undo history, rebuild the last
state its log can replay, or open it anyway with the values out of range brought into range. A repair
never touches the damaged file: the repaired campaign is a new store beside it (``NAME-repaired.d100``).
Closing while actions could not be saved (a full disk) asks first, and offers to export them elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QMessageBox, QProgressDialog, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.game import EVERY_COMMAND, Game, GameData
from d100gui.engine.journal import Change
from d100gui.storage.campaigns import SUFFIX, CampaignFileError, CampaignSummary, campaigns_dir, load_campaign
from d100gui.storage.repair import clamped
from d100gui.storage.store import (
    CLAMP,
    GZ_SUFFIX,
    REBUILD,
    SAVE_ERRORS,
    STORE_SUFFIX,
    WITHOUT_HISTORY,
    CampaignStore,
    DamagedStore,
    export_json,
    export_text,
    import_export,
    import_json,
    open_campaign,
    readable_log,
    rebuild,
    without_history,
    write_export,
)
from d100gui.ui.campaign_list import CampaignListDialog, campaign_label, summary_of
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.settings import Preferences

#: how long the player pauses before the store's WAL is copied into its file (CampaignStore.checkpoint)
CHECKPOINT_IDLE_MS = 1000


def free_path(path: Path) -> Path:
    """``path``, or ``NAME-2.d100``, ``NAME-3.d100``... if it is taken (a new store never overwrites)."""
    stem = path.name.removesuffix(STORE_SUFFIX)
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{stem}-{number}{STORE_SUFFIX}")
    return candidate


def read_campaign(path: Path) -> tuple[CampaignStore, Campaign]:
    """A campaign file opened (an older JSON one converted beside it) and read, checked whole; a file that
    fails raises :class:`CampaignFileError` and is left untouched, its store released."""
    store = open_campaign(path)
    try:
        return store, store.load()
    except BaseException:
        store.discard()  # refused whole: released, nothing written
        raise


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
        self._left: list[Change] = []  # changes that came after the store was closed and could not be written
        self.save_problem = ""  # the last save failure, "" once saving works again
        self.save_box: QMessageBox | None = None  # the dialog telling it (once per run of failures)
        self.last_message_box: QMessageBox | None = None  # the last campaign file refused
        self.restore_buttons: dict[QAbstractButton, Path] = {}  # that box's "Open backup" buttons
        self.repair_button: QAbstractButton | None = None  # that box's repair (a damaged store), if any
        self.unsaved_box: QMessageBox | None = None  # the question asked on closing with actions not saved
        self.list_dialog: CampaignListDialog | None = None
        self.history_box: QMessageBox | None = None  # the offer to drop a damaged undo history, while shown
        self.rebuild_dialog: QProgressDialog | None = None  # the progress of the last rebuild from a log
        bridge.history_damaged.connect(self._offer_dropping_history)
        self.closed = False  # the store was closed under the game (quit): a change still coming is saved once, there
        self.idle_checkpoint = QTimer(self)  # the store's WAL copied into its file once the player pauses
        self.idle_checkpoint.setSingleShot(True)
        self.idle_checkpoint.setInterval(CHECKPOINT_IDLE_MS)
        self.idle_checkpoint.timeout.connect(self._checkpoint)
        self._listen(bridge.game)

    # ------------------------------------------------------------------ saving
    @property
    def unsaved(self) -> list[Change]:
        """The actions the store could not write yet (its queue), oldest first."""
        return self.store.unsaved if self.store is not None else self._left

    def _listen(self, game: Game) -> None:
        game.change_listeners.append(self._on_change)

    def _on_change(self, change: Change) -> None:
        """The game's change listener, for the one change the attached store cannot take: one that comes
        after the store was closed (the app quit in the middle of a command, SIGTERM)."""
        if self.store is None and self.closed and self.path is not None:
            self._left.append(change)
            self._save_after_close()

    def _retry(self) -> None:
        """Write what the store still holds unwritten, and tell how it went."""
        if self.store is not None:
            self.store.flush()
            self._told(self.store)

    def _told(self, store: CampaignStore) -> None:
        if store.save_error is not None:
            self._save_failed(store.save_error)
        else:
            self._saved()

    def _save_after_close(self) -> None:
        """The store was closed before the command's change came: written once, in order, by the store
        opened again for it, and closed again (a failure keeps the changes for the next try)."""
        if self.path is None or not self._left:
            return
        try:
            store = CampaignStore.open(self.path)
            try:
                store.resume(self.bridge.game)
                store.unsaved, self._left = self._left, []
                store.flush()
                self._left = store.unsaved
            finally:
                store.close()
        except SAVE_ERRORS as exc:
            self._save_failed(exc)
            return
        self._told(store)

    def autosave(self) -> None:
        """After every action: a new campaign gets its store on its first one; a failed save is retried.
        After the store was closed (quit), nothing is made again: the change was saved to it."""
        if self.closed:
            self._save_after_close()
            return
        if self.store is None:
            try:  # the campaigns folder too may be blocked (a file in its place): told, and tried again
                path = self.path or free_path(campaigns_dir() / f"{self.bridge.game.campaign.meta.id}{STORE_SUFFIX}")
                self._adopt(CampaignStore.create(path, self.bridge.game.campaign, self.bridge.game))
            except SAVE_ERRORS as exc:
                self.path = None
                self._save_failed(exc)
                return
            self._saved()
        else:  # the store, attached to the game, wrote the action (or queued it): tell how it went
            self._told(self.store)
        if self.store is not None and (warning := self.store.size_warning):
            self.message.emit(warning)
        self.idle_checkpoint.start()  # again after each action: it runs once the player pauses
        self.path_changed.emit()

    def _checkpoint(self) -> None:
        if self.store is not None and not self.closed:
            self.store.checkpoint()

    def _adopt(self, store: CampaignStore) -> None:
        """Save the bridge's game in ``store`` from now on (its stored undo history comes with it)."""
        game = self.bridge.game
        store.attach(game)
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
        """Close the store (on quit, or before another campaign): at rest it is one file, no ``-wal``.

        Call :meth:`may_close` first: actions that could not be saved are dropped here."""
        if self.store is not None:
            if self.unsaved:
                self._retry()  # one last try, told if it fails (as before the queue moved into the store)
            try:
                self.store.close()
            except SAVE_ERRORS as exc:
                self.error.emit(f"Could not close {self.store.path}: {exc}")
            self.store = None
            self.closed = True

    def may_close(self, then: Callable[[], object] | None = None) -> bool:
        """Before the campaign is closed (quit, or another campaign): True if nothing would be lost.

        Actions that could not be saved (a full disk) are tried once more; if they still cannot be,
        False, and the player is asked (:attr:`unsaved_box`): export the campaign, those actions
        included, to a file elsewhere (another folder or disk), close without them, or keep playing.
        Nothing is dropped without that answer; once it is given, ``then`` runs (the close again).
        """
        if self.store is None or not self.unsaved:
            return True
        self._retry()
        if not self.unsaved:
            return True
        count = len(self.unsaved)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Actions not saved",
            f"Your last {count} action{'s' if count != 1 else ''} could not be saved "
            f"({self.save_problem or 'the disk refused them'}).\n\n"
            "Export the campaign with them to another folder or disk, close without them, or keep playing "
            "(free some space and they are saved with your next action).",
            QMessageBox.StandardButton.NoButton,
            self.window,
        )
        export = box.addButton("Export elsewhere...", QMessageBox.ButtonRole.AcceptRole)
        drop = box.addButton(f"Close and lose {count}", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton("Keep playing", QMessageBox.ButtonRole.RejectRole)

        def answered(button: QAbstractButton) -> None:
            self.unsaved_box = None
            if button is drop or (button is export and self.export_unsaved()):
                self.unsaved.clear()  # the player chose: exported elsewhere, or let go
                if then is not None:
                    then()

        box.buttonClicked.connect(answered)
        self.unsaved_box = box
        box.open()
        return False

    def export_unsaved(self, path: str | None = None) -> bool:
        """Export the campaign as it is in memory (the actions not saved included) to ``path`` (asked for)."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Export the campaign elsewhere", self.prefs.start_path(), f"Campaign JSON (*{SUFFIX} *{GZ_SUFFIX})"
            )
            if not path:
                return False
        target = Path(path)
        if not target.name.endswith((".json", ".gz")):
            target = target.with_name(target.name.removesuffix(STORE_SUFFIX) + SUFFIX)
        try:
            assert self.store is not None
            written = write_export(target, export_text(self.store, self.bridge.game.campaign))
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not export to {target}: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.message.emit(f"Exported the campaign with its unsaved actions to {written}.")
        return True

    # ------------------------------------------------------------------ switching
    def _switch_to(self, campaign: Campaign, store: CampaignStore | None) -> None:
        self.close()  # the callers asked may_close() before reading the new campaign
        old = self.bridge.game
        game = Game(campaign, old.library, EVERY_COMMAND, policy=old.policy, rules=old.rules, tilesets=old.tilesets)
        game.physical = old.physical
        self.bridge.game = game  # _adopt attaches the store to the game the bridge shows
        self._listen(game)
        self.path = None
        self.closed = False
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
        if not self.may_close(self.new_campaign):
            return
        self._switch_to(Campaign(), None)
        self.message.emit("New campaign. It is saved automatically from its first action.")

    def open_campaign(self, path: str | Path) -> bool:
        """Open a campaign (a store, or an older JSON file converted beside it); a bad file is refused untouched."""
        path = Path(path)
        if not self.may_close(lambda: self.open_campaign(path)):
            return False
        try:
            store, campaign = read_campaign(path)
        except CampaignFileError as exc:
            self._refuse(exc)
            return False
        self.show_opened(path, store, campaign)
        return True

    def show_opened(self, path: Path, store: CampaignStore, campaign: Campaign) -> None:
        """Play ``campaign``, read from ``path`` into ``store`` (:func:`read_campaign`), saved there from now on."""
        self._switch_to(campaign, store)
        if not self.say_notes():
            converted = "" if store.path == path else f" (converted to {store.path.name}; the original is kept)"
            self.message.emit(f"Opened {self.title()}.{converted}")

    def _refuse(self, exc: CampaignFileError) -> None:
        text = f"{exc}\n\nThe file has not been changed."
        offer = exc.offer if isinstance(exc, DamagedStore) else ""
        label, more = self._repair_words(exc) if isinstance(exc, DamagedStore) else ("", "")
        box = QMessageBox(
            QMessageBox.Icon.Warning, "Campaign not opened", text + more, QMessageBox.StandardButton.Close, self.window
        )
        self.restore_buttons = {}
        self.repair_button = None
        if label:
            self.repair_button = box.addButton(label, QMessageBox.ButtonRole.AcceptRole)
        for backup in exc.backups:
            button = box.addButton(f"Open backup {backup.suffix.lstrip('.')}", QMessageBox.ButtonRole.AcceptRole)
            self.restore_buttons[button] = backup

        def clicked(button: QAbstractButton) -> None:
            if button is self.repair_button and self.repair_button is not None:
                self.repair(exc.path, offer)
            else:
                self.open_backup(self.restore_buttons.get(button), exc.path)

        box.buttonClicked.connect(clicked)
        self.error.emit(str(exc))
        box.open()
        self.last_message_box = box

    def _offer_dropping_history(self, stack: str) -> None:
        """An undo or redo step met in play is damaged (refused, nothing changed): offer to drop the undo
        and redo history, a copy of the campaign as it is kept beside it first."""
        store = self.store
        if store is None or self.history_box is not None:
            return
        game = self.bridge.game
        steps = len(game.undo_steps) + len(game.redo_steps)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Undo history damaged",
            f"A step of this campaign's {stack} history is damaged in its file: it cannot be applied, and "
            "nothing was changed.\n\nYou can keep playing without it, or drop the undo and redo history "
            f"({steps} step{'s' if steps != 1 else ''}). The game itself is whole and stays as it is; a copy of "
            "the campaign as it is now is kept beside it.",
            QMessageBox.StandardButton.NoButton,
            self.window,
        )
        drop = box.addButton("Drop the history", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton("Keep it", QMessageBox.ButtonRole.RejectRole)

        def answered(button: QAbstractButton) -> None:
            self.history_box = None
            if button is drop:
                self.drop_history()

        box.buttonClicked.connect(answered)
        self.history_box = box
        box.open()

    def drop_history(self) -> bool:
        """Drop the undo and redo history of the campaign in play, keeping a copy of it first (``-damaged``)."""
        store = self.store
        if store is None:
            return False
        stem = store.path.name.removesuffix(STORE_SUFFIX)
        copy = free_path(store.path.with_name(f"{stem}-damaged{STORE_SUFFIX}"))
        try:
            store.keep_copy(copy)
            dropped = store.drop_history()
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not drop the undo history: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.message.emit(f"Dropped the undo history ({dropped} steps); the campaign as it was is kept as {copy.name}.")
        return True

    def _repair_words(self, exc: DamagedStore) -> tuple[str, str]:
        """The repair button's label and what the box says it does and loses ("" label: none possible)."""
        kept = "\n\nThe damaged file is kept as it is; the repaired campaign is a new file beside it."
        if exc.offer == WITHOUT_HISTORY:
            return "Open without the undo history", f"\n\nIt can be opened without {exc.lost}: nothing else is lost.{kept}"
        if exc.offer == REBUILD:
            try:
                _start, entries, total = readable_log(exc.path)
            except CampaignFileError:
                return "", ""
            lost = total - len(entries)
            return (
                "Rebuild from the log",
                f"\n\nIts log can rebuild the campaign up to action {len(entries)} of {total}, by replaying it: "
                f"that loses the last {lost} action{'s' if lost != 1 else ''} (more if a replayed action no longer "
                f"plays) and the undo history.{kept}",
            )
        if exc.offer == CLAMP:
            shown = "\n".join(f"- {p}" for p in exc.problems[:10])
            return (
                "Open anyway",
                f"\n\nOut of range:\n{shown}\n\nIt can be opened with these values brought into range "
                f"(each to the nearest value the rules allow).{kept}",
            )
        return "", ""

    def repair(self, path: Path, offer: str) -> bool:
        """Repair a damaged store into a new one beside it, as the player chose, and open that (the
        damaged file is only read). Says what was lost."""
        game = self.bridge.game
        played: Game | None = None
        try:
            if offer == WITHOUT_HISTORY:
                campaign = without_history(path)
                said = "without its undo history"
            elif offer == REBUILD:
                data = GameData(rules=game.rules, library=game.library, tilesets=game.tilesets)
                try:
                    played, lost = rebuild(path, data, list(EVERY_COMMAND.values()), self._rebuild_progress())
                finally:
                    if self.rebuild_dialog is not None:
                        self.rebuild_dialog.reset()
                campaign = played.campaign
                said = f"rebuilt from its log ({lost} action{'s' if lost != 1 else ''} lost)"
            elif offer == CLAMP:
                campaign, fixed = clamped(path, game.rules)
                said = "with " + "; ".join(fixed) if fixed else "as it was"
            else:
                return False
            stem = store_target(path).name.removesuffix(STORE_SUFFIX)
            target = free_path(path.with_name(f"{stem}-repaired{STORE_SUFFIX}"))
            store = CampaignStore.create(target, campaign, played)
            loaded = store.load()
        except CampaignFileError as exc:
            self.error.emit(f"Could not repair {path.name}: {exc.reason}")
            return False
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not write the repaired campaign: {getattr(exc, 'strerror', None) or exc}")
            return False
        self._switch_to(loaded, store)
        self.message.emit(f"Opened {path.name} {said}, as {target.name}; the damaged file is kept as it was.")
        return True

    def _rebuild_progress(self) -> Callable[[int, int], bool]:
        """A progress dialog for a rebuild (a long log replays for a while); Cancel stops it where it is."""
        dialog = QProgressDialog("Rebuilding the campaign from its log...", "Stop here", 0, 0, self.window)
        dialog.setWindowTitle("Rebuilding")
        dialog.setMinimumDuration(500)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)  # modal: each step repaints it (and reads Stop)
        self.rebuild_dialog = dialog

        def told(done: int, of: int) -> bool:
            dialog.setMaximum(max(of, 1))
            dialog.setValue(min(done, max(of, 1)))
            if done >= of:
                dialog.reset()
            return not dialog.wasCanceled()

        return told

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
                self._retry()
                if self.unsaved:  # the copy would miss them: keep playing here until they are saved
                    raise CampaignFileError(target, f"the last actions are not saved yet ({self.save_problem})")
                store = import_json(export_json(self.store), target)
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not save {target}: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.close()
        self.closed = False
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
        if not target.name.endswith((".json", ".gz")):
            target = target.with_name(target.name.removesuffix(STORE_SUFFIX) + SUFFIX)
        campaign = self.bridge.game.campaign
        try:
            text = export_text(self.store, campaign) if self.store is not None else campaign.model_dump_json()
            written = write_export(target, text)  # compressed (NAME.d100.json.gz) when too big for a plain file
        except SAVE_ERRORS as exc:
            self.error.emit(f"Could not export to {target}: {getattr(exc, 'strerror', None) or exc}")
            return False
        self.message.emit(f"Exported the campaign to {written}.")
        return True

    def import_dialog(self, path: str | None = None) -> bool:
        """File > Import campaign: a campaign JSON becomes a new store in the campaigns folder, and is opened."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.window, "Import campaign", self.prefs.start_path(), f"Campaign JSON (*{SUFFIX} *.json *{GZ_SUFFIX})"
            )
            if not path:
                return False
            self.prefs.remember_folder(path)
        source = Path(path)
        if not self.may_close(lambda: self.import_dialog(str(source))):
            return False
        target = free_path(campaigns_dir() / store_target(Path(str(source).removesuffix(".gz"))).name)
        try:
            if source.name.endswith(".gz"):
                store = import_export(source, target)  # unpacked within the export limit, then checked like a file
            else:
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
            self.message.emit(f"Imported {source.name}: {self.title()}.")
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
            dungeon=dungeon.name if (dungeon := campaign.dungeons.current_dungeon) is not None else "",
        )

    def title(self) -> str:
        """The campaign in play as a player names it: its hero and its dungeon (the status bar says it)."""
        summary = self.current_summary()
        return campaign_label(summary) if summary is not None else "the new campaign"

    def label_for(self, path: Path) -> str:
        """File > Open Recent's line for ``path``: the campaign's hero and dungeon (the one in play from
        memory: its store is locked by this window); a file that cannot be read, by its name."""
        current = self.current_summary()
        if current is not None and _same_file(current.path, path):
            return campaign_label(current)
        try:
            return campaign_label(summary_of(path))
        except Exception:  # a recent file may be anything by now: the menu still opens
            return f"{path.name} (unreadable)"


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return one == other
