"""The window saves through the campaign store: each action in its own transaction, failures told
and retried, one store per campaign (closed on switch and quit), Export / Import JSON, the list of
both kinds, and a start-up a broken last campaign cannot block."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from d100gui.engine.dice.dice import ScriptedSource
from d100gui.storage import packs
from d100gui.storage.campaigns import SUFFIX, campaigns_dir, load_campaign, save_campaign
from d100gui.storage.paths import user_data_dir
from d100gui.storage.store import STORE_SUFFIX, CampaignStore, StoreFull
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui


def new_window(qtbot) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(win)
    return win


def roll(qtbot, win: MainWindow) -> None:
    qtbot.mouseClick(win.dice_panel.d6_button, Qt.MouseButton.LeftButton)


def wal(path):
    return path.with_name(path.name + "-wal")


def test_each_action_undo_and_redo_is_in_the_store(qtbot):
    win = new_window(qtbot)
    roll(qtbot, win)
    roll(qtbot, win)
    store = win.campaigns.store
    assert store is not None and store.path == win.campaign_path
    assert store.log_length == 2 and len(store.load().dice_history) == 2
    win.undo_action.trigger()
    assert store.log_length == 1
    win.redo_action.trigger()
    assert store.log_length == 2
    win.quit_action.trigger()  # File > Quit closes the store: one file at rest
    assert win.campaigns.store is None and not wal(win.campaign_path).exists()
    with CampaignStore.open(win.campaign_path) as again:
        assert again.log_length == 2


@pytest.mark.parametrize("failure", [StoreFull, sqlite3.OperationalError, OSError])
def test_a_failed_save_is_told_and_saved_with_the_next_action(qtbot, monkeypatch, failure):
    win = new_window(qtbot)
    roll(qtbot, win)
    store = win.campaigns.store
    real_write = CampaignStore._write  # the store's own write: its queue (CampaignStore.unsaved) keeps what fails
    fail = [True]

    def flaky(self, change):
        if fail[0]:
            raise failure(win.campaign_path, "the disk is full") if failure is StoreFull else failure("disk is full")
        return real_write(self, change)

    monkeypatch.setattr(CampaignStore, "_write", flaky)
    roll(qtbot, win)
    assert "Could not save" in win.statusBar().currentMessage()
    assert win.campaigns.save_box is not None and "kept" in win.campaigns.save_box.text()
    box = win.campaigns.save_box
    roll(qtbot, win)  # still failing: told again, the dialog only once
    assert win.campaigns.save_box is box and len(win.campaigns.unsaved) == 2
    fail[0] = False
    roll(qtbot, win)
    assert win.campaigns.unsaved == [] and win.campaigns.save_problem == ""
    assert store.log_length == 4
    assert [h.roll.natural for h in store.load().dice_history] == [h.roll.natural for h in win.game.campaign.dice_history]


def test_a_new_campaign_in_a_blocked_folder_is_told_and_saved_once_it_can_be(qtbot):
    folder = campaigns_dir()
    folder.rmdir()
    folder.write_text("a file where the folder should be", encoding="utf-8")
    win = new_window(qtbot)
    roll(qtbot, win)
    assert win.campaigns.store is None and "Could not save" in win.statusBar().currentMessage()
    folder.unlink()
    roll(qtbot, win)
    assert win.campaigns.store is not None and win.campaigns.store.log_length == 2


def test_switching_campaigns_closes_the_old_store(qtbot):
    win = new_window(qtbot)
    roll(qtbot, win)
    first = win.campaign_path
    win.new_action.trigger()
    assert not wal(first).exists()
    with CampaignStore.open(first) as store:  # not locked any more
        assert store.log_length == 1
    assert win.open_campaign(first) and win.campaigns.store.log_length == 1


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_open_converts_an_older_json_campaign_and_keeps_it(qtbot, tmp_path, monkeypatch):
    win = new_window(qtbot)
    win.game.override = ScriptedSource([4])
    roll(qtbot, win)
    old = tmp_path / f"old{SUFFIX}"
    save_campaign(win.game.campaign, old)
    before = old.read_bytes()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(old), "")))
    other = new_window(qtbot)
    other.open_action.trigger()
    assert other.campaign_path == tmp_path / f"old{STORE_SUFFIX}"
    assert old.read_bytes() == before
    assert other.game.campaign.dice_history[0].roll.natural == 4
    assert "converted" in other.statusBar().currentMessage()
    roll(qtbot, other)
    assert other.campaigns.store.log_length == 2


def test_export_and_import_campaign_from_the_file_menu(qtbot, tmp_path, monkeypatch):
    exported = tmp_path / f"portable{SUFFIX}"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(tmp_path / "portable"), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(exported), "")))
    win = new_window(qtbot)
    for _ in range(3):
        roll(qtbot, win)
    win.export_campaign_action.trigger()
    whole = load_campaign(exported)
    assert len(whole.log) == 3 and whole.dice_history == win.game.campaign.dice_history
    assert "Exported" in win.statusBar().currentMessage()
    win.import_campaign_action.trigger()
    assert win.campaign_path.parent == campaigns_dir() and win.campaign_path.name.endswith(STORE_SUFFIX)
    assert win.campaigns.store.log_length == 3
    assert win.game.campaign.dice_history == whole.dice_history
    assert win.dice_panel.history.count() == 3


def test_import_refuses_a_bad_file_untouched(qtbot, tmp_path, monkeypatch):
    bad = tmp_path / f"bad{SUFFIX}"
    bad.write_text(json.dumps({"schema_version": 2, "rng_state": ["garbage"]}), encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(bad), "")))
    win = new_window(qtbot)
    win.import_campaign_action.trigger()
    assert win.last_message_box is not None and "has not been changed" in win.last_message_box.text()
    assert win.campaign_path is None and not list(campaigns_dir().glob(f"*{STORE_SUFFIX}"))


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_list_and_open_recent_show_stores_and_json_files(qtbot):
    win = new_window(qtbot)
    roll(qtbot, win)
    save_campaign(win.game.campaign.model_copy(update={"log": []}), campaigns_dir() / f"older{SUFFIX}")
    win.campaigns_action.trigger()
    first = win.campaign_path
    table = win.campaigns.list_dialog.table
    files = {Path(table.item(r, 0).toolTip()).name for r in range(table.rowCount())}
    assert files == {win.campaign_path.name, f"older{SUFFIX}"}
    win.open_campaign(campaigns_dir() / f"older{SUFFIX}")
    win.menus.recent.aboutToShow.emit()
    labels = [a.text() for a in win.menus.recent.actions()]
    assert win.campaign_path == campaigns_dir() / f"older{STORE_SUFFIX}"  # converted beside the JSON
    assert len(labels) == 2 and all(label.startswith("New campaign, ") for label in labels)  # no hero: when played
    assert sorted(Path(a.toolTip()) for a in win.menus.recent.actions()) == sorted([win.campaign_path, first])


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_start_up_with_a_corrupt_last_campaign_starts_new_and_says_why(tmp_path):
    broken = campaigns_dir() / f"broken{STORE_SUFFIX}"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    damaged = broken.read_bytes()
    prefs = Preferences()
    prefs.add_recent(broken)
    prefs.sync()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "d100gui", "--quit-when-idle"], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "The last campaign was not reopened" in result.stderr and "A new campaign was started" in result.stderr
    assert broken.read_bytes() == damaged


def test_start_up_message_is_in_the_window(qtbot):
    from d100gui.app import _reopen_last

    broken = campaigns_dir() / f"broken{STORE_SUFFIX}"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("not a campaign", encoding="utf-8")
    prefs = Preferences()
    prefs.add_recent(broken)
    win = new_window(qtbot)
    _reopen_last(win, prefs, quiet=False)
    assert "A new campaign was started" in win.statusBar().currentMessage()
    assert win.campaign_path is None


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_start_up_reopens_the_last_store_and_leaves_no_wal_on_quit():
    from d100gui.engine.campaign import Campaign

    path = campaigns_dir() / f"last{STORE_SUFFIX}"
    CampaignStore.create(path, Campaign()).close()
    prefs = Preferences()
    prefs.add_recent(path)
    prefs.sync()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "d100gui", "--quit-when-idle"], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "not reopened" not in result.stderr
    assert not wal(path).exists()


def test_save_as_waits_until_the_unsaved_actions_are_saved(qtbot, tmp_path, monkeypatch):
    win = new_window(qtbot)
    roll(qtbot, win)
    first = win.campaign_path

    def full(self, change):
        raise StoreFull(first, "the disk is full")

    monkeypatch.setattr(CampaignStore, "_write", full)
    roll(qtbot, win)
    assert not win.campaigns.save_as(str(tmp_path / "copy"))
    assert win.campaign_path == first and len(win.campaigns.unsaved) == 1
    assert "not saved yet" in win.statusBar().currentMessage()


# ---------------------------------------------------------------- damaged stores: repair with the player's consent


def _quit_with_rolls(qtbot, rolls: int = 3):
    win = new_window(qtbot)
    for _ in range(rolls):
        roll(qtbot, win)
    path = win.campaign_path
    win.quit_action.trigger()
    return path


def _damage(path, *statements):
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            db.execute(statement)
    finally:
        db.close()


def _open_damaged(qtbot, path):
    """File > Open on a damaged store: refused whole, the file untouched, the repair offered."""
    before = path.read_bytes()
    win = new_window(qtbot)
    assert not win.open_campaign(path)
    box = win.last_message_box
    assert box is not None and win.campaigns.repair_button is not None
    assert path.read_bytes() == before
    return win, box, before


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_an_undo_history_damaged_is_offered_without_it_and_the_damaged_file_kept(qtbot):
    path = _quit_with_rolls(qtbot)
    _damage(path, "DELETE FROM journal_parts")
    win, box, before = _open_damaged(qtbot, path)
    assert "undo history is damaged" in box.text() and "without the undo history" in box.text()
    win.campaigns.repair_button.click()
    repaired = win.campaign_path
    assert repaired.name == path.name.removesuffix(STORE_SUFFIX) + "-repaired" + STORE_SUFFIX
    assert path.read_bytes() == before  # the damaged file beside it, untouched
    assert win.game.campaign.log_length == 3 and not win.game.can_undo
    assert "without its undo history" in win.statusBar().currentMessage()
    roll(qtbot, win)  # playable: saved to the repaired store
    assert win.campaigns.store.log_length == 4


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_damaged_state_is_rebuilt_from_its_log_saying_how_many_actions_are_lost(qtbot):
    path = _quit_with_rolls(qtbot, rolls=4)
    with CampaignStore.open(path) as store:
        rolls = [h.roll.natural for h in store.load().dice_history]
    _damage(
        path,
        "UPDATE parts SET json = '[\"not a random state\"]' WHERE name = 'rng_state'",
        "UPDATE log SET events = '[{\"broken\": ' WHERE idx = 2",
    )
    win, box, before = _open_damaged(qtbot, path)
    assert "up to action 2 of 4" in box.text() and "loses the last 2 actions" in box.text()
    win.campaigns.repair_button.click()
    assert path.read_bytes() == before
    assert win.campaign_path.name.endswith("-repaired" + STORE_SUFFIX)
    assert win.game.campaign.log_length == 2
    assert [h.roll.natural for h in win.game.campaign.dice_history] == rolls[:2]  # the same rolls, replayed
    assert "2 actions lost" in win.statusBar().currentMessage()


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_campaign_refused_for_its_values_opens_anyway_clamped(qtbot, tmp_path):
    from d100gui.demo import build_demo_campaign

    campaign = build_demo_campaign(packs.load_library(user_data_dir()).library)
    campaign.character.fate = 153  # what issue 27 #2 saved: a value the engine once accepted
    path = tmp_path / f"hero{STORE_SUFFIX}"
    CampaignStore.create(path, campaign).close()
    win, box, before = _open_damaged(qtbot, path)
    assert "Fate is 153" in box.text() and "Open anyway" == win.campaigns.repair_button.text()
    win.campaigns.repair_button.click()
    assert path.read_bytes() == before
    assert win.game.campaign.character.fate == 99
    assert "Fate 153 -> 99" in win.statusBar().currentMessage()


def test_closing_while_the_disk_is_full_asks_and_exports_the_unsaved_actions_elsewhere(qtbot, tmp_path, monkeypatch):
    win = new_window(qtbot)
    roll(qtbot, win)

    def full(self, change):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(CampaignStore, "_write", full)
    roll(qtbot, win)
    roll(qtbot, win)
    assert len(win.campaigns.unsaved) == 2
    elsewhere = tmp_path / "other-disk"
    elsewhere.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(elsewhere / "rescue"), "")))
    win.quit_action.trigger()
    box = win.campaigns.unsaved_box
    assert box is not None and "2 actions could not be saved" in box.text()
    assert win.campaigns.store is not None  # nothing closed, nothing dropped before the answer
    keep = next(b for b in box.buttons() if b.text() == "Keep playing")
    keep.click()
    assert win.campaigns.store is not None and len(win.campaigns.unsaved) == 2
    win.quit_action.trigger()
    box = win.campaigns.unsaved_box
    next(b for b in box.buttons() if b.text().startswith("Export")).click()
    rescued = load_campaign(elsewhere / f"rescue{SUFFIX}")
    assert rescued.log_length == 3 and len(rescued.dice_history) == 3  # the unsaved actions are in the export
    assert win.campaigns.store is None  # then closed


def test_a_long_campaign_exports_compressed_and_imports_back(qtbot, tmp_path, monkeypatch):
    win = new_window(qtbot)
    roll(qtbot, win)
    target = tmp_path / f"portable{SUFFIX}.gz"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(target), "")))
    win.export_campaign_action.trigger()
    assert target.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    win.import_campaign_action.trigger()
    assert win.campaigns.store.log_length == 1 and win.campaign_path.name.endswith(STORE_SUFFIX)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_damaged_undo_step_met_in_play_is_refused_and_dropping_the_history_is_offered(qtbot):
    path = _quit_with_rolls(qtbot, rolls=3)
    _damage(
        path,
        "UPDATE journal_parts SET json = '[\"not a random state\"]' WHERE name = 'rng_state' AND step = "
        "(SELECT id FROM journal WHERE stack = 'undo' ORDER BY id DESC LIMIT 1 OFFSET 1)",
    )
    win = new_window(qtbot)
    assert win.open_campaign(path)  # the step undo reaches next is whole: it opens
    win.undo_action.trigger()
    state = win.game.campaign.model_dump_json()
    win.undo_action.trigger()  # the damaged step: refused whole, nothing changed
    assert win.game.campaign.model_dump_json() == state and win.campaigns.store.log_length == 2
    box = win.campaigns.history_box
    assert box is not None and "undo history is damaged" in box.text() and "nothing was changed" in box.text()
    next(b for b in box.buttons() if b.text() == "Drop the history").click()
    assert not win.game.can_undo and not win.game.can_redo
    copy = path.with_name(path.name.removesuffix(STORE_SUFFIX) + "-damaged" + STORE_SUFFIX)
    with CampaignStore.open(copy) as kept:  # the campaign as it was, damaged history included, kept beside it
        assert kept._db.execute("SELECT count(*) FROM journal").fetchone()[0] == 3
    roll(qtbot, win)
    win.quit_action.trigger()
    with CampaignStore.open(path) as again:
        assert again.load().log_length == 3


def test_the_wal_is_copied_into_the_file_when_the_player_pauses_not_inside_an_action(qtbot, monkeypatch):
    """SQLite's own checkpoint ran inside a commit every ~1,000 WAL pages (one action in 50 paid 5-12 ms):
    the store now leaves it to 10,000 pages and the window checkpoints once the player pauses."""
    from d100gui.storage.store import WAL_AUTOCHECKPOINT_PAGES
    from d100gui.ui.campaign_files import CHECKPOINT_IDLE_MS

    win = new_window(qtbot)
    win.campaigns.idle_checkpoint.setInterval(50)  # the pause, shortened for the test (CHECKPOINT_IDLE_MS in play)
    assert CHECKPOINT_IDLE_MS >= 500
    calls: list[bool] = []
    real = CampaignStore.checkpoint
    monkeypatch.setattr(CampaignStore, "checkpoint", lambda self: calls.append(real(self)) or calls[-1])
    roll(qtbot, win)
    roll(qtbot, win)  # a second action before the pause: one checkpoint for both
    store = win.campaigns.store
    assert store is not None and calls == []
    assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_AUTOCHECKPOINT_PAGES
    assert wal(win.campaign_path).stat().st_size > 0
    qtbot.waitUntil(lambda: calls != [], timeout=5000)
    qtbot.wait(200)
    assert calls == [True], "every page of the WAL copied, once"
    win.quit_action.trigger()
    with CampaignStore.open(win.campaign_path) as again:
        assert again.log_length == 2


def test_a_store_only_read_has_no_wal_to_checkpoint(tmp_path):
    win_path = tmp_path / "read.d100"
    from d100gui.engine.api import Session
    from d100gui.storage.resources import bundled_game_data

    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    CampaignStore.create(win_path, session.campaign, session.game).close()
    before = win_path.read_bytes()
    with CampaignStore.open(win_path) as store:
        assert store.checkpoint() is True
    assert win_path.read_bytes() == before and not wal(win_path).exists()


def _second_window_opens(path) -> str:
    """Another process opening ``path`` as a second window does: "opened", or why it was refused."""
    script = (
        "import pathlib, sys\n"
        "from d100gui.storage.store import CampaignStore, CampaignFileError\n"
        "try:\n"
        f"    CampaignStore.open(pathlib.Path({str(path)!r})).close()\n"
        "    print('opened')\n"
        "except CampaignFileError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.slow  # other processes: left out of `make check`
def test_the_campaign_list_and_the_roster_keep_the_open_campaign_locked(qtbot):
    """Reading a file's first bytes and closing the descriptor drops every POSIX lock the process holds on
    it (SQLite's lock among them): File > Campaigns and the roster, which read every campaign, let a second
    window open and write the campaign this window plays. They no longer open the file this process holds."""
    win = new_window(qtbot)
    roll(qtbot, win)
    path = win.campaign_path
    assert "open in another d100gui window" in _second_window_opens(path)
    [files] = [a.menu() for a in win.menuBar().actions() if a.text() == "&File"]
    [campaigns] = [a for a in files.actions() if a.text() == "&Campaigns..."]
    campaigns.trigger()
    assert win.campaigns.list_dialog is not None
    assert any(s.path == path for s in win.campaigns.list_dialog.summaries)
    assert "open in another d100gui window" in _second_window_opens(path)
    win.roster_action.trigger()
    qtbot.wait(300)  # the roster reads its lines off the GUI thread
    assert "open in another d100gui window" in _second_window_opens(path)
    roll(qtbot, win)
    win.quit_action.trigger()
    with CampaignStore.open(path) as again:
        assert again.log_length == 2
    assert _second_window_opens(path) == "opened", "closed, the campaign opens anywhere"
