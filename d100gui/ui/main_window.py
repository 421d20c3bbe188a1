"""The main window: it builds its parts in ``_init_*`` helpers and wires them in one ``_connect_signals``.

The window owns no rule and no file format. The map area, the sheet, the combat and dice
panels each show the game and send commands through the bridge; the Map menu's jobs are
in :class:`MapActions`, the table files in :class:`TableFiles`, the missing-row dialogs in
:class:`RowRequests`, and the menu bar in :mod:`d100gui.ui.menus`. What follows an event by
the rules (an escaped monster met again) comes from :func:`d100gui.engine.fight_start.follow_up`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QWidget,
)

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import FaceRequest
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.fight_start import StartCombat, follow_up
from d100gui.engine.game import EVERY_COMMAND, Game
from d100gui.engine.protocol import Event
from d100gui.storage.campaigns import SUFFIX
from d100gui.storage.packs import LoadedLibrary
from d100gui.storage.resources import player_rules, standard_tilesets
from d100gui.storage.store import STORE_SUFFIX
from d100gui.ui.adventure.log_dock import AdventureLog, centre_on_area
from d100gui.ui.adventure.routing import MoveRouter, wire_map
from d100gui.ui.adventure.turn_strip import TurnStrip, above
from d100gui.ui.campaign_files import CampaignFiles
from d100gui.ui.combat.panel import CombatPanel
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import MissingRowDialog, PhysicalDiceDialog
from d100gui.ui.common.preferences import Confirmations, PreferenceActions, PreferencesDialog
from d100gui.ui.common.settings import Preferences
from d100gui.ui.common.warm_up import WarmUp
from d100gui.ui.decisions import RowRequests
from d100gui.ui.dice.panel import DicePanel
from d100gui.ui.help.actions import HelpActions
from d100gui.ui.hero.actions import HeroActions
from d100gui.ui.hero.sheet import CharacterSheet
from d100gui.ui.map.actions import MapActions
from d100gui.ui.map.area import MapArea
from d100gui.ui.menus import build_menus, fill_dungeons_menu, fill_recent_menu, fill_tileset_menu
from d100gui.ui.roster.banner import FallenBanner
from d100gui.ui.roster.read_only import GuardedBridge
from d100gui.ui.roster_actions import RosterActions
from d100gui.ui.table_editor.setup import TableSetup
from d100gui.ui.tables import TableFiles
from d100gui.ui.town.actions import TownActions
from d100gui.ui.town.curse_row import ask_curse_row, ask_waiting_curse, curse_waiting

if TYPE_CHECKING:  # opened on demand: imported where they are opened (start-up skips them)
    from d100gui.ui.chronicle.window import ChronicleWindow
    from d100gui.ui.common.about import AboutDialog
    from d100gui.ui.hero.creation_wizard import CreationWizard
    from d100gui.ui.hero.skill_test_dialog import SkillTestDialog
    from d100gui.ui.stats.window import StatisticsWindow
    from d100gui.ui.toolbox.dock import ToolboxPanel

AskFaces = Callable[[list[FaceRequest]], Sequence[int] | None]
STATUS_MS = 8000


def window_title(campaign: Campaign, path: Path | None) -> str:
    """The window's title, e.g. "Harry — Dungeon 2 — d100gui": the hero and the dungeon, else the file's name.

    A campaign's own file is named after its id (a hex string no player reads): it is not shown.
    """
    parts: list[str] = []
    if campaign.character is not None:
        parts.append(campaign.character.name.strip() or "Unnamed hero")
    dungeon = campaign.dungeons.current_dungeon
    if dungeon is not None:
        parts.append(dungeon.name or "Dungeon")
    if not parts:
        stem = path.name.removesuffix(SUFFIX).removesuffix(STORE_SUFFIX) if path is not None else ""
        parts.append(stem if stem and stem != campaign.meta.id else "New campaign")
    return " — ".join([*parts, "d100gui"])


class MainWindow(QMainWindow):
    """Map in the centre, character sheet and dice panel docked."""

    def __init__(
        self, loaded: LoadedLibrary, prefs: Preferences, seed: int | None = None, campaign: Campaign | None = None
    ) -> None:
        super().__init__()
        self.loaded = loaded
        self.prefs = prefs
        self.ask_faces: AskFaces = self._ask_faces_dialog
        rules, layout_problem = player_rules()  # the player's sheet layout, if they saved one that loads
        game = Game(
            campaign or self._new_campaign(seed),
            loaded.library,
            EVERY_COMMAND,  # a kind's module imported when first met
            policy=prefs.missing_row_policy,
            rules=rules,
            tilesets=standard_tilesets(),
        )
        self.bridge: EngineBridge = GuardedBridge(game, self)  # a fallen hero's campaign refuses every command
        self.setWindowTitle("d100gui")
        self.title_updates = 0  # how many times the title was brought up to date (tests count)
        self._titled_path: Path | None = None  # the campaign file the title was last made for
        self._init_helpers()
        self._init_central()
        self._init_docks()
        self._init_actions()
        self._connect_signals()
        for refresh in (self._show_title, self._follow_undo, self._follow_read_only, self._follow_curse, self._follow_flow):
            refresh()  # each what it shows, as after every action
        self.warm_up.start()  # the campaign it was built with is shown: its first action's one-time costs while idle
        self.say(f"{len(loaded.library)} tables loaded.", 0)
        self.campaigns.say_notes()
        self.preference_actions = PreferenceActions(
            self.bridge,
            self.prefs,
            self,
            physical=self.physical_action,
            set_sheet=lambda size, unbounded: setattr(self.map_area, "sheet_options", (size, unbounded)),
            set_dark=self.map_area.set_dark,
            choose_tileset=self.map_actions.choose_tileset,
        )
        self.preference_actions.message.connect(lambda text: self.say(text, 0))
        self.preference_actions.error.connect(self.show_error)
        self.preference_actions.start(layout_problem)

    @staticmethod
    def _new_campaign(seed: int | None) -> Campaign:
        campaign = Campaign()
        if seed is not None:
            campaign.meta.seed = seed
        return campaign

    @property
    def game(self) -> Game:
        """The game on screen (the bridge holds it; opening a campaign replaces it)."""
        return self.bridge.game

    @property
    def library(self) -> TableLibrary:
        return self.game.library

    # ------------------------------------------------------------------ parts
    def _init_helpers(self) -> None:
        self.campaigns = CampaignFiles(self.bridge, self.prefs, self)
        self.map_actions = MapActions(self.bridge, self, self.prefs)
        self.map_actions.load_tilesets()
        self.table_files = TableFiles(self.bridge, self.loaded, self, lambda: self.dice_panel.selected_table_id(), self.prefs)
        self.row_requests = RowRequests(self.bridge, self)
        self.table_setup = TableSetup(self.bridge, self.prefs, self, self.table_files.save_user_rows)
        self.town_actions = TownActions(self.bridge, self)  # the between-quests wizard; opens when a quest ends
        self.help = HelpActions(self, self.prefs)  # the tour, the help panel (F1), the shortcut sheet
        self.confirmations = Confirmations(self.prefs, self)  # the actions the player asked to be asked about
        self.roster = RosterActions(self, self)  # the roster of heroes, the hall of the fallen, read-only viewing

    def _init_central(self) -> None:
        self.map_area = MapArea(self.bridge)
        self.map_placeholder = self.map_area.placeholder
        self.map_area.sheet_options = (self.prefs.sheet_size, self.prefs.unbounded_sheet)
        self.map_area.follow_hero = self.prefs.follow_hero
        self.turn_strip = TurnStrip(self.bridge)  # the turn's steps, above the map
        self.fallen_banner = FallenBanner(self)  # shown while the campaign's hero has fallen (read-only)
        self.setCentralWidget(above(self.fallen_banner, above(self.turn_strip, self.map_area)))

    def _dock(self, title: str, name: str, widget: QWidget, scroll: bool = False) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        if scroll:
            area = QScrollArea()
            area.setAccessibleName(title)
            area.setWidget(widget)
            area.setWidgetResizable(True)
            area.setFrameShape(QFrame.Shape.NoFrame)
            widget = area
        dock.setWidget(widget)
        return dock

    def _init_docks(self) -> None:
        self.sheet = CharacterSheet(self.bridge)
        self.hero_actions = HeroActions(self.bridge, self, self.prefs)
        self.hero_actions.attach(self.sheet)
        self.sheet_dock = self._dock("Character", "sheetDock", self.sheet)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.sheet_dock)
        self.combat_panel = CombatPanel(self.bridge)
        self.combat_panel.odds_view.background = True  # 10,000 simulated fights off the GUI thread
        self.combat_panel.older_log = lambda at, n: self.campaigns.store.log_page(at, n) if self.campaigns.store else []
        self.combat_dock = self._dock("Combat", "combatDock", self.combat_panel, scroll=True)
        self.dice_panel = DicePanel(self.bridge)
        self.dice_dock = self._dock("Dice and tables", "diceDock", self.dice_panel, scroll=True)
        dice_scroll = self.dice_dock.widget()
        if isinstance(dice_scroll, QScrollArea):
            dice_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dice_dock)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.combat_dock)
        self.tabifyDockWidget(self.dice_dock, self.combat_dock)
        self.adventure_log = AdventureLog(self.bridge)
        self.log_dock = self._dock("Adventure log", "adventureLogDock", self.adventure_log)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.log_dock)
        self.tabifyDockWidget(self.combat_dock, self.log_dock)
        # the classic rule texts' tools: built (and their modules imported) when the dock is first shown
        self._toolbox: ToolboxPanel | None = None
        self.toolbox_dock = self._dock("Toolbox", "toolboxDock", QWidget())
        self.toolbox_dock.visibilityChanged.connect(lambda visible: self.toolbox if visible else None)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.toolbox_dock)
        self.tabifyDockWidget(self.log_dock, self.toolbox_dock)
        self.dice_dock.raise_()
        self.resizeDocks([self.sheet_dock, self.dice_dock], [340, 440], Qt.Orientation.Horizontal)

    def _init_actions(self) -> None:
        """The menu bar and its actions, from :data:`~d100gui.ui.menus.MENU_BAR` (each kept as ``self.<name>``)."""
        self.menus = build_menus(self, self)
        for name, act in self.menus.actions.items():
            setattr(self, name, act)  # window.undo_action, window.town_action...: tests and the window's slots
        self.move_actions = [self.menus.actions[f"move_{side}_action"] for side in "nesw"]
        self.follow_hero_action.setChecked(self.prefs.follow_hero)
        self.stats_window: StatisticsWindow | None = None
        self.chronicle_window: ChronicleWindow | None = None

    # the actions the window's own code reaches (the rest are ``self.<name>`` for tests and the player's tools)
    undo_action: QAction
    redo_action: QAction
    curse_row_action: QAction
    physical_action: QAction
    edit_map_action: QAction
    follow_hero_action: QAction

    def view_docks(self) -> list[QDockWidget]:
        """View's dock toggles, in order (:class:`~d100gui.ui.menus.MenuHost`)."""
        return [self.sheet_dock, self.dice_dock, self.combat_dock, self.log_dock, self.toolbox_dock]

    def ask_first(self, key: str, run: Callable[[], object]) -> object:
        """Run, asked about first if the player wants ``key`` confirmed (:class:`~d100gui.ui.menus.MenuHost`)."""
        return self.confirmations.ask(key, run)

    def editing_actions(self) -> list[QAction]:
        """The actions a fallen hero's campaign greys (:class:`~d100gui.ui.roster_actions.RosterHost`)."""
        return self.menus.greyed_while_read_only("own") + self.menus.greyed_while_read_only("grey")

    def history_actions(self) -> list[QAction]:
        """Of those, the ones :meth:`_follow_undo` gives back (undo and redo follow the game's history)."""
        return self.menus.greyed_while_read_only("own")

    def type_curse_row(self) -> None:
        """Hero > Type the curse's row: the Table C row a curse outside a fight waits for."""
        ask_waiting_curse(self.bridge, self, self.row_requests.policy_chosen.emit)

    def _connect_signals(self) -> None:
        bridge, maps, tables, menus = self.bridge, self.map_actions, self.table_files, self.menus
        bridge.error.connect(self.show_error)
        bridge.decision_requested.connect(self.row_requests.ask_history_row)
        bridge.decision_event.connect(self.answer_decision)
        bridge.log_appended.connect(self.say)
        bridge.command_done.connect(self.campaigns.autosave)
        self.campaigns.path_changed.connect(self._path_changed)  # told after every save: the title only if it changed
        # once per action, each slot what it refreshes (undo and redo before the read-only greying, which may grey them)
        bridge.changed.connect(self._show_title)  # the hero and the dungeon
        bridge.changed.connect(self._follow_undo)
        bridge.changed.connect(self._follow_read_only)  # the fallen banner, the editing actions greyed
        bridge.changed.connect(self._follow_curse)  # Hero > Type the curse's row
        bridge.changed.connect(self._follow_flow)  # the actions the engine's gate allows now
        self.warm_up = WarmUp(self)  # the first action's one-time costs, paid while idle after a campaign is shown
        bridge.changed.connect(lambda change: self.warm_up.start() if change.reset else None)
        self.follow_hero_action.toggled.connect(self.set_follow_hero)
        bridge.user_row_added.connect(tables.save_user_rows)
        self.row_requests.policy_chosen.connect(self.table_setup.set_policy)
        tables.startup_shown.connect(self.table_setup.first_run)
        tables.startup_shown.connect(lambda: self.help.first_run(self.table_setup.choice_dialog))  # the tour, once
        self.table_setup.message.connect(self.say)
        self.table_setup.import_requested.connect(lambda: self.table_files.import_pack())  # from the first-run question
        for helper in (maps, tables, self.campaigns):
            helper.message.connect(self.say)
            helper.error.connect(self.show_error)
        menus.recent.aboutToShow.connect(
            lambda: fill_recent_menu(
                menus.recent, self.prefs.recent(), STORE_SUFFIX, self.open_campaign, self.campaigns.label_for
            )
        )
        menus.dungeons.aboutToShow.connect(
            lambda: fill_dungeons_menu(menus.dungeons, self.game.campaign.dungeons, maps.select_dungeon)
        )
        menus.tilesets.aboutToShow.connect(
            lambda: fill_tileset_menu(menus.tilesets, self.game.tilesets, self.game.campaign.tileset, maps.choose_tileset)
        )
        self.dice_panel.physical_toggled.connect(self.set_physical)
        self.dice_panel.physical_toggled.connect(self.physical_action.setChecked)
        self.physical_action.toggled.connect(self.dice_panel.set_physical)
        self.dice_panel.fight_requested.connect(self.start_fight)
        self.hero_actions.error.connect(self.show_error)
        self.map_area.message.connect(self.say)
        self.map_area.test_requested.connect(self.open_skill_test)
        self.edit_map_action.toggled.connect(self.map_area.set_edit_mode)
        self.map_area.edit_mode_changed.connect(self.edit_map_action.setChecked)
        self.combat_panel.fight_active_changed.connect(lambda on: self.combat_dock.raise_() if on else None)
        self.move_router = MoveRouter(self.bridge, self)  # a click on an exit: the turn's command while a quest is on
        wire_map(self.map_area.view, self.bridge, self.move_router, self.map_area.offer_door)  # exits, entrance, doors
        self.turn_strip.correction_requested.connect(self.show_sheet_part)
        self.turn_strip.ask_first = self.confirmations.ask  # failing a quest asks first (Preferences > Ask first)
        self.adventure_log.area_requested.connect(lambda key: centre_on_area(self.map_area.view, key))
        self.adventure_log.message.connect(self.say)
        self.fallen_banner.view_requested.connect(lambda: self.roster.view_fallen(None))
        self.fallen_banner.new_hero_requested.connect(self.roster.new_hero)
        self.sheet.hall_requested.connect(lambda: self.roster.view_fallen(None))  # the sheet's "View the final sheet…"
        self.roster.lock.watch([self.map_area, self.dice_panel])  # the toolbox's panels once it is built: watch_toolbox
        self.roster.connect_signals()

    # ------------------------------------------------------------------ behaviour
    def say(self, text: str, timeout: int = STATUS_MS) -> None:
        """A line in the status bar (what just happened)."""
        self.statusBar().showMessage(text, timeout)

    def show_error(self, message: str) -> None:
        """Why something was refused: in the dice panel's result box and the status bar."""
        self.dice_panel.show_error(message)
        self.say(message, 10000)

    def set_physical(self, on: bool) -> None:
        self.game.physical = (lambda reqs: self.ask_faces(reqs)) if on else None
        self.say("Physical dice: type your faces." if on else "The app rolls the dice.", 5000)

    def _ask_faces_dialog(self, requests: list[FaceRequest]) -> Sequence[int] | None:
        dialog = PhysicalDiceDialog(requests, self)
        return dialog.faces() if dialog.exec() else None

    @property
    def missing_row_dialog(self) -> MissingRowDialog | None:
        """The last "type the row" dialog opened."""
        return self.row_requests.dialog

    @property
    def toolbox(self) -> ToolboxPanel:
        """The toolbox dock's panel, built the first time it is shown or asked for (a start skips it)."""
        if self._toolbox is None:
            from d100gui.ui.toolbox.dock import ToolboxPanel

            self._toolbox = ToolboxPanel(self.bridge)
            self.toolbox_dock.setWidget(self._toolbox)
            self.roster.watch_toolbox(self._toolbox)  # its command panels greyed while the hero has fallen
        return self._toolbox

    def show_toolbox(self) -> None:
        """Tools > Toolbox: show the toolbox dock in front."""
        self.toolbox_dock.show()
        self.toolbox_dock.raise_()

    def show_statistics(self) -> StatisticsWindow:
        """View > Statistics: the campaign at a glance (made the first time, then kept up to date)."""
        from d100gui.ui.stats.window import StatisticsWindow

        if self.stats_window is None:
            older = lambda at, n: self.campaigns.store.log_page(at, n) if self.campaigns.store else []
            self.stats_window = StatisticsWindow(self.bridge, older, self, lambda: self.campaigns.store)
            self.stats_window.quest_chosen.connect(self.show_chronicle)  # a quest clicked: its chronicle
        self.stats_window.show()
        self.stats_window.raise_()
        return self.stats_window

    def show_chronicle(self, quest: int | None = None) -> ChronicleWindow:
        """View > Chronicle: a quest's chronicle (``quest``: its attempt's index; None: as last shown)."""
        from d100gui.ui.chronicle.window import ChronicleWindow
        from d100gui.ui.chronicle_maps import map_image

        if self.chronicle_window is None:
            older = lambda at, n: self.campaigns.store.log_page(at, n) if self.campaigns.store else []
            rows = lambda reader, end: self.campaigns.store.fold_chronicle(reader, end) if self.campaigns.store else False
            self.chronicle_window = ChronicleWindow(self.bridge, older, map_image, self, rows)
        self.chronicle_window.show()
        if quest is not None:
            self.chronicle_window.show_quest(quest)
        self.chronicle_window.raise_()
        return self.chronicle_window

    def show_hall_of_fallen(self) -> QMessageBox:
        """The heroes who died, kept read-only."""
        fallen = self.game.campaign.hall_of_fallen
        if fallen:
            lines = [
                f"<b>{h.name or 'Unnamed hero'}</b>: REP {h.rep}, {h.gp} gp, quests completed {h.quest_log.completed}, "
                f"monsters defeated {len(h.combat_track)}"
                for h in fallen
            ]
            text = "<br>".join(lines)
        else:
            text = "No hero has fallen in this campaign."
        box = QMessageBox(QMessageBox.Icon.Information, "Hall of the fallen", text, QMessageBox.StandardButton.Close, self)
        every = box.addButton("Every hero's hall…", QMessageBox.ButtonRole.ActionRole)  # the roster, all campaigns
        every.clicked.connect(lambda _=False: self.roster.show_roster(hall=True))
        box.open()
        self.fallen_box = box
        return box

    def start_fight(self, command: StartCombat) -> bool:
        """Start the fight a rolled result offers (the dice panel's "Fight this monster")."""
        if self.bridge.send(command):
            self.combat_dock.raise_()
            return True
        return False

    def open_fight_dialog(self) -> None:
        """Combat > Start a fight: the combat panel in front, its start dialog open (the same fight as every other start)."""
        self.combat_dock.show()
        self.combat_dock.raise_()
        self.combat_panel.open_start_dialog()

    def _follow_flow(self, _change: object = None) -> None:
        """The menus' actions greyed with the engine's reason when the game does not allow them now."""
        self.menus.follow_flow(self.bridge.flow())

    def answer_decision(self, event: Event) -> MissingRowDialog | None:
        """An event that asks for something: the move the rules require, or the row a table lacks."""
        command = follow_up(event)
        if command is None:
            curse = ask_curse_row(self.bridge, event, self, self.row_requests.policy_chosen.emit)
            return curse or self.row_requests.answer(event)
        self.say(event.message, 10000)
        if self.bridge.send(command):
            self.combat_dock.raise_()
        return None

    def show_sheet_part(self, section: str) -> None:
        """A narrative's hand correction: show where to make it (the sheet, or the map for a door)."""
        if section == "doors":
            self.say("A door by hand: click it on the map (its menu has Mark it open), or Map > Edit map by hand, door tool.")
            return
        self.sheet_dock.show()
        self.sheet_dock.raise_()
        parts = {"hp": "health", "gp": "header", "supplies": "supplies", "tracks": "tracks", "items": "equipment"}
        parts |= {"characteristics": "characteristics", "skills": "skills", "time": "time"}
        part = getattr(self.sheet, parts.get(section, "header"), None)
        if isinstance(part, QWidget):
            self.sheet.scroll_area.ensureWidgetVisible(part)  # the sheet opens where the correction is made
        self.say(f"Correct the {section} on the character sheet by hand.")

    def open_skill_test(self, text: str | None = None) -> SkillTestDialog | None:
        return self.hero_actions.skill_test(text or "")

    @property
    def creation_wizard(self) -> CreationWizard | None:
        return self.hero_actions.creation_wizard

    @property
    def skill_test_dialog(self) -> SkillTestDialog | None:
        return self.hero_actions.test_dialog

    def edit_preferences(self) -> PreferencesDialog:
        """Edit > Preferences: OK applies each choice at once (see :class:`PreferenceActions`)."""
        self.preferences_dialog = self.preference_actions.edit()
        return self.preferences_dialog

    def new_campaign_chosen(self) -> None:
        """File > New campaign: a blank campaign on the preferred tile set, then how to handle missing rows."""
        self.campaigns.new_campaign()
        self.preference_actions.preferred_tileset()
        self.table_setup.choose()

    # ------------------------------------------------------------------ campaigns
    @property
    def campaign_path(self) -> Path | None:
        """The file the campaign autosaves to (None until its first action)."""
        return self.campaigns.path

    @property
    def last_message_box(self) -> QMessageBox | None:
        """The last campaign file refused (its box offers the backups)."""
        return self.campaigns.last_message_box

    def open_campaign(self, path: str | Path) -> bool:
        """Open a campaign file (the command line, Open Recent and the campaign list come here)."""
        return self.campaigns.open_campaign(path)

    def _path_changed(self) -> None:
        if self.campaign_path != self._titled_path:
            self._show_title()

    def _show_title(self, _change: object = None) -> None:
        """The window's title: the hero, the dungeon, else the campaign file's name."""
        self.title_updates += 1
        self._titled_path = self.campaign_path
        self.setWindowTitle(window_title(self.game.campaign, self.campaign_path))

    def _follow_undo(self, _change: object = None) -> None:
        """Edit > Undo and Redo: enabled while the game's history has a step that way, each saying why not."""
        can_undo, can_redo = self.game.can_undo, self.game.can_redo
        self.undo_action.setEnabled(can_undo)
        self.undo_action.setToolTip("Undo your last action" if can_undo else "Nothing to undo: no action taken yet")
        self.redo_action.setEnabled(can_redo)
        self.redo_action.setToolTip("Redo the action you undid" if can_redo else "Nothing to redo: undo an action first")

    def _follow_read_only(self, _change: object = None) -> None:
        """A fallen hero's campaign: the banner shown and the editing actions greyed with the reason."""
        self.roster.follow_read_only()

    def _follow_curse(self, _change: object = None) -> None:
        """Hero > Type the curse's row: enabled while a curse outside a fight waits for its Table C row."""
        waiting = curse_waiting(self.bridge)
        self.curse_row_action.setEnabled(waiting)
        self.curse_row_action.setToolTip("" if waiting else "No curse is waiting for its row.")

    def set_follow_hero(self, on: bool) -> None:
        """Map > Keep the hero in view: a preference, kept for the next start."""
        self.prefs.follow_hero = on
        self.prefs.sync()
        self.map_area.follow_hero = on

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.prefs.confirms("quit") and not getattr(self, "_quit_confirmed", False):
            event.ignore()  # asked first (Preferences > Ask first); Yes closes for real
            self.confirmations.ask("quit", self._quit_confirmed_close)
            return
        if not self.campaigns.may_close(self.close):  # actions a full disk kept unsaved: asked before any is dropped
            event.ignore()
            return
        self.prefs.qsettings.setValue("window/geometry", self.saveGeometry())
        self.prefs.qsettings.setValue("window/state", self.saveState())
        self.prefs.sync()
        self.campaigns.close()  # the store checkpointed: one file at rest, no -wal
        super().closeEvent(event)

    def _quit_confirmed_close(self) -> None:
        self._quit_confirmed = True
        self.close()

    def restore_window_state(self) -> bool:
        """Window geometry and dock layout as the player left them; True if both came back."""
        geometry = self.prefs.qsettings.value("window/geometry")
        state = self.prefs.qsettings.value("window/state")
        restored_geometry = geometry is not None and self.restoreGeometry(geometry)
        restored_state = state is not None and self.restoreState(state)
        return bool(restored_geometry and restored_state)

    def about(self) -> AboutDialog:
        """Help > About: the version, Qt and Python, the player's folders, the licence."""
        from d100gui.ui.common.about import AboutDialog

        self.about_dialog = AboutDialog(self)
        self.about_dialog.open()
        return self.about_dialog
