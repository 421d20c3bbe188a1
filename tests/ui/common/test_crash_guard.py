"""Crash safety in the window: an unhandled error from a real action, the log file, the offer after a crash."""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import threading
import time

import pytest
from PySide6.QtCore import Qt, qWarning
from PySide6.QtGui import QGuiApplication

from d100gui import __version__
from d100gui.engine.dice_commands import RollDice
from d100gui.storage import crashlog
from d100gui.storage.campaigns import campaigns_dir, save_campaign
from d100gui.storage.paths import user_data_dir, user_log_dir
from d100gui.storage.store import export_json
from d100gui.ui.common.crash import CrashGuard
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot, bundled_library):
    from d100gui.storage.packs import load_library

    win = MainWindow(load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    yield win
    win.campaigns.close()


@pytest.fixture
def guarded(window):
    """The guard installed in the test's body: pytest-qt puts its own excepthook in place for each test
    phase, so a guard installed here (the call phase) takes it over and gives it back at the end."""
    guards = []

    def install():
        guards.append(CrashGuard(window).install())
        return guards[-1]

    yield install
    for guard in guards:
        guard.uninstall()


def _half_applied_then_fails(self, ctx):
    ctx.campaign.meta.notes.append("half of an action")  # changed, then the command fails
    raise RuntimeError("boom in the middle of a roll")


def test_an_exception_from_a_menu_action_shows_the_dialog_logs_it_and_saves_nothing(
    window, guarded, monkeypatch, qtbot, _fresh_home
):
    window.roll_d100_action.trigger()  # Dice > Roll d100: the campaign gets its store
    store = window.campaigns.store
    assert store is not None
    saved, in_memory = export_json(store), window.game.campaign.model_dump_json()
    guard = guarded()
    monkeypatch.setattr(RollDice, "apply", _half_applied_then_fails)

    window.roll_d100_action.trigger()

    dialog = guard.dialog
    assert dialog is not None and dialog.isVisible()
    assert "RuntimeError: boom in the middle of a roll" in dialog.traces()
    assert str(user_log_dir()) in dialog.where.text()
    assert user_log_dir() == _fresh_home / "logs", "the test's home, never the player's log folder"
    logged = (user_log_dir() / crashlog.LOG_NAME).read_text(encoding="utf-8")
    assert "Unhandled exception" in logged and "boom in the middle of a roll" in logged
    assert export_json(store) == saved, "nothing of the failed action reached the store"
    assert window.game.campaign.model_dump_json() == in_memory, "the engine put the campaign back"

    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    report = QGuiApplication.clipboard().text()
    assert f"d100gui: {__version__}" in report and platform.platform() in report
    assert "RuntimeError: boom in the middle of a roll" in report
    exported = json.loads(report.split("## The campaign (JSON with its log", 1)[1].split("\n\n", 1)[1])
    assert exported["meta"]["id"] == window.game.campaign.meta.id
    assert len(exported["log"]) == 1, "the campaign as saved: its one completed roll, with the log"

    window.roll_d100_action.trigger()  # a second error joins the open dialog
    assert guard.dialog is dialog and dialog.errors == 2
    qtbot.mouseClick(dialog.continue_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_an_exception_in_another_thread_is_shown_in_the_window_and_logged(window, guarded, qtbot):
    guard = guarded()

    def fail():
        raise ValueError("a worker failed")

    worker = threading.Thread(target=fail, name="worker")
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: guard.dialog is not None and guard.dialog.isVisible())
    assert "in the thread worker" in guard.dialog.traces()
    assert "a worker failed" in (user_log_dir() / crashlog.LOG_NAME).read_text(encoding="utf-8")


@pytest.mark.qt_log_ignore("a Qt warning for the log")
def test_qt_warnings_go_to_the_log_and_on_to_the_previous_handler(window, guarded):
    guarded()
    qWarning("a Qt warning for the log")
    assert "WARNING d100gui: Qt: a Qt warning for the log" in (user_log_dir() / crashlog.LOG_NAME).read_text(encoding="utf-8")


def test_uninstall_gives_the_hooks_back_and_a_clean_exit_leaves_no_marker(window):
    before = sys.excepthook, threading.excepthook
    guard = CrashGuard(window).install()
    marker = guard.marker.path
    assert sys.excepthook != before[0] and marker.exists()
    guard.uninstall()
    assert (sys.excepthook, threading.excepthook) == before
    assert not marker.exists()
    again = CrashGuard(window).install()
    try:
        assert again.previous_runs == [] and again.offer_recovery() is False
    finally:
        again.uninstall()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_the_log_file_is_bounded():
    handler = crashlog.start_log_file()
    try:
        for i in range(3000):
            crashlog.log.error("line %d %s", i, "x" * 1000)
    finally:
        crashlog.stop_log_file(handler)
    files = sorted(user_log_dir().glob(crashlog.LOG_NAME + "*"))
    assert len(files) == crashlog.LOG_BACKUPS + 1
    assert all(f.stat().st_size <= crashlog.LOG_BYTES + 2000 for f in files)


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _marker(campaign, pid=None):
    pid = pid or _dead_pid()
    path = user_data_dir() / f"{crashlog.MARKER_PREFIX}{pid}.json"
    path.write_text(json.dumps({"pid": pid, "started": "2026-01-02T03:04:05+00:00", "version": "0.0.1", "campaign": campaign}))
    return path


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_after_a_real_kill_the_next_start_offers_the_last_committed_action(window, guarded, qtbot, _fresh_home):
    """The real app (``python -m d100gui --new --roll d100.A``) is killed once its roll is saved."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(_fresh_home)}
    child = subprocess.Popen([sys.executable, "-m", "d100gui", "--new", "--seed", "4", "--roll", "d100.A"], env=env)
    marker = user_data_dir() / f"{crashlog.MARKER_PREFIX}{child.pid}.json"
    try:
        deadline = time.monotonic() + 60
        while not (marker.exists() and json.loads(marker.read_text(encoding="utf-8") or "{}").get("campaign")):
            assert child.poll() is None and time.monotonic() < deadline, "the app did not start and save its roll"
            time.sleep(0.05)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    store_path = json.loads(marker.read_text(encoding="utf-8"))["campaign"]

    guard = guarded()
    assert [run.campaign.name for run in guard.previous_runs] == [os.path.basename(store_path)]
    assert guard.offer_recovery() is True
    box = guard.recovery_box
    assert "did not close properly" in box.text()
    assert "saved up to its last completed action, action 1" in box.informativeText()
    assert os.path.basename(store_path).removesuffix(".d100") not in box.informativeText(), "no file named by a hex id"
    [reopen] = [b for b in guard.recovery_buttons if b.text() == "&Reopen it"]
    qtbot.mouseClick(reopen, Qt.MouseButton.LeftButton)
    assert str(window.campaigns.path) == store_path
    assert window.game.campaign.log_length == 1 and window.game.campaign.dice_history
    assert not marker.exists(), "told once: the left-behind marker is gone"
    assert json.loads(guard.marker.path.read_text(encoding="utf-8"))["campaign"] == store_path


def test_a_json_backup_beside_the_store_is_offered_and_opens_as_a_new_store(window, guarded, qtbot):
    window.roll_d100_action.trigger()
    original = campaigns_dir() / "harry.d100.json"
    save_campaign(window.game.campaign, original)
    window.campaigns.close()
    assert window.open_campaign(original)  # converted to harry.d100, the JSON kept beside it
    window.roll_d100_action.trigger()
    store_path = window.campaigns.path
    window.campaigns.close()
    _marker(str(store_path))

    guard = guarded()
    assert guard.offer_recovery()
    told = guard.recovery_box.informativeText()
    assert "The campaign harry is saved" in told and "action 2" in told and "backups" in told
    [backup] = [b for b in guard.recovery_buttons if b.text() == "Open backup harry.d100.json"]
    qtbot.mouseClick(backup, Qt.MouseButton.LeftButton)
    assert window.campaigns.path.name == "harry-restored.d100"
    assert window.game.campaign.log_length == 1


def test_escape_keeps_the_newest_good_state(window, guarded, qtbot):
    window.roll_d100_action.trigger()
    store_path = window.campaigns.path
    window.campaigns.new_campaign()
    _marker(str(store_path))
    guard = guarded()
    guard.offer_recovery()
    qtbot.keyClick(guard.recovery_box, Qt.Key.Key_Escape)
    assert window.campaigns.path == store_path


def test_a_run_without_a_campaign_says_nothing_was_lost_and_a_live_one_is_not_a_crash(window, guarded):
    _marker(None)
    _marker(None, pid=os.getppid())  # another copy of the app, still running
    damaged = user_data_dir() / f"{crashlog.MARKER_PREFIX}{_dead_pid()}.json"
    damaged.write_text("{not json")  # damaged: still a run that did not end cleanly
    guard = guarded()
    assert len(guard.previous_runs) == 2
    assert damaged in [run.path for run in guard.previous_runs]
    guard.offer_recovery()
    assert "nothing was lost" in guard.recovery_box.informativeText()
    assert [b.text() for b in guard.recovery_buttons] == ["Start a &new campaign"]


def test_the_offer_names_the_newest_run_that_had_a_campaign_open(window, guarded):
    window.roll_d100_action.trigger()
    store_path = window.campaigns.path
    window.campaigns.close()
    _marker(str(store_path))
    newer = user_data_dir() / f"{crashlog.MARKER_PREFIX}{_dead_pid()}.json"  # stopped while the offer was open
    newer.write_text(json.dumps({"pid": 0, "started": "2099-01-01T00:00:00+00:00", "version": __version__, "campaign": None}))
    guard = guarded()
    assert guard.previous_runs[0].path == newer
    guard.offer_recovery()
    assert "saved up to its last completed action, action 1" in guard.recovery_box.informativeText()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_polite_stop_sigterm_quits_cleanly_so_the_next_start_offers_nothing(_fresh_home):
    """The real app asked to stop (a logout, ``kill``): it closes its store and removes its marker."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(_fresh_home)}
    env["PYTHONFAULTHANDLER"] = "1"
    child = subprocess.Popen([sys.executable, "-m", "d100gui", "--new", "--roll", "d100.A"], env=env, stderr=subprocess.PIPE)
    marker = user_data_dir() / f"{crashlog.MARKER_PREFIX}{child.pid}.json"
    deadline = time.monotonic() + 60
    while not (marker.exists() and json.loads(marker.read_text(encoding="utf-8") or "{}").get("campaign")):
        assert child.poll() is None and time.monotonic() < deadline, "the app did not start and save its roll"
        time.sleep(0.05)
    child.send_signal(signal.SIGTERM)
    _, said = child.communicate(timeout=30)
    assert child.returncode == 0, said.decode(errors="replace")
    assert not marker.exists() and crashlog.left_behind() == []
    [store] = campaigns_dir().glob("*.d100*")
    assert store.suffix == ".d100", "closed cleanly: no -wal left beside it"


def test_an_error_inside_a_modal_dialog_opens_the_crash_dialog_above_it(window, guarded, qtbot):
    from PySide6.QtWidgets import QDialog, QPushButton, QVBoxLayout

    guard = guarded()
    wizard = QDialog(window)
    button = QPushButton("Next", wizard)
    QVBoxLayout(wizard).addWidget(button)
    button.clicked.connect(lambda: 1 / 0)
    wizard.setModal(True)
    wizard.show()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert guard.dialog is not None and guard.dialog.isVisible()
    assert guard.dialog.parent() is wizard, "parented to the modal dialog, so it takes input"
    assert "ZeroDivisionError" in guard.dialog.summary.text()


def test_the_start_after_a_crash_offers_instead_of_reopening_silently(window, guarded):
    """app.py's start: with a run left behind, the offer replaces the quiet reopen of the last campaign."""
    from d100gui.app import _open_asked, build_parser

    window.roll_d100_action.trigger()
    store_path = window.campaigns.path
    window.campaigns.new_campaign()  # as at a fresh start: a blank campaign until one is opened
    _marker(str(store_path))
    guard = guarded()
    assert _open_asked(window, window.prefs, build_parser().parse_args([]), guard) == 0
    assert guard.recovery_box is not None and guard.recovery_box.isVisible()
    assert window.campaigns.path is None, "nothing reopened behind the player's back"
    guard.recovery_box.close()


def test_without_a_log_folder_the_app_still_starts_and_shows_errors(window, guarded, _fresh_home, capsys):
    (_fresh_home / "logs").write_text("a file where the log folder should be")
    guard = guarded()
    assert "no log file" in capsys.readouterr().err
    sys.excepthook(ValueError, ValueError("shown anyway"), None)
    assert guard.dialog is not None and "ValueError: shown anyway" in guard.dialog.summary.text()
    assert "There is no log file" in guard.dialog.where.text()
    window.about_action.trigger()  # Help > About says so too, instead of failing
    assert "cannot be made" in window.about_dialog.values["Log files"].text()
