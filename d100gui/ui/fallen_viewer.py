"""The hall of the fallen's viewer: a dead hero's final sheet, their map and their adventure log, read-only.

It builds the real sheet, map and log widgets on a game of its own over a display copy of the
campaign (the sheet shows the hero as they fell; nothing of the copy is ever saved), behind a
:class:`~d100gui.ui.roster.read_only.GuardedBridge` with a fixed reason: every command, undo and
redo is refused, and the sheet's controls are greyed with the reason. A banner says who fell, how
and when (the log's death event).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDockWidget, QFrame, QMainWindow, QScrollArea, QVBoxLayout, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.game import EVERY_COMMAND, Game
from d100gui.engine.hero.fallen import death_of, describe, fallen_hero
from d100gui.storage.campaigns import CampaignFileError
from d100gui.storage.store import open_campaign
from d100gui.ui.adventure.log_dock import AdventureLog, centre_on_area
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.hero.sheet import CharacterSheet
from d100gui.ui.hero.sheet_print import print_sheet
from d100gui.ui.map.area import MapArea
from d100gui.ui.roster.banner import FallenBanner
from d100gui.ui.roster.read_only import GuardedBridge, freeze

#: how many of the newest log entries the viewer reads (the adventure log shows them)
VIEW_LOG_TAIL = 5000


def load_fallen(path: Path) -> Campaign:
    """A fallen hero's campaign from its file, for viewing (the store is closed again at once)."""
    store = open_campaign(path)
    try:
        return store.load(tail=VIEW_LOG_TAIL)
    finally:
        store.close()


def display_copy(campaign: Campaign) -> Campaign:
    """The campaign as the viewer shows it: its fallen hero on the sheet, as they fell (never saved)."""
    hero = fallen_hero(campaign)
    copy = campaign.model_copy(deep=True)
    if hero is not None:
        copy.character = hero.model_copy(deep=True, update={"dead": False})  # the sheet shows a living sheet only
    return copy


class FallenViewer(QMainWindow):
    """One fallen hero, read-only: the banner, the map in the centre, the sheet and the log docked."""

    def __init__(self, campaign: Campaign, like: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        hero = fallen_hero(campaign)
        name = (hero.name if hero is not None else "") or "An unnamed hero"
        self.setWindowTitle(f"{name} — Hall of the fallen — d100gui")
        self.reason = f"{name} has fallen: the hall of the fallen is read-only, nothing here can be changed."
        old = like.game
        game = Game(display_copy(campaign), old.library, EVERY_COMMAND, rules=old.rules, tilesets=old.tilesets)
        self.bridge = GuardedBridge(game, self, reason=self.reason)
        self.refusals: list[str] = []
        self.bridge.error.connect(self._refused)
        self._build(describe(name, death_of(campaign)))
        self.resize(1200, 800)

    def _build(self, fell: str) -> None:
        self.banner = FallenBanner(self, viewer=True)
        self.banner.show_text(fell, self.reason)
        self.map_area = MapArea(self.bridge)
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.banner)
        box.addWidget(self.map_area, 1)
        self.setCentralWidget(central)
        self.sheet = CharacterSheet(self.bridge)
        scroll = QScrollArea()
        scroll.setWidget(self.sheet)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.sheet_dock = self._dock("Final sheet", "fallenSheetDock", scroll, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.adventure_log = AdventureLog(self.bridge)
        self.log_dock = self._dock("Adventure log", "fallenLogDock", self.adventure_log, Qt.DockWidgetArea.RightDockWidgetArea)
        self.adventure_log.area_requested.connect(lambda key: centre_on_area(self.map_area.view, key))
        self.resizeDocks([self.sheet_dock, self.log_dock], [360, 360], Qt.Orientation.Horizontal)
        self.sheet.refresh()
        self.map_area.set_edit_mode(False)
        # every editing control greyed (the sheet's, the map's new dungeon and edit tools); printing the final sheet reads
        self.frozen = freeze(self.sheet, self.reason, keep=[self.sheet.print_button]) + freeze(self.map_area, self.reason)
        self.sheet.print_button.setToolTip("Print the final sheet as the hero fell (both pages)")
        self.sheet.print_requested.connect(self.print_sheet)
        self.print_dialog: QDialog | None = None

    def print_sheet(self) -> QDialog | None:
        """The print preview of the fallen hero's final sheet (the sheet's Print…)."""
        hero = self.bridge.game.campaign.character
        if hero is None:
            return None
        self.print_dialog = print_sheet(self, hero, self.bridge.rules)
        return self.print_dialog

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _refused(self, message: str) -> None:
        """A command was refused (the read-only guard): say so in the status bar."""
        self.refusals.append(message)
        self.statusBar().showMessage(message, 10000)


def open_viewer(path: Path | None, campaign: Campaign | None, like: EngineBridge, parent: QWidget | None) -> FallenViewer:
    """A viewer of the campaign in memory (``campaign``: the one in play) or at ``path``; ``CampaignFileError`` if unreadable."""
    if campaign is None:
        if path is None:
            raise CampaignFileError(Path("?"), "no campaign to view")
        campaign = load_fallen(path)
    viewer = FallenViewer(campaign, like, parent)
    viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return viewer
