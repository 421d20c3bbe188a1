"""The hero's numbers for the fight: HP, DEF at each hit location, DMG, Fate, Lives, conditions.

Every number comes from :func:`~d100gui.engine.hero.derive.derive` and ``CombatState``.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QLayoutItem, QProgressBar, QVBoxLayout, QWidget

from d100gui.engine.combat.attack import weapon_in
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules
from d100gui.ui.combat.widgets import BadgeSpec, Box, FlowRow, WrapLabel, set_dim_style
from d100gui.ui.common.theme import scaled_font

LOCATION_SHORT = {"main_weapon": "Main", "off_weapon": "Off"}
#: Short badge names for the engine's forfeit reasons (any other reason reads "Forfeit attack").
CONDITION_NAMES = {
    "you are caught in the web": "Webbed",
    "you are dazed": "Dazed",
    "you failed the FEAR test": "Afraid",
}


def conditions(ch: Character, c: CombatState | None) -> list[BadgeSpec]:
    """Badges (text, tip, strong) for what holds the hero back or helps them in this fight."""
    out: list[BadgeSpec] = []
    if c is not None:
        for reason, when in ((c.forfeit_attack, "this round"), (c.next_forfeit_attack, "next round")):
            if reason:
                name = CONDITION_NAMES.get(reason, "Forfeit attack")
                out.append((f"{name}: no attack {when}", f"You forfeit your attack {when}: {reason}.", True))
        for reason, when in ((c.no_escape, "this round"), (c.next_no_escape, "next round")):
            if reason:
                out.append((f"No escape {when}", f"You cannot escape {when}: {reason}.", True))
        for reason, when in ((c.no_belt, "this round"), (c.next_no_belt, "next round")):
            if reason:
                out.append((f"No belt {when}", f"You cannot use your belt {when}: {reason}.", True))
        if c.def_penalty:
            out.append((f"Frozen: DEF -{c.def_penalty} this round", "AVOID FREEZE failed last round.", True))
        if c.next_def_penalty:
            out.append((f"Frozen: DEF -{c.next_def_penalty} next round", "AVOID FREEZE failed.", True))
        for boost in c.boosts:
            out.append((f"{boost.source or 'Brew'}: +{boost.amount} {boost.stat}", "Lasts until used in this fight.", False))
    if ch.disease:
        out.append((f"Disease {ch.disease}", "Pips on the disease track: checked when the time track refreshes.", False))
    if ch.poison:
        out.append((f"Poison {ch.poison}", "Pips on the poison track: checked when the time track refreshes.", False))
    return out


class CellRows(QLayout):
    """Cells of one width, spread evenly over the width given: all in one line when they fit, else in as
    few lines as fit (10 hit locations: one line of 10, else two of 5, ...). Its height follows its width,
    so a narrow dock gets a taller row instead of a cut-off one."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 2) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self._heights: dict[int, int] = {}  # heightForWidth by width, until the layout is invalidated
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        item = self._items.pop(index) if 0 <= index < len(self._items) else None
        self.invalidate()
        return item

    def invalidate(self) -> None:
        self._heights.clear()
        super().invalidate()

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height

    def _hints(self) -> list[QSize]:
        return [item.sizeHint() for item in self._items]

    def _widths(self, hints: list[QSize], columns: int) -> list[int]:
        """Each column's width with ``columns`` cells a line: its widest cell's."""
        widths = [0] * columns
        for i, hint in enumerate(hints):
            widths[i % columns] = max(widths[i % columns], hint.width())
        return widths

    def sizeHint(self) -> QSize:
        hints = self._hints()
        widths = self._widths(hints, len(hints))
        return QSize(sum(widths) + max(0, len(hints) - 1) * self._gap, max((h.height() for h in hints), default=0))

    def minimumSize(self) -> QSize:
        hints = self._hints()  # one cell a line, at the narrowest
        return QSize(max((h.width() for h in hints), default=0), max((h.height() for h in hints), default=0))

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place the cells within ``rect`` in as few lines as fit, the room left shared out between the
        columns; the height used."""
        hints = self._hints()
        n = len(hints)
        if not n:
            return 0
        height = max(h.height() for h in hints)
        for lines in range(1, n + 1):
            columns = -(-n // lines)
            widths = self._widths(hints, columns)
            if sum(widths) + (columns - 1) * self._gap <= rect.width():
                break
        lines = -(-n // columns)
        if move:
            extra = max(0, rect.width() - sum(widths) - (columns - 1) * self._gap) / columns
            lefts, x = [], float(rect.x())
            for width in widths:
                lefts.append(x)
                x += width + extra + self._gap
            for i, item in enumerate(self._items):
                line, column = divmod(i, columns)
                left = round(lefts[column])
                right = round(lefts[column] + widths[column] + extra)
                item.setGeometry(QRect(left, rect.y() + line * height, right - left, height))
        return lines * height


class HeroBox(Box):
    """The hero's side of the fight, re-shown from the character and ``CombatState``."""

    def __init__(self, rules: Rules, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        top = QHBoxLayout()
        self.hero_name = QLabel()
        self.hero_name.setStyleSheet("font-weight: bold;")
        top.addWidget(self.hero_name)
        self.hero_hp = QProgressBar()
        self.hero_hp.setObjectName("heroHp")
        self.hero_hp.setTextVisible(True)
        self.hero_hp.setMaximumHeight(18)
        top.addWidget(self.hero_hp, 1)
        self.column.addLayout(top)
        self.hero_numbers = WrapLabel()  # a narrow dock: the numbers go on two lines, never cut off
        self.hero_numbers.setObjectName("heroNumbers")
        self.column.addWidget(self.hero_numbers)
        self.def_grid = CellRows(spacing=2)
        self.def_cells: dict[str, tuple[QLabel, QLabel]] = {}
        slots = [s for s in rules.slots if s.hit_location is not None]
        for slot in sorted(slots, key=lambda s: s.hit_location or 0):
            name = QLabel(f"{slot.hit_location} {LOCATION_SHORT.get(slot.id, slot.name)}")
            name.setAlignment(Qt.AlignmentFlag.AlignCenter)
            set_dim_style(name, "color: {dim};")
            scaled_font(name, 0.8)
            value = QLabel()
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            value.setObjectName("defCell")
            cell = QWidget()
            cell_column = QVBoxLayout(cell)
            cell_column.setContentsMargins(0, 0, 0, 0)
            cell_column.setSpacing(0)
            cell_column.addWidget(name)
            cell_column.addWidget(value)
            self.def_grid.addWidget(cell)
            self.def_cells[slot.id] = (name, value)
        self.column.addLayout(self.def_grid)
        self.condition_row = FlowRow(per_line=4)
        self.column.addWidget(self.condition_row)

    def refresh(self, ch: Character, c: CombatState | None) -> None:
        """Show hero ``ch`` in fight ``c`` (None: the fight is over)."""
        d = derive(ch, self.rules)
        self.hero_name.setText(ch.name or "Your hero")
        # A progress bar repaints itself at once when its value moves (QProgressBar.setValue): 10-20 ms when the fight
        # page has just come up. With its updates off it is painted with the rest of the window instead.
        self.hero_hp.setUpdatesEnabled(False)
        self.hero_hp.setRange(0, max(1, d.max_hp))
        self.hero_hp.setValue(max(0, min(ch.hp, d.max_hp)))
        self.hero_hp.setFormat(f"HP {ch.hp} / {d.max_hp}")
        self.hero_hp.setUpdatesEnabled(True)  # an update asked: the bar is painted in the window's next paint
        lives = f"{ch.lives}" + (" + RES" if ch.res else "")
        weapon = weapon_in(ch, "main_weapon") or weapon_in(ch, "off_weapon")
        dmg = d.weapon_dmg.get("main_weapon" if weapon_in(ch, "main_weapon") else "off_weapon", d.dmg)
        weapon_text = f"{weapon.name} ({weapon.weapon_type or 'H'})" if weapon is not None else "no weapon"
        self.hero_numbers.setText(
            f"<b>DMG</b> {dmg:+d} with {weapon_text} &nbsp; <b>DB</b> {d.defence_bonus} &nbsp; "
            f"<b>Fate</b> {ch.fate} &nbsp; <b>Lives</b> {lives}"
        )
        hit = c.monster_hit.slot if c is not None and c.monster_hit is not None and c.monster_hit.slot else ""
        for slot_id, (name, value) in self.def_cells.items():
            value.setText(str(d.defence.get(slot_id, 0)))
            held = ch.equipment.get(slot_id)
            tip = f"{name.text()}: DEF {d.defence.get(slot_id, 0)}" + (f" ({held.name})" if held else " (nothing worn)")
            name.setToolTip(tip)
            value.setToolTip(tip)
            style = (
                "font-weight: bold; border: 2px solid palette(highlight); border-radius: 4px;"
                if slot_id == hit
                else "font-weight: bold;"
            )
            if value.styleSheet() != style:  # set again, a style sheet polishes the label again
                value.setStyleSheet(style)
        self.condition_row.set_badges(conditions(ch, c))
