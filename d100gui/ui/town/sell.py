"""Step 3: sell any equipped, belt, backpack or potion item for its value."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QPushButton, QWidget

from d100gui.engine.town.commands import SellItem
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, clear, grid


class SellPanel(StepPanel):
    """A line per item the hero carries, with what it fetches."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Sell any equipped, belt, backpack or potion item for its value.", parent)
        self.buttons: dict[str, QPushButton] = {}
        self.sold: list[str] = []

    def show_context(self, ctx: TownContext) -> None:
        clear(self.rows)
        self.buttons = {}
        self.sold = [f"{s.name} ({s.value} gp)" for s in ctx.state.sold]
        if self.sold:
            self.empty("Sold this phase: " + ", ".join(self.sold) + ".")
        if not ctx.view.sellable:
            self.empty("The hero carries nothing to sell.")
        lines: list[list[QWidget | str]] = []
        for item in ctx.view.sellable:
            button = QPushButton(f"Sell for {item.value} gp")
            button.setToolTip(f"Sell {item.name} for its value; it leaves the sheet")
            button.clicked.connect(partial(self._sell, item.where, item.place, item.name))
            lines.append([item.name, item.where, button])
            self.buttons.setdefault(item.name, button)
        if lines:
            self.rows.addWidget(grid(lines))

    def _sell(self, where: str, place: str, name: str) -> None:
        self.act(SellItem(where=where, place=place, name=name))  # type: ignore[arg-type]  # where comes from the engine's list
