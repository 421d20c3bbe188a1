"""Sheet sections for what the hero wears and carries at hand: equipment slots and the belt.

The equipment slots carry their hit-location numbers (the d10 a hit rolls) and damage mods,
the items in them, and a repair track for each; the belt has its numbered slots.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QWidget

from d100gui.engine.hero.derive import Derived
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.queries import covering_two_handed
from d100gui.engine.hero.sheet_edits import SetTrackPips
from d100gui.engine.rules.model import Rules, SlotRule
from d100gui.ui.common.pips import PipTrack
from d100gui.ui.hero.sheet_parts import (
    ElidedLabel,
    ItemRow,
    Send,
    SheetRequests,
    SheetSection,
    field_label,
    item_stats,
    loc_badge,
    set_dim,
    set_tip,
    signed,
)


def _repair(target: str, value: int) -> SetTrackPips:
    return SetTrackPips(track="repair", target=target, value=value)


class EquipmentSection(SheetSection):
    """The equipment slots: hit location, slot and damage mod, the item and its repair track."""

    def __init__(self, rules: Rules, send: Send, requests: SheetRequests, parent: QWidget | None = None) -> None:
        super().__init__("Equipment", rules, send, parent)
        self.requests = requests
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        grid.addWidget(field_label("LOC", "Hit-location roll (d10)"), 0, 0)
        grid.addWidget(field_label("SLOT  MOD", "Slot and its damage mod"), 0, 1)
        grid.addWidget(field_label("ITEM  ·  REPAIR TRACK"), 0, 2)
        self.slot_rows: dict[str, ItemRow] = {}
        self.slot_items: dict[str, ElidedLabel] = {}
        self.slot_stats: dict[str, ElidedLabel] = {}
        self.slot_repairs: dict[str, PipTrack] = {}
        for r, slot in enumerate(rules.slots, start=1):
            grid.addWidget(self._location(slot), r, 0, Qt.AlignmentFlag.AlignTop)
            mod = f" <small>{signed(rules.damage_mod(slot.id))}</small>" if slot.hit_location else ""
            name = QLabel(f"<b>{slot.name}</b>{mod}")
            name.setToolTip("Slot, and the damage mod at this hit location")
            grid.addWidget(name, r, 1, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(self._item_row(slot), r, 2)
        grid.setColumnStretch(2, 1)
        self.body.addLayout(grid)

    @staticmethod
    def _location(slot: SlotRule) -> QLabel:
        badge = loc_badge(str(slot.hit_location) if slot.hit_location else "–")
        tip = f"Hit location {slot.hit_location}" if slot.hit_location else "Never hit"
        if slot.belt_check:
            tip += ": a hit here makes a Belt Check"
        badge.setToolTip(tip)
        return badge

    def _item_row(self, slot: SlotRule) -> ItemRow:
        row = ItemRow(
            partial(self.requests.item_menu, "equipment", slot.id), partial(self.requests.edit_item, "equipment", slot.id)
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
        repair = self.track(
            self.rules.sheet.repair_track, partial(_repair, slot.id), f"{slot.name} repair", shape="box", pip_size=9, gap=2
        )
        repair.setToolTip("Repair track: one pip per point of damage taken")
        lines.addWidget(repair, 1, 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.slot_rows[slot.id] = row
        self.slot_items[slot.id] = item
        self.slot_stats[slot.id] = stats
        self.slot_repairs[slot.id] = repair
        return row

    def show_character(self, ch: Character, d: Derived) -> None:
        for slot in self.rules.slots:
            item = ch.equipment.get(slot.id)
            label, stats, repair = self.slot_items[slot.id], self.slot_stats[slot.id], self.slot_repairs[slot.id]
            defence = d.defence.get(slot.id)
            if item is None:
                cover = covering_two_handed(ch, slot.id)
                label.setText(f"({cover.name}, two-handed)" if cover else "—")
                set_dim(label)
                stats.setText(f"DEF {defence}" if defence else "")
                repair.setVisible(False)
            else:
                label.setText(item.name)
                set_dim(label, False)
                extra = item_stats(item)
                if defence is not None and defence != item.defence:
                    extra = f"{extra} · DEF here {defence}" if extra else f"DEF here {defence}"
                stats.setText(extra)
                repair.setVisible(True)
                repair.set_count(item.repair_track or self.rules.sheet.repair_track)
                repair.set_value(item.repair_pips)
            set_tip(label, item.describe() if item else "Empty: right-click to equip from the backpack")
            set_tip(stats, stats.text())
            stats.setVisible(bool(stats.text()) or item is not None)


class BeltSection(SheetSection):
    """The numbered belt slots (brews, potions, scrolls), in two columns."""

    def __init__(self, rules: Rules, send: Send, requests: SheetRequests, parent: QWidget | None = None) -> None:
        super().__init__("Belt slots", rules, send, parent)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(1)
        self.belt_labels: list[ElidedLabel] = []
        self.belt_rows: list[ItemRow] = []
        half = (rules.belt_slots + 1) // 2
        for i in range(rules.belt_slots):
            row = ItemRow(partial(requests.item_menu, "belt", "", i), partial(requests.edit_item, "belt", "", i))
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(3)
            line.addWidget(loc_badge(str(i + 1)))
            label = ElidedLabel()
            line.addWidget(label, 1)
            self.belt_labels.append(label)
            self.belt_rows.append(row)
            grid.addWidget(row, i % half, i // half)
        self.body.addLayout(grid)

    def show_character(self, ch: Character, d: Derived) -> None:
        for i, label in enumerate(self.belt_labels):
            item = ch.belt[i] if i < len(ch.belt) else None
            label.setText(item.name if item else "—")
            set_dim(label, item is None)
            set_tip(label, f"{item.name}: {item.effect}" if item and item.effect else (item.name if item else "Empty"))
