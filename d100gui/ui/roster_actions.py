"""The window's roster jobs: File > Heroes, New hero, viewing the fallen, and read-only play.

A campaign is one hero's story. When that hero falls the campaign turns read-only: the window's
:class:`~d100gui.ui.roster.read_only.GuardedBridge` refuses every command, the banner above the
map says who fell and how, and the actions that would edit are greyed with the reason. That
holds however the campaign was opened (played to the death, File > Open, Open Recent, the
campaign list). The next hero starts a campaign of their own (New hero); the fallen are viewed in
:class:`~d100gui.ui.fallen_viewer.FallenViewer`, read-only.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QPushButton, QWidget

from d100gui.storage.campaigns import CampaignFileError, campaigns_dir
from d100gui.ui.roster.read_only import GuardedBridge, ReadOnlyLock

if TYPE_CHECKING:  # the viewer and the roster are imported when first opened, not at start-up
    from d100gui.storage.roster import HeroLine
    from d100gui.ui.campaign_files import CampaignFiles
    from d100gui.ui.common.bridge import EngineBridge
    from d100gui.ui.dice.panel import DicePanel
    from d100gui.ui.fallen_viewer import FallenViewer
    from d100gui.ui.hero.actions import HeroActions
    from d100gui.ui.roster.banner import FallenBanner
    from d100gui.ui.roster.dialog import RosterDialog
    from d100gui.ui.stats.feed import StatsFeed
    from d100gui.ui.toolbox.dock import ToolboxPanel


def command_panels(toolbox: ToolboxPanel) -> list[QWidget]:
    """The toolbox's panels built so far that roll or keep state (every tool but the reference tables, which only read)."""
    return command_panels_of(list(toolbox.built.values()))


def command_panels_of(panels: list[QWidget]) -> list[QWidget]:
    """Those of ``panels`` that roll or keep state (not the reference tables' panel, which only reads)."""
    from d100gui.ui.toolbox.reference_panel import ReferencePanel

    return [panel for panel in panels if not isinstance(panel, ReferencePanel)]


class RosterHost(Protocol):
    """What the roster's jobs need of their window (the main window is one; this module never imports it)."""

    bridge: EngineBridge
    campaigns: CampaignFiles
    hero_actions: HeroActions
    fallen_banner: FallenBanner
    dice_panel: DicePanel

    def show_error(self, message: str) -> None: ...

    def editing_actions(self) -> list[QAction]:
        """The actions greyed while a fallen hero's campaign is shown."""
        ...

    def history_actions(self) -> list[QAction]:
        """Of those, the ones the window gives back itself (undo and redo follow the game's history)."""
        ...


class RosterActions(QObject):
    """Roster, hall and read-only state of one main window."""

    def __init__(self, window: RosterHost, parent: QWidget) -> None:
        super().__init__(parent)
        self.window = window
        self.parent_widget = parent  # the dialogs' parent
        self.dialog: RosterDialog | None = None
        self.viewer: FallenViewer | None = None
        self.feed: StatsFeed | None = None  # counts the campaign in play for the roster when its store keeps no statistics
        self._greyed: dict[QAction, str] = {}  # the actions greyed for a fallen campaign, with their own tooltips
        self.lock = ReadOnlyLock(self, keep=self.reads_only)  # the window's own widgets that would send a command

    def connect_signals(self) -> None:
        """Wired by the window's ``_connect_signals``: a fallen campaign's new hero and the read-only lock."""
        w = self.window
        bridge = w.bridge
        if isinstance(bridge, GuardedBridge):
            bridge.new_hero_needed.connect(w.campaigns.new_campaign)
            bridge.read_only_changed.connect(self.lock.set_reason)  # before the widgets re-read: they see their controls back

    def watch_toolbox(self, toolbox: ToolboxPanel) -> None:
        """The toolbox, built on its first showing: its command panels, and each built later, follow the lock."""
        self.lock.watch(command_panels(toolbox))
        toolbox.panel_built.connect(lambda panel: self.lock.watch(command_panels_of([panel])))

    # ------------------------------------------------------------------ read-only play
    def reads_only(self, control: QWidget) -> bool:
        """A control that only reads (find a table, copy the history or a result): it stays usable in a fallen campaign."""
        copy = isinstance(control, QPushButton) and control.text().startswith("Copy")
        return copy or control is self.window.dice_panel.table_filter

    @property
    def read_only(self) -> str:
        """Why the campaign in the window takes no command ("" while its hero lives)."""
        bridge = self.window.bridge
        return str(getattr(bridge, "read_only", ""))

    def follow_read_only(self) -> None:
        """After every change of campaign or action: the banner, and the editing actions greyed with the reason
        (given back as they were once a living hero's campaign is shown; undo and redo follow the window's title)."""
        w = self.window
        why = self.read_only
        self.lock.set_reason(why)
        if not why:
            w.fallen_banner.setVisible(False)
            own = w.history_actions()
            for act, tip in self._greyed.items():
                if act not in own:
                    act.setEnabled(True)
                    act.setToolTip(tip)
            self._greyed = {}
            return
        w.fallen_banner.show_campaign(w.bridge.game.campaign)
        for act in w.editing_actions():
            if act not in self._greyed:
                self._greyed[act] = act.toolTip()
            act.setEnabled(False)
            act.setToolTip(why)

    # ------------------------------------------------------------------ heroes
    def current_line(self) -> HeroLine | None:
        """The campaign in play as the roster lists it (its store is locked by this window)."""
        from d100gui.storage.roster import line_of

        path = self.window.campaigns.path
        store = self.window.campaigns.store
        kept = store.kept_statistics() if store is not None else None  # the headline figures, if it keeps them
        return None if path is None else line_of(self.window.bridge.game.campaign, path, kept[1] if kept else None)

    def _count_current(self, dialog: RosterDialog, path: Path) -> None:
        """Count the campaign in play (its store keeps no statistics yet) with a statistics feed: it reads the
        store's log a page per event-loop turn and keeps the state in the store; the roster's cells follow."""
        from d100gui.storage.roster import headline_from
        from d100gui.ui.stats.feed import StatsFeed

        window = self.window
        if self.feed is None:
            older = lambda at, n: window.campaigns.store.log_page(at, n) if window.campaigns.store else []
            self.feed = StatsFeed(window.bridge, older, self, lambda: window.campaigns.store)
        if self.feed.ready:  # a log all in memory is counted at once
            dialog.show_headline(path, headline_from(self.feed.figures()))
            return
        dialog.show_counting(path)
        self.feed.updated.connect(dialog.show_current_figures)  # a bound slot: gone with the dialog

    def show_roster(self, hall: bool = False) -> RosterDialog:
        """File > Heroes: the living heroes (Open, New hero) and the hall of the fallen (View)."""
        from d100gui.ui.roster.dialog import RosterDialog

        current = self.current_line()
        dialog = RosterDialog(campaigns_dir(), self.parent_widget, current=current)
        if current is not None and current.headline is None and self.window.campaigns.store is not None:
            self._count_current(dialog, current.path)
        dialog.open_requested.connect(self.window.campaigns.open_campaign)
        dialog.view_requested.connect(lambda path: self.view_fallen(Path(path)))
        dialog.new_hero_requested.connect(self.new_hero)
        if hall:
            dialog.show_hall()
        dialog.open()
        self.dialog = dialog
        return dialog

    def new_hero(self) -> object:
        """A new hero starts a campaign of their own, and the creation wizard opens."""
        self.window.campaigns.new_campaign()
        return self.window.hero_actions.new_character()

    def new_character(self) -> object:
        """Hero > New character: in a fallen hero's campaign, a new hero (their campaign stays as it is)."""
        if self.read_only:
            return self.new_hero()
        return self.window.hero_actions.new_character()

    def view_fallen(self, path: Path | None) -> FallenViewer | None:
        """Open the read-only viewer of a fallen hero (``None``: the campaign in the window)."""
        from d100gui.ui.fallen_viewer import open_viewer

        w = self.window
        here = w.campaigns.path
        in_play = path is None or (here is not None and path.resolve() == here.resolve())
        try:
            viewer = open_viewer(path, w.bridge.game.campaign if in_play else None, w.bridge, self.parent_widget)
        except CampaignFileError as exc:
            w.show_error(str(exc))
            return None
        viewer.show()
        self.viewer = viewer
        return viewer
