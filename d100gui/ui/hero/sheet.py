"""The character sheet dock: both pages of the paper sheet, read from the model, edited by commands.

:class:`CharacterSheet` is built from an :class:`~.bridge.EngineBridge`. It re-reads
``bridge.game.campaign.character`` whenever the bridge says something changed and shows
every field of the paper sheet, page 1 then page 2, in a narrow scrollable column:

* page 1 — name, REP, GP, Fate, Lives, quest encounter modifier; STR/DEX/INT with primary
  and adjusted values, experience pips and ability badges (lit at 50); health points; the
  equipment slots with their hit-location numbers, damage mods and repair pips; belt slots
  1-10; keys, levers, poison and disease tracks; skills with experience pips; the spell book
  (positions above the current INT greyed); the time track with its oil, food and
  wandering-monster symbols.
* page 2 — backpack, unequipped potions, non-slot items, supplies, quest log, empire
  building, notes and the combat track.

Nothing here changes the model: every edit (a pip clicked, a number typed, an item
rewritten) is a command sent through the bridge, so it is validated, logged (hand
corrections are marked manual) and undoable. A refused edit leaves the sheet as the model
says and shows the engine's message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.game import Command, CommandRefused
from d100gui.engine.hero.character import STATS, Character, Derived, Item, check_equip, derive
from d100gui.engine.hero.commands import AddItem, EquipItem, MoveToBelt, TakeFromBelt, UnequipItem
from d100gui.engine.hero.sheet_edits import (
    DiscardItem,
    EditItem,
    SetCharacteristic,
    SetSheetField,
    SetSkillBonus,
    SetSpell,
    SetTrackPips,
)
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import _Validating
from d100gui.ui.common.pips import PipTrack

ERROR_STYLE = "color: #c0392b;"
DIM_STYLE = "color: palette(placeholder-text);"
SHEET_STYLE = """
QFrame#sheetSection { border: 1px solid palette(mid); border-radius: 2px; }
QLabel#sectionTitle { background: palette(window-text); color: palette(window); font-weight: bold; padding: 1px 5px; }
QLabel#locBadge { border: 1px solid palette(window-text); border-radius: 8px; font-weight: bold; }
QLabel#fieldLabel { font-size: 8pt; font-weight: bold; }
QLabel#small { font-size: 8pt; }
QSpinBox#sheetNumber, QLineEdit#sheetText { border: 1px solid palette(mid); background: palette(base); padding: 0 1px; }
QSpinBox#sheetNumber::up-button, QSpinBox#sheetNumber::down-button { width: 0; border: none; }
QLabel#badgeOn { background: palette(highlight); color: palette(highlighted-text); border: 1px solid palette(highlight);
                 border-radius: 3px; padding: 1px 4px; font-weight: bold; }
QLabel#badgeOff { color: palette(placeholder-text); border: 1px dashed palette(mid); border-radius: 3px; padding: 1px 4px; }
"""


@contextmanager
def signals_blocked(*widgets: QWidget) -> Iterator[None]:
    """Update widgets from the model without their change signals sending commands back."""
    previous = [w.blockSignals(True) for w in widgets]
    try:
        yield
    finally:
        for w, was in zip(widgets, previous, strict=True):
            w.blockSignals(was)


def _signed(n: int) -> str:
    return f"{n:+d}"


def item_stats(item: Item) -> str:
    """The numbers of an item's sheet columns, short: ``DEF 1 · -2 DMG · +5 STR · 23 gp``."""
    bits = item.stat_bits(two_handed="2-handed")
    if item.weapon_type:
        bits.append(f"({item.weapon_type})")
    if item.value:
        bits.append(f"{item.value} gp")
    if item.effect:
        bits.append(item.effect)
    return " · ".join(bits)


# --------------------------------------------------------------------------- small widgets


class ElidedLabel(QLabel):
    """A label that cuts long text with "…" instead of widening the narrow dock."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(20)

    def minimumSizeHint(self) -> QSize:
        return QSize(20, super().minimumSizeHint().height())

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setFont(self.font())
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), text)
        painter.end()


class NumberBox(QSpinBox):
    """A boxed number like the paper's: no arrows, commits on Enter or leaving the box,
    ignores the mouse wheel unless focused (so scrolling the sheet never edits it)."""

    def __init__(self, lo: int = 0, hi: int = 9999, width: int = 38, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sheetNumber")
        self.setRange(lo, hi)
        # no arrows: the sheet's style sheet gives the buttons no width (NoButtons would
        # collapse the text field under a style sheet border)
        self.setKeyboardTracking(False)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFixedSize(width, 20)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event) -> None:
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class NotesEdit(QPlainTextEdit):
    """The notes box; ``editing_finished`` when focus leaves it."""

    editing_finished = Signal()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.editing_finished.emit()


class Section(QFrame):
    """A boxed part of the sheet with an inverted title bar, like the printed sheet's."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sheetSection")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(1, 1, 1, 4)
        outer.setSpacing(3)
        head = QHBoxLayout()
        head.setSpacing(0)
        self.title = QLabel(title.upper())
        self.title.setObjectName("sectionTitle")
        head.addWidget(self.title, 1)
        self.head = head
        outer.addLayout(head)
        self.body = QVBoxLayout()
        self.body.setContentsMargins(4, 0, 4, 0)
        self.body.setSpacing(2)
        outer.addLayout(self.body)

    def add_head_button(self, text: str, tip: str, slot: Callable[[], object]) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setFlat(True)
        button.setFixedHeight(18)
        button.setStyleSheet("padding: 0 4px; font-size: 8pt;")
        button.clicked.connect(lambda _=False: slot())
        self.head.addWidget(button)
        return button


def _field_label(text: str, tip: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("fieldLabel")
    if tip:
        label.setToolTip(tip)
    return label


def _small(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("small")
    return label


class ItemRow(QFrame):
    """One item line of the sheet; right-click (or the keyboard menu key) for what can be done with it."""

    def __init__(
        self, menu: Callable[[], QMenu], edit: Callable[[], object] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._menu = menu
        self._edit = edit
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)

    def contextMenuEvent(self, event) -> None:
        self._menu().exec(event.globalPos())

    def mouseDoubleClickEvent(self, event) -> None:
        if self._edit is not None:
            self._edit()
        else:
            super().mouseDoubleClickEvent(event)


# --------------------------------------------------------------------------- dialogs


class ItemDialog(_Validating):
    """Write or rewrite an item by hand: its name and the sheet's columns for it."""

    KINDS = ("armour", "weapon", "shield", "jewellery", "brew", "potion", "scroll", "elixir", "item")

    def __init__(self, rules: Rules, item: Item | None = None, title: str = "Item", parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.original = item or Item(name="")
        form = QFormLayout()
        self.name = QLineEdit(self.original.name)
        form.addRow("Name", self.name)
        self.kind = QComboBox()
        self.kind.addItems(self.KINDS)
        self.kind.setCurrentText(self.original.kind)
        form.addRow("Kind", self.kind)
        self.slot = QComboBox()
        self.slot.addItem("(no slot)", "")
        for s in rules.slots:
            self.slot.addItem(s.name if s.id not in ("ring_1", "ring_2") else f"Ring ({s.id[-1]})", s.id)
        self.slot.setCurrentIndex(max(0, self.slot.findData(self.original.slot)))
        form.addRow("Slot", self.slot)

        def spin(value: int, lo: int = -99, hi: int = 999) -> QSpinBox:
            box = QSpinBox()
            box.setRange(lo, hi)
            box.setValue(value)
            return box

        self.bonuses = {s: spin(self.original.bonuses.get(s, 0)) for s in STATS}
        row = QHBoxLayout()
        for s, box in self.bonuses.items():
            row.addWidget(QLabel(s))
            row.addWidget(box)
        form.addRow("Bonuses", row)
        self.hp_bonus = spin(self.original.hp_bonus)
        form.addRow("HP bonus", self.hp_bonus)
        self.defence = spin(self.original.defence, 0, 99)
        self.defence_bonus = QCheckBox("written with + (Defence Bonus)")
        self.defence_bonus.setChecked(self.original.defence_bonus)
        row = QHBoxLayout()
        row.addWidget(self.defence)
        row.addWidget(self.defence_bonus)
        form.addRow("DEF", row)
        self.shield = spin(self.original.shield, 0, 99)
        form.addRow("Shield S", self.shield)
        self.dmg = spin(self.original.dmg)
        form.addRow("DMG", self.dmg)
        self.value = spin(self.original.value, 0, 999999)
        form.addRow("Value (gp)", self.value)
        self.repair_cost = spin(self.original.repair_cost or 0, 0, 99999)
        self.repair_cost.setSpecialValueText("1/5 of the value")
        form.addRow("Repair cost per pip", self.repair_cost)
        self.two_handed = QCheckBox("Two-handed")
        self.two_handed.setChecked(self.original.two_handed)
        form.addRow("", self.two_handed)
        self.effect = QLineEdit(self.original.effect)
        form.addRow("Effect", self.effect)
        self.layout_.addLayout(form)
        self._finish_layout()

    def item(self) -> Item:
        """The item as written, keeping what the form does not show (damage, source)."""
        return self.original.model_copy(
            update={
                "name": " ".join(self.name.text().split()),
                "kind": self.kind.currentText(),
                "slot": self.slot.currentData() or "",
                "bonuses": {s: b.value() for s, b in self.bonuses.items() if b.value()},
                "hp_bonus": self.hp_bonus.value(),
                "defence": self.defence.value(),
                "defence_bonus": self.defence_bonus.isChecked(),
                "shield": self.shield.value(),
                "dmg": self.dmg.value(),
                "value": self.value.value(),
                "repair_cost": self.repair_cost.value() or None,
                "two_handed": self.two_handed.isChecked(),
                "effect": self.effect.text().strip(),
            }
        )

    def _validate(self) -> str:
        if not self.name.text().strip():
            return "Give the item a name."
        return ""


class SpellDialog(_Validating):
    """Write a spell in a spell-book position (name, casting cost, effect)."""

    def __init__(self, position: int, threshold: int, name: str = "", cost: str = "", effect: str = "", parent=None) -> None:
        super().__init__(f"Spell book position {position} (INT {threshold}+)", parent)
        form = QFormLayout()
        self.name = QLineEdit(name)
        self.cost = QLineEdit(cost)
        self.cost.setPlaceholderText("-1 HP")
        self.effect = QLineEdit(effect)
        form.addRow("Spell", self.name)
        form.addRow("Cost", self.cost)
        form.addRow("Effect", self.effect)
        self.layout_.addLayout(form)
        self._finish_layout()

    def _validate(self) -> str:
        return "" if self.name.text().strip() else "Write the spell's name (use Erase to empty the position)."


# --------------------------------------------------------------------------- the sheet


class CharacterSheet(QWidget):
    """Both pages of the paper character sheet in a dock, driven by the engine."""

    create_requested = Signal()  # "Create a character..." / "Continue creating..."

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.rules = bridge.rules
        self.last_error = ""
        self._error_seen = ""
        self.item_dialog: ItemDialog | None = None
        self.spell_dialog: SpellDialog | None = None
        self.test_dialog: QWidget | None = None
        self.print_dialog: QWidget | None = None
        self.setStyleSheet(SHEET_STYLE)
        self.setMinimumWidth(300)
        self._build()
        self._connect()
        self.refresh()

    # ------------------------------------------------------------------ model access
    @property
    def character(self) -> Character | None:
        return self.bridge.game.campaign.character

    def send(self, command: Command) -> bool:
        """Send a command; show the engine's message if it is refused. The sheet re-reads the model."""
        self._error_seen = ""
        ok = self.bridge.send(command)
        self.last_error = "" if ok else self._error_seen
        self.message.setText(self.last_error)
        self.message.setVisible(bool(self.last_error))
        if not ok:
            self.refresh()  # put back what the model says (a done command refreshes through the bridge)
        return ok

    def _remember_error(self, text: str) -> None:
        self._error_seen = text

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        outer.setSpacing(2)
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
        outer.addLayout(tools)
        self.message = QLabel()
        self.message.setObjectName("sheetMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(ERROR_STYLE)
        self.message.setVisible(False)
        outer.addWidget(self.message)

        self.stack = QStackedWidget()
        outer.addWidget(self.stack, 1)
        # the empty page
        empty = QWidget()
        col = QVBoxLayout(empty)
        col.addStretch(1)
        self.empty_label = QLabel("No character yet.")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet("color: palette(placeholder-text); font-size: 15px; padding: 12px;")
        col.addWidget(self.empty_label)
        self.create_button = QPushButton("Create a character…")
        self.create_button.clicked.connect(lambda _=False: self.create_requested.emit())
        col.addWidget(self.create_button, 0, Qt.AlignmentFlag.AlignHCenter)
        col.addStretch(2)
        self.stack.addWidget(empty)
        # the sheet
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        content = QWidget()
        self.content = content
        self.body = QVBoxLayout(content)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.setSpacing(5)
        self.scroll.setWidget(content)
        self.stack.addWidget(self.scroll)

        self.creating_banner = QFrame()
        banner = QHBoxLayout(self.creating_banner)
        banner.setContentsMargins(4, 2, 4, 2)
        self.creating_label = QLabel("Being created.")
        self.creating_label.setWordWrap(True)
        banner.addWidget(self.creating_label, 1)
        self.continue_button = QPushButton("Continue creating…")
        self.continue_button.clicked.connect(lambda _=False: self.create_requested.emit())
        banner.addWidget(self.continue_button)
        self.body.addWidget(self.creating_banner)

        self._build_header()
        self._build_characteristics()
        self._build_health()
        self._build_equipment()
        self._build_belt()
        self._build_tracks()
        self._build_skills()
        self._build_spells()
        self._build_time()
        page2 = QLabel("— PAGE 2 —")
        page2.setAlignment(Qt.AlignmentFlag.AlignCenter)
        page2.setStyleSheet(DIM_STYLE + " font-size: 8pt; letter-spacing: 2px;")
        self.body.addWidget(page2)
        self._build_lists()
        self._build_supplies()
        self._build_quest_log()
        self._build_empire()
        self._build_notes()
        self._build_combat()
        self.body.addStretch(1)

    def _section(self, title: str) -> Section:
        section = Section(title)
        self.body.addWidget(section)
        return section

    def _number(self, lo: int, hi: int, send: Callable[[int], Command], width: int = 38, tip: str = "") -> NumberBox:
        box = NumberBox(lo, hi, width)
        if tip:
            box.setToolTip(tip)
        box.valueChanged.connect(lambda v: self.send(send(v)))
        return box

    def _track(self, count: int, send: Callable[[int], Command], name: str, **kw) -> PipTrack:
        track = PipTrack(count, name=name, **kw)
        track.value_requested.connect(lambda v: self.send(send(v)))
        return track

    def _build_header(self) -> None:
        s = self._section("Character")
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        grid.addWidget(_field_label("NAME"), 0, 0)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("sheetText")
        self.name_edit.editingFinished.connect(self._name_edited)
        grid.addWidget(self.name_edit, 0, 1, 1, 5)
        self.header_boxes: dict[str, NumberBox] = {}
        fields = (
            ("rep", "REP", "Reputation: 1 to 10", 0, 99),
            ("gp", "GP", "Gold pieces", 0, 9999999),
            ("fate", "FATE", "Fate points: re-roll any dice of a roll", 0, 99),
            ("lives", "LIVES", "Lives: cheat death, HP back to maximum", 0, 99),
            ("quest_encounter_modifier", "ENC.MOD", "Quest encounter modifier, added to Table E rolls", -999, 999),
        )
        row = QHBoxLayout()
        row.setSpacing(3)
        for key, label, tip, lo, hi in fields:
            cell = QVBoxLayout()
            cell.setSpacing(0)
            cell.addWidget(_field_label(label, tip), 0, Qt.AlignmentFlag.AlignHCenter)
            box = self._number(lo, hi, lambda v, k=key: SetSheetField(field=k, value=v), 56 if key == "gp" else 40, tip)
            self.header_boxes[key] = box
            cell.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)
            row.addLayout(cell)
        row.addStretch(1)
        grid.addLayout(row, 1, 0, 1, 6)
        self.res_check = QCheckBox("RES in the Lives box")
        self.res_check.setToolTip("Resurrection: written in the LIVES box")
        self.res_check.toggled.connect(lambda on: self.send(SetSheetField(field="res", value=on)))
        grid.addWidget(self.res_check, 2, 0, 1, 6)
        s.body.addLayout(grid)

    def _build_characteristics(self) -> None:
        s = self._section("Characteristics")
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(2)
        grid.addWidget(_field_label("PRIM."), 0, 1, Qt.AlignmentFlag.AlignHCenter)
        grid.addWidget(_field_label("ADJ."), 0, 2, Qt.AlignmentFlag.AlignHCenter)
        grid.addWidget(_field_label("EXPERIENCE  (full: +5)"), 0, 3)
        self.primary_boxes: dict[str, NumberBox] = {}
        self.adjusted_labels: dict[str, QLabel] = {}
        self.stat_tracks: dict[str, PipTrack] = {}
        for r, stat in enumerate(self.rules.characteristics, start=1):
            name = QLabel(f"<b>{stat}</b>")
            name.setToolTip(self.rules.characteristic_names.get(stat, stat))
            grid.addWidget(name, r, 0)
            box = self._number(0, 999, lambda v, st=stat: SetCharacteristic(stat=st, primary=v), 34, "Primary value")
            self.primary_boxes[stat] = box
            grid.addWidget(box, r, 1)
            adj = QLabel()
            adj.setMinimumWidth(26)
            adj.setAlignment(Qt.AlignmentFlag.AlignCenter)
            adj.setStyleSheet("font-weight: bold; font-size: 11pt;")
            self.adjusted_labels[stat] = adj
            grid.addWidget(adj, r, 2)
            track = self._track(
                self.rules.sheet.characteristic_track,
                lambda v, st=stat: SetTrackPips(track="experience", target=st, value=v),
                f"{stat} experience",
                end_label="+5",
            )
            self.stat_tracks[stat] = track
            grid.addWidget(track, r, 3)
        grid.setColumnStretch(4, 1)
        s.body.addLayout(grid)
        badges = QHBoxLayout()
        badges.setSpacing(3)
        self.ability_badges: dict[str, QLabel] = {}
        for ability in self.rules.abilities:
            badge = QLabel(ability.name)
            badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.ability_badges[ability.id] = badge
            badges.addWidget(badge)
        s.body.addLayout(badges)

    def _build_health(self) -> None:
        s = self._section("Health points")
        row = QHBoxLayout()
        row.setSpacing(4)
        row.addWidget(_field_label("HP"))
        self.hp_box = self._number(-99, 999, lambda v: SetSheetField(field="hp", value=v), 38, "Current HP")
        row.addWidget(self.hp_box)
        self.hp_max_label = QLabel()
        row.addWidget(self.hp_max_label)
        row.addSpacing(6)
        row.addWidget(_field_label("PRIMARY"))
        self.hp_primary_box = self._number(-99, 999, lambda v: SetSheetField(field="hp_primary", value=v), 38, "Primary HP")
        row.addWidget(self.hp_primary_box)
        row.addStretch(1)
        s.body.addLayout(row)
        self.combat_summary = _small()
        self.combat_summary.setWordWrap(True)
        s.body.addWidget(self.combat_summary)

    def _build_equipment(self) -> None:
        s = self._section("Equipment")
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        grid.addWidget(_field_label("LOC", "Hit-location roll (d10)"), 0, 0)
        grid.addWidget(_field_label("SLOT  MOD", "Slot and its damage mod"), 0, 1)
        grid.addWidget(_field_label("ITEM  ·  REPAIR TRACK"), 0, 2)
        self.slot_rows: dict[str, ItemRow] = {}
        self.slot_items: dict[str, ElidedLabel] = {}
        self.slot_stats: dict[str, ElidedLabel] = {}
        self.slot_repairs: dict[str, PipTrack] = {}
        for r, slot in enumerate(self.rules.slots, start=1):
            badge = QLabel(str(slot.hit_location) if slot.hit_location else "–")
            badge.setObjectName("locBadge")
            badge.setFixedSize(17, 17)
            badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
            tip = f"Hit location {slot.hit_location}" if slot.hit_location else "Never hit"
            if slot.belt_check:
                tip += ": a hit here makes a Belt Check"
            badge.setToolTip(tip)
            grid.addWidget(badge, r, 0, Qt.AlignmentFlag.AlignTop)
            mod = f" <small>{_signed(self.rules.damage_mod(slot.id))}</small>" if slot.hit_location else ""
            name = QLabel(f"<b>{slot.name}</b>{mod}")
            name.setToolTip("Slot, and the damage mod at this hit location")
            grid.addWidget(name, r, 1, Qt.AlignmentFlag.AlignTop)
            row = ItemRow(
                lambda sid=slot.id: self.item_menu("equipment", slot=sid),
                lambda sid=slot.id: self.edit_item("equipment", slot=sid),
            )
            lines = QGridLayout(row)
            lines.setContentsMargins(0, 0, 0, 0)
            lines.setSpacing(0)
            item = ElidedLabel()
            stats = ElidedLabel()
            stats.setObjectName("small")
            lines.addWidget(item, 0, 0, 1, 2)
            lines.addWidget(stats, 1, 0)
            lines.setColumnStretch(0, 1)
            grid.addWidget(row, r, 2)
            repair = self._track(
                self.rules.sheet.repair_track,
                lambda v, sid=slot.id: SetTrackPips(track="repair", target=sid, value=v),
                f"{slot.name} repair",
                shape="box",
                pip_size=9,
                gap=2,
            )
            repair.setToolTip("Repair track: one pip per point of damage taken")
            lines.addWidget(repair, 1, 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.slot_rows[slot.id] = row
            self.slot_items[slot.id] = item
            self.slot_stats[slot.id] = stats
            self.slot_repairs[slot.id] = repair
        grid.setColumnStretch(2, 1)
        s.body.addLayout(grid)

    def _build_belt(self) -> None:
        s = self._section("Belt slots")
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        self.belt_labels: list[ElidedLabel] = []
        self.belt_rows: list[ItemRow] = []
        half = (self.rules.belt_slots + 1) // 2
        for i in range(self.rules.belt_slots):
            row = ItemRow(lambda i=i: self.item_menu("belt", index=i), lambda i=i: self.edit_item("belt", index=i))
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(3)
            number = QLabel(str(i + 1))
            number.setObjectName("locBadge")
            number.setFixedSize(17, 17)
            number.setAlignment(Qt.AlignmentFlag.AlignCenter)
            line.addWidget(number)
            label = ElidedLabel()
            line.addWidget(label, 1)
            self.belt_labels.append(label)
            self.belt_rows.append(row)
            grid.addWidget(row, i % half, i // half)
        s.body.addLayout(grid)

    def _build_tracks(self) -> None:
        s = self._section("Keys · Levers · Poison · Disease")
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.count_tracks: dict[str, PipTrack] = {}
        for r, name in enumerate(("keys", "levers", "poison", "disease")):
            grid.addWidget(_field_label(name.upper()), r, 0)
            length = int(getattr(self.rules.sheet, f"{name}_track"))
            track = self._track(
                length,
                lambda v, n=name: SetTrackPips(track=n, value=v),
                name.title(),
                shape="box" if name in ("keys", "levers") else "circle",
            )
            track.set_tips({k: f"{name.title()} {k}" for k in range(1, length + 1)})
            self.count_tracks[name] = track
            grid.addWidget(track, r, 1)
        grid.setColumnStretch(2, 1)
        s.body.addLayout(grid)

    def _build_skills(self) -> None:
        s = self._section(f"Skills  (max +{self.rules.skill_max})")
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        self.skill_boxes: dict[str, NumberBox] = {}
        self.skill_tracks: dict[str, PipTrack] = {}
        for r, skill in enumerate(self.rules.skills):
            grid.addWidget(QLabel(skill), r, 0)
            box = self._number(-99, 999, lambda v, sk=skill: SetSkillBonus(skill=sk, bonus=v), 32, f"{skill} bonus")
            box.setPrefix("+")
            box.setSingleStep(self.rules.skill_step)
            self.skill_boxes[skill] = box
            grid.addWidget(box, r, 1)
            track = self._track(
                self.rules.sheet.skill_track,
                lambda v, sk=skill: SetTrackPips(track="experience", target=sk, value=v),
                f"{skill} experience",
                end_label="+5",
            )
            self.skill_tracks[skill] = track
            grid.addWidget(track, r, 2)
        grid.setColumnStretch(3, 1)
        s.body.addLayout(grid)

    def _build_spells(self) -> None:
        s = self._section("Spell book")
        self.spell_state = _small()
        self.spell_state.setWordWrap(True)
        s.body.addWidget(self.spell_state)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(0)
        self.spell_rows: list[ItemRow] = []
        self.spell_names: list[ElidedLabel] = []
        self.spell_thresholds: list[QLabel] = []
        for i, threshold in enumerate(self.rules.spell_thresholds()):
            level = QLabel(f"{threshold}+")
            level.setObjectName("fieldLabel")
            level.setFixedWidth(30)
            grid.addWidget(level, i, 0)
            row = ItemRow(lambda i=i: self.spell_menu(i), lambda i=i: self.edit_spell(i))
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            name = ElidedLabel()
            line.addWidget(name, 1)
            grid.addWidget(row, i, 1)
            self.spell_rows.append(row)
            self.spell_names.append(name)
            self.spell_thresholds.append(level)
        grid.setColumnStretch(1, 1)
        s.body.addLayout(grid)

    def _build_time(self) -> None:
        s = self._section("Time track")
        layout = self.rules.sheet.time_track
        self.time_track = self._track(
            layout.clocks, lambda v: SetTrackPips(track="time", value=v), "Time track", shape="clock", pip_size=18, gap=5
        )
        icons: dict[int, list[str]] = {}
        for t in layout.triggers:
            icons.setdefault(t.clock, []).append(f"{t.kind}:{t.number}" if t.number is not None else t.kind)
        self.time_track.set_icons(icons)
        self.time_track.set_tips({k: f"Clock {k}" for k in range(1, layout.clocks + 1)})
        s.body.addWidget(self.time_track)
        legend = _small("Symbols: flame = use oil · loaf = eat food · eye = wandering monster on d10 ≤ n")
        legend.setWordWrap(True)
        legend.setStyleSheet(DIM_STYLE)
        s.body.addWidget(legend)
        self.time_bonuses = _small()
        self.time_bonuses.setWordWrap(True)
        s.body.addWidget(self.time_bonuses)
        row = QHBoxLayout()
        self.darkness_check = QCheckBox(f"No light ({self.rules.darkness_modifier})")
        self.darkness_check.setToolTip(
            f"The sun at the top of the sheet is shaded: no oil, {self.rules.darkness_modifier} to STR, DEX and INT"
        )
        self.darkness_check.toggled.connect(lambda on: self.send(SetSheetField(field="in_darkness", value=on)))
        row.addWidget(self.darkness_check)
        row.addStretch(1)
        row.addWidget(_field_label("OBJECTIVES"))
        self.objectives_box = self._number(-99, 999, lambda v: SetSheetField(field="objectives", value=v), 32, "Objectives met")
        row.addWidget(self.objectives_box)
        s.body.addLayout(row)

    def _build_lists(self) -> None:
        self.list_sections: dict[str, Section] = {}
        self.list_rows: dict[str, list[ItemRow]] = {}
        for where, title in (("backpack", "Backpack"), ("potions", "Unequipped potions"), ("non_slot", "Non-slot items")):
            s = self._section(title)
            s.add_head_button("+ Add…", f"Write an item in the {title.lower()} by hand", lambda w=where: self.add_item(w))
            self.list_sections[where] = s
            self.list_rows[where] = []

    def _build_supplies(self) -> None:
        s = self._section("Supplies")
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.supply_tracks: dict[str, PipTrack] = {}
        self.supply_labels: dict[str, QLabel] = {}
        for r, (key, maximum) in enumerate(self.rules.supplies_max.items()):
            grid.addWidget(_field_label(key.upper()), r, 0, Qt.AlignmentFlag.AlignTop)
            track = self._track(
                maximum,
                lambda v, k=key: SetSheetField(field=k, value=v),
                f"{key.title()}",
                shape="box",
                per_row=10,
                pip_size=9,
                gap=3,
            )
            self.supply_tracks[key] = track
            grid.addWidget(track, r, 1)
            label = QLabel()
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            self.supply_labels[key] = label
            grid.addWidget(label, r, 2)
        grid.setColumnStretch(2, 1)
        s.body.addLayout(grid)

    def _build_quest_log(self) -> None:
        s = self._section("Quest log")
        row = QHBoxLayout()
        row.setSpacing(3)
        self.quest_boxes: dict[str, NumberBox] = {}
        for key in ("attempted", "completed", "failed"):
            cell = QVBoxLayout()
            cell.setSpacing(0)
            cell.addWidget(_field_label(key.upper()), 0, Qt.AlignmentFlag.AlignHCenter)
            box = self._number(-99, 9999, lambda v, k=key: SetSheetField(field=f"quests_{k}", value=v), 40)
            self.quest_boxes[key] = box
            cell.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)
            row.addLayout(cell)
        row.addStretch(1)
        s.body.addLayout(row)
        line = QHBoxLayout()
        line.addWidget(_field_label("CURRENT"))
        self.current_quest = QLineEdit()
        self.current_quest.setObjectName("sheetText")
        self.current_quest.editingFinished.connect(self._quest_edited)
        line.addWidget(self.current_quest, 1)
        s.body.addLayout(line)

    def _build_empire(self) -> None:
        s = self._section("Empire building")
        inv = self.rules.investments
        grid = QGridLayout()
        grid.setHorizontalSpacing(5)
        grid.setVerticalSpacing(1)
        grid.addWidget(_field_label("SHARES"), 0, 1)
        grid.addWidget(_field_label("PIPS"), 0, 2)
        self.share_tracks: dict[str, PipTrack] = {}
        self.invest_pip_tracks: dict[str, PipTrack] = {}
        self.invest_values: dict[str, QLabel] = {}
        for r, kind in enumerate(inv.kinds, start=1):
            name = QLabel(f"<b>{kind.name}</b>")
            name.setToolTip(f"1 Share = {kind.share_value} gp, 1 Pip = {kind.pip_value} gp")
            grid.addWidget(name, r, 0)
            shares = self._track(
                inv.max_shares,
                lambda v, k=kind.id: SetTrackPips(track="investment_shares", target=k, value=v),
                f"{kind.name} shares",
                shape="box",
                pip_size=9,
                gap=2,
            )
            pips = self._track(
                inv.pips_per_share - 1,
                lambda v, k=kind.id: SetTrackPips(track="investment_pips", target=k, value=v),
                f"{kind.name} pips",
                pip_size=9,
                gap=2,
            )
            self.share_tracks[kind.id] = shares
            self.invest_pip_tracks[kind.id] = pips
            grid.addWidget(shares, r, 1)
            grid.addWidget(pips, r, 2)
            value = _small()
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.invest_values[kind.id] = value
            grid.addWidget(value, r, 3)
        grid.setColumnStretch(3, 1)
        s.body.addLayout(grid)

    def _build_notes(self) -> None:
        s = self._section("Notes")
        self.notes = NotesEdit()
        self.notes.setPlaceholderText("Your notes: saved when you leave the box.")
        self.notes.setFixedHeight(80)
        self.notes.editing_finished.connect(self._notes_edited)
        s.body.addWidget(self.notes)

    def _build_combat(self) -> None:
        s = self._section("Combat track")
        layout = self.rules.sheet.combat_track
        self.combat_track = self._track(
            layout.length,
            lambda v: SetTrackPips(track="combat", value=v),
            "Combat track",
            shape="box",
            per_row=10,
            pip_size=13,
            gap=4,
        )
        self.combat_track.set_marks({m.position: f"Milestone: {m.reward}" for m in layout.milestones})
        self.combat_track.set_tips({k: f"Box {k}" for k in range(1, layout.length + 1)})
        s.body.addWidget(self.combat_track)
        self.combat_next = _small()
        self.combat_next.setWordWrap(True)
        s.body.addWidget(self.combat_next)
        self.combat_list = _small()
        self.combat_list.setWordWrap(True)
        s.body.addWidget(self.combat_list)

    def _connect(self) -> None:
        self.bridge.error.connect(self._remember_error)
        self.bridge.character_changed.connect(self.refresh)
        self.bridge.campaign_changed.connect(self.refresh)
        self.bridge.command_done.connect(self.refresh)
        self.test_button.clicked.connect(lambda _=False: self.open_test_dialog())
        self.print_button.clicked.connect(lambda _=False: self.open_print_preview())
        self.pdf_button.clicked.connect(lambda _=False: self.export_pdf())

    # ------------------------------------------------------------------ text fields
    def _name_edited(self) -> None:
        ch = self.character
        if ch is not None and self.name_edit.text().strip() != ch.name:
            self.send(SetSheetField(field="name", value=self.name_edit.text()))

    def _quest_edited(self) -> None:
        ch = self.character
        if ch is not None and self.current_quest.text().strip() != ch.quest_log.current:
            self.send(SetSheetField(field="current_quest", value=self.current_quest.text()))

    def _notes_edited(self) -> None:
        ch = self.character
        if ch is not None and self.notes.toPlainText() != ch.notes:
            self.send(SetSheetField(field="notes", value=self.notes.toPlainText()))

    # ------------------------------------------------------------------ render
    def refresh(self) -> None:
        """Re-read the character and show it."""
        ch = self.character
        if ch is None or ch.dead:
            self.empty_label.setText(
                "No character yet."
                if ch is None
                else f"{ch.name or 'The character'} has died.\nTheir sheet is in the hall of the fallen."
            )
            self.create_button.setText("Create a character…")
            self.stack.setCurrentIndex(0)
            self.test_button.setEnabled(False)
            self.print_button.setEnabled(False)
            self.pdf_button.setEnabled(False)
            return
        self.stack.setCurrentIndex(1)
        creating = ch.creation is not None
        self.creating_banner.setVisible(creating)
        if creating:
            self.creating_label.setText(f"<b>{ch.name or 'A new character'}</b> is being created.")
        self.test_button.setEnabled(not creating)
        self.print_button.setEnabled(True)
        self.pdf_button.setEnabled(True)
        d = derive(ch, self.rules)
        self._render_header(ch)
        self._render_characteristics(ch, d)
        self._render_health(ch, d)
        self._render_equipment(ch, d)
        self._render_belt(ch)
        self._render_tracks(ch)
        self._render_skills(ch)
        self._render_spells(ch, d)
        self._render_time(ch)
        self._render_lists(ch)
        self._render_supplies(ch)
        self._render_quest_log(ch)
        self._render_empire(ch)
        self._render_notes(ch)
        self._render_combat(ch)

    def _render_header(self, ch: Character) -> None:
        if not self.name_edit.hasFocus():
            self.name_edit.setText(ch.name)
        self.name_edit.setPlaceholderText("(not named yet)")
        values = {
            "rep": ch.rep,
            "gp": ch.gp,
            "fate": ch.fate,
            "lives": ch.lives,
            "quest_encounter_modifier": ch.quest_encounter_modifier,
        }
        for key, box in self.header_boxes.items():
            with signals_blocked(box):
                box.setValue(values[key])
        with signals_blocked(self.res_check):
            self.res_check.setChecked(ch.res)

    def _render_characteristics(self, ch: Character, d: Derived) -> None:
        for stat in self.rules.characteristics:
            score = ch.characteristics[stat]
            with signals_blocked(self.primary_boxes[stat]):
                self.primary_boxes[stat].setValue(score.primary)
            adj = self.adjusted_labels[stat]
            adj.setText(str(d.characteristics[stat]))
            adj.setToolTip(
                " ".join(f"{p.value:+d} {p.label}" if i else f"{p.value} {p.label}" for i, p in enumerate(d.sources[stat]))
            )
            self.stat_tracks[stat].set_value(score.pips)
        for ability in self.rules.abilities:
            lit = d.abilities.get(ability.id, False)
            badge = self.ability_badges[ability.id]
            badge.setObjectName("badgeOn" if lit else "badgeOff")
            badge.style().unpolish(badge)  # re-polish: the style sheet picks the look by object name
            badge.style().polish(badge)
            state = "unlocked" if lit else f"locked until {ability.characteristic} {ability.threshold}"
            badge.setToolTip(f"{ability.name} ({state}): {ability.summary}")
            badge.setProperty("lit", lit)

    def _render_health(self, ch: Character, d: Derived) -> None:
        with signals_blocked(self.hp_box, self.hp_primary_box):
            self.hp_box.setValue(ch.hp)
            self.hp_primary_box.setValue(ch.hp_primary)
        self.hp_max_label.setText(f"/ {d.max_hp}")
        self.hp_max_label.setToolTip("Adjusted maximum: primary HP plus item and time-track bonuses")
        dmg = ", ".join(f"{self.rules.slot(s).name} {v:+d}" for s, v in d.weapon_dmg.items()) or f"{d.dmg:+d}"
        self.combat_summary.setText(f"DMG {dmg} · Defence Bonus {d.defence_bonus}")

    def _render_equipment(self, ch: Character, d: Derived) -> None:
        main = ch.equipment.get("main_weapon")
        for slot in self.rules.slots:
            item = ch.equipment.get(slot.id)
            label, stats, repair = self.slot_items[slot.id], self.slot_stats[slot.id], self.slot_repairs[slot.id]
            defence = d.defence.get(slot.id)
            if item is None:
                covered = slot.id == "off_weapon" and main is not None and main.two_handed
                label.setText(f"({main.name}, two-handed)" if covered and main else "—")
                label.setStyleSheet(DIM_STYLE)
                stats.setText(f"DEF {defence}" if defence else "")
                repair.setVisible(False)
            else:
                label.setText(item.name)
                label.setStyleSheet("")
                extra = item_stats(item)
                if defence is not None and defence != item.defence:
                    extra = f"{extra} · DEF here {defence}" if extra else f"DEF here {defence}"
                stats.setText(extra)
                repair.setVisible(True)
                repair.set_count(item.repair_track or self.rules.sheet.repair_track)
                repair.set_value(item.repair_pips)
            label.setToolTip(item.describe() if item else "Empty: right-click to equip from the backpack")
            stats.setToolTip(stats.text())
            stats.setVisible(bool(stats.text()) or item is not None)

    def _render_belt(self, ch: Character) -> None:
        for i, label in enumerate(self.belt_labels):
            item = ch.belt[i] if i < len(ch.belt) else None
            label.setText(item.name if item else "—")
            label.setStyleSheet("" if item else DIM_STYLE)
            label.setToolTip(f"{item.name}: {item.effect}" if item and item.effect else (item.name if item else "Empty"))

    def _render_tracks(self, ch: Character) -> None:
        for name, track in self.count_tracks.items():
            track.set_value(getattr(ch, name))

    def _render_skills(self, ch: Character) -> None:
        for skill in self.rules.skills:
            score = ch.skills[skill]
            with signals_blocked(self.skill_boxes[skill]):
                self.skill_boxes[skill].setValue(score.bonus)
            self.skill_tracks[skill].set_value(score.pips)

    def _render_spells(self, ch: Character, d: Derived) -> None:
        caster = d.abilities.get("spell_caster", True)
        self.spell_state.setText(
            f"Spell Caster active: positions up to INT {d.characteristics['INT']} can be cast."
            if caster
            else "Spell Caster locked (INT under 50): spells are kept but only scrolls work."
        )
        for i, name in enumerate(self.spell_names):
            spell = ch.spell_book[i] if i < len(ch.spell_book) else None
            reach = i < d.spells_in_reach
            name.setText(f"{spell.name}  ({spell.cost})" if spell and spell.cost else (spell.name if spell else "—"))
            dim = not reach or spell is None
            name.setStyleSheet(DIM_STYLE if dim else "font-weight: bold;")
            self.spell_thresholds[i].setStyleSheet(DIM_STYLE if not reach else "")
            threshold = d.spell_thresholds[i]
            state = "usable" if (reach and spell) else ("out of reach: INT too low" if not reach else "empty")
            name.setToolTip(f"INT {threshold}+ · {state}" + (f"\n{spell.effect}" if spell and spell.effect else ""))
            name.setProperty("usable", bool(reach and spell))
            name.setProperty("in_reach", reach)

    def _render_time(self, ch: Character) -> None:
        self.time_track.set_value(ch.time_track.shaded)
        bonuses = ch.time_track.bonuses
        self.time_bonuses.setText(
            "Until the track refreshes: "
            + ", ".join(f"{b.amount:+d} {b.stat} ({b.source})" if b.source else f"{b.amount:+d} {b.stat}" for b in bonuses)
            if bonuses
            else ""
        )
        self.time_bonuses.setVisible(bool(bonuses))
        with signals_blocked(self.darkness_check, self.objectives_box):
            self.darkness_check.setChecked(ch.in_darkness)
            self.objectives_box.setValue(ch.objectives)

    def _render_lists(self, ch: Character) -> None:
        lists = {"backpack": ch.backpack, "potions": ch.potions, "non_slot": ch.non_slot_items}
        for where, items in lists.items():
            section = self.list_sections[where]
            for row in self.list_rows[where]:
                section.body.removeWidget(row)
                row.hide()  # deleteLater waits for the event loop; hide it now
                row.deleteLater()
            rows: list[ItemRow] = []
            for i, item in enumerate(items):
                row = ItemRow(lambda w=where, i=i: self.item_menu(w, index=i), lambda w=where, i=i: self.edit_item(w, index=i))
                grid = QGridLayout(row)
                grid.setContentsMargins(0, 0, 0, 0)
                grid.setHorizontalSpacing(4)
                grid.setVerticalSpacing(0)
                name = ElidedLabel(item.name)
                name.setToolTip(item.describe())
                grid.addWidget(name, 0, 0)
                stats = ElidedLabel(item_stats(item))
                stats.setObjectName("small")
                grid.addWidget(stats, 1, 0)
                if where == "backpack" and item.kind not in self.rules.belt_kinds and item.kind != "item":
                    repair = self._track(
                        item.repair_track or self.rules.sheet.repair_track,
                        lambda v, i=i: SetTrackPips(track="repair", target=f"backpack:{i}", value=v),
                        f"{item.name} repair",
                        shape="box",
                        pip_size=9,
                        gap=2,
                    )
                    repair.set_value(item.repair_pips)
                    grid.addWidget(repair, 0, 1, 2, 1, Qt.AlignmentFlag.AlignVCenter)
                grid.setColumnStretch(0, 1)
                section.body.addWidget(row)
                row.show()
                rows.append(row)
            if not items:
                row = ItemRow(lambda w=where: self.item_menu(w, index=-1))
                line = QHBoxLayout(row)
                line.setContentsMargins(0, 0, 0, 0)
                line.addWidget(QLabel("—"))
                row.setStyleSheet(DIM_STYLE)
                section.body.addWidget(row)
                row.show()
                rows.append(row)
            self.list_rows[where] = rows

    def _render_supplies(self, ch: Character) -> None:
        for key, track in self.supply_tracks.items():
            value = getattr(ch.supplies, key)
            track.set_value(value)
            self.supply_labels[key].setText(f"<b>{value}</b> / {self.rules.supplies_max[key]}")

    def _render_quest_log(self, ch: Character) -> None:
        for key, box in self.quest_boxes.items():
            with signals_blocked(box):
                box.setValue(getattr(ch.quest_log, key))
        if not self.current_quest.hasFocus():
            self.current_quest.setText(ch.quest_log.current)

    def _render_empire(self, ch: Character) -> None:
        for kind in self.rules.investments.kinds:
            inv = ch.empire.get(kind.id)
            shares, pips = (inv.shares, inv.pips) if inv else (0, 0)
            self.share_tracks[kind.id].set_value(shares)
            self.invest_pip_tracks[kind.id].set_value(pips)
            self.invest_values[kind.id].setText(f"{shares * kind.share_value + pips * kind.pip_value} gp")

    def _render_notes(self, ch: Character) -> None:
        if not self.notes.hasFocus() and self.notes.toPlainText() != ch.notes:
            self.notes.setPlainText(ch.notes)

    def _render_combat(self, ch: Character) -> None:
        layout = self.rules.sheet.combat_track
        filled = len(ch.combat_track)
        self.combat_track.set_value(filled)
        upcoming = [m for m in layout.milestones if m.position > filled]
        self.combat_next.setText(
            f"Next milestone at box {upcoming[0].position}: {upcoming[0].reward}." if upcoming else "Every milestone reached."
        )
        lines = []
        for n, entry in list(enumerate(ch.combat_track, start=1))[-5:]:
            bits = [f"AV {entry.av}" if entry.av is not None else "", f"DEF {entry.defence}" if entry.defence is not None else ""]
            bits += [f"DMG {entry.dmg:+d}" if entry.dmg is not None else "", f"HP {entry.hp}" if entry.hp else ""]
            lines.append(f"{n}. {entry.monster} " + " ".join(b for b in bits if b))
        self.combat_list.setText("\n".join(lines))
        self.combat_list.setVisible(bool(lines))

    # ------------------------------------------------------------------ items
    def item_menu(self, where: str, slot: str = "", index: int = 0) -> QMenu:
        """What can be done with the item at a place of the sheet (also for an empty place)."""
        ch = self.character
        menu = QMenu(self)
        if ch is None:
            return menu
        item = self._item_at(ch, where, slot, index)

        def add(text: str, command: Callable[[], object]) -> None:
            menu.addAction(text).triggered.connect(lambda _=False: command())

        if where == "equipment":
            if item is not None:
                add("Unequip to the backpack", lambda: self.send(UnequipItem(slot=slot)))
            else:
                fits = [(i, b) for i, b in enumerate(ch.backpack) if b.kind not in self.rules.belt_kinds]
                sub = menu.addMenu("Equip from the backpack")
                sub.setEnabled(bool(fits))
                for i, b in fits:
                    sub.addAction(b.name).triggered.connect(lambda _=False, i=i: self.send(EquipItem(index=i, slot=slot)))
        elif where == "belt":
            if item is not None:
                add("Take off the belt", lambda: self.send(TakeFromBelt(belt_slot=index + 1)))
            else:
                sub = menu.addMenu("Put here")
                choices = [("potions", i, p) for i, p in enumerate(ch.potions)]
                choices += [("backpack", i, b) for i, b in enumerate(ch.backpack) if b.kind in self.rules.belt_kinds]
                sub.setEnabled(bool(choices))
                for source, i, it in choices:
                    sub.addAction(it.name).triggered.connect(
                        lambda _=False, s=source, i=i: self.send(MoveToBelt(source=s, index=i, belt_slot=index + 1))
                    )
                add("Write an item here…", lambda: self.add_item("belt", index))
        elif where in ("backpack", "potions") and item is not None:
            if where == "backpack" and item.kind not in self.rules.belt_kinds:
                sub = menu.addMenu("Equip in")
                slots = self._slots_for(ch, item)
                for sid in slots:
                    sub.addAction(self.rules.slot(sid).name).triggered.connect(
                        lambda _=False, sid=sid: self.send(EquipItem(index=index, slot=sid))
                    )
                if not slots:
                    sub.addAction("No free slot takes it: unequip first").setEnabled(False)
            else:
                free = next((n for n, b in enumerate(ch.belt) if b is None), None)
                act = menu.addAction("Put on the belt" + (f" (slot {free + 1})" if free is not None else " (full)"))
                act.setEnabled(free is not None)
                act.triggered.connect(
                    lambda _=False, f=free: self.send(MoveToBelt(source=where, index=index, belt_slot=(f or 0) + 1))  # type: ignore[arg-type]
                )
        if where in ("backpack", "potions", "non_slot") and item is None:
            add("Write an item…", lambda: self.add_item(where))
        if item is not None:
            menu.addSeparator()
            add("Edit…", lambda: self.edit_item(where, slot, index))
            add("Discard", lambda: self.send(DiscardItem(where=where, slot=slot, index=index)))  # type: ignore[arg-type]
        return menu

    def _slots_for(self, ch: Character, item: Item) -> list[str]:
        """The equipment slots the engine would accept the item in now."""
        fits = []
        for slot in self.rules.slots:
            try:
                check_equip(ch, self.rules, item, slot.id)
            except CommandRefused:
                continue
            fits.append(slot.id)
        return fits

    @staticmethod
    def _item_at(ch: Character, where: str, slot: str, index: int) -> Item | None:
        if where == "equipment":
            return ch.equipment.get(slot)
        if where == "belt":
            return ch.belt[index] if 0 <= index < len(ch.belt) else None
        items = {"backpack": ch.backpack, "potions": ch.potions, "non_slot": ch.non_slot_items}.get(where, [])
        return items[index] if 0 <= index < len(items) else None

    def edit_item(self, where: str, slot: str = "", index: int = 0) -> ItemDialog | None:
        """Open the item form for the item there; OK sends an EditItem command."""
        ch = self.character
        item = self._item_at(ch, where, slot, index) if ch else None
        if item is None:
            return None
        dialog = ItemDialog(self.rules, item, f"Edit {item.name}", self)
        dialog.accepted.connect(
            lambda: self.send(EditItem(where=where, slot=slot, index=index, item=dialog.item()))  # type: ignore[arg-type]
        )
        dialog.open()
        self.item_dialog = dialog
        return dialog

    def add_item(self, where: str, belt_index: int = 0) -> ItemDialog:
        """Open an empty item form; OK writes it on the sheet (an AddItem hand entry)."""
        kind = {"potions": "potion", "belt": "potion"}.get(where, "item")
        dialog = ItemDialog(self.rules, Item(name="", kind=kind, source="written by hand"), "Write an item", self)  # type: ignore[arg-type]
        dialog.accepted.connect(
            lambda: self.send(AddItem(item=dialog.item(), to=where, belt_slot=belt_index + 1))  # type: ignore[arg-type]
        )
        dialog.open()
        self.item_dialog = dialog
        return dialog

    # ------------------------------------------------------------------ spells
    def spell_menu(self, index: int) -> QMenu:
        menu = QMenu(self)
        ch = self.character
        spell = ch.spell_book[index] if ch and index < len(ch.spell_book) else None
        menu.addAction("Write a spell…" if spell is None else "Edit…").triggered.connect(lambda _=False: self.edit_spell(index))
        if spell is not None:
            menu.addAction("Erase").triggered.connect(lambda _=False: self.send(SetSpell(position=index + 1)))
        return menu

    def edit_spell(self, index: int) -> SpellDialog:
        ch = self.character
        spell = ch.spell_book[index] if ch and index < len(ch.spell_book) else None
        threshold = self.rules.spell_thresholds()[index]
        dialog = SpellDialog(
            index + 1, threshold, spell.name if spell else "", spell.cost if spell else "", spell.effect if spell else "", self
        )
        dialog.accepted.connect(
            lambda: self.send(
                SetSpell(position=index + 1, name=dialog.name.text(), cost=dialog.cost.text(), effect=dialog.effect.text())
            )
        )
        dialog.open()
        self.spell_dialog = dialog
        return dialog

    # ------------------------------------------------------------------ tests and printing
    def open_test_dialog(self, text: str | None = None) -> QWidget:
        """Open the skill-test dialog (ad hoc, or for a ``Test:`` line)."""
        from d100gui.ui.hero.skill_test_dialog import SkillTestDialog

        dialog = SkillTestDialog(self.bridge, text=text, parent=self)
        dialog.open()
        self.test_dialog = dialog
        return dialog

    def open_print_preview(self) -> QWidget | None:
        from d100gui.ui.hero.sheet_print import print_sheet

        ch = self.character
        if ch is None:
            return None
        self.print_dialog = print_sheet(self, ch, self.rules)
        return self.print_dialog

    def export_pdf(self, path: str | None = None) -> Path | None:
        from d100gui.ui.hero.sheet_print import export_sheet_pdf

        ch = self.character
        if ch is None:
            return None
        if path is None:
            suggested = f"{ch.name or 'character'}-sheet.pdf".replace(" ", "-")
            path, _ = QFileDialog.getSaveFileName(self, "Export the sheet to PDF", suggested, "PDF (*.pdf)")
            if not path:
                return None
        try:
            return export_sheet_pdf(ch, self.rules, path)
        except OSError as exc:
            self.message.setText(f"Could not write {path}: {exc.strerror or exc}")
            self.message.setVisible(True)
            return None
