"""The hero's numbers for the fight: HP, DEF at each hit location, DMG, Fate, Lives, conditions.

Every number comes from :func:`~d100gui.engine.hero.derive.derive` and ``CombatState``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QProgressBar, QWidget

from d100gui.engine.combat.attack import weapon_in
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules
from d100gui.ui.combat.widgets import BadgeSpec, Box, FlowRow, set_dim_style
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
        self.hero_numbers = QLabel()
        self.hero_numbers.setObjectName("heroNumbers")
        self.column.addWidget(self.hero_numbers)
        self.def_grid = QGridLayout()
        self.def_grid.setHorizontalSpacing(2)
        self.def_grid.setVerticalSpacing(0)
        self.def_cells: dict[str, tuple[QLabel, QLabel]] = {}
        slots = [s for s in rules.slots if s.hit_location is not None]
        for i, slot in enumerate(sorted(slots, key=lambda s: s.hit_location or 0)):
            name = QLabel(f"{slot.hit_location} {LOCATION_SHORT.get(slot.id, slot.name)}")
            name.setAlignment(Qt.AlignmentFlag.AlignCenter)
            set_dim_style(name, "color: {dim};")
            scaled_font(name, 0.8)
            value = QLabel()
            value.setAlignment(Qt.AlignmentFlag.AlignCenter)
            value.setObjectName("defCell")
            self.def_grid.addWidget(name, 0, i)
            self.def_grid.addWidget(value, 1, i)
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
