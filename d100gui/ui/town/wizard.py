"""The before-next-quest wizard: the six steps and investments, one panel each, over ``Campaign.town``.

Every number on it comes from :func:`d100gui.engine.town.queries.town_view`; every action is
a town command sent through the bridge, so a refusal (an exact shortfall or limit) shows on
the panel that sent it, Ctrl+Z is the game's undo, and a save made mid-wizard reopens at the
same step (the step lives in the campaign, not in the widget).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QDialog, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QStackedWidget, QVBoxLayout, QWidget

from d100gui.engine.game import Command
from d100gui.engine.town.commands import BeginTown, FinishTown, TownNext
from d100gui.engine.town.model import TOWN_STEPS, TownState
from d100gui.engine.town.queries import town_view
from d100gui.ui.common.bridge import ChangeSet, EngineBridge
from d100gui.ui.town.investments import InvestmentsPanel
from d100gui.ui.town.markets import MarketsPanel
from d100gui.ui.town.parts import StepPanel, TownContext, allow
from d100gui.ui.town.refresh import HealerPanel
from d100gui.ui.town.repair import RepairPanel
from d100gui.ui.town.required import RequiredPanel
from d100gui.ui.town.sell import SellPanel
from d100gui.ui.town.training import TrainingPanel

#: the campaign's parts the wizard shows: the hero (gold, items), the phase, what waits, the quest, the rolls
WIZARD_PARTS = ("character", "town", "pending", "adventure", "dice_history")


class BeginPanel(StepPanel):
    """Before the phase opens (or after it is confirmed): a button to begin it."""

    def __init__(self, wizard: TownWizard) -> None:
        super().__init__(wizard.send, "Between quests: heal, repair, sell, buy, train and invest, with every sum done for you.")
        self.begin_button = QPushButton("Begin the between-quests phase")
        self.begin_button.clicked.connect(lambda _=False: self.act(BeginTown()))
        self.head.addWidget(self.begin_button)


class DonePanel(StepPanel):
    """Every step is passed: confirm to end the phase."""

    def __init__(self, wizard: TownWizard) -> None:
        super().__init__(wizard.send, "Every step is done: confirm to set out on the next quest (this cannot be undone here).")


class TownWizard(QDialog):
    """One guided window over the town phase; it renders ``campaign.town`` and sends town commands."""

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("townWizard")  # F1 opens its help topic
        self.setWindowTitle("Before your next quest")
        self.bridge = bridge
        self._stale = False  # an action changed what it shows while it was hidden
        self._error = ""
        self.begin = BeginPanel(self)
        self.panels: dict[str, StepPanel] = {
            "refresh": HealerPanel(self.send),
            "repair": RepairPanel(self.send),
            "sell": SellPanel(self.send),
            "required": RequiredPanel(self.send),
            "markets": MarketsPanel(self.send),
            "training": TrainingPanel(self.send),
            "investments": InvestmentsPanel(self.send),
            "done": DonePanel(self),
        }
        self._build()
        bridge.error.connect(self._remember)
        bridge.changed.connect(self._changed)  # once per do, undo, redo or campaign shown
        self.undo_shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Undo), self, self.undo)
        self.undo_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.resize(640, 460)
        self.refresh()

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        self.step_label = QLabel()
        self.step_label.setStyleSheet("font-size: 13pt; font-weight: bold;")
        self.steps_label = QLabel()
        self.steps_label.setWordWrap(True)
        self.steps_label.setTextFormat(Qt.TextFormat.RichText)
        self.gold_label = QLabel()
        self.gold_label.setObjectName("townGold")
        self.gold_label.setStyleSheet("font-weight: bold;")
        for label in (self.step_label, self.steps_label, self.gold_label):
            outer.addWidget(label)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.begin)
        for panel in self.panels.values():
            self.stack.addWidget(panel)
        # The steps scroll inside the window: a market roll's rows never grow it over the adventure log.
        self.step_scroll = QScrollArea()
        self.step_scroll.setWidgetResizable(True)
        self.step_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.step_scroll.setWidget(self.stack)
        outer.addWidget(self.step_scroll, 1)
        buttons = QHBoxLayout()
        self.undo_button = QPushButton("Undo")
        self.next_button = QPushButton("Skip this step")
        self.finish_button = QPushButton("Confirm and finish")
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close this window; the phase waits at its step (Ctrl+Shift+B reopens it)")
        self.undo_button.clicked.connect(lambda _=False: self.undo())
        self.next_button.clicked.connect(lambda _=False: self.send(TownNext(), self.current_panel()))
        self.finish_button.clicked.connect(lambda _=False: self.finish())
        self.close_button.clicked.connect(lambda _=False: self.close())
        buttons.addWidget(self.undo_button)
        buttons.addStretch(1)
        buttons.addWidget(self.next_button)
        buttons.addWidget(self.finish_button)
        buttons.addWidget(self.close_button)
        outer.addLayout(buttons)

    # ------------------------------------------------------------------ model
    @property
    def state(self) -> TownState:
        return self.bridge.game.campaign.town

    def current_panel(self) -> StepPanel:
        widget = self.stack.currentWidget()
        assert isinstance(widget, StepPanel)
        return widget

    def send(self, command: Command, panel: StepPanel) -> bool:
        """Send a town command; the engine's refusal shows on ``panel``, beside its controls."""
        self._error = ""
        ok = self.bridge.send(command)
        panel.say("" if ok else self._error)
        return ok

    def finish(self) -> bool:
        """Confirm and finish: once the engine ends the phase the window closes (not back to "Begin")."""
        ok = self.send(FinishTown(), self.current_panel())
        if ok:
            self.close()
        return ok

    def undo(self) -> bool:
        """The game's undo (Ctrl+Z): takes back the last action, step or move, until the wizard is confirmed."""
        self.current_panel().say("")
        return self.bridge.undo()

    def _remember(self, text: str) -> None:
        self._error = text

    # ------------------------------------------------------------------ render
    def _changed(self, change: ChangeSet) -> None:
        """Drawn again when the action touched what the wizard shows; hidden, on its next show."""
        if change.reset or change.touches(*WIZARD_PARTS):
            if self.isVisible():
                self.refresh()
            else:
                self._stale = True

    def showEvent(self, event: QShowEvent) -> None:
        if self._stale:
            self.refresh()
        super().showEvent(event)

    def refresh(self) -> None:
        """Re-read the phase and show its step, its gold and its prices."""
        self._stale = False
        game = self.bridge.game
        ch, state = game.campaign.character, self.state
        active = state.active and ch is not None
        self.stack.setCurrentWidget(self.panels[state.step] if active else self.begin)
        allow(self.undo_button, "" if active else "Nothing to undo in this phase.", "Take back the last action (Ctrl+Z)")
        allow(
            self.finish_button, "" if active else "Begin the phase first.", "End the phase: the hero is ready for the next quest"
        )
        allow(
            self.next_button,
            "" if active and state.step != "done" else "There is no further step.",
            "Move on; what is left undone is skipped",
        )
        if not active or ch is None:
            self._idle(ch is not None)
            return
        view = town_view(ch, game.rules, state, game.library)
        self.step_label.setText(f"Step {view.number}: {view.title}")
        names = [f"<b>{title}</b>" if step == state.step else title for step, title in zip(TOWN_STEPS, view.steps, strict=True)]
        self.steps_label.setText(" → ".join(names))
        totals = view.totals
        self.gold_label.setText(
            f"Gold: {view.gp} gp (began with {view.gold_at_start} gp; spent {totals.spent} gp, earned {totals.earned} gp)"
        )
        self.next_button.setText("Next step" if state.step != "investments" else "Done with investments")
        self.panels[state.step].show_context(TownContext(view, ch, state, game.rules, game.library))

    def _idle(self, hero: bool) -> None:
        self.step_label.setText("Before your next quest")
        self.steps_label.setText("")
        ch = self.bridge.game.campaign.character
        self.gold_label.setText(f"Gold: {ch.gp} gp" if ch is not None else "")
        allow(
            self.begin.begin_button,
            "" if hero else "Create a character first (Hero > New character).",
            "Open the between-quests steps",
        )
