"""The app as a desktop citizen: one instance per player, files handed over, files dropped on the window.

- **One instance.** The first start listens on a local socket (``QLocalServer``) named from the app id
  and the player's data folder (so two players, or a test's own home, never meet). A second start
  (``d100gui FILE``, a double-click in the file manager) connects, hands over what it was asked to open,
  waits for the answer and exits 0: the running window comes to the front and opens the file. Two
  windows never play one campaign. If the running one does not answer, the second start says why.
- **Documents.** :func:`open_document` is the one door for a file given from outside the menus (the
  command line, a hand-over, a drop): a campaign store opens, a campaign JSON is imported, a table
  pack or a tile set is imported, each through the same method as its menu (same checks, same refusals).
- **Drops.** :class:`DropOpener` is an event filter on the main window: a dragged file the app can open
  is accepted, and dropped it goes to :func:`open_document`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtNetwork import QAbstractSocket, QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QWidget

from d100gui import APP_ID

if TYPE_CHECKING:
    from PySide6.QtGui import QDragEnterEvent, QDropEvent

    from d100gui.ui.main_window import MainWindow

#: how long a second start waits for the running window to take its request (connecting, answering)
ANSWER_MS = 5000
#: the largest request a server reads (a file path and a few flags: far less)
MAX_REQUEST = 64 * 1024
#: what a file dropped or handed over may be, by name: a campaign store, or JSON (campaign, pack, tile set)
OPENABLE_SUFFIXES = (".d100", ".json")


#: the longest socket path used (a Unix socket's path holds at most 104-108 bytes): longer, the temp folder is used
MAX_SOCKET_PATH = 100
#: the socket's file name inside an overridden home (``D100GUI_HOME``)
HOME_SOCKET = "d100gui-instance"


def server_name(data_dir: Path | None = None, env: Mapping[str, str] | None = None) -> str:
    """The local socket's name: the app id and a hash of the player's data folder (per user, per home).

    On Unix the socket is a file: beside an overridden home (``D100GUI_HOME``: a portable install, the
    tests), else in the user's runtime folder (``XDG_RUNTIME_DIR``: private, emptied at logout), else in
    the temp folder (Qt's default for a bare name), so one a killed app leaves does not litter ``/tmp``.
    On Windows it is a named pipe: the bare name.
    """
    env = os.environ if env is None else env
    if data_dir is None:
        from d100gui.storage.paths import user_data_dir

        data_dir = user_data_dir()
    key = hashlib.sha256(str(data_dir.resolve()).encode("utf-8")).hexdigest()[:16]
    name = f"{APP_ID}-{key}"
    if sys.platform == "win32":
        return name
    home, runtime = env.get("D100GUI_HOME"), env.get("XDG_RUNTIME_DIR")
    # the home is the player's own already: a short fixed name there; the runtime folder is per user, not per home
    for folder, file in ((home, HOME_SOCKET), (runtime, name)):
        if folder and Path(folder).is_dir():
            candidate = str(Path(folder) / file)
            if len(candidate.encode("utf-8")) <= MAX_SOCKET_PATH:
                return candidate
    return name


@dataclass(frozen=True)
class Request:
    """What a second start asks of the running window: a file to open (absolute), or a new campaign."""

    file: str | None = None
    new: bool = False

    def encode(self) -> bytes:
        return json.dumps(asdict(self)).encode("utf-8") + b"\n"

    @classmethod
    def decode(cls, data: bytes) -> Request:
        """A request from its line; ``ValueError`` if it is not one."""
        value = json.loads(data.decode("utf-8"))
        if not isinstance(value, dict):
            raise ValueError("not a request")
        file, new = value.get("file"), value.get("new", False)
        if not (file is None or isinstance(file, str)) or not isinstance(new, bool):
            raise ValueError("not a request")
        return cls(file=file, new=new)


class HandOverFailed(Exception):
    """A running d100gui was found but did not take the request: the message says why."""


def hand_over(name: str, request: Request, timeout_ms: int = ANSWER_MS) -> bool:
    """Give ``request`` to the running instance listening on ``name``.

    True: it took the request (this start should exit 0). False: nobody listens (this start is the
    first). :class:`HandOverFailed`: something listens but did not answer in time or answered badly.

    It waits in a local event loop, not in blocking calls, so a server in this same process (the
    tests' two peers) is served meanwhile.
    """
    socket = QLocalSocket()
    loop = QEventLoop()
    state: dict[str, Any] = {"answer": b"", "error": None, "connected": False, "done": False}

    def finish() -> None:
        state["done"] = True
        loop.quit()

    def connected() -> None:
        state["connected"] = True
        socket.write(QByteArray(request.encode()))

    def ready() -> None:
        state["answer"] += bytes(socket.readAll().data())
        if b"\n" in state["answer"]:
            finish()

    def failed(error: QLocalSocket.LocalSocketError) -> None:
        if state["error"] is None:
            state["error"] = (error, socket.errorString())
        finish()

    socket.connected.connect(connected)
    socket.readyRead.connect(ready)
    socket.errorOccurred.connect(failed)
    socket.disconnected.connect(finish)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(finish)
    socket.connectToServer(name)
    if not state["done"]:
        timer.start(timeout_ms)
        loop.exec()
    timer.stop()
    answer: bytes = state["answer"]
    socket.abort()
    if answer.endswith(b"\n"):
        if answer.strip() != b"ok":
            raise HandOverFailed(f"the running d100gui refused the request: {answer.decode('utf-8', 'replace').strip()}")
        return True
    if not state["connected"]:
        error = state["error"]
        if error is None:
            raise HandOverFailed(f"d100gui seems to be running but did not accept a connection within {timeout_ms / 1000:g} s.")
        if error[0] in (QLocalSocket.LocalSocketError.ServerNotFoundError, QLocalSocket.LocalSocketError.ConnectionRefusedError):
            return False  # no server, or a socket file a crash left: this start is the first
        raise HandOverFailed(f"d100gui seems to be running but could not be reached: {error[1]}.")
    if state["error"] is not None:
        raise HandOverFailed(f"the running d100gui closed the connection without answering ({state['error'][1]}).")
    raise HandOverFailed(
        f"the running d100gui did not answer within {timeout_ms / 1000:g} s "
        "(it may be busy or hung); close it, or wait and try again."
    )


class InstanceServer(QObject):
    """The first instance's end: reads each request line, answers ``ok``, then hands it to ``handler``
    (requests that come before the window is ready wait in ``pending``)."""

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)  # only this user may connect
        self.server.newConnection.connect(self._accept)
        self._buffers: dict[QLocalSocket, bytes] = {}
        self.handler: Callable[[Request], object] | None = None
        self.pending: list[Request] = []

    def set_handler(self, handler: Callable[[Request], object]) -> None:
        """Who takes the requests from now on (the ones already come first)."""
        self.handler = handler
        waiting, self.pending = self.pending, []
        for request in waiting:
            handler(request)

    def listen(self) -> bool:
        """Listen on the name; a socket file left by a crash (nobody answers there) is removed first."""
        if self.server.listen(self.name):
            return True
        if self.server.serverError() == QAbstractSocket.SocketError.AddressInUseError and not someone_listens(self.name):
            QLocalServer.removeServer(self.name)
            return self.server.listen(self.name)
        return False

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))
            if socket.bytesAvailable():  # the request came with the connection: no readyRead follows for it
                self._read(socket)

    def _forget(self, socket: QLocalSocket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()

    def _read(self, socket: QLocalSocket) -> None:
        data = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if b"\n" not in data:
            if len(data) > MAX_REQUEST:
                self._answer(socket, b"too long\n")
            else:
                self._buffers[socket] = data
            return
        line = data.split(b"\n", 1)[0]
        try:
            request = Request.decode(line)
        except (ValueError, UnicodeDecodeError):
            self._answer(socket, b"not a d100gui request\n")
            return
        self._answer(socket, b"ok\n")
        if self.handler is None:
            self.pending.append(request)
        else:
            self.handler(request)

    def _answer(self, socket: QLocalSocket, answer: bytes) -> None:
        self._buffers.pop(socket, None)
        socket.write(QByteArray(answer))
        socket.flush()
        socket.disconnectFromServer()


def someone_listens(name: str) -> bool:
    """Whether a running instance listens on ``name`` (a connection opened and closed, nothing asked)."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    listening = socket.waitForConnected(500)
    socket.abort()
    return listening


def request_from(file: str | None, new: bool = False, cwd: Path | None = None) -> Request:
    """The request for the running window: the file made absolute (the two processes' folders differ)."""
    if file is None:
        return Request(new=new)
    path = Path(file)
    if not path.is_absolute():
        path = (cwd or Path.cwd()) / path
    return Request(file=str(path), new=new)


# --------------------------------------------------------------------------- documents


def kind_of(path: Path) -> str:
    """What a file given from outside is: ``campaign`` (a store), ``campaign_json``, ``pack``,
    ``tileset``, or ``""`` (nothing the app opens). Read defensively: a JSON file's top-level keys only."""
    from d100gui.storage.campaigns import read_json_object
    from d100gui.storage.store import is_store

    if is_store(path):
        return "campaign"
    if not path.name.lower().endswith(".json"):
        return "campaign" if path.name.endswith(".d100") else ""  # a .d100 that is not a store: Open refuses it with why
    try:
        data = read_json_object(path)
    except (OSError, ValueError, RecursionError):
        return "campaign_json" if path.name.endswith(".d100.json") else ""
    if "tiles" in data:
        return "tileset"
    if "tables" in data:
        return "pack"
    if "meta" in data or "schema_version" in data or path.name.endswith(".d100.json"):
        return "campaign_json"
    return ""


def open_document(window: MainWindow, path: str | Path) -> bool:
    """Open or import a file given from outside the menus, through the menu's own method; True if done."""
    path = Path(path)
    kind = kind_of(path)
    if kind == "campaign":
        return window.open_campaign(path)
    if kind == "campaign_json":
        return window.campaigns.import_dialog(str(path))
    if kind == "pack":
        return window.table_files.import_pack(str(path))
    if kind == "tileset":
        editor = window.map_actions.open_tile_editor()
        return editor.import_file(path) is not None
    window.show_error(f"{path.name} is not a campaign, a campaign JSON, a table pack or a tile set: nothing was opened.")
    return False


def raise_window(window: MainWindow) -> None:
    """Bring the window to the front (out of the minimised state too)."""
    if window.isMinimized():
        window.showNormal()
    window.show()
    window.raise_()
    window.activateWindow()


def serve(window: MainWindow, server: InstanceServer) -> None:
    """Requests from later starts: the window comes to the front and opens what was asked."""

    def take(request: Request) -> None:
        raise_window(window)
        if request.file is not None:
            QTimer.singleShot(0, lambda: open_document(window, request.file or ""))
        elif request.new:
            QTimer.singleShot(0, window.campaigns.new_campaign)

    server.set_handler(take)


# --------------------------------------------------------------------------- drops


def dropped_files(urls: list[Any]) -> list[Path]:
    """The local files among dragged URLs that the app might open (by name; the content is checked on drop)."""
    found = []
    for url in urls:
        if url.isLocalFile():
            path = Path(url.toLocalFile())
            if path.name.lower().endswith(OPENABLE_SUFFIXES):
                found.append(path)
    return found


class DropOpener(QObject):
    """Event filter on the main window: campaigns, campaign JSON, table packs and tile sets dropped on it open."""

    def __init__(self, window: MainWindow, open_file: Callable[[Path], object] | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.open_file = open_file or (lambda path: open_document(window, path))
        window.setAcceptDrops(True)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            drag: QDragEnterEvent = event  # type: ignore[assignment]
            if drag.mimeData().hasUrls() and dropped_files(drag.mimeData().urls()):
                drag.setDropAction(Qt.DropAction.CopyAction)
                drag.accept()
                return True
            return False
        if kind == QEvent.Type.Drop:
            drop: QDropEvent = event  # type: ignore[assignment]
            files = dropped_files(drop.mimeData().urls()) if drop.mimeData().hasUrls() else []
            if not files:
                return False
            drop.setDropAction(Qt.DropAction.CopyAction)
            drop.accept()
            for path in files:
                QTimer.singleShot(0, lambda p=path: self.open_file(p))  # after the drag ends: a dialog may open
            return True
        return False


class FileOpenFilter(QObject):
    """macOS: a document opened from the Finder (a double-click, a drop on the Dock icon) comes to the
    application as a ``QFileOpenEvent``, not on the command line; it opens as a drop does."""

    def __init__(self, window: MainWindow, open_file: Callable[[Path], object] | None = None) -> None:
        super().__init__(window)
        self.open_file = open_file or (lambda path: open_document(window, path))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.FileOpen:
            return False
        file = event.file()  # type: ignore[attr-defined]
        if not file:
            return False
        QTimer.singleShot(0, lambda: self.open_file(Path(file)))
        return True


def install(window: MainWindow, server: InstanceServer | None) -> DropOpener:
    """Wire the window as a desktop document window: drops open files, later starts hand over to it
    (and on macOS, documents the Finder opens with the app)."""
    opener = DropOpener(window)
    if sys.platform == "darwin":  # an application-wide filter sees every event: only where FileOpen comes
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(FileOpenFilter(window))
    window.installEventFilter(opener)
    # a drag goes to the widget under the pointer; those that take drops themselves (the map's view,
    # text fields) would keep a file from reaching the window, so the filter watches them too
    for child in window.findChildren(QWidget):
        if child.acceptDrops():
            child.installEventFilter(opener)
    if server is not None:
        server.setParent(window)
        serve(window, server)
    return opener
