"""Help > Keyboard shortcuts: a sheet made from the window's real actions and keys, so it cannot go stale.

Each action with a shortcut is listed under the menu that holds it; the keys of a panel
(a :class:`QShortcut`, such as the fight's A, E and F) under "Keys of the panels", described
by their ``whatsThis`` text.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QHeaderView, QLabel, QMainWindow, QMenu, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

PANEL_KEYS = "Keys of the panels"
OTHER = "Other"


@dataclass(frozen=True)
class Entry:
    """One line of the sheet: what it does, its keys as the player reads them, and where it lives."""

    group: str
    what: str
    keys: str
    sequences: tuple[str, ...]  # portable text, for comparing


def _plain(text: str) -> str:
    """A menu text without its mnemonic ampersands and trailing dots."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").removesuffix("...").removesuffix("…").strip()


def menu_paths(window: QMainWindow) -> dict[QAction, str]:
    """Each action of the menu bar with the menu path that holds it ("Map", "Map > Dungeons")."""
    paths: dict[QAction, str] = {}

    def walk(menu: QMenu, path: str) -> None:
        for act in menu.actions():
            sub = act.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{path} > {_plain(act.text())}")
            elif act not in paths:
                paths[act] = path

    for top in window.menuBar().actions():
        sub = top.menu()
        if isinstance(sub, QMenu):
            walk(sub, _plain(top.text()))
    return paths


def _keys(sequences: list[QKeySequence]) -> tuple[str, tuple[str, ...]]:
    portable = tuple(s.toString(QKeySequence.SequenceFormat.PortableText) for s in sequences if not s.isEmpty())
    native = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences if not s.isEmpty())
    return native, portable


def window_actions(window: QMainWindow) -> list[QAction]:
    """The window's own actions (the ones its shortcuts belong to), in the order they were made."""
    return [act for act in window.actions() if isinstance(act, QAction)]


def shortcut_entries(window: QMainWindow) -> list[Entry]:
    """Every action of the window with a shortcut, and every panel key, grouped as the menu bar is."""
    paths = menu_paths(window)
    entries = []
    for act in window_actions(window):
        native, portable = _keys(act.shortcuts())
        if portable:
            entries.append(Entry(paths.get(act, OTHER), _plain(act.text()), native, portable))
    panel_keys: dict[str, list[QKeySequence]] = defaultdict(list)  # one line per job: Space, Return and Enter continue
    for key in window.findChildren(QShortcut):
        if not key.key().isEmpty() and key.whatsThis():
            panel_keys[key.whatsThis()].append(key.key())
    for what, sequences in panel_keys.items():
        native, portable = _keys(sequences)
        entries.append(Entry(PANEL_KEYS, what, native, portable))
    order = {_plain(top.text()): n for n, top in enumerate(window.menuBar().actions())}
    return sorted(entries, key=lambda e: (order.get(e.group.split(" > ")[0], len(order) + (e.group == PANEL_KEYS)), e.group))


def clashes(window: QMainWindow) -> dict[str, list[str]]:
    """Key sequences that more than one window action (or window-wide panel key) claims, with their names."""
    claims: dict[str, list[str]] = defaultdict(list)
    for act in window_actions(window):
        for seq in _keys(act.shortcuts())[1]:
            claims[seq].append(_plain(act.text()))
    for key in window.findChildren(QShortcut):
        if key.context() in (Qt.ShortcutContext.WindowShortcut, Qt.ShortcutContext.ApplicationShortcut):
            for seq in _keys([key.key()])[1]:
                claims[seq].append(key.whatsThis() or key.objectName() or "a panel key")
    return {seq: names for seq, names in claims.items() if len(names) > 1}


class ShortcutSheet(QDialog):
    """The sheet: one section per menu, what each key does."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setObjectName("shortcutSheet")
        self.setWindowTitle("Keyboard shortcuts")
        self.entries = shortcut_entries(window)
        self.tree = QTreeWidget()
        self.tree.setObjectName("shortcutTree")
        self.tree.setAccessibleName("Keyboard shortcuts")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["What it does", "Keys"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        groups: dict[str, QTreeWidgetItem] = {}
        for entry in self.entries:
            if entry.group not in groups:
                head = QTreeWidgetItem(self.tree, [entry.group, ""])
                font = head.font(0)
                font.setBold(True)
                head.setFont(0, font)
                head.setFirstColumnSpanned(True)
                head.setFlags(Qt.ItemFlag.ItemIsEnabled)
                groups[entry.group] = head
            QTreeWidgetItem(groups[entry.group], [entry.what, entry.keys])
        self.tree.expandAll()
        self.tree.setItemsExpandable(False)
        note = QLabel("Made from the menus as they are now. The fight's keys work while the Combat panel shows a fight.")
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree, 1)
        layout.addWidget(note)
        self.resize(520, 640)

    def listed(self) -> list[tuple[str, str]]:
        """(what, keys) of every line the sheet shows."""
        rows = []
        for n in range(self.tree.topLevelItemCount()):
            head = self.tree.topLevelItem(n)
            children = [head.child(c) for c in range(head.childCount())] if head is not None else []
            rows += [(child.text(0), child.text(1)) for child in children if child is not None]
        return rows
