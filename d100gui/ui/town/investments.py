"""Empire Building: Table J once after every quest, then buy shares or sell shares and pips.

A Table J roll on a row the player's tables lack is typed in (``provide_investment_row``).
Pips are never bought, so there is no control to buy them.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QLabel, QPushButton, QSpinBox, QWidget

from d100gui.engine.town.commands import ProvideInvestmentRow, RollInvestments, TradeInvestment
from d100gui.engine.town.model import INVESTMENT_TABLE
from d100gui.engine.town.queries import InvestmentView
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, allow, clear, counter, grid, row


class InvestmentsPanel(StepPanel):
    """Roll Table J, then a line per investment: held shares and pips, prices, buy and sell."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Investments: Table J is read for every investment held; then trade shares.", parent)
        self.setObjectName("investmentsPanel")
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.roll_button = QPushButton("Roll Table J")
        self.roll_button.setToolTip("Roll the investments table: the result applies once for each share you hold")
        self.roll_button.clicked.connect(lambda _=False: self.act(RollInvestments()))
        self.row_button = QPushButton("Type the Table J row in…")
        self.row_button.setToolTip("Your tables lack the row rolled: type it from your rulebook")
        self.row_button.clicked.connect(self._ask_row)
        self.head.addWidget(row(self.roll_button, self.row_button, self.result, stretch=2))
        self.buttons: dict[tuple[str, str], QPushButton] = {}
        self.boxes: dict[str, QSpinBox] = {}
        self.dialog: MissingRowDialog | None = None
        self._ctx: TownContext | None = None

    def show_context(self, ctx: TownContext) -> None:
        self._ctx = ctx
        rolled = ctx.state.investment_roll
        due = ctx.view.table_j_due
        self.result.setText(rolled.describe() if rolled is not None else ("" if due else "No shares were held: no roll."))
        why = (
            "" if due and rolled is None else ("Table J is rolled." if rolled is not None else "No shares held after the quest.")
        )
        allow(self.roll_button, why, "Roll the investments table: the result applies once for each share you hold")
        self.row_button.setVisible(rolled is not None and rolled.row is None)
        clear(self.rows)
        self.buttons, self.boxes = {}, {}
        lines = [self._line(held, due) for held in ctx.view.investments]
        if lines:
            self.rows.addWidget(grid(lines))

    def _line(self, held: InvestmentView, due: bool) -> list[QWidget | str]:
        box = counter(99)  # a count box; the engine names any limit when the count is too many
        box.setToolTip(f"How many {held.name} shares or pips to buy or sell")
        first = "Roll Table J first: shares are traded after the investment roll." if due else ""
        buttons = {
            "buy": QPushButton("Buy shares"),
            "sell": QPushButton("Sell shares"),
            "sell_pips": QPushButton("Sell pips"),
        }
        allow(
            buttons["buy"],
            first or held.full,
            f"{held.share_value} gp a share",
        )
        allow(buttons["sell"], first or ("" if held.shares else "No shares held."), f"{held.share_value} gp a share")
        allow(buttons["sell_pips"], first or ("" if held.shares or held.pips else "No pips held."), f"{held.pip_value} gp a pip")
        for key, button in buttons.items():
            action, unit = ("buy", "share") if key == "buy" else ("sell", "pip" if key == "sell_pips" else "share")
            button.clicked.connect(partial(self._trade, held.id, action, unit, box))
            self.buttons[(held.id, key)] = button
        self.boxes[held.id] = box
        prices = f"share {held.share_value} gp, pip {held.pip_value} gp"
        return [held.name, f"{held.shares} shares, {held.pips} pips", prices, box, *buttons.values()]

    def _trade(self, investment: str, action: str, unit: str, box: QSpinBox) -> None:
        self.act(TradeInvestment(investment=investment, action=action, unit=unit, count=box.value()))  # type: ignore[arg-type]  # fixed literals above

    def _ask_row(self) -> MissingRowDialog | None:
        ctx = self._ctx
        rolled = ctx.state.investment_roll if ctx is not None else None
        if ctx is None or rolled is None:
            return None
        table = ctx.library.get(INVESTMENT_TABLE)
        final = rolled.roll.final
        gap = rolled.missing or table.gap_containing(final) or (final, final)
        dialog = MissingRowDialog(table, final, gap, self, rules=ctx.rules, can_sample=True)
        dialog.sample_always.setVisible(False)  # "from now on" is the preference's (Edit > Preferences)
        dialog.accepted.connect(lambda: self.act(ProvideInvestmentRow(row=dialog.row())))
        dialog.sample_requested.connect(lambda _always: self.act(ProvideInvestmentRow(sample=True)))
        dialog.open()
        self.dialog = dialog
        return dialog
