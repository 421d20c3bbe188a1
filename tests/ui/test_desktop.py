"""The app as a desktop citizen: one instance (hand-over over a local socket), files dropped on the window,
files given from outside opened by what they are, and campaigns named by their hero and dungeon."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QDir, QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtNetwork import QLocalServer
from PySide6.QtWidgets import QApplication

from d100gui.engine.campaign import Campaign
from d100gui.engine.dungeon.map import Dungeon, DungeonBook
from d100gui.engine.hero.model import new_character
from d100gui.storage import packs
from d100gui.storage.campaigns import SUFFIX, campaigns_dir, save_campaign
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_pack_files, bundled_rules, standard_tileset_path
from d100gui.storage.store import STORE_SUFFIX, CampaignStore
from d100gui.ui import desktop
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]


def new_window(qtbot) -> MainWindow:
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=5)
    qtbot.addWidget(win)
    return win


def hero_campaign(name: str = "Aria", dungeon: str = "The Old Mine") -> Campaign:
    hero = new_character(bundled_rules())
    hero.creation = None
    hero.name = name
    book = DungeonBook(dungeons=[Dungeon(id="dungeon-1", name=dungeon)])
    return Campaign(character=hero, dungeons=book)


def stored_campaign(folder: Path, name: str = "Aria", dungeon: str = "The Old Mine") -> Path:
    """A campaign store named, as the app names them, after the campaign's id (a hex string)."""
    campaign = hero_campaign(name, dungeon)
    path = folder / f"{campaign.meta.id}{STORE_SUFFIX}"
    CampaignStore.create(path, campaign).close()
    return path


def ask(qtbot, work):
    """Run ``work`` (a client) and return its result as {"value": ...} or {"error": ...}: the client waits in
    its own event loop, so the server in this process is served meanwhile (two peers, one process)."""
    try:
        return {"value": work()}
    except Exception as exc:
        return {"error": exc}


# --------------------------------------------------------------------------- one instance


def test_the_server_name_is_the_app_id_and_differs_per_player_folder(tmp_path):
    one, other = desktop.server_name(tmp_path / "a", env={}), desktop.server_name(tmp_path / "b", env={})
    assert one.startswith("io.github.d100gui.d100gui-") and other.startswith("io.github.d100gui.d100gui-")
    assert one != other and desktop.server_name(tmp_path / "a", env={}) == one


@pytest.mark.skipif(sys.platform == "win32", reason="a named pipe on Windows")
def test_the_socket_lives_beside_an_overridden_home_else_in_the_runtime_folder(tmp_path):
    home, runtime = tmp_path / "h", tmp_path / "r"
    home.mkdir()
    runtime.mkdir()
    bare = desktop.server_name(tmp_path / "data", env={})
    assert desktop.server_name(tmp_path / "data", env={"D100GUI_HOME": str(home)}) == str(home / "d100gui-instance")
    with tempfile.TemporaryDirectory() as short:  # like /run/user/1000 (tmp_path is too long a path for a socket)
        assert desktop.server_name(tmp_path / "data", env={"XDG_RUNTIME_DIR": short}) == str(Path(short) / bare)
    assert desktop.server_name(tmp_path / "data", env={"XDG_RUNTIME_DIR": str(runtime / ("y" * 90))}) == bare  # not there
    deep = tmp_path / ("x" * 120)
    deep.mkdir()
    assert desktop.server_name(tmp_path / "data", env={"D100GUI_HOME": str(deep)}) == bare  # too long a path


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_second_start_hands_its_file_to_the_first(qtbot, tmp_path):
    name = desktop.server_name(tmp_path)
    first = desktop.InstanceServer(name)
    assert first.listen()
    taken: list[desktop.Request] = []
    first.set_handler(taken.append)
    try:
        request = desktop.request_from("campaign.d100", cwd=tmp_path)
        done = ask(qtbot, lambda: desktop.hand_over(name, request))
        assert done == {"value": True}
        assert taken == [desktop.Request(file=str(tmp_path / "campaign.d100"))]  # made absolute: the folders differ
    finally:
        first.close()
    assert ask(qtbot, lambda: desktop.hand_over(name, desktop.Request())) == {"value": False}  # nobody listens


def test_requests_before_the_window_is_ready_wait_for_it(qtbot, tmp_path):
    name = desktop.server_name(tmp_path)
    first = desktop.InstanceServer(name)
    assert first.listen()
    try:
        assert ask(qtbot, lambda: desktop.hand_over(name, desktop.Request(new=True))) == {"value": True}
        taken: list[desktop.Request] = []
        first.set_handler(taken.append)
        assert taken == [desktop.Request(new=True)]
    finally:
        first.close()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_running_instance_that_does_not_answer_is_named(qtbot, tmp_path):
    name = desktop.server_name(tmp_path)
    mute = QLocalServer()  # takes the connection, never answers (a window stuck in a dialog)
    assert mute.listen(name)
    try:
        done = ask(qtbot, lambda: desktop.hand_over(name, desktop.Request(), timeout_ms=300))
    finally:
        mute.close()
    assert isinstance(done.get("error"), desktop.HandOverFailed)
    assert "did not answer within 0.3 s" in str(done["error"])


def test_a_garbled_request_is_refused_and_the_sender_told(qtbot, tmp_path):
    name = desktop.server_name(tmp_path)
    first = desktop.InstanceServer(name)
    assert first.listen()
    first.set_handler(lambda request: pytest.fail(f"a garbled request was taken: {request}"))

    class Garbled(desktop.Request):
        def encode(self) -> bytes:
            return b'["not", "a request"]\n'

    try:
        done = ask(qtbot, lambda: desktop.hand_over(name, Garbled()))
    finally:
        first.close()
    assert "refused the request: not a d100gui request" in str(done.get("error"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a socket file in the temp folder: Unix")
def test_a_socket_file_left_by_a_crash_is_replaced(tmp_path):
    name = desktop.server_name(tmp_path, env={})
    stale = Path(QDir.tempPath()) / name
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(stale))  # bound, never listening, closed without removing the file: what a killed app leaves
    dead.close()
    assert stale.exists()
    first = desktop.InstanceServer(name)
    try:
        assert first.listen(), first.server.errorString()
    finally:
        first.close()


# --------------------------------------------------------------------------- documents from outside


def test_files_from_outside_are_told_apart_by_what_they_hold(tmp_path):
    store = stored_campaign(tmp_path)
    exported = tmp_path / f"aria{SUFFIX}"
    save_campaign(hero_campaign(), exported)
    plain_json = tmp_path / "export.json"
    plain_json.write_text(exported.read_text(encoding="utf-8"), encoding="utf-8")
    other = tmp_path / "notes.json"
    other.write_text(json.dumps({"shopping": ["bread"]}), encoding="utf-8")
    assert desktop.kind_of(store) == "campaign"
    assert desktop.kind_of(exported) == desktop.kind_of(plain_json) == "campaign_json"
    assert desktop.kind_of(bundled_pack_files()[0]) == "pack"
    assert desktop.kind_of(standard_tileset_path()) == "tileset"
    assert desktop.kind_of(other) == ""
    assert desktop.kind_of(tmp_path / "picture.png") == ""


def drag_files(widget, paths: list[Path], text: str = "") -> tuple[QDragEnterEvent, QDropEvent]:
    """A drag of ``paths`` entering ``widget``, and its drop, sent as Qt sends them."""
    data = QMimeData()
    if paths:
        data.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    if text:
        data.setText(text)
    at = widget.rect().center()
    enter = QDragEnterEvent(at, Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    drop = QDropEvent(QPointF(at), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    drop._data = data  # type: ignore[attr-defined]  # keeps the mime data alive while the event is in use
    return enter, drop


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_campaign_dropped_on_the_map_opens(qtbot, tmp_path):
    path = stored_campaign(tmp_path)
    win = new_window(qtbot)
    desktop.install(win, None)  # what app.py does for the window
    target = win.map_area.view.viewport()  # the widget under the pointer in the middle of the window
    enter, drop = drag_files(target, [path])
    assert enter.isAccepted()
    QApplication.sendEvent(target, drop)
    assert drop.isAccepted()
    qtbot.waitUntil(lambda: win.campaign_path == path)
    assert win.game.campaign.character is not None and win.game.campaign.character.name == "Aria"
    assert "Opened Aria — The Old Mine." in win.statusBar().currentMessage()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_table_pack_dropped_on_the_window_is_imported_and_other_files_are_not_taken(qtbot, tmp_path):
    win = new_window(qtbot)
    desktop.install(win, None)
    enter, _drop = drag_files(win, [tmp_path / "picture.png"], text="just text")
    assert not enter.isAccepted()  # not ours: the drag goes on as without the app's filter
    pack = json.loads(bundled_pack_files()[0].read_text(encoding="utf-8"))
    mine = tmp_path / "my-tables.json"
    pack["id"] = "my-tables"
    mine.write_text(json.dumps(pack), encoding="utf-8")
    enter, drop = drag_files(win, [mine])
    assert enter.isAccepted()
    QApplication.sendEvent(win, drop)
    qtbot.waitUntil(lambda: "Imported" in win.statusBar().currentMessage() or "not" in win.statusBar().currentMessage())
    assert f"from {mine}" in win.statusBar().currentMessage()


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.qt_log_ignore("This plugin does not support raise")  # offscreen has no window stack
def test_a_request_from_a_later_start_raises_the_window_and_opens_the_file(qtbot, tmp_path):
    path = stored_campaign(tmp_path, "Bram", "Dungeon 2")
    win = new_window(qtbot)
    win.show()
    win.showMinimized()
    name = desktop.server_name(tmp_path)
    server = desktop.InstanceServer(name)
    assert server.listen()
    desktop.install(win, server)
    done = ask(qtbot, lambda: desktop.hand_over(name, desktop.request_from(str(path))))
    assert done == {"value": True}
    qtbot.waitUntil(lambda: win.campaign_path == path)
    assert not win.isMinimized()
    assert win.windowTitle() == "Bram — Dungeon 2 — d100gui"
    server.close()


# --------------------------------------------------------------------------- names


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_open_recent_and_the_campaign_list_name_the_hero_and_the_dungeon(qtbot):
    first = stored_campaign(campaigns_dir(), "Aria", "The Old Mine")
    second = stored_campaign(campaigns_dir(), "Bram", "Dungeon 2")
    prefs = Preferences()
    prefs.add_recent(first)
    prefs.add_recent(second)
    win = new_window(qtbot)
    assert win.open_campaign(second)  # in play: its store is locked, its name read from memory
    win.menus.recent.aboutToShow.emit()  # File > Open Recent
    labels = [action.text() for action in win.menus.recent.actions()]
    assert labels == ["Bram — Dungeon 2", "Aria — The Old Mine"]
    assert not any(first.name.removesuffix(STORE_SUFFIX)[:8] in label for label in labels)
    win.menus.recent.actions()[1].trigger()
    assert win.campaign_path == first
    win.campaigns_action.trigger()  # File > Campaigns
    table = win.campaigns.list_dialog.table
    rows = {(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())}
    assert rows == {("Aria", "The Old Mine"), ("Bram", "Dungeon 2")}
    assert {table.item(r, 0).toolTip() for r in range(table.rowCount())} == {str(first), str(second)}


def test_a_recent_file_that_is_damaged_or_has_no_hero_still_has_a_line(qtbot, tmp_path):
    gone = tmp_path / f"{'ab' * 8}{STORE_SUFFIX}"
    gone.write_bytes(b"not a database at all")
    empty = tmp_path / f"empty{STORE_SUFFIX}"
    CampaignStore.create(empty, Campaign()).close()
    prefs = Preferences()
    prefs.add_recent(gone)
    prefs.add_recent(empty)
    win = new_window(qtbot)
    win.menus.recent.aboutToShow.emit()
    labels = [action.text() for action in win.menus.recent.actions()]
    assert labels[0].startswith("New campaign")
    assert labels[1] == f"{gone.name} (unreadable)"


# --------------------------------------------------------------------------- two real processes


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "D100GUI_HOME": str(home)}


def _settings_name(home: Path, path: Path, deadline: float) -> bool:
    settings = home / "config" / "settings.ini"
    while time.monotonic() < deadline:
        if settings.exists() and path.name in settings.read_text(encoding="utf-8", errors="replace"):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_python_m_d100gui_file_hands_over_to_the_running_window(qapp, tmp_path):
    home = tmp_path / "home"
    campaigns = home / "data" / "campaigns"
    campaigns.mkdir(parents=True)
    path = stored_campaign(campaigns, "Cora", "Dungeon 3")
    command = [sys.executable, "-m", "d100gui"]
    first = subprocess.Popen([*command, "--new"], env=_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    name = desktop.server_name(home / "data", env={"D100GUI_HOME": str(home)})
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and first.poll() is None and not desktop.someone_listens(name):
            time.sleep(0.2)
        assert first.poll() is None, first.communicate()
        second = subprocess.run([*command, str(path)], env=_env(home), capture_output=True, text=True, timeout=90, check=False)
        assert second.returncode == 0, second.stderr
        assert "running already: its window opens the file" in second.stdout
        assert _settings_name(home, path, time.monotonic() + 60), "the running window did not open the handed file"
        assert first.poll() is None  # one window, still running, now on the campaign
    finally:
        first.kill()
        first.communicate()
        QLocalServer.removeServer(name)  # the killed window's socket file


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_tile_set_dropped_on_the_window_opens_in_the_tile_editor(qtbot, tmp_path):
    tiles = json.loads(standard_tileset_path().read_text(encoding="utf-8"))
    tiles["id"], tiles["title"] = "my-sheet", "My printed sheet"
    mine = tmp_path / "my-sheet.json"
    mine.write_text(json.dumps(tiles), encoding="utf-8")
    win = new_window(qtbot)
    desktop.install(win, None)
    enter, drop = drag_files(win, [mine])
    assert enter.isAccepted()
    QApplication.sendEvent(win, drop)
    qtbot.waitUntil(lambda: win.map_actions.tile_editor is not None)
    editor = win.map_actions.tile_editor
    qtbot.waitUntil(lambda: "Imported" in editor.status.text() or "Not imported" in editor.status.text())
    assert "Imported “My printed sheet”" in editor.status.text()
    editor.close()


# --------------------------------------------------------------------------- Qt's translations, native crashes


def test_qt_standard_buttons_speak_the_players_language(qapp):
    from PySide6.QtCore import QCoreApplication, QLocale

    from d100gui.app import load_qt_translations

    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
    translator = load_qt_translations(qapp, QLocale(QLocale.Language.German, QLocale.Country.Germany))
    try:
        assert translator is not None
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Abbrechen"
    finally:
        qapp.removeTranslator(translator)
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_a_native_crash_leaves_its_stack_in_the_log_folder(tmp_path):
    code = (
        "import faulthandler; from d100gui.app import enable_native_crash_log; enable_native_crash_log(); faulthandler._sigsegv()"
    )
    env = {**os.environ, "D100GUI_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-X", "faulthandler=0", "-c", code], env=env, capture_output=True, timeout=60)
    assert done.returncode != 0  # it did crash
    log = (tmp_path / "logs" / "native-crash.log").read_text(encoding="utf-8")
    assert "Fatal Python error: Segmentation fault" in log and "line 1" in log
