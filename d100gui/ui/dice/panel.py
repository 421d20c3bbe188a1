"""The dice panel: quick dice, an expression box, every table searchable and rollable,
the drawn dice of the last roll with its row and follow-up rolls, and a copyable history."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dice.tables import Table, TableLibrary
from d100gui.engine.dice_commands import FollowLink, RerollDice, RollDice, RollTable, history_text
from d100gui.engine.flow import fight_for_roll
from d100gui.ui.common.bridge import ChangeSet, EngineBridge
from d100gui.ui.common.dice_faces import DiceFacesView
from d100gui.ui.common.flow import SteadyColumn, SteadyHeight
from d100gui.ui.dice.history_view import HistoryView

_SOURCE_ORDER = {"d100": 0, "classic": 1, "explore": 2, "d20": 3}
NOTES_MAX_HEIGHT = 120  # pixels; longer notes scroll inside the box
RESULT_ROOM_KEPT = 160  # pixels the result box keeps while a roll needs less (a few lines of a row, a button row)
RESULT_ROOM_PATIENCE = 30  # rolls in a row that leave the room unused before it is given back (each a relayout)


def table_note_lines(table: Table) -> list[str]:
    """Every note of a table, roll modifiers first, then how complete the player's copy is."""
    notes = sorted(table.notes, key=lambda n: n.kind != "roll_modifier")
    lines = [("Modifier: " if n.kind == "roll_modifier" else "") + n.text for n in notes]
    gaps = table.missing_ranges()
    if gaps:
        lines.append(f"{len(table.rows)} rows in your tables; {len(gaps)} range(s) not printed in the excerpt.")
    return lines


class DicePanel(QWidget):
    """Sends dice commands through the bridge and shows what came back."""

    physical_toggled = Signal(bool)
    fight_requested = Signal(object)  # the fight command the flow gives a rolled result (the turn's offered monster in a quest)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dicePanel")
        self.bridge = bridge
        self._last_command: RollDice | RollTable | None = None
        self._shown_index: int | None = None
        self._fight_button: QPushButton | None = None  # "Fight this monster" of the roll shown, if it offers one
        self._fight_entry: HistoryEntry | None = None
        # the follow-up buttons under the result, kept: a roll tells them their words and what they do
        self._followup_pool: list[QPushButton] = []
        self._followup_slots: list[Callable[[], object]] = []
        self._followups_used = 0
        self._pending: tuple[int, HistoryEntry] | None = None  # a roll made while behind another dock's tab
        self._dock: QDockWidget | None = None  # the dock it is in, once it had to know
        self._build()
        self._connect()
        self.refresh_tables()

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.addLayout(self._build_quick())
        outer.addLayout(self._build_expression())
        outer.addWidget(self._build_tables(), 3)
        outer.addWidget(self._build_result())
        outer.addWidget(self._build_history(), 2)

    def _build_quick(self) -> QHBoxLayout:
        quick = QHBoxLayout()
        self.d100_button = QPushButton("d100")
        self.d100_button.setToolTip("Roll percentile dice: tens and units d10 (Ctrl+D)")
        self.d10_button = QPushButton("d10")
        self.d6_button = QPushButton("d6")
        for b in (self.d100_button, self.d10_button, self.d6_button):
            b.setMinimumHeight(30)
            quick.addWidget(b)
        return quick

    def _build_expression(self) -> QHBoxLayout:
        expr = QHBoxLayout()
        self.expression = QLineEdit()
        self.expression.setAccessibleName("Dice to roll")
        self.expression.setPlaceholderText("Dice expression, e.g. 2d6, 3d4+1, d%")
        self.expression_button = QPushButton("Roll")
        expr.addWidget(self.expression, 1)
        expr.addWidget(self.expression_button)
        return expr

    def _build_tables(self) -> QGroupBox:
        tables = QGroupBox("Tables")
        tl = QVBoxLayout(tables)
        self.table_filter = QLineEdit()
        self.table_filter.setAccessibleName("Find a table")
        self.table_filter.setPlaceholderText("Search tables (e.g. encounter, sword, wilderness)")
        self.table_filter.setClearButtonEnabled(True)
        self.table_list = QTreeWidget()
        self.table_list.setHeaderHidden(True)
        self.table_list.setMinimumHeight(200)
        self.table_list.setAccessibleName("Tables")
        row = QHBoxLayout()
        row.addWidget(QLabel("Modifier"))
        self.modifier = QSpinBox()
        self.modifier.setAccessibleName("Modifier to the table roll")
        self.modifier.setRange(-100, 100)
        self.modifier.setToolTip(
            "Added to the roll, then clamped into the die's range (e.g. the quest's encounter modifier on Table E)"
        )
        row.addWidget(self.modifier)
        row.addStretch(1)
        self.table_button = QPushButton("Roll table")
        self.table_button.setEnabled(False)
        self.table_button.setToolTip("Choose a table in the list first")
        row.addWidget(self.table_button)
        tl.addWidget(self.table_filter)
        tl.addWidget(self.table_list, 1)
        tl.addWidget(self._build_notes())
        tl.addLayout(row)
        return tables

    def _build_notes(self) -> QScrollArea:
        """Every note of the chosen table (a rule like pursuit may be the last of eight): it scrolls."""
        self.table_notes = QLabel("")
        self.table_notes.setWordWrap(True)
        self.table_notes.setObjectName("tableNotes")
        self.table_notes.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.table_notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table_notes.setStyleSheet("color: palette(placeholder-text);")
        self.table_notes_scroll = QScrollArea()
        self.table_notes_scroll.setWidget(self.table_notes)
        self.table_notes_scroll.setWidgetResizable(True)
        self.table_notes_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.table_notes_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table_notes_scroll.setMaximumHeight(NOTES_MAX_HEIGHT)
        self.table_notes_scroll.setVisible(False)
        return self.table_notes_scroll

    def _build_result(self) -> QGroupBox:
        result = QGroupBox("Result")
        # a steady height: a roll of a few lines less than the last keeps the box (and the history below, and
        # the dock's scroll bar) where they were, instead of laying the dock out again at every roll (issue 18)
        rl = self.result_column = SteadyColumn(result)
        rl.steady = SteadyHeight(patience=RESULT_ROOM_PATIENCE, most=RESULT_ROOM_KEPT)
        self._result_key = 0  # another campaign shown: the room kept is given back
        self.faces = DiceFacesView()
        self.result_title = QLabel("No roll yet.")
        self.result_title.setObjectName("resultTitle")
        self.result_title.setWordWrap(True)
        self.result_text = QLabel("")
        self.result_text.setWordWrap(True)
        self.result_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.followups = QHBoxLayout()
        self.followups.addStretch(1)  # after the buttons in use
        fate_row = QHBoxLayout()
        self.reroll_button = QPushButton("Re-roll selected dice")
        self.reroll_button.setToolTip("Click dice above to select them, then re-roll them (what Fate does)")
        self.reroll_button.setEnabled(False)
        fate_row.addStretch(1)
        fate_row.addWidget(self.reroll_button)
        rl.addWidget(self.faces)
        rl.addWidget(self.result_title)
        rl.addWidget(self.result_text)
        rl.addLayout(self.followups)
        rl.addLayout(fate_row)
        rl.addStretch(1)  # the room kept is under the buttons
        return result

    def _build_history(self) -> QGroupBox:
        hist = QGroupBox("History")
        hl = QVBoxLayout(hist)
        self.history = HistoryView(self.bridge)
        hb = QHBoxLayout()
        self.physical = QCheckBox("Physical dice")
        self.physical.setToolTip("Roll your own dice and type the faces")
        self.copy_button = QPushButton("Copy history")
        hb.addWidget(self.physical)
        hb.addStretch(1)
        hb.addWidget(self.copy_button)
        hl.addWidget(self.history, 1)
        hl.addLayout(hb)
        return hist

    def _connect(self) -> None:
        self.d100_button.clicked.connect(lambda: self.roll_expression("d100"))
        self.d10_button.clicked.connect(lambda: self.roll_expression("d10"))
        self.d6_button.clicked.connect(lambda: self.roll_expression("d6"))
        self.expression_button.clicked.connect(lambda: self.roll_expression(self.expression.text()))
        self.expression.returnPressed.connect(lambda: self.roll_expression(self.expression.text()))
        self.table_filter.textChanged.connect(self.refresh_tables)
        self.table_list.currentItemChanged.connect(lambda _cur, _prev: self._table_selected())
        self.table_list.itemDoubleClicked.connect(lambda item, _col: self.roll_selected_table() if item.parent() else None)
        self.table_button.clicked.connect(self.roll_selected_table)
        self.reroll_button.clicked.connect(self.reroll_selected)
        self.faces.selection_changed.connect(lambda sel: self.reroll_button.setEnabled(bool(sel)))
        self.copy_button.clicked.connect(self.copy_history)
        self.physical.toggled.connect(self.physical_toggled)
        self.bridge.roll_made.connect(self.show_entry)
        self.bridge.row_provided.connect(self.show_entry)
        self.bridge.tables_changed.connect(self.refresh_tables)
        self.bridge.changed.connect(self._changed)

    # ------------------------------------------------------------------ actions
    @property
    def library(self) -> TableLibrary:
        return self.bridge.game.library

    def refresh_tables(self) -> None:
        """Fill the table tree, grouped by rule text, D100 Dungeon first."""
        current = self.selected_table_id()
        self.table_list.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        tables = sorted(self.library.search(self.table_filter.text()), key=lambda t: _SOURCE_ORDER.get(t.id.split(".")[0], 9))
        for table in tables:
            source = table.source or "Other tables"
            group = groups.get(source)
            if group is None:
                group = QTreeWidgetItem([source])
                group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsSelectable)
                self.table_list.addTopLevelItem(group)
                groups[source] = group
            label = table.title if table.rollable else f"{table.title} (reference)"
            item = QTreeWidgetItem([f"{label}  [{table.die or 'list'}]"])
            item.setData(0, Qt.ItemDataRole.UserRole, table.id)
            item.setToolTip(0, f"{table.id}: {len(table.rows)} rows; {table.source}")
            group.addChild(item)
            if table.id == current:
                self.table_list.setCurrentItem(item)
        self.table_list.expandAll()

    def _table_selected(self) -> None:
        """Enable rolling and show the table's notes (roll modifiers first)."""
        table_id = self.selected_table_id()
        self.table_button.setEnabled(table_id is not None)
        table = self.library.get(table_id) if table_id is not None else None
        self.table_button.setToolTip(
            f"Roll {table.title}, adding the modifier" if table is not None else "Choose a table in the list first"
        )
        lines = table_note_lines(table) if table is not None else []
        self.table_notes.setText("\n".join(lines))
        self.table_notes_scroll.setVisible(bool(lines))
        self.table_notes_scroll.verticalScrollBar().setValue(0)

    def _table_items(self) -> list[QTreeWidgetItem]:
        items: list[QTreeWidgetItem] = []
        for g in range(self.table_list.topLevelItemCount()):
            group = self.table_list.topLevelItem(g)
            if group is not None:
                items += [child for i in range(group.childCount()) if (child := group.child(i)) is not None]
        return items

    def selected_table_id(self) -> str | None:
        item = self.table_list.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None and item.parent() is not None else None

    def select_table(self, table_id: str) -> bool:
        for item in self._table_items():
            if item.data(0, Qt.ItemDataRole.UserRole) == table_id:
                self.table_list.setCurrentItem(item)
                self.table_list.scrollToItem(item)
                return True
        return False

    def visible_table_ids(self) -> list[str]:
        return [item.data(0, Qt.ItemDataRole.UserRole) for item in self._table_items()]

    def roll_expression(self, text: str) -> None:
        command = RollDice(expression=text.strip(), purpose=text.strip())
        if self.bridge.send(command):
            self._last_command = command

    def roll_selected_table(self) -> None:
        table_id = self.selected_table_id()
        if table_id is None:
            self.bridge.error.emit("Choose a table first.")
            return
        table = self.library.get(table_id)
        if not table.rollable:
            self.show_reference(table_id)
            return
        command = RollTable(table_id=table_id, modifier=self.modifier.value())
        if self.bridge.send(command):
            self._last_command = command

    def repeat_last(self) -> None:
        if self._last_command is None:
            self.bridge.error.emit("Nothing to repeat yet: make a roll first.")
            return
        self.bridge.send(self._last_command)

    def reroll_selected(self) -> None:
        if self._shown_index is None:
            return
        self.bridge.send(RerollDice(entry=self._shown_index, dice=self.faces.selected()))

    def copy_history(self) -> None:
        """The whole history as text, read a page at a time (most of it may be in the campaign's store)."""
        total = self.bridge.dice_history_length
        entries = [e for start in range(0, total, 1000) for e in self.bridge.dice_history_page(start, 1000)]
        QGuiApplication.clipboard().setText(history_text(entries))

    # ------------------------------------------------------------------ display
    def show_error(self, message: str) -> None:
        """Say in the result box why something was refused (the window routes the bridge's errors here)."""
        self._in_front()  # the roll it follows, if one waits to be shown, first
        self.result_text.setText(f"<span style='color:#c0392b'>{message}</span>")

    def set_physical(self, on: bool) -> None:
        """Tick or untick "Physical dice" (the Dice menu's twin of the box); emits ``physical_toggled``."""
        self.physical.setChecked(on)

    def reload_history(self) -> None:
        """Show another history (a campaign was opened, or undo/redo): the list re-reads what is on screen."""
        self.history.reload()
        total = self.bridge.dice_history_length
        last = self.bridge.dice_history_page(total - 1, 1) if total else []
        if last:
            self.show_entry(total - 1, last[0])
        else:
            self._shown_index = self._pending = None
            self.faces.set_faces([])
            self.result_title.setText("No roll yet.")
            self.result_text.setText("")
            self._set_followups(None, None)
            self._result_shown()

    def show_reference(self, table_id: str) -> None:
        table = self.library.get(table_id)
        self.faces.set_faces([])
        self.result_title.setText(f"<b>{table.title}</b> (a list to read, not a roll)")
        lines = [f"{row.range_label()}: {row.summary(table)}" for row in table.rows]
        self.result_text.setText("<br>".join(lines))
        self._set_followups(None, None)
        self._result_shown()

    def show_entry(self, index: int, entry: HistoryEntry) -> None:
        """Show roll ``index`` in the result box (and the history). Behind another dock's tab, the history follows
        at once and the result box when the tab comes to the front, before it paints (a quest rolls at almost every
        action: the box's words, dice and buttons laid the hidden dock out again each time, ~2 ms)."""
        if self._behind_a_tab():
            self._pending = (index, entry)
            self.history.roll_shown(index)
            return
        self._pending = None
        self._show_result(index, entry)
        self.history.roll_shown(index)

    def _behind_a_tab(self) -> bool:
        """Shown in a window but out of sight: a dock behind another's tab is moved out of the window, not hidden."""
        if not self.isVisible() or not self.visibleRegion().isEmpty():
            return False
        if self._dock is None:  # told when its tab comes to the front
            dock = self.parentWidget()
            while dock is not None and not isinstance(dock, QDockWidget):
                dock = dock.parentWidget()
            if dock is None:
                return False
            self._dock = dock
            dock.visibilityChanged.connect(self._in_front)
        return True

    def _in_front(self, shown: bool = True) -> None:
        """The dock's tab chosen (or the dock shown): the roll that came meanwhile shown in the result box."""
        pending = self._pending
        if shown and pending is not None:
            self._pending = None
            self._show_result(*pending)

    def _show_result(self, index: int, entry: HistoryEntry) -> None:
        self._shown_index = index
        roll = entry.roll
        self.faces.set_faces(roll.dice, roll.rerolled)
        mods = "".join(f" {m.value:+d} {m.label}" for m in roll.modifiers)
        modified = f" → <b>{roll.final}</b>" if roll.modifiers or roll.final != roll.natural else ""
        table = self.library.get(entry.table.table_id) if entry.table and entry.table.table_id in self.library else None
        name = entry.table.table_title if entry.table else roll.expression
        self.result_title.setText(f"<b>{name}</b>: natural <b>{roll.natural}</b>{mods}{modified}")
        if entry.table is None:
            self.result_text.setText("")
        elif entry.table.row is None:
            lo, hi = entry.table.missing or (roll.final, roll.final)
            self.result_text.setText(f"<i>Row {lo}-{hi} is not in your tables.</i> You can type it from your rulebook.")
        else:
            row = entry.table.row
            parts = []
            for col in table.columns if table else []:
                value = row.fields.get(col.key)
                parts.append(
                    f"<b>{col.label}:</b> {value}" if value else f"<b>{col.label}:</b> <i>not printed in this excerpt</i>"
                )
            if row.text:
                parts.append(f"<i>{row.text}</i>")
            if entry.table.sample:
                parts.append("<span style='color:#b9770e'>Sample play: re-rolled among known rows.</span>")
            if row.user:
                parts.append("<span style='color:#2874a6'>From your own table pack.</span>")
            self.result_text.setText(f"<b>[{row.range_label()}]</b> " + "<br>".join(parts))
        self._set_followups(index, entry)
        self._result_shown()

    def _result_shown(self) -> None:
        """One roll (or list) shown: the result box gives back the room it kept once it has gone unused a while."""
        if self.result_column.steady.changed(self._result_key):
            self.result_column.invalidate()

    def _changed(self, change: ChangeSet) -> None:
        """Once per action: the history re-read when another campaign is shown or an undo or redo changed
        it (a roll done is shown by ``roll_made``); the fight offer kept to the flow."""
        if change.reset:
            self._result_key += 1
        if change.reset or (change.action != "do" and change.touches("dice_history")):
            self.reload_history()
        self._follow_flow()

    def _follow_flow(self, _change: object = None) -> None:
        """Keep "Fight this monster" to what the flow says now (the turn's monster once one waits; greyed in a fight)."""
        button, entry = self._fight_button, self._fight_entry
        if button is None or entry is None:
            return
        offered = fight_for_roll(self.bridge.flow(), entry)
        if offered is None:
            return
        button.setText(offered.label)
        button.setEnabled(offered.enabled)
        button.setToolTip(offered.why)

    def _fight(self) -> None:
        """Ask for the fight the flow gives the shown roll (sent by the window, which brings the combat panel up)."""
        entry = self._fight_entry
        offered = fight_for_roll(self.bridge.flow(), entry) if entry is not None else None
        if offered is not None and offered.enabled:
            self.fight_requested.emit(offered.command)

    def _set_followups(self, index: int | None, entry: HistoryEntry | None) -> None:
        """The buttons that follow the roll shown up: type its missing row, fight its monster, roll its links.

        The buttons are kept from roll to roll and told their words (a quest rolls at almost every action:
        a button made and deleted at each roll cost its polish, its layout and its deferred deletion)."""
        self._fight_button = None
        self._fight_entry = None
        self._followups_used = 0
        try:
            if index is None or entry is None or entry.table is None:
                return
            if entry.table.row is None:
                self._followup("Type this row from my rulebook...", partial(self.bridge.decision_requested.emit, index, entry))
                return
            self._fight_entry = entry
            if fight_for_roll(self.bridge.flow(), entry) is not None:
                self._fight_button = self._followup("", self._fight, name="fightThisMonster")
                self._follow_flow()
            for link_index, link in enumerate(entry.table.row.links):
                target = self.library.get(link.table).title if link.table in self.library else link.table
                times = "" if link.times == "1" else f" x{link.times}"
                mod = f" {link.modifier:+d}" if link.modifier else ""
                self._followup(
                    f"Roll {target}{times}{mod}",
                    partial(self.bridge.send, FollowLink(entry=index, link=link_index)),
                    link.label or f"Follow this result to {target}",
                )
        finally:
            for button in self._followup_pool[self._followups_used :]:
                button.hide()

    def _followup(self, text: str, slot: Callable[[], object], tip: str = "", name: str = "") -> QPushButton:
        """The next follow-up button, told ``text``, ``tip`` and what a click does."""
        used = self._followups_used
        if used == len(self._followup_pool):
            button = QPushButton()
            button.clicked.connect(lambda _=False, n=used: self._followup_slots[n]())
            self.followups.insertWidget(used, button)  # before the stretch
            self._followup_pool.append(button)
            self._followup_slots.append(slot)
        button = self._followup_pool[used]
        self._followup_slots[used] = slot
        button.setText(text)
        button.setToolTip(tip)
        button.setObjectName(name)
        button.setEnabled(True)
        button.show()
        self._followups_used = used + 1
        return button

    def followup_buttons(self) -> list[QPushButton]:
        """The follow-up buttons the roll shown offers, in order."""
        return self._followup_pool[: self._followups_used]
