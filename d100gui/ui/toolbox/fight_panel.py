"""The scars fight tracker: set up the fighters, then attack, shift a roll by Scars, test morale, make the scars check.

The fight lives in ``campaign.toolbox.scars_encounter``: this panel draws it from there after
every action (a reopened campaign shows the fight where it stopped; undo moves it back) and
sends the scars commands with ``in_encounter`` through the :class:`ToolRunner`.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.game import Command
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import scars as sc
from d100gui.ui.common.bridge import ChangeSet
from d100gui.ui.toolbox.result_box import ResultBox
from d100gui.ui.toolbox.runner import ToolResult, ToolRunner
from d100gui.ui.toolbox.tool_panel import tool_header
from d100gui.ui.toolbox.tools import ATTRIBUTE, OPEN_MAX, SIGNS, Tool

SIDES = (("Adventurer", sc.Side.ADVENTURER), ("Enemy", sc.Side.ENEMY))
SURPRISED = (("Nobody", None), ("The adventurers", sc.Side.ADVENTURER), ("The enemies", sc.Side.ENEMY))


def _spin(low: int, high: int, value: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setToolTip(f"Valid: {low} to {high}")
    return spin


def fighter_line(f: sc.ScarsFighter) -> str:
    """One fighter as the tracker lists them, from the encounter's model."""
    flags = [
        name
        for name, on in (
            ("stunned", f.stunned),
            ("rallied", f.rallied),
            ("fled", f.fled),
            ("dead", f.dead),
            ("down", f.down and not f.dead),
            ("Scars used", f.modifier_used),
        )
        if on
    ]
    if f.wakes_in_rounds is not None:
        flags.append(f"wakes in {f.wakes_in_rounds} round(s)")
    extra = f", Scars {f.scars}" if f.side is sc.Side.ADVENTURER else f", HD {f.hd}"
    state = f" [{', '.join(flags)}]" if flags else ""
    took = f"; took {f.damage_this_round} damage this Round" if f.damage_this_round else ""
    return f"{f.name} ({f.side.value}): health {f.health}/{f.max_health}, AC {f.armour_class}{extra}{state}{took}"


class FightPanel(QWidget):
    """Fighters first ("Start fight"), then the round's actions on the fight the campaign keeps."""

    def __init__(self, tool: Tool, runner: ToolRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tool, self.runner = tool, runner
        self.setup: list[sc.ScarsFighter] = []
        self._last: Command | None = None
        self.result_box = ResultBox()
        self.result_box.same_dice_requested.connect(self.same_dice)
        runner.result_replaced.connect(self.result_box.replace)  # a run continued once its row was answered
        layout = QVBoxLayout(self)
        layout.addWidget(tool_header(tool, runner.bridge.game.library))
        layout.addWidget(self._setup_box())
        self.round_label = QLabel("")
        self.round_label.setObjectName("fightRound")
        self.fighters = QListWidget()
        self.fighters.setObjectName("fighters")
        self.fighters.setMaximumHeight(140)
        layout.addWidget(self.round_label)
        layout.addWidget(self.fighters)
        layout.addWidget(self._actions_box())
        layout.addWidget(self.result_box)
        layout.addStretch(1)
        runner.bridge.changed.connect(self._changed)  # once per do, undo, redo or campaign shown
        self.refresh()

    def _setup_box(self) -> QWidget:
        box = QWidget()
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit()
        self.name.setPlaceholderText("fighter's name")
        self.side = QComboBox()
        for label, side in SIDES:
            self.side.addItem(label, side)
        self.ac = _spin(*sc.AC_RANGE, 0)
        self.health = _spin(1, OPEN_MAX, 6)  # a fighter has at least 1 health (the model's own bound)
        self.scars = _spin(0, sc.MAX_SCARS, 0)
        self.hd = _spin(0, OPEN_MAX, 1)
        grid = QGridLayout()
        for i, (label, widget) in enumerate((("AC", self.ac), ("Health", self.health), ("Scars", self.scars), ("HD", self.hd))):
            grid.addWidget(QLabel(label), 0, i)
            grid.addWidget(widget, 1, i)
        self.add_button = QPushButton("Add fighter")
        self.add_button.clicked.connect(self.add_fighter)
        self.start_button = QPushButton("Start fight")
        self.start_button.setObjectName("startFight")
        self.start_button.clicked.connect(self.start)
        self.surprised = QComboBox()
        self.surprised.setObjectName("surprisedSide")
        self.surprised.setAccessibleName("Surprised when the fight starts")
        self.surprised.setToolTip("The surprised side takes no actions in the first combat Round.")
        for label, surprised in SURPRISED:
            self.surprised.addItem(label, surprised)
        self.setup_list = QLabel("No fighters yet.")
        self.setup_list.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.start_button)
        form.addRow("Name", self.name)
        form.addRow("Side", self.side)
        form.addRow(grid)
        form.addRow("Surprised", self.surprised)
        form.addRow(buttons)
        form.addRow(self.setup_list)
        return box

    def _actions_box(self) -> QWidget:
        box = QWidget()
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        self.attacker, self.target, self.who = QComboBox(), QComboBox(), QComboBox()
        self.attribute = _spin(*ATTRIBUTE, 10)
        self.damage = QLineEdit("1d6")
        self.sign = QComboBox()
        for label, sign in SIGNS:
            self.sign.addItem(label, sign)
        self.attack_button = QPushButton("Attack")
        self.attack_button.setObjectName("fightAttack")
        self.attack_button.clicked.connect(self.attack)
        self.plus_button, self.minus_button = QPushButton("Shift last roll + Scars"), QPushButton("- Scars")
        self.plus_button.clicked.connect(lambda: self.send(tc.ScarsModifyAttack(sign=sc.ScarsSign.PLUS, in_encounter=True)))
        self.minus_button.clicked.connect(lambda: self.send(tc.ScarsModifyAttack(sign=sc.ScarsSign.MINUS, in_encounter=True)))
        self.morale_button, self.check_button = QPushButton("Test morale"), QPushButton("Scars check")
        self.morale_button.clicked.connect(lambda: self.send(tc.ScarsMoraleTest(name=self.who.currentText(), in_encounter=True)))
        self.check_button.clicked.connect(
            lambda: self.send(tc.ScarsZeroHealthCheck(name=self.who.currentText(), in_encounter=True))
        )
        self.round_button = QPushButton("Next round")
        self.round_button.clicked.connect(lambda: self.send(tc.ScarsNextRound()))
        form.addRow("Attacker", self.attacker)
        form.addRow("Target", self.target)
        form.addRow("Attack attribute", self.attribute)
        form.addRow("Damage dice", self.damage)
        form.addRow("Scars modifier", self.sign)
        form.addRow(self.attack_button)
        form.addRow(_row(self.plus_button, self.minus_button))
        form.addRow("Fighter", self.who)
        form.addRow(_row(self.morale_button, self.check_button, self.round_button))
        self.fight_actions = box
        return box

    # ------------------------------------------------------------------ setting up
    def add_fighter(self) -> None:
        name = self.name.text().strip()
        if not name:
            self.result_box.show_result("Give the fighter a name.")
            return
        side = sc.Side(self.side.currentData())  # Qt hands a StrEnum back as a plain str
        fighter = sc.ScarsFighter(
            name=name,
            side=side,
            armour_class=self.ac.value(),
            health=self.health.value(),
            max_health=self.health.value(),
            scars=self.scars.value() if side is sc.Side.ADVENTURER else 0,
            hd=self.hd.value() if side is sc.Side.ENEMY else 0,
        )
        self.setup.append(fighter)
        self.name.clear()
        self.setup_list.setText("To start: " + "; ".join(fighter_line(f) for f in self.setup))

    def start(self) -> None:
        self.send(tc.ScarsStartEncounter(fighters=self.setup, surprised=self.surprised.currentData()))
        if self.runner.bridge.game.campaign.toolbox.scars_encounter is not None:
            self.setup = []
            self.setup_list.setText("No fighters yet (a new fight replaces the one tracked).")

    # ------------------------------------------------------------------ in the fight
    def attack(self) -> None:
        self.send(
            tc.ScarsAttack(
                attribute=self.attribute.value(),
                damage=self.damage.text(),
                sign=self.sign.currentData(),
                in_encounter=True,
                attacker=self.attacker.currentText(),
                target=self.target.currentText(),
            )
        )

    def send(self, command: Command) -> None:
        self._last = command
        self._show(self.runner.run(self.tool.title, command))

    def same_dice(self) -> None:
        last = self.result_box.result
        if self._last is not None and last is not None:
            self._show(self.runner.rerun(last, self.tool.title, self._last))

    def _show(self, outcome: ToolResult | str) -> None:
        self.result_box.show_result(outcome)
        self.refresh()

    def _changed(self, _change: ChangeSet) -> None:
        """Every action, undo, redo or campaign shown: the panel's state and its result's latest flag are read again."""
        self.refresh()

    def refresh(self) -> None:
        encounter = self.runner.bridge.game.campaign.toolbox.scars_encounter
        self.fight_actions.setEnabled(encounter is not None)
        for button, does in self._buttons():
            button.setToolTip(
                does if encounter is not None else f"{does} (start a fight first: add its fighters, then Start fight)"
            )
        self.fighters.clear()
        names = [f.name for f in encounter.fighters] if encounter is not None else []
        for combo in (self.attacker, self.target, self.who):
            keep = combo.currentText()
            combo.clear()
            combo.addItems(names)
            if keep in names:
                combo.setCurrentText(keep)
        if len(names) > 1 and self.target.currentText() == self.attacker.currentText():
            self.target.setCurrentIndex(1)
        if encounter is None:
            self.round_label.setText("No fight is tracked: add the fighters, then Start fight.")
        else:
            note = f" ({encounter.surprise_note})" if encounter.surprise_note else ""
            self.round_label.setText(f"Round {encounter.round}{note}")
            self.fighters.addItems([fighter_line(f) for f in encounter.fighters])
        self.result_box.set_latest(self.runner.is_latest(self.result_box.result))

    def _buttons(self) -> list[tuple[QPushButton, str]]:
        """The fight's buttons and what each does (their tooltips say why they are greyed)."""
        return [
            (self.attack_button, "The attacker attacks the target on the fight's ACs"),
            (self.plus_button, "Shift the latest attack's roll up by the attacker's Scars (once a round)"),
            (self.minus_button, "Shift the latest attack's roll down by the attacker's Scars (once a round)"),
            (self.morale_button, "Test the chosen enemy's morale"),
            (self.check_button, "The scars check for the chosen adventurer at 0 health"),
            (self.round_button, "Start the next initiative round"),
        ]


def _row(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget)
    return box
