"""Step 6: training, at most the phase's pips, skills and characteristics at their prices."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QWidget

from d100gui.engine.town.commands import Train
from d100gui.ui.town.parts import Sender, StepPanel, TownContext, allow, counter, row


class TrainingPanel(StepPanel):
    """Pick a skill or characteristic and a number of pips; the price per pip is the engine's."""

    def __init__(self, send: Sender, parent: QWidget | None = None) -> None:
        super().__init__(send, "Training: shade pips on skills or characteristics (a full track gives its bonus).", parent)
        self.left = QLabel()
        self.track = QComboBox()
        self.track.setToolTip("The skill or characteristic whose experience track you train")
        self.price = QLabel()
        self.pips = counter(1)
        self.pips.setToolTip("How many pips to shade on that track")
        self.train_button = QPushButton("Train")
        self.train_button.setToolTip("Pay and shade the pips")
        self.train_button.clicked.connect(self._train)
        self.track.currentIndexChanged.connect(self._priced)
        self.head.addWidget(self.left)
        self.head.addWidget(row(self.track, self.pips, self.price, self.train_button, stretch=2))
        self._ctx: TownContext | None = None

    def show_context(self, ctx: TownContext) -> None:
        self._ctx = ctx
        view = ctx.view
        self.left.setText(f"{view.totals.trained_pips} pips trained; {view.training_left} more may be trained this phase.")
        if not self.track.count():
            for stat in ctx.rules.characteristics:
                self.track.addItem(f"{stat} (characteristic)", f"characteristic:{stat}")
            for skill in ctx.rules.skills:
                self.track.addItem(f"{skill} (skill)", f"skill:{skill}")
        self.pips.setRange(1, max(1, view.training_left))
        allow(
            self.train_button,
            view.training_full,
            "Pay and shade the pips",
        )
        self._priced()

    def _priced(self) -> None:
        ctx, data = self._ctx, self.track.currentData()
        if ctx is None or data is None:
            return
        each = ctx.view.characteristic_pip if str(data).startswith("characteristic:") else ctx.view.skill_pip
        self.price.setText(f"{each} gp a pip")

    def _train(self) -> None:
        data = self.track.currentData()
        if data is not None:
            self.act(Train(track=str(data).split(":", 1)[1], pips=self.pips.value()))
