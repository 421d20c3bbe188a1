"""Step 4: buy required items from Table R, within the phase's limit and the supply maxima."""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QLabel, QPushButton, QSpinBox, QWidget

from d100gui.engine.town.commands import BuyRequired
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, allow, clear, counter, grid


class RequiredPanel(StepPanel):
    """A line per Table R row with its printed price; the limit left is the engine's."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Buy required items (Table R).", parent)
        self.left = QLabel()
        self.head.addWidget(self.left)
        self.buttons: dict[str, QPushButton] = {}
        self.boxes: dict[str, QSpinBox] = {}

    def show_context(self, ctx: TownContext) -> None:
        view = ctx.view
        self.left.setText(f"{view.totals.required_bought} bought; {view.required_left} more may be bought this phase.")
        clear(self.rows)
        self.buttons, self.boxes = {}, {}
        if not view.required:
            self.empty("Your tables have no Table R.")
        lines: list[list[QWidget | str]] = []
        for offer in view.required:
            box = counter(max(view.required_left, 1))
            box.setToolTip(f"How many {offer.item} to buy")
            button = QPushButton("Buy")
            why = ""
            if offer.price is None:
                why = f"Table R prints no price for {offer.item} in your tables: it cannot be bought."
            elif not view.required_left:
                why = view.required_full
            allow(button, why, f"{offer.price} gp each" + (f"\n{offer.effect}" if offer.effect else ""))
            button.clicked.connect(partial(self._buy, offer.item, box))
            price = f"{offer.price} gp each" if offer.price is not None else "no printed price"
            lines.append([offer.item, price, box, button])
            self.buttons[offer.item], self.boxes[offer.item] = button, box
        if lines:
            self.rows.addWidget(grid(lines))

    def _buy(self, item: str, box: QSpinBox) -> None:
        self.act(BuyRequired(item=item, count=box.value()))
