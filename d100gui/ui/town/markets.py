"""Step 5: REP market rolls over the tables with the market symbol, then one item to buy.

A roll that lands on a row the player's tables lack is typed in through the missing-row dialog
(the ``row_missing`` policy "ask") and sent as ``provide_market_row``. Each roll's price and why it
cannot be bought come from the engine (``TownView.market``); a row that prints no price (Table S)
says "no price printed" and is bought at the price the player types from their rulebook.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QSpinBox, QWidget

from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.town.commands import BuyMarketItem, ProvideMarketRow, RollMarket
from d100gui.engine.town.queries import MarketOffer
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, allow, clear, grid, row


class MarketsPanel(StepPanel):
    """Roll a market table, then buy one of the rolled items at its printed price."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Search the markets: roll on the tables with the market symbol, then buy one item.", parent)
        self.left = QLabel()
        self.table = QComboBox()
        self.table.setToolTip("The market table to roll on")
        self.roll_button = QPushButton("Roll")
        self.roll_button.setToolTip("Roll once on the chosen table")
        self.roll_button.clicked.connect(self._roll)
        self.head.addWidget(self.left)
        self.head.addWidget(row(self.table, self.roll_button, stretch=-1))
        self.buy_buttons: list[QPushButton] = []
        self.row_buttons: dict[int, QPushButton] = {}
        self.price_boxes: dict[int, QSpinBox] = {}  # a row that prints no price: the price typed from the rulebook
        self.dialog: MissingRowDialog | None = None
        self._ctx: TownContext | None = None

    def show_context(self, ctx: TownContext) -> None:
        self._ctx = ctx
        view, bought = ctx.view, ctx.view.totals.market_bought
        self.left.setText(f"{view.market_rolls_left} market rolls left" + (f"; bought: {bought}." if bought else "."))
        chosen = self.table.currentData()
        self.table.clear()
        for table_id in view.market_tables:
            self.table.addItem(ctx.library.get(table_id).title, table_id)
        if chosen in view.market_tables:
            self.table.setCurrentIndex(view.market_tables.index(chosen))
        why = f"The market item is bought ({bought})." if bought else ""
        why = why or ("" if view.market_rolls_left else "Every market roll of this phase is made.")
        allow(
            self.roll_button,
            why or ("" if view.market_tables else "Your tables have no market table."),
            "Roll once on the chosen table",
        )
        self._rolls(ctx.state.market_rolls, view.market)

    def _rolls(self, rolls: list[TableRoll], offers: list[MarketOffer]) -> None:
        clear(self.rows)
        self.buy_buttons, self.row_buttons, self.price_boxes = [], {}, {}
        lines: list[list[QWidget | str]] = []
        for offer, rolled in zip(offers, rolls, strict=True):
            i = offer.index
            if offer.needs_row:
                button = QPushButton("Type the row in…")
                button.setToolTip("Your tables lack the row rolled: type it from your rulebook")
                button.clicked.connect(partial(self._ask_row, i, rolled))
                self.row_buttons[i] = button
                lines.append([offer.text, "", button])
            elif offer.price is not None:
                button = QPushButton(f"Buy for {offer.price} gp")
                allow(button, offer.why, "Buy this item at its printed price")
                button.clicked.connect(partial(self.act, BuyMarketItem(index=i)))
                lines.append([offer.text, "", button])
            else:
                box = QSpinBox()
                box.setRange(0, 10**6)
                box.setSuffix(" gp")
                box.setSpecialValueText("your book's price")  # 0: nothing typed yet
                box.setToolTip("No price printed in your tables: type the price your rulebook prints for it")
                box.setAccessibleName(f"Price of {offer.name}")
                self.price_boxes[i] = box
                button = QPushButton("Buy at this price")
                box.setEnabled(not offer.why)
                self._price_typed(button, offer.why, box.value())
                box.valueChanged.connect(partial(self._price_typed, button, offer.why))
                button.clicked.connect(partial(self._buy_at_typed_price, i))
                lines.append([offer.text, row("No price printed:", box, stretch=-1), button])
            self.buy_buttons.append(button)
        if lines:
            self.rows.addWidget(grid(lines))

    @staticmethod
    def _price_typed(button: QPushButton, why: str, price: int) -> None:
        allow(button, why or ("" if price > 0 else "Type the price your rulebook prints first: your tables print none."))

    def _buy_at_typed_price(self, index: int) -> bool:
        box = self.price_boxes.get(index)
        return box is not None and self.act(BuyMarketItem(index=index, price=box.value()))

    def _roll(self) -> None:
        table_id = self.table.currentData()
        if table_id:
            self.act(RollMarket(table_id=str(table_id)))

    def _ask_row(self, index: int, rolled: TableRoll) -> MissingRowDialog | None:
        ctx = self._ctx
        if ctx is None:
            return None
        table = ctx.library.get(rolled.table_id)
        gap = rolled.missing or table.gap_containing(rolled.roll.final) or (rolled.roll.final, rolled.roll.final)
        dialog = MissingRowDialog(table, rolled.roll.final, gap, self, rules=ctx.rules, can_sample=True)
        dialog.sample_always.setVisible(False)  # "from now on" is the preference's (Edit > Preferences)
        dialog.accepted.connect(lambda: self.act(ProvideMarketRow(index=index, row=dialog.row())))
        dialog.sample_requested.connect(lambda _always: self.act(ProvideMarketRow(index=index, sample=True)))
        dialog.open()
        self.dialog = dialog
        return dialog
