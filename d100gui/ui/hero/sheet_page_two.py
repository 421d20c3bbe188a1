"""Sheet sections of page 2: the item lists, supplies, quest log, empire building and notes."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from d100gui.engine.hero.derive import Derived
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.hero.queries import has_repair_track
from d100gui.engine.hero.sheet_edits import SetSheetField, SetTrackPips
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.pips import PipTrack
from d100gui.ui.hero.sheet_parts import (
    ElidedLabel,
    ItemRow,
    NotesEdit,
    NumberBox,
    Send,
    SheetRequests,
    SheetSection,
    field_label,
    item_stats,
    set_dim,
    small,
)

LISTS = (("backpack", "Backpack"), ("potions", "Unequipped potions"), ("non_slot", "Non-slot items"))
QUEST_COUNTS = ("attempted", "completed", "failed")


def _field(key: str, value: int) -> SetSheetField:
    return SetSheetField(field=key, value=value)  # type: ignore[arg-type]  # key is a sheet field


def _items(ch: Character, where: str) -> list[Item]:
    return {"backpack": ch.backpack, "potions": ch.potions, "non_slot": ch.non_slot_items}[where]


class ItemListSection(SheetSection):
    """One of page 2's item lists (backpack, unequipped potions, non-slot items); lines follow the model."""

    def __init__(self, where: str, title: str, rules: Rules, send: Send, requests: SheetRequests) -> None:
        super().__init__(title, rules, send)
        self.where = where
        self.requests = requests
        self.rows: list[ItemRow] = []
        self._shown: list[Item] = []  # the items the lines show
        self.add_head_button("+ Add…", f"Write an item in the {title.lower()} by hand", partial(requests.add_item, where))

    def show_character(self, ch: Character, d: Derived) -> None:
        items = _items(ch, self.where)
        if self.rows and items == self._shown:
            return  # the same items: the same lines (rebuilt, each new line is polished again: ~1 ms per list)
        self._shown = [item.model_copy(deep=True) for item in items]  # a copy: the engine may edit an item in place
        for row in self.rows:
            self.body.removeWidget(row)
            row.hide()  # deleteLater waits for the event loop; hide it now
            row.deleteLater()
        self.rows = [self._row(i, item) for i, item in enumerate(items)] or [self._empty_row()]
        for row in self.rows:
            self.body.addWidget(row)
            row.show()

    def _row(self, i: int, item: Item) -> ItemRow:
        row = ItemRow(partial(self.requests.item_menu, self.where, "", i), partial(self.requests.edit_item, self.where, "", i))
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
        if self.where == "backpack" and has_repair_track(self.rules, item):
            repair = self.track(
                item.repair_track or self.rules.sheet.repair_track,
                partial(_backpack_repair, i),
                f"{item.name} repair",
                shape="box",
                pip_size=9,
                gap=2,
            )
            repair.set_value(item.repair_pips)
            grid.addWidget(repair, 0, 1, 2, 1, Qt.AlignmentFlag.AlignVCenter)
        grid.setColumnStretch(0, 1)
        return row

    def _empty_row(self) -> ItemRow:
        row = ItemRow(partial(self.requests.item_menu, self.where, "", -1))
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(QLabel("—"))
        set_dim(row)
        return row


def _backpack_repair(index: int, value: int) -> SetTrackPips:
    return SetTrackPips(track="repair", target=f"backpack:{index}", value=value)


class SuppliesSection(SheetSection):
    """Oil, food and picks as boxes up to their maxima."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Supplies", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self.supply_tracks: dict[str, PipTrack] = {}
        self.supply_labels: dict[str, QLabel] = {}
        for r, (key, maximum) in enumerate(rules.supplies_max.items()):
            grid.addWidget(field_label(key.upper()), r, 0, Qt.AlignmentFlag.AlignTop)
            track = self.track(maximum, partial(_field, key), f"{key.title()}", shape="box", per_row=10, pip_size=9, gap=3)
            self.supply_tracks[key] = track
            grid.addWidget(track, r, 1)
            label = QLabel()
            label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            self.supply_labels[key] = label
            grid.addWidget(label, r, 2)
        grid.setColumnStretch(2, 1)
        self.body.addLayout(grid)

    def show_character(self, ch: Character, d: Derived) -> None:
        for key, track in self.supply_tracks.items():
            value = getattr(ch.supplies, key)
            track.set_value(value)
            self.supply_labels[key].setText(f"<b>{value}</b> / {self.rules.supplies_max[key]}")


class QuestLogSection(SheetSection):
    """Quests attempted, completed and failed, and the current quest."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Quest log", rules, send, parent)
        row = QHBoxLayout()
        row.setSpacing(3)
        self.quest_boxes: dict[str, NumberBox] = {}
        for key in QUEST_COUNTS:
            cell = QVBoxLayout()
            cell.setSpacing(0)
            cell.addWidget(field_label(key.upper()), 0, Qt.AlignmentFlag.AlignHCenter)
            box = self.number(-99, 9999, partial(_field, f"quests_{key}"), 40)
            box.setAccessibleName(f"Quests {key}")
            box.setToolTip(f"Quests {key}: correct the count by hand")
            self.quest_boxes[key] = box
            cell.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)
            row.addLayout(cell)
        row.addStretch(1)
        self.body.addLayout(row)
        line = QHBoxLayout()
        line.addWidget(field_label("CURRENT"))
        self.current_quest = QLineEdit()
        self.current_quest.setAccessibleName("Current quest")
        self.current_quest.setToolTip("The quest under way, as written on the back of the sheet (the game fills it in)")
        self.current_quest.setObjectName("sheetText")
        self.current_quest.editingFinished.connect(self._quest_edited)
        line.addWidget(self.current_quest, 1)
        self.body.addLayout(line)
        self._shown = ""

    def _quest_edited(self) -> None:
        if self.current_quest.text().strip() != self._shown:
            self.send(SetSheetField(field="current_quest", value=self.current_quest.text()))

    def show_character(self, ch: Character, d: Derived) -> None:
        self._shown = ch.quest_log.current
        for key, box in self.quest_boxes.items():
            box.show_value(getattr(ch.quest_log, key))
        if not self.current_quest.hasFocus():
            self.current_quest.setText(ch.quest_log.current)


class EmpireSection(SheetSection):
    """Investments: shares and pips of each kind, and what they are worth."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Empire building", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(5)
        grid.setVerticalSpacing(1)
        grid.addWidget(field_label("SHARES"), 0, 1)
        grid.addWidget(field_label("PIPS"), 0, 2)
        self.share_tracks: dict[str, PipTrack] = {}
        self.invest_pip_tracks: dict[str, PipTrack] = {}
        self.invest_values: dict[str, QLabel] = {}
        for r, kind in enumerate(rules.investments.kinds, start=1):
            self._add_row(grid, r, kind.id, kind.name, kind.share_value, kind.pip_value)
        grid.setColumnStretch(3, 1)
        self.body.addLayout(grid)

    def _add_row(self, grid: QGridLayout, r: int, kind: str, name: str, share_value: int, pip_value: int) -> None:
        inv = self.rules.investments
        label = QLabel(f"<b>{name}</b>")
        label.setToolTip(f"1 Share = {share_value} gp, 1 Pip = {pip_value} gp")
        grid.addWidget(label, r, 0)
        shares = self.track(
            inv.max_shares, partial(_investment, "investment_shares", kind), f"{name} shares", shape="box", pip_size=9, gap=2
        )
        pips = self.track(
            inv.pips_per_share - 1, partial(_investment, "investment_pips", kind), f"{name} pips", pip_size=9, gap=2
        )
        self.share_tracks[kind] = shares
        self.invest_pip_tracks[kind] = pips
        grid.addWidget(shares, r, 1)
        grid.addWidget(pips, r, 2)
        value = small()
        value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.invest_values[kind] = value
        grid.addWidget(value, r, 3)

    def show_character(self, ch: Character, d: Derived) -> None:
        for kind in self.rules.investments.kinds:
            inv = ch.empire.get(kind.id)
            shares, pips = (inv.shares, inv.pips) if inv else (0, 0)
            self.share_tracks[kind.id].set_value(shares)
            self.invest_pip_tracks[kind.id].set_value(pips)
            self.invest_values[kind.id].setText(f"{shares * kind.share_value + pips * kind.pip_value} gp")


def _investment(track: str, kind: str, value: int) -> SetTrackPips:
    return SetTrackPips(track=track, target=kind, value=value)  # type: ignore[arg-type]  # track is an investment track


class NotesSection(SheetSection):
    """The player's notes, saved when they leave the box."""

    def __init__(self, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__("Notes", rules, send, parent)
        self.notes = NotesEdit()
        self.notes.setTabChangesFocus(True)  # Tab moves on (a keyboard player is never trapped in the notes)
        self.notes.setAccessibleName("Notes")
        self.notes.setPlaceholderText("Your notes: saved when you leave the box.")
        self.notes.setFixedHeight(80)
        self.notes.editing_finished.connect(self._notes_edited)
        self.body.addWidget(self.notes)
        self._shown = ""

    def _notes_edited(self) -> None:
        if self.notes.toPlainText() != self._shown:
            self.send(SetSheetField(field="notes", value=self.notes.toPlainText()))

    def show_character(self, ch: Character, d: Derived) -> None:
        self._shown = ch.notes
        if not self.notes.hasFocus() and self.notes.toPlainText() != ch.notes:
            self.notes.setPlainText(ch.notes)
