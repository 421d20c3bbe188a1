"""The window's actions and menu bar as data, and the menus that are filled when they open.

Each menu item is an :class:`ActionEntry` in :data:`MENU_BAR`: its text, shortcut, tooltip, the
window's handler by name (resolved when the action is triggered, so a feature's module can be
imported on first use), and when it is greyed: by the engine's gate for a command kind
(``enabled_when``, asked of the bridge's flow) or while a fallen hero's campaign is read-only
(``read_only``). :func:`build_menus` makes every :class:`QAction` and the menu bar from it.

The window is reached only through :class:`MenuHost`, so this module never imports the main
window (an import-linter contract keeps it so).

Every action calls its handler with no argument: ``triggered`` carries the action's ``checked``
flag, and a slot with a default argument (``export_map(path=None)``) would otherwise receive
``False`` as that argument.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from pathlib import Path
from typing import Literal, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget

from d100gui.engine.dungeon.map import DungeonBook
from d100gui.engine.dungeon.tiles import TileSet
from d100gui.engine.flow import Flow

Shortcut = QKeySequence | QKeySequence.StandardKey | str | None
Key = QKeySequence.StandardKey


class MenuHost(Protocol):
    """What the menu bar needs of its window besides the ``QMainWindow`` (the main window is one).

    The handlers an :class:`ActionEntry` names are looked up on the host by name when triggered."""

    def view_docks(self) -> Sequence[QDockWidget]:
        """The docks View shows and hides, in order."""
        ...

    def ask_first(self, key: str, run: Callable[[], object]) -> object:
        """Run ``run``, asked about first if the player wants ``key`` confirmed (Preferences > Ask first)."""
        ...


@dataclass(frozen=True)
class ActionEntry:
    """One menu item: a window-wide :class:`QAction` and what it calls."""

    name: str  # the window's attribute and the action's objectName
    text: str
    handler: str | None  # a dotted name on the host ("campaigns.open_dialog"); None: a toggle the window wires
    shortcut: Shortcut = None
    tooltip: str = ""
    args: tuple[object, ...] = ()  # given to the handler
    confirm: str = ""  # asked first if the player wants it (a Preferences > Ask first key)
    checkable: bool = False
    app_wide: bool = False  # its shortcut works in every window of the app (F1 in the wizards)
    enabled_when: str = ""  # a command kind: greyed, with the engine's reason, while the flow refuses it
    #: while a fallen hero's campaign is shown: "grey" greyed and given back after; "own" greyed, given
    #: back by the window's own slot (undo and redo follow the game's history)
    read_only: Literal["", "grey", "own"] = ""


@dataclass(frozen=True)
class Submenu:
    """A submenu filled when it opens (see :class:`Menus`)."""

    name: Literal["recent", "dungeons", "tilesets"]
    text: str


SEPARATOR = None
DOCKS: Literal["docks"] = "docks"  # View's dock toggles
Item = ActionEntry | Submenu | Literal["docks"] | None


def _moves() -> tuple[ActionEntry, ...]:
    """Map > Move north...: the keyboard's way through an exit, as a click on it."""
    sides = (("N", "&north", "Up"), ("E", "&east", "Right"), ("S", "&south", "Down"), ("W", "&west", "Left"))
    emit = "map_area.view.move_requested.emit"
    return tuple(ActionEntry(f"move_{s.lower()}_action", f"Move {w}", emit, f"Alt+{k}", args=(s,)) for s, w, k in sides)


#: The menu bar: each menu's title, objectName and items in order (None: a separator).
MENU_BAR: tuple[tuple[str, str, tuple[Item, ...]], ...] = (
    ("&File", "", (
        ActionEntry("new_action", "&New campaign", "new_campaign_chosen", Key.New, confirm="new_campaign"),
        ActionEntry("open_action", "&Open...", "campaigns.open_dialog", Key.Open),
        ActionEntry("campaigns_action", "&Campaigns...", "campaigns.show_list", "Ctrl+Shift+O"),
        ActionEntry("roster_action", "&Heroes and the hall of the fallen...", "roster.show_roster", "Ctrl+Shift+H"),
        ActionEntry("new_hero_action", "New &hero...", "roster.new_hero"),
        Submenu("recent", "Open &Recent"),
        ActionEntry("save_as_action", "Save &As...", "campaigns.save_as", Key.SaveAs),
        ActionEntry("export_campaign_action", "&Export campaign...", "campaigns.export_dialog"),
        ActionEntry("import_campaign_action", "&Import campaign...", "campaigns.import_dialog"),
        SEPARATOR,
        ActionEntry("print_sheet_action", "&Print sheet...", "hero_actions.print_sheet", Key.Print),
        ActionEntry("export_sheet_action", "Export sheet to P&DF...", "hero_actions.export_sheet_pdf", "Ctrl+Shift+E"),
        SEPARATOR,
        ActionEntry("quit_action", "&Quit", "close", Key.Quit),
    )),
    ("&Edit", "", (
        ActionEntry("undo_action", "&Undo", "bridge.undo", Key.Undo, read_only="own"),
        ActionEntry("redo_action", "&Redo", "bridge.redo", "Ctrl+Shift+Z", read_only="own"),
        SEPARATOR,
        ActionEntry("prefs_action", "&Preferences...", "edit_preferences", "Ctrl+,"),  # the standard key is empty on Linux
    )),
    ("&Map", "", (
        ActionEntry("new_dungeon_action", "&New dungeon", "map_area.new_dungeon", "Ctrl+Shift+D", confirm="new_dungeon", read_only="grey"),
        ActionEntry("fit_map_action", "&Fit map to window", "map_area.fit_to_dungeon", "Ctrl+0"),
        ActionEntry("edit_map_action", "&Edit map by hand", None, "Ctrl+E", checkable=True, read_only="grey"),
        ActionEntry(
            "follow_hero_action", "&Keep the hero in view", None, checkable=True,
            tooltip="After each move, scroll the map so the hero stays in view",
        ),
        SEPARATOR,
        *_moves(),
        SEPARATOR,
        ActionEntry("print_map_action", "Print &map...", "map_actions.print_map", "Ctrl+Alt+P"),
        ActionEntry("export_map_action", "E&xport map...", "map_actions.export_map", "Ctrl+Alt+E"),
        SEPARATOR,
        Submenu("dungeons", "&Dungeons"),
        ActionEntry("tile_editor_action", "&Tile editor (Table M)...", "map_actions.open_tile_editor"),
        Submenu("tilesets", "Tile &set"),
    )),
    ("&Hero", "", (
        ActionEntry("new_character_action", "New &character...", "roster.new_character", "Ctrl+Shift+N"),
        ActionEntry("test_action", "Skill &test...", "hero_actions.skill_test", "Ctrl+T", read_only="grey"),
        ActionEntry("curse_row_action", "Type the &curse's row...", "type_curse_row"),
        SEPARATOR,
        ActionEntry("fallen_action", "Hall of the &fallen...", "show_hall_of_fallen"),
    )),
    ("&Combat", "", (
        ActionEntry(
            "start_fight_action", "&Start a fight...", "open_fight_dialog", "Ctrl+Shift+F", enabled_when="start_combat",
            tooltip="Roll Table E, meet the Giant Snake, or type a monster in from your rulebook",
        ),
    )),
    ("To&wn", "", (  # between quests
        ActionEntry("town_action", "&Before your next quest...", "town_actions.open_wizard", "Ctrl+Shift+B", read_only="grey"),
    )),
    ("&Tables", "", (
        ActionEntry("table_editor_action", "Table &editor...", "table_setup.open_editor"),
        ActionEntry("table_policy_action", "&Missing rows...", "table_setup.choose"),
        SEPARATOR,
        ActionEntry("import_pack_action", "&Import table pack...", "table_files.import_pack"),
        ActionEntry("export_pack_action", "&Export my table pack...", "table_files.export_pack"),
        ActionEntry("import_csv_action", "Import table from CS&V...", "table_files.import_table_csv"),
        ActionEntry("export_csv_action", "Export table as &CSV...", "table_files.export_table_csv"),
    )),
    ("&Dice", "", (
        ActionEntry("roll_d100_action", "Roll d&100", "dice_panel.roll_expression", "Ctrl+D", args=("d100",), read_only="grey"),
        ActionEntry("repeat_action", "&Repeat last roll", "dice_panel.repeat_last", "Ctrl+R", read_only="grey"),
        ActionEntry("physical_action", "&Physical dice", None, "Ctrl+Shift+P", checkable=True),
    )),
    ("&View", "", (
        DOCKS,
        SEPARATOR,
        ActionEntry("stats_action", "&Statistics...", "show_statistics"),  # the campaign at a glance (issue 24)
        ActionEntry("chronicle_action", "&Chronicle...", "show_chronicle"),  # a quest's story, to export and print (issue 24)
    )),
    ("T&ools", "", (
        ActionEntry("toolbox_action", "&Toolbox", "show_toolbox", "Ctrl+Shift+T"),
    )),
    ("&Help", "helpMenu", (  # the tour points at it by its objectName
        ActionEntry("help_action", "&Help", "help.context_help", "F1", app_wide=True),
        ActionEntry("tour_action", "&Tour of the panels", "help.open_tour"),
        ActionEntry("shortcuts_action", "&Keyboard shortcuts", "help.open_shortcuts", "Ctrl+/"),
        SEPARATOR,
        ActionEntry("about_action", "&About d100gui", "about"),
    )),
)  # fmt: skip


def make_action(parent: QWidget, text: str, slot: Callable[[], object], shortcut: Shortcut = None) -> QAction:
    """A window-wide action that calls ``slot()`` when triggered (by its menu item or its shortcut)."""
    act = QAction(text, parent)
    if shortcut is not None:
        act.setShortcut(QKeySequence(shortcut))
    act.triggered.connect(lambda _checked=False: slot())
    parent.addAction(act)
    return act


@dataclass
class Menus:
    """The actions made from :data:`MENU_BAR` by name, and the submenus listed afresh each time they open."""

    recent: QMenu
    dungeons: QMenu
    tilesets: QMenu
    actions: dict[str, QAction] = field(default_factory=dict)
    entries: dict[str, ActionEntry] = field(default_factory=dict)

    def greyed_while_read_only(self, kind: Literal["grey", "own"]) -> list[QAction]:
        """The actions a fallen hero's campaign greys (``own``: those the window's own slot gives back)."""
        return [self.actions[name] for name, entry in self.entries.items() if entry.read_only == kind]

    def follow_flow(self, flow: Flow) -> None:
        """Each action with ``enabled_when`` greyed, with the engine's reason as its status tip, while refused."""
        for name, entry in self.entries.items():
            if entry.enabled_when:
                why = flow.why_not(entry.enabled_when)
                self.actions[name].setEnabled(not why)
                self.actions[name].setStatusTip(why)


def _handler(host: MenuHost, entry: ActionEntry) -> Callable[[], object]:
    """Calls the entry's handler, looked up on the host when triggered (a toggle's own handler does nothing)."""
    path = entry.handler
    if path is None:
        return lambda: None

    def call() -> object:
        return reduce(getattr, path.split("."), host)(*entry.args)  # type: ignore[operator]

    if entry.confirm:
        return lambda: host.ask_first(entry.confirm, call)
    return call


def _action(window: QMainWindow, host: MenuHost, entry: ActionEntry) -> QAction:
    act = make_action(window, entry.text, _handler(host, entry), entry.shortcut)
    act.setObjectName(entry.name)
    act.setCheckable(entry.checkable)
    if entry.tooltip:
        act.setToolTip(entry.tooltip)
    if entry.app_wide:
        act.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
    return act


def build_menus(window: QMainWindow, host: MenuHost, bar: Sequence[tuple[str, str, Sequence[Item]]] = MENU_BAR) -> Menus:
    """Every action of ``bar`` (made in its order, each added to the window) and the window's menu bar."""
    actions: dict[str, QAction] = {}
    entries: dict[str, ActionEntry] = {}
    submenus: dict[str, QMenu] = {}
    for title, object_name, items in bar:
        menu = window.menuBar().addMenu(title)
        if object_name:
            menu.setObjectName(object_name)
        for item in items:
            if item is None:
                menu.addSeparator()
            elif item == DOCKS:
                for dock in host.view_docks():
                    menu.addAction(dock.toggleViewAction())
            elif isinstance(item, Submenu):
                submenus[item.name] = menu.addMenu(item.text)
            elif isinstance(item, ActionEntry):
                actions[item.name] = _action(window, host, item)
                entries[item.name] = item
                menu.addAction(actions[item.name])
    return Menus(submenus["recent"], submenus["dungeons"], submenus["tilesets"], actions, entries)


def fill_recent_menu(
    menu: QMenu,
    recent: list[Path],
    suffix: str,
    open_campaign: Callable[[Path], object],
    label: Callable[[Path], str] | None = None,
) -> None:
    """File > Open Recent: the campaigns opened last, newest first, each named by ``label`` (the hero and
    the dungeon; without it, the file's name)."""
    menu.clear()
    if not recent:
        menu.addAction("(none yet)").setEnabled(False)
    for path in recent:
        text = label(path) if label is not None else path.name.removesuffix(".json").removesuffix(suffix)
        act = menu.addAction(text)
        act.setToolTip(str(path))
        act.triggered.connect(lambda _checked=False, p=path: open_campaign(p))


def fill_dungeons_menu(menu: QMenu, book: DungeonBook, select: Callable[[int], object]) -> None:
    """Map > Dungeons: one dungeon per quest attempt; the checked one is on the map."""
    menu.clear()
    if not book.dungeons:
        menu.addAction("(none yet)").setEnabled(False)
    for index, dungeon in enumerate(book.dungeons):
        label = f"{dungeon.name}" + (f" - {dungeon.quest}" if dungeon.quest else "") + f" ({len(dungeon.areas)} areas)"
        act = menu.addAction(label)
        act.setCheckable(True)
        act.setChecked(index == book.current)
        act.triggered.connect(lambda _checked=False, i=index: select(i))


def fill_tileset_menu(menu: QMenu, tilesets: dict[str, TileSet], current: str, choose: Callable[[str], object]) -> None:
    """Map > Tile set: the standard set and the player's own; the checked one draws the map."""
    menu.clear()
    for set_id, tileset in tilesets.items():
        act = menu.addAction(tileset.title)
        act.setCheckable(True)
        act.setChecked(set_id == current)
        act.triggered.connect(lambda _checked=False, i=set_id: choose(i))
