"""The spell book section: a line per position, greyed above what the hero's INT reaches."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QWidget

from d100gui.engine.hero.character import Character, Derived
from d100gui.engine.hero.queries import SPELL_CASTER, spells_castable
from d100gui.engine.rules.model import Rules
from d100gui.ui.hero.sheet_parts import ElidedLabel, ItemRow, Send, SheetRequests, SheetSection, set_dim, small


class SpellBookSection(SheetSection):
    """The spell-book positions with their INT thresholds; right-click a line to write or erase a spell."""

    def __init__(self, rules: Rules, send: Send, requests: SheetRequests, parent: QWidget | None = None) -> None:
        super().__init__("Spell book", rules, send, parent)
        self.spell_state = small()
        self.spell_state.setWordWrap(True)
        self.body.addWidget(self.spell_state)
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(0)
        self.spell_rows: list[ItemRow] = []
        self.spell_names: list[ElidedLabel] = []
        self.spell_thresholds: list[QLabel] = []
        for i, threshold in enumerate(rules.spell_thresholds()):
            level = QLabel(f"{threshold}+")
            level.setObjectName("fieldLabel")
            level.setFixedWidth(30)
            grid.addWidget(level, i, 0)
            row = ItemRow(partial(requests.spell_menu, i), partial(requests.edit_spell, i))
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            name = ElidedLabel()
            line.addWidget(name, 1)
            grid.addWidget(row, i, 1)
            self.spell_rows.append(row)
            self.spell_names.append(name)
            self.spell_thresholds.append(level)
        grid.setColumnStretch(1, 1)
        self.body.addLayout(grid)

    def _state(self, d: Derived) -> str:
        if spells_castable(self.rules, d):
            return f"Spell Caster active: positions up to INT {d.characteristics['INT']} can be cast."
        caster = self.rules.ability(SPELL_CASTER)
        return f"Spell Caster locked ({caster.characteristic} under {caster.threshold}): spells are kept but only scrolls work."

    def show_character(self, ch: Character, d: Derived) -> None:
        self.spell_state.setText(self._state(d))
        for i, name in enumerate(self.spell_names):
            spell = ch.spell_book[i] if i < len(ch.spell_book) else None
            reach = i < d.spells_in_reach
            name.setText(f"{spell.name}  ({spell.cost})" if spell and spell.cost else (spell.name if spell else "—"))
            dim = not reach or spell is None
            name.setStyleSheet("" if dim else "font-weight: bold;")
            set_dim(name, dim)
            set_dim(self.spell_thresholds[i], not reach)
            threshold = d.spell_thresholds[i]
            state = "usable" if (reach and spell) else ("out of reach: INT too low" if not reach else "empty")
            name.setToolTip(f"INT {threshold}+ · {state}" + (f"\n{spell.effect}" if spell and spell.effect else ""))
            name.setProperty("usable", bool(reach and spell))
            name.setProperty("in_reach", reach)
