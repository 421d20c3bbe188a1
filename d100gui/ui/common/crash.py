"""Crash safety in the window: an unhandled error is shown, logged and reported; an unclean exit is told.

:class:`CrashGuard` is installed by ``app.main`` for an interactive run. It takes over
``sys.excepthook`` (PySide6 hands it every exception a slot lets through), ``threading.excepthook``
and Qt's message handler, and sends all three to the rotating log file
(:mod:`d100gui.storage.crashlog`). An exception opens a :class:`CrashDialog` (one at a time;
later ones are added to it) with the traceback and "Copy bug report".

Why the campaign is safe without saving anything here: the engine rolls back a command that
raises (``Game.execute`` puts every part back), and the store writes only whole actions, each in
its own transaction. So the dialog saves nothing; the campaign on disk is the last completed
action, and the bug report exports that (``export_json`` of the store).

After an unclean exit (a ``running-<pid>.json`` marker whose process is gone),
:meth:`CrashGuard.offer_recovery` says so and offers the campaign as its store holds it (up to
its last committed action), a JSON backup beside it, or a new campaign.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, QtMsgType, Signal, qInstallMessageHandler
from PySide6.QtGui import QFontDatabase, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from d100gui import __version__
from d100gui.storage import crashlog
from d100gui.storage.crashlog import LastGood, RunMarker, log
from d100gui.storage.store import export_json
from d100gui.ui.common.about import toolkit_versions

if TYPE_CHECKING:
    from d100gui.ui.main_window import MainWindow

SIGNAL_POLL_MS = 500
LAST_ACTION_CHARS = 90  # the last action's sentence in the offer, cut to this
QT_LEVELS = {
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


class CrashDialog(QDialog):
    """What went wrong, that the campaign is safe, where the log is, and a bug report to copy."""

    def __init__(self, trace: str, log_file: Path | None, report: Callable[[str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setWindowTitle("d100gui hit an error")
        self.report = report
        self.errors = 1
        layout = QVBoxLayout(self)
        headline = QLabel("<b>Something went wrong inside d100gui.</b> It is a bug in the app, not something you did.")
        safe = QLabel(
            "Your campaign is safe: everything up to your last completed action is saved, and an action the error"
            " cut short was not applied. You can go on playing, or quit and start again."
        )
        self.summary = QLabel(_last_line(trace))  # the error itself: a traceback ends with it, out of view
        self.summary.setObjectName("crashSummary")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.where = QLabel(
            f"The details are also in the log file {log_file}."
            if log_file is not None
            else "There is no log file (its folder cannot be written): copy the bug report to keep the details."
        )
        for label in (self.summary, self.where):
            label.setTextInteractionFlags(label.textInteractionFlags() | Qt.TextInteractionFlag.TextSelectableByMouse)
        for label in (headline, safe, self.summary, self.where):
            label.setWordWrap(True)
            layout.addWidget(label)
        self.details = QPlainTextEdit(trace.rstrip())
        self.details.setReadOnly(True)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.details.setAccessibleName("Error details")
        layout.addWidget(self.details)
        self.copied = QLabel("")
        layout.addWidget(self.copied)
        layout.addWidget(self._buttons())
        self.continue_button.setFocus()
        self.resize(720, 460)

    def _buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox()
        self.copy_button = QPushButton("&Copy bug report")
        self.copy_button.setToolTip("Copy the version, platform, these details and the campaign (JSON with its log)")
        self.quit_button = QPushButton("&Quit d100gui")
        self.quit_button.setToolTip("Close the app; the campaign is already saved")
        self.continue_button = QPushButton("C&ontinue")
        self.continue_button.setToolTip("Close this message and go on playing")
        self.continue_button.setDefault(True)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.quit_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.continue_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.copy_button.clicked.connect(self.copy_report)
        self.continue_button.clicked.connect(self.accept)
        return buttons

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        bar = self.details.verticalScrollBar()
        bar.setValue(bar.maximum())  # the innermost frames, next to the error, in view

    def add(self, trace: str) -> None:
        """Another error while this one is shown: its traceback goes below (one dialog, never a cascade)."""
        self.errors += 1
        self.details.appendPlainText(f"\n--- error {self.errors} ---\n{trace.rstrip()}")
        self.setWindowTitle(f"d100gui hit {self.errors} errors")

    def traces(self) -> str:
        return self.details.toPlainText()

    def copy_report(self) -> None:
        QGuiApplication.clipboard().setText(self.report(self.traces()))
        self.copied.setText("Copied. Paste it into a bug report (it holds your campaign, so you can check what you send).")


class CrashGuard(QObject):
    """The hooks, the log file and the running marker of one run of the window."""

    caught = Signal(str)  # a traceback; from another thread it arrives queued in the window's thread

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: CrashDialog | None = None
        self.recovery_box: QMessageBox | None = None
        self.recovery_buttons: dict[QAbstractButton, Callable[[], object]] = {}
        self.previous_runs: list[RunMarker] = []
        self.marker: RunMarker | None = None
        self._log_handler: logging.Handler | None = None
        self._hooks: tuple[Any, Any] | None = None
        self._qt_previous: Any = None
        self._sigterm: Any = None  # the SIGTERM handler before ours
        self._wakeup = QTimer(self)
        self.caught.connect(self.show_error)

    # ------------------------------------------------------------------ install / uninstall
    def install(self) -> CrashGuard:
        """Take over the hooks, open the log, read what earlier runs left, and mark this one as running."""
        try:
            self._log_handler = crashlog.start_log_file()
        except OSError as exc:  # no log folder (read-only home): errors still reach the dialog and stderr
            print(f"d100gui: no log file ({exc})", file=sys.stderr)
        self._hooks = (sys.excepthook, threading.excepthook)
        sys.excepthook = self._excepthook
        threading.excepthook = self._thread_hook
        self._qt_previous = qInstallMessageHandler(self._qt_message)
        try:
            self.previous_runs = crashlog.left_behind()
            self.marker = crashlog.write_marker(__version__, self.window.campaigns.path)
        except OSError as exc:  # a read-only data folder costs the marker, never the start
            log.warning("The running marker could not be written: %s", exc)
        for run in self.previous_runs:
            log.warning("The run started %s (process %s, d100gui %s) did not end cleanly", run.started, run.pid, run.version)
        self.window.campaigns.path_changed.connect(self._campaign_moved)
        self._stop_cleanly_on_sigterm()
        return self

    def _stop_cleanly_on_sigterm(self) -> None:
        """A logout or ``kill`` asks politely (SIGTERM): quit as after File > Quit, so it is no crash.

        Python runs signal handlers only between bytecodes, so a timer wakes it while Qt waits.
        """
        if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
            return
        self._sigterm = signal.signal(signal.SIGTERM, self._terminate)
        self._wakeup.timeout.connect(lambda: None)
        self._wakeup.start(SIGNAL_POLL_MS)

    def _terminate(self, signum: int, _frame: object) -> None:
        """Python runs this between any two bytecodes, in the middle of a command too: the quit waits
        for the event loop, so the command ends and saves first, then the store closes (once, in order)."""
        log.info("Asked to stop (signal %s): closing the campaign and quitting", signum)
        QTimer.singleShot(0, QCoreApplication.quit)

    def uninstall(self) -> None:
        """A clean exit: the hooks given back, the marker removed, the log closed."""
        if self._hooks is not None:
            if sys.excepthook == self._excepthook:
                sys.excepthook = self._hooks[0]
            if threading.excepthook == self._thread_hook:
                threading.excepthook = self._hooks[1]
            qInstallMessageHandler(self._qt_previous)
            self._hooks = None
        if self._sigterm is not None:
            signal.signal(signal.SIGTERM, self._sigterm)
            self._sigterm = None
            self._wakeup.stop()
        with contextlib.suppress(RuntimeError, TypeError):  # the window may be gone already
            self.window.campaigns.path_changed.disconnect(self._campaign_moved)
        if self.marker is not None:
            crashlog.clear_marker(self.marker)
            self.marker = None
        if self._log_handler is not None:
            crashlog.stop_log_file(self._log_handler)
            self._log_handler = None

    def _campaign_moved(self) -> None:
        if self.marker is not None and self.marker.campaign != self.window.campaigns.path:
            try:
                self.marker = crashlog.with_campaign(self.marker, self.window.campaigns.path)
            except OSError as exc:
                log.warning("The running marker could not be updated: %s", exc)

    # ------------------------------------------------------------------ errors
    def _excepthook(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        self._caught("".join(traceback.format_exception(kind, value, tb)))

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        where = f"in the thread {args.thread.name}\n" if args.thread is not None else ""
        self._caught(where + "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)))

    def _caught(self, trace: str) -> None:
        log.error("Unhandled exception (d100gui %s)\n%s", __version__, trace.rstrip())
        print(trace, file=sys.stderr, end="")
        try:
            self.caught.emit(trace)
        except Exception:  # the window is gone: the log and stderr have it
            pass

    def _qt_message(self, mode: QtMsgType, context: Any, message: str) -> None:
        """Qt's own warnings and errors go to the log too; then on as before (stderr, or the previous handler)."""
        level = QT_LEVELS.get(mode)
        if level is not None:
            log.log(level, "Qt: %s", message)
        if self._qt_previous is not None:
            self._qt_previous(mode, context, message)
        else:
            print(message, file=sys.stderr)

    def show_error(self, trace: str) -> None:
        """The crash dialog, opened without blocking (a nested event loop inside a failing slot is asking for more)."""
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.add(trace)
            return
        above = QApplication.activeModalWidget() or self.window  # over a modal wizard, or it would block the dialog
        self.dialog = CrashDialog(trace, self._log_file(), self.bug_report, above)
        self.dialog.quit_button.clicked.connect(self._quit)
        self.dialog.open()

    def _log_file(self) -> Path | None:
        try:
            return crashlog.log_path() if self._log_handler is not None else None
        except OSError:
            return None

    def _quit(self) -> None:
        if self.dialog is not None:
            self.dialog.accept()
        self.window.close()

    def bug_report(self, trace: str) -> str:
        """Version, platform, the traceback, and the campaign as saved (the store's export: the whole log)."""
        files, campaign = self.window.campaigns, self.window.game.campaign
        try:
            text = export_json(files.store) if files.store is not None else campaign.model_dump_json(indent=1)
        except Exception as exc:
            text = f"(the campaign could not be exported: {exc})"
        return crashlog.bug_report(__version__, toolkit_versions(), trace, text)

    # ------------------------------------------------------------------ after an unclean exit
    def offer_recovery(self) -> bool:
        """Tell the player the last run did not end cleanly and offer its campaign; False if it did end cleanly.

        The box opens without blocking; its buttons reopen the campaign (the store up to its last
        committed action), open a JSON backup as a new store, or start a new campaign.
        """
        if not self.previous_runs:
            return False
        runs = self.previous_runs
        run = next((r for r in runs if r.campaign is not None), runs[0])  # the newest run that had a campaign open
        good = crashlog.last_good_state(run.campaign) if run.campaign is not None and run.campaign.exists() else None
        box = QMessageBox(QMessageBox.Icon.Warning, "d100gui did not close properly", _told(run), parent=self.window)
        box.setObjectName("recoveryBox")
        box.setInformativeText(_offer_text(run, good))
        self.recovery_buttons = {}
        files = self.window.campaigns
        first: list[QPushButton] = []
        if good is not None and not good.problem:
            first += self._offer(
                box, "&Reopen it", QMessageBox.ButtonRole.AcceptRole, lambda: self.window.open_campaign(good.path)
            )
        for backup in (good.backups if good is not None else [])[:3]:
            first += self._offer(
                box, f"Open backup {backup.name}", QMessageBox.ButtonRole.ActionRole, _opener(files, backup, good)
            )
        first += self._offer(box, "Start a &new campaign", QMessageBox.ButtonRole.RejectRole, files.new_campaign)
        box.setDefaultButton(first[0])
        box.setEscapeButton(first[0])  # Escape keeps the newest good state, never throws it away
        box.buttonClicked.connect(lambda button: self._chosen(button, runs))
        self.recovery_box = box
        box.open()
        return True

    def _offer(self, box: QMessageBox, text: str, role: QMessageBox.ButtonRole, do: Callable[[], object]) -> list[QPushButton]:
        button = box.addButton(text, role)
        self.recovery_buttons[button] = do
        return [button]

    def _chosen(self, button: QAbstractButton, runs: list[RunMarker]) -> None:
        crashlog.dismiss(runs)
        self.previous_runs = []
        do = self.recovery_buttons.get(button)
        if do is not None:
            do()


def _last_line(trace: str) -> str:
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "An unknown error."


def _opener(files: Any, backup: Path, good: LastGood | None) -> Callable[[], object]:
    return lambda: files.open_backup(backup, good.path if good is not None else backup)


def _when(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%d %b %Y at %H:%M")
    except ValueError:
        return "at an unknown time"


def _told(run: RunMarker) -> str:
    return f"d100gui did not close properly last time (the run started {_when(run.started)}): it crashed or was stopped."


def _offer_text(run: RunMarker, good: LastGood | None) -> str:
    """What is left of the campaign that was open, in words: the newest good state first."""
    if run.campaign is None:
        return "No campaign had been saved in that run, so nothing was lost. You can start where you like."
    if good is None:
        return f"The campaign it had open, {run.campaign}, is no longer there."
    if good.problem:
        backups = " You can open a backup of it instead." if good.backups else ""
        return f"The campaign it had open, {good.path.name}, cannot be opened: {good.problem}.{backups}"
    who = good.title[:1].upper() + good.title[1:] if good.title else "The campaign you were playing"
    said = good.last_action if len(good.last_action) <= LAST_ACTION_CHARS else good.last_action[: LAST_ACTION_CHARS - 1] + "…"
    last = f' The last one ({_when(good.at)}): "{said}".' if said else ""
    older = " Older copies (backups) are offered too." if good.backups else ""
    return (
        f"{who} is saved up to its last completed action, action {good.actions}.{last}"
        f" Only an action in progress at the crash can be missing.{older}"
    )
