"""Step 1: the tracks refreshed when the phase began, and the healer's prices."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSpinBox, QWidget

from d100gui.engine.town.commands import VisitHealer
from d100gui.engine.town.prices import healer_cost
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, allow, row


class HealerPanel(StepPanel):
    """Shows what the refresh cleared; the player picks poison pips, disease pips and HP to pay for."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Keys, levers, the time track and objectives were cleared when the phase began.", parent)
        self.tracks = QLabel()
        self.tracks.setWordWrap(True)
        self.head.addWidget(self.tracks)
        grid = QGridLayout()
        self.have: dict[str, QLabel] = {}
        self.price: dict[str, QLabel] = {}
        self.boxes: dict[str, QSpinBox] = {}
        for i, (key, title) in enumerate((("poison", "Poison pips"), ("disease", "Disease pips"), ("hp", "HP lost"))):
            self.have[key], self.price[key], self.boxes[key] = QLabel(), QLabel(), QSpinBox()
            self.boxes[key].setToolTip(f"{title}: how many to have the healer remove")
            grid.addWidget(QLabel(title), i, 0)
            grid.addWidget(self.have[key], i, 1)
            grid.addWidget(self.boxes[key], i, 2)
            grid.addWidget(self.price[key], i, 3)
            self.boxes[key].valueChanged.connect(self._priced)
        grid.setColumnStretch(3, 1)
        self.head.addLayout(grid)
        self.total = QLabel()
        self.pay_button = QPushButton("Pay the healer")
        self.pay_button.setToolTip("Pay the healer for what you chose above")
        self.pay_button.clicked.connect(self._pay)
        self.head.addWidget(row(self.total, self.pay_button, stretch=-1))
        self._ctx: TownContext | None = None

    def show_context(self, ctx: TownContext) -> None:
        self._ctx = ctx
        ch, h = ctx.character, ctx.view.healer
        now = f"keys {ch.keys}, levers {ch.levers}, time track {ch.time_track.shaded} shaded, objectives {ch.objectives}"
        if ctx.state.tracks_refreshed:
            c = ctx.state.cleared
            parts = [("keys", "key", "keys"), ("levers", "lever", "levers"), ("clocks", "clock", "clocks")]
            parts += [("bonuses", "time-track bonus", "time-track bonuses"), ("objectives", "objective", "objectives")]
            was = ", ".join(f"{n} {one if n == 1 else many}" for key, one, many in parts for n in [c.get(key, 0)])
            self.tracks.setText(f"Cleared when the phase began: {was}. Now {now}. Oil and food are not spent.")
        else:
            self.tracks.setText(f"Tracks not refreshed yet: {now}.")
        for key, have, unit, each in (
            ("poison", h.poison, h.poison_pip, "a pip"),
            ("disease", h.disease, h.disease_pip, "a pip"),
            ("hp", h.hp_lost, h.hp, "an HP"),
        ):
            self.have[key].setText(str(have))
            self.price[key].setText(f"{unit} gp {each}")
            box = self.boxes[key]
            box.blockSignals(True)
            box.setRange(0, have)
            box.blockSignals(False)
            allow(box, "" if have else "Nothing to heal here.", "How many to have the healer remove")
        self._priced()

    def _priced(self) -> None:
        ctx = self._ctx
        if ctx is None:
            return
        counts = {k: b.value() for k, b in self.boxes.items()}
        cost = healer_cost(ctx.rules, counts["poison"], counts["disease"], counts["hp"])
        self.total.setText(f"The healer asks {cost} gp.")
        h = ctx.view.healer
        why = "" if any(counts.values()) else "Choose the pips or HP to heal first."
        if not (h.poison or h.disease or h.hp_lost):
            why = "Nothing to heal: no poison, no disease, no HP lost."
        allow(self.pay_button, why, f"Pay {cost} gp")

    def _pay(self) -> None:
        b = self.boxes
        self.act(VisitHealer(poison=b["poison"].value(), disease=b["disease"].value(), hp=b["hp"].value()))
