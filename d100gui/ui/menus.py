"""The window's actions and menu bar, and the menus that are filled when they open.

Every menu item is a :class:`QAction` made by :func:`make_action`, which calls its slot with
no argument: ``triggered`` carries the action's ``checked`` flag, and a slot with a default
argument (``export_map(path=None)``) would otherwise receive ``False`` as that argument.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from d100gui.engine.dungeon.map import DungeonBook
from d100gui.engine.dungeon.tiles import TileSet

if TYPE_CHECKING:
    from d100gui.ui.main_window import MainWindow

Shortcut = QKeySequence | QKeySequence.StandardKey | str | None


def make_action(parent: QWidget, text: str, slot: Callable[[], object], shortcut: Shortcut = None) -> QAction:
    """A window-wide action that calls ``slot()`` when triggered (by its menu item or its shortcut)."""
    act = QAction(text, parent)
    if shortcut is not None:
        act.setShortcut(QKeySequence(shortcut))
    act.triggered.connect(lambda _checked=False: slot())
    parent.addAction(act)
    return act


@dataclass
class FilledMenus:
    """The submenus whose items are listed afresh each time they open."""

    recent: QMenu
    dungeons: QMenu
    tilesets: QMenu


def build_menus(window: MainWindow) -> FilledMenus:
    """The menu bar, from the window's actions and docks."""
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    _add(file_menu, window.new_action, window.open_action, window.campaigns_action, window.roster_action, window.new_hero_action)
    recent = file_menu.addMenu("Open &Recent")
    _add(file_menu, window.save_as_action, window.export_campaign_action, window.import_campaign_action, None)
    _add(file_menu, window.print_sheet_action, window.export_sheet_action, None)
    _add(file_menu, window.quit_action)
    edit_menu = bar.addMenu("&Edit")
    _add(edit_menu, window.undo_action, window.redo_action, None, window.prefs_action)
    map_menu = bar.addMenu("&Map")
    _add(map_menu, window.new_dungeon_action, window.fit_map_action, window.edit_map_action, window.follow_hero_action, None)
    _add(map_menu, *window.move_actions, None)  # through an exit of the hero's area, by keyboard
    _add(map_menu, window.print_map_action, window.export_map_action, None)
    dungeons = map_menu.addMenu("&Dungeons")
    map_menu.addAction(window.tile_editor_action)
    tilesets = map_menu.addMenu("Tile &set")
    hero_menu = bar.addMenu("&Hero")
    _add(hero_menu, window.new_character_action, window.test_action, window.curse_row_action, None, window.fallen_action)
    combat_menu = bar.addMenu("&Combat")
    _add(combat_menu, window.start_fight_action)
    town_menu = bar.addMenu("To&wn")  # between quests
    town_menu.addAction(window.town_action)
    tables_menu = bar.addMenu("&Tables")
    _add(tables_menu, window.table_editor_action, window.table_policy_action, None)
    _add(tables_menu, window.import_pack_action, window.export_pack_action, window.import_csv_action, window.export_csv_action)
    dice_menu = bar.addMenu("&Dice")
    _add(dice_menu, window.roll_d100_action, window.repeat_action, window.physical_action)
    view_menu = bar.addMenu("&View")
    for dock in (window.sheet_dock, window.dice_dock, window.combat_dock, window.log_dock, window.toolbox_dock):
        view_menu.addAction(dock.toggleViewAction())
    _add(view_menu, None, window.stats_action, window.chronicle_action)
    tools_menu = bar.addMenu("T&ools")
    tools_menu.addAction(window.toolbox_action)
    help_menu = bar.addMenu("&Help")
    help_menu.setObjectName("helpMenu")  # the tour points at it
    _add(help_menu, window.help_action, window.tour_action, window.shortcuts_action, None)
    help_menu.addAction(window.about_action)
    return FilledMenus(recent=recent, dungeons=dungeons, tilesets=tilesets)


def _add(menu: QMenu, *actions: QAction | None) -> None:
    """Add actions in order; ``None`` is a separator."""
    for act in actions:
        if act is None:
            menu.addSeparator()
        else:
            menu.addAction(act)


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
