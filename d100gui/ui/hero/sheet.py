"""The character sheet dock: both pages of the paper sheet, read from the model, edited by commands.

:class:`CharacterSheet` is built from an :class:`~d100gui.ui.common.bridge.EngineBridge`. It
re-reads ``bridge.game.campaign.character`` whenever the bridge says something changed and
shows every field of the paper sheet, page 1 then page 2, in a narrow scrollable column of
sections (``sheet_stats``, ``sheet_equipment``, ``sheet_tracks``, ``sheet_spells``,
``sheet_page_two``):

* page 1 — name, REP, GP, Fate, Lives, quest encounter modifier; STR/DEX/INT with primary
  and adjusted values, experience pips and ability badges; health points; the equipment
  slots with their hit-location numbers, damage mods and repair pips; the belt slots; keys,
  levers, poison and disease tracks; skills with experience pips; the spell book (positions
  above the current INT greyed); the time track with its oil, food and wandering-monster symbols.
* page 2 — backpack, unequipped potions, non-slot items, supplies, quest log, empire
  building, notes and the combat track.

Nothing here changes the model: every edit (a pip clicked, a number typed, an item
rewritten) is a command sent through the bridge, so it is validated, logged (hand
corrections are marked manual) and undoable. A refused edit leaves the sheet as the model
says and shows the engine's message.

The sheet opens no dialog and prints nothing itself: it emits a request
(``test_requested``, ``print_requested``, ``export_requested``, ``item_edit_requested``,
``item_add_requested``, ``spell_edit_requested``, ``create_requested``) that
:class:`~d100gui.ui.hero.actions.HeroActions` answers.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.game import Command
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.fallen import death_of, describe, fallen_hero
from d100gui.engine.hero.model import Character
from d100gui.ui.common.bridge import ChangeSet, EngineBridge
from d100gui.ui.common.theme import scaled_font
from d100gui.ui.hero.sheet_equipment import BeltSection, EquipmentSection
from d100gui.ui.hero.sheet_menus import ItemMenus
from d100gui.ui.hero.sheet_page_two import (
    LISTS,
    EmpireSection,
    ItemListSection,
    NotesSection,
    QuestLogSection,
    SuppliesSection,
)
from d100gui.ui.hero.sheet_parts import (
    SheetSection,
    error_style,
    set_dim,
    sheet_palette,
    sheet_style,
)
from d100gui.ui.hero.sheet_spells import SpellBookSection
from d100gui.ui.hero.sheet_stats import CharacteristicsSection, HeaderSection, HealthSection, SkillsSection
from d100gui.ui.hero.sheet_tracks import CombatSection, CountTracksSection, TimeSection

__all__ = ["CharacterSheet"]

#: the campaign's parts the sheet shows: the hero, and the fallen its empty page names
SHEET_PARTS = ("character", "hall_of_fallen")


class CharacterSheet(QWidget):
    """Both pages of the paper character sheet in a dock, driven by the engine."""

    create_requested = Signal()  # "Create a character..." / "Continue creating..."
    test_requested = Signal(str)  # an ad hoc skill test ("") or a Test: line
    print_requested = Signal()
    export_requested = Signal()  # export to PDF; the answer asks where
    item_edit_requested = Signal(str, str, int)  # where, slot, index
    item_add_requested = Signal(str, int)  # where, belt index
    spell_edit_requested = Signal(int)  # spell-book index
    hall_requested = Signal()  # the fallen hero's final sheet, map and log (the roster's viewer)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("characterSheet")
        self.bridge = bridge
        self.rules = bridge.rules
        self.renders = 0  # how many times the sheet was drawn from the hero (tests count: once per action)
        self.last_error = ""
        self._error_seen = ""
        self.menus = ItemMenus(self, self.rules, self.send, self.add_item, self.edit_item, self.edit_spell)
        self._restyling = True  # building: nothing to follow yet
        self.setPalette(sheet_palette(QApplication.palette()))
        self.setMinimumWidth(300)
        self._build()
        # On the pages, not on the sheet itself: a widget with a style sheet is not told of a theme switch.
        self.stack.setStyleSheet(sheet_style(self.palette()))
        self._connect()
        self.refresh()
        self._restyling = False

    # ------------------------------------------------------------------ theme
    def changeEvent(self, event: QEvent) -> None:
        """A theme switch (the application's palette changed): take its colours at once."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and not self._restyling:
            self.follow_palette()

    def follow_palette(self) -> None:
        """Re-read the application's palette and re-apply every style sheet of the sheet.

        A style sheet reads ``palette(...)`` when it is applied, so after a theme switch the
        sheet's boxes would keep the old theme's paper under the new theme's ink."""
        self._restyling = True
        try:
            self.setPalette(sheet_palette(QApplication.palette()))
            palette = self.palette()  # the application's colours with the sheet's own on top
            self.message.setStyleSheet(error_style(palette))
            self.stack.setStyleSheet(sheet_style(palette))
        finally:
            self._restyling = False

    # ------------------------------------------------------------------ model access
    @property
    def character(self) -> Character | None:
        return self.bridge.game.campaign.character

    def send(self, command: Command) -> bool:
        """Send a command; show the engine's message if it is refused. The sheet re-reads the model."""
        self._error_seen = ""
        ok = self.bridge.send(command)
        self.last_error = "" if ok else self._error_seen
        self.show_message(self.last_error)
        if not ok:
            self.refresh()  # put back what the model says (a done command refreshes through the bridge)
        return ok

    def show_message(self, text: str) -> None:
        """Show a message above the sheet (an empty text hides it)."""
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def _remember_error(self, text: str) -> None:
        self._error_seen = text

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        outer.setSpacing(2)
        outer.addLayout(self._build_tools())
        self.message = QLabel()
        self.message.setObjectName("sheetMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(error_style(self.palette()))
        self.message.setVisible(False)
        outer.addWidget(self.message)
        self.stack = QStackedWidget()
        outer.addWidget(self.stack, 1)
        self.stack.addWidget(self._build_empty())
        self.scroll_area = QScrollArea()
        self.scroll_area.setAccessibleName("Character sheet")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.content = QWidget()
        self.body = QVBoxLayout(self.content)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.setSpacing(5)
        self.scroll_area.setWidget(self.content)
        self.stack.addWidget(self.scroll_area)
        self.body.addWidget(self._build_banner())
        self._build_sections()
        self.body.addStretch(1)

    def _build_tools(self) -> QHBoxLayout:
        tools = QHBoxLayout()
        tools.setSpacing(3)
        self.test_button = QPushButton("Test…")
        self.test_button.setToolTip("Make an ad hoc skill test: pick a characteristic, a modifier and skills")
        self.print_button = QPushButton("Print…")
        self.print_button.setToolTip("Print the sheet on two pages, at true scale")
        self.pdf_button = QPushButton("PDF…")
        self.pdf_button.setToolTip("Export the sheet to a two-page PDF")
        for b in (self.test_button, self.print_button, self.pdf_button):
            tools.addWidget(b)
        tools.addStretch(1)
        return tools

    def _build_empty(self) -> QWidget:
        empty = QWidget()
        col = QVBoxLayout(empty)
        col.addStretch(1)
        self.empty_label = QLabel("No character yet.")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet("padding: 12px;")
        scaled_font(self.empty_label, 1.15)
        set_dim(self.empty_label)
        col.addWidget(self.empty_label)
        self.create_button = QPushButton("Create a character…")
        self.create_button.setToolTip("Make a new hero by the rulebook's creation steps (Hero > New character)")
        self.create_button.clicked.connect(lambda _=False: self.create_requested.emit())
        col.addWidget(self.create_button, 0, Qt.AlignmentFlag.AlignHCenter)
        self.hall_button = QPushButton("View the final sheet, map and log…")
        self.hall_button.setToolTip("Open the fallen hero's final sheet, map and adventure log, read-only")
        self.hall_button.clicked.connect(lambda _=False: self.hall_requested.emit())
        self.hall_button.setVisible(False)
        col.addWidget(self.hall_button, 0, Qt.AlignmentFlag.AlignHCenter)
        col.addStretch(2)
        return empty

    def _build_banner(self) -> QFrame:
        self.creating_banner = QFrame()
        banner = QHBoxLayout(self.creating_banner)
        banner.setContentsMargins(4, 2, 4, 2)
        self.creating_label = QLabel("Being created.")
        self.creating_label.setWordWrap(True)
        banner.addWidget(self.creating_label, 1)
        self.continue_button = QPushButton("Continue creating…")
        self.continue_button.setToolTip("Go back to the creation wizard at the step you left")
        self.continue_button.clicked.connect(lambda _=False: self.create_requested.emit())
        banner.addWidget(self.continue_button)
        return self.creating_banner

    def _build_sections(self) -> None:
        rules, send = self.rules, self.send
        self.header = HeaderSection(rules, send)
        self.characteristics = CharacteristicsSection(rules, send)
        self.health = HealthSection(rules, send)
        self.equipment = EquipmentSection(rules, send, self)
        self.belt = BeltSection(rules, send, self)
        self.tracks = CountTracksSection(rules, send)
        self.skills = SkillsSection(rules, send)
        self.spells = SpellBookSection(rules, send, self)
        self.time = TimeSection(rules, send)
        self.lists = {where: ItemListSection(where, title, rules, send, self) for where, title in LISTS}
        self.supplies = SuppliesSection(rules, send)
        self.quest_log = QuestLogSection(rules, send)
        self.empire = EmpireSection(rules, send)
        self.notes_section = NotesSection(rules, send)
        self.combat = CombatSection(rules, send)
        page_one: list[SheetSection] = [self.header, self.characteristics, self.health, self.equipment, self.belt]
        page_one += [self.tracks, self.skills, self.spells, self.time]
        page_two: list[SheetSection] = [*self.lists.values(), self.supplies, self.quest_log, self.empire]
        page_two += [self.notes_section, self.combat]
        self.sections = page_one + page_two
        for section in page_one:
            self.body.addWidget(section)
        page2 = QLabel("— PAGE 2 —")
        page2.setAlignment(Qt.AlignmentFlag.AlignCenter)
        page2.setStyleSheet("font-size: 8pt; letter-spacing: 2px;")
        set_dim(page2)
        self.body.addWidget(page2)
        for section in page_two:
            self.body.addWidget(section)

    def _connect(self) -> None:
        self.bridge.error.connect(self._remember_error)
        self.bridge.changed.connect(self._changed)
        self.test_button.clicked.connect(lambda _=False: self.test_requested.emit(""))
        self.print_button.clicked.connect(lambda _=False: self.print_requested.emit())
        self.pdf_button.clicked.connect(lambda _=False: self.export_requested.emit())

    # ------------------------------------------------------------------ render
    def _changed(self, change: ChangeSet) -> None:
        """Once per action: drawn again only if it changed the hero (or the fallen the empty sheet names)."""
        if change.reset or change.touches(*SHEET_PARTS):
            self.refresh()
        elif self.stack.currentIndex() == 1:  # the spell book's result follows every action (an undo, a curse's row)
            self.spells.follow()

    def refresh(self) -> None:
        """Re-read the character and show it."""
        self.renders += 1
        ch = self.character
        if ch is None or ch.dead:
            self._show_empty(ch)
            return
        if self.stack.currentIndex() != 1:  # asked again, the stack lays itself out again
            self.stack.setCurrentIndex(1)
        creating = ch.creation is not None
        self.creating_banner.setVisible(creating)
        if creating:
            self.creating_label.setText(f"<b>{ch.name or 'A new character'}</b> is being created.")
        self.test_button.setEnabled(not creating)
        self.print_button.setEnabled(True)
        self.pdf_button.setEnabled(True)
        d = derive(ch, self.rules)
        for section in self.sections:
            section.show_character(ch, d)

    def _show_empty(self, ch: Character | None) -> None:
        """No living hero: say so, or who has fallen and how (the engine's mark and the log's death event)."""
        campaign = self.bridge.game.campaign
        fallen = fallen_hero(campaign)
        if fallen is None:
            self.empty_label.setText("No character yet.")
            self.create_button.setText("Create a character…")
        else:
            self.empty_label.setText(
                f"{describe(fallen.name, death_of(campaign))}\nTheir final sheet is kept, read-only, in the hall of the fallen."
            )
            self.create_button.setText("New hero…")
        self.hall_button.setVisible(fallen is not None)
        self.stack.setCurrentIndex(0)
        for button in (self.test_button, self.print_button, self.pdf_button):
            button.setEnabled(False)

    # ------------------------------------------------------------------ requests (answered by HeroActions)
    def item_menu(self, where: str, slot: str = "", index: int = 0) -> QMenu:
        """What can be done with the item at a place of the sheet (also for an empty place)."""
        return self.menus.item_menu(self.character, where, slot, index)

    def spell_menu(self, index: int) -> QMenu:
        """Write, edit or erase the spell at a spell-book position."""
        return self.menus.spell_menu(self.character, index)

    def edit_item(self, where: str, slot: str = "", index: int = 0) -> None:
        """Ask for the item form of the item there."""
        self.item_edit_requested.emit(where, slot, index)

    def add_item(self, where: str, belt_index: int = 0) -> None:
        """Ask for an empty item form, to write an item there by hand."""
        self.item_add_requested.emit(where, belt_index)

    def edit_spell(self, index: int) -> None:
        """Ask for the spell form of a spell-book position."""
        self.spell_edit_requested.emit(index)

    # ------------------------------------------------------------------ read by others
    @property
    def name_edit(self) -> QLineEdit:
        """The name box (read by tests that check a campaign reopens with its hero)."""
        return self.header.name_edit
