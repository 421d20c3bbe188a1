"""Step 5: REP market rolls over the tables with the market symbol, then one item to buy.

A roll that lands on a row the player's tables lack is typed in through the missing-row dialog
(the ``row_missing`` policy "ask") and sent as ``provide_market_row``.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QWidget

from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.town.commands import BuyMarketItem, ProvideMarketRow, RollMarket
from d100gui.engine.town.prices import row_price
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, allow, clear, grid, row


class MarketsPanel(StepPanel):
    """Roll a market table, then buy one of the rolled items at its printed price."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Search the markets: roll on the tables with the market symbol, then buy one item.", parent)
        self.left = QLabel()
        self.table = QComboBox()
        self.roll_button = QPushButton("Roll")
        self.roll_button.clicked.connect(self._roll)
        self.head.addWidget(self.left)
        self.head.addWidget(row(self.table, self.roll_button, stretch=-1))
        self.buy_buttons: list[QPushButton] = []
        self.row_buttons: dict[int, QPushButton] = {}
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
        allow(self.roll_button, why or ("" if view.market_tables else "Your tables have no market table."))
        self._rolls(ctx.state.market_rolls, bought)

    def _rolls(self, rolls: list[TableRoll], bought: str) -> None:
        clear(self.rows)
        self.buy_buttons, self.row_buttons = [], {}
        lines: list[list[QWidget | str]] = []
        for i, rolled in enumerate(rolls):
            if rolled.row is None:
                button = QPushButton("Type the row in…")
                button.clicked.connect(partial(self._ask_row, i, rolled))
                self.row_buttons[i] = button
            else:
                price = row_price(rolled.row)
                button = QPushButton(f"Buy for {price} gp" if price is not None else "Buy")
                why = "" if price is not None else "The table prints no price for this row: it cannot be bought."
                allow(button, why or (f"One market item a phase: {bought} is bought." if bought else ""))
                button.clicked.connect(partial(self.act, BuyMarketItem(index=i)))
            self.buy_buttons.append(button)
            lines.append([rolled.describe(), button])
        if lines:
            self.rows.addWidget(grid(lines))

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
        dialog = MissingRowDialog(table, rolled.roll.final, gap, self, rules=ctx.rules)
        dialog.accepted.connect(lambda: self.act(ProvideMarketRow(index=index, row=dialog.row())))
        dialog.open()
        self.dialog = dialog
        return dialog
