"""Step 2: repair pips on every equipped and backpacked item, each pip's price from the engine."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QPushButton, QSpinBox, QWidget

from d100gui.engine.town.commands import RepairItem
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, clear, counter, grid


class RepairPanel(StepPanel):
    """A line per damaged item: its shaded repair pips, the price of a pip, how many to repair."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Repair equipped and backpacked items, a pip at a time.", parent)
        self.buttons: dict[str, QPushButton] = {}
        self.boxes: dict[str, QSpinBox] = {}

    def show_context(self, ctx: TownContext) -> None:
        clear(self.rows)
        self.buttons, self.boxes = {}, {}
        damaged = [p for p in ctx.view.repairs if p.repair_pips > 0]
        if not damaged:
            self.empty("Nothing needs repairing.")
        lines: list[list[QWidget | str]] = []
        for item in damaged:
            box = counter(item.repair_pips)
            box.setToolTip("How many pips to repair")
            button = QPushButton("Repair")
            button.setToolTip(f"{item.pip_cost} gp a pip, paid now")
            button.clicked.connect(partial(self._repair, item.where, item.place, box))
            lines.append(
                [f"{item.name} ({item.where})", f"{item.repair_pips} pips shaded", f"{item.pip_cost} gp a pip", box, button]
            )
            self.buttons[item.name], self.boxes[item.name] = button, box
        if lines:
            self.rows.addWidget(grid(lines))

    def _repair(self, where: str, place: str, box: QSpinBox) -> None:
        self.act(RepairItem(where=where, place=place, pips=box.value()))  # type: ignore[arg-type]  # where comes from the engine's list
