"""The hand-entry forms the sheet asks for: an item's columns, a spell-book position.

They are opened by :class:`~d100gui.ui.hero.actions.HeroActions` when the sheet requests
them; OK hands the written item or spell back as a command.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QSpinBox, QWidget

from d100gui.engine.hero.model import Item
from d100gui.engine.rules.model import STATS, Rules
from d100gui.ui.common.dialogs import _Validating


class ItemDialog(_Validating):
    """Write or rewrite an item by hand: its name and the sheet's columns for it."""

    KINDS = ("armour", "weapon", "shield", "jewellery", "brew", "potion", "scroll", "elixir", "item")

    def __init__(self, rules: Rules, item: Item | None = None, title: str = "Item", parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.original = item or Item(name="")
        form = QFormLayout()
        self.name = QLineEdit(self.original.name)
        self.name.setToolTip("The item's name, as the table prints it")
        form.addRow("Name", self.name)
        self.kind = QComboBox()
        self.kind.addItems(self.KINDS)
        self.kind.setToolTip("What kind of item it is: where it may go on the sheet")
        self.kind.setCurrentText(self.original.kind)
        form.addRow("Kind", self.kind)
        self.slot = QComboBox()
        self.slot.addItem("(no slot)", "")
        self.slot.setToolTip("The equipment slot it is worn in")
        for rule in rules.slots:
            self.slot.addItem(rule.name if rule.id not in ("ring_1", "ring_2") else f"Ring ({rule.id[-1]})", rule.id)
        self.slot.setCurrentIndex(max(0, self.slot.findData(self.original.slot)))
        form.addRow("Slot", self.slot)

        def spin(value: int, lo: int = -99, hi: int = 999) -> QSpinBox:
            box = QSpinBox()
            box.setRange(lo, hi)
            box.setValue(value)
            box.setToolTip("As the table prints it for this item")
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
        self.defence_bonus.setToolTip("The DEF is written with a +: it adds to the Defence Bonus instead of this slot's DEF")
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
        self.repair_cost.setSpecialValueText(f"1/{rules.repair.value_divisor} of the value")
        form.addRow("Repair cost per pip", self.repair_cost)
        self.two_handed = QCheckBox("Two-handed")
        self.two_handed.setChecked(self.original.two_handed)
        self.two_handed.setToolTip("A two-handed weapon takes both weapon slots")
        form.addRow("", self.two_handed)
        self.effect = QLineEdit(self.original.effect)
        self.effect.setToolTip("The item's effect, written as the table prints it")
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

    def __init__(
        self, position: int, threshold: int, name: str = "", cost: str = "", effect: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(f"Spell book position {position} (INT {threshold}+)", parent)
        form = QFormLayout()
        self.name = QLineEdit(name)
        self.name.setToolTip("The spell's name")
        self.cost = QLineEdit(cost)
        self.cost.setPlaceholderText("-1 HP")
        self.cost.setToolTip("What casting costs, as the table prints it")
        self.effect = QLineEdit(effect)
        self.effect.setToolTip("What the spell does, as the table prints it")
        form.addRow("Spell", self.name)
        form.addRow("Cost", self.cost)
        form.addRow("Effect", self.effect)
        self.layout_.addLayout(form)
        self._finish_layout()

    def _validate(self) -> str:
        return "" if self.name.text().strip() else "Write the spell's name (use Erase to empty the position)."
