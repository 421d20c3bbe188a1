"""The parts of the skill-test dialog: what is tested, the target, the rolled dice, the decisions left.

Each panel shows what the engine says (a :class:`~d100gui.engine.hero.skill_test.TestPreview`,
a :class:`~d100gui.engine.hero.decisions.PendingTest`, a pending decision) and turns a click
into a call the dialog sends as a command. No chance, pip count or die is worked out here:
the numbers come from :mod:`d100gui.engine.hero.queries`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.hero.decisions import CalledTest, ExperienceChoice, OutcomeChoice, PendingTest, TargetChoice
from d100gui.engine.hero.experience import experience_pips
from d100gui.engine.hero.model import TestPart
from d100gui.engine.hero.queries import is_single_die, modifier_step, pending_chance
from d100gui.engine.rules.model import STATS, Rules
from d100gui.engine.rules.notation import TestSpec
from d100gui.ui.common.contrast import readable
from d100gui.ui.common.dice_faces import DiceFacesView

SUCCESS_STYLE = "color: #2e8b57; font-weight: bold; font-size: 13pt;"
FAILURE_STYLE = "color: #c0392b; font-weight: bold; font-size: 13pt;"


def formula(parts: Sequence[TestPart]) -> str:
    """The target as the rulebook writes it: ``65 -10 +5 = 60``."""
    if not parts:
        return ""
    return f"{parts[0].value}" + "".join(f" {p.value:+d}" for p in parts[1:]) + f" = {sum(p.value for p in parts)}"


def _bonus_box(rules: Rules) -> QSpinBox:
    box = QSpinBox()
    box.setRange(-100, 100)
    box.setSingleStep(modifier_step(rules))
    return box


class TestInputs(QGroupBox):
    """Before the roll: the characteristic, an ad hoc modifier, name and skills, a situational bonus."""

    __test__ = False  # not a pytest class
    changed = Signal()

    def __init__(self, rules: Rules, from_text: bool, parent: QWidget | None = None) -> None:
        super().__init__("Before you roll", parent)
        self.form = QFormLayout(self)
        self.characteristic = QComboBox()
        self.characteristic.setToolTip("The characteristic the test is made against")
        for stat in STATS:
            self.characteristic.addItem(f"{stat} ({rules.characteristic_names.get(stat, stat)})", stat)
        self.form.addRow("Characteristic", self.characteristic)
        self.modifier = _bonus_box(rules)
        self.modifier.setToolTip("The test's modifier, as written after the characteristic")
        self.form.addRow("Modifier", self.modifier)
        self.name = QLineEdit()
        self.name.setPlaceholderText("(optional) what is being tested")
        self.name.setToolTip("What is being tested, for the log (optional)")
        self.form.addRow("Name", self.name)
        skills = QWidget()
        grid = QGridLayout(skills)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        self.skill_checks: dict[str, QCheckBox] = {}
        for i, skill in enumerate(rules.skills):
            check = QCheckBox(skill)
            check.setToolTip(f"Add your {skill} bonus: tick it when the test lists {skill}")
            self.skill_checks[skill] = check
            grid.addWidget(check, i // 3, i % 3)
            check.toggled.connect(self._changed)
        self.form.addRow("Skills", skills)
        self.bonus = _bonus_box(rules)
        self.bonus.setToolTip("A situational bonus the text leaves open: a brew, a spell bonus, Fly")
        self.form.addRow("Situational bonus", self.bonus)
        self.characteristic.currentIndexChanged.connect(self._changed)
        for box in (self.modifier, self.bonus):
            box.valueChanged.connect(self._changed)
        self.name.textChanged.connect(self._changed)
        if from_text:
            for w in (self.modifier, self.name, skills):
                self.form.setRowVisible(w, False)

    def _changed(self, *_: object) -> None:
        self.changed.emit()


class TargetPanel(QFrame):
    """The target and the chance of success, what makes them, and what success and failure bring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        col = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Target"))
        self.formula_label = QLabel()
        self.formula_label.setObjectName("formula")
        self.formula_label.setStyleSheet("font-size: 14pt; font-weight: bold;")
        row.addWidget(self.formula_label, 1)
        self.chance_label = QLabel()
        self.chance_label.setObjectName("chance")
        self.chance_label.setStyleSheet("font-size: 14pt;")
        self.chance_label.setToolTip("Chance of success")
        row.addWidget(self.chance_label)
        col.addLayout(row)
        self.parts_label = QLabel()
        self.parts_label.setWordWrap(True)
        self.parts_label.setStyleSheet("color: palette(placeholder-text);")
        col.addWidget(self.parts_label)
        self.outcomes_label = QLabel()
        self.outcomes_label.setWordWrap(True)
        col.addWidget(self.outcomes_label)

    def show_target(self, text: str, chance: int, parts: Sequence[TestPart], spec: TestSpec | None) -> None:
        self.formula_label.setText(text)
        self.chance_label.setText(f"{chance}%")
        self.parts_label.setText(
            " · ".join(f"{p.label} {p.value:+d}" if i else f"{p.label} {p.value}" for i, p in enumerate(parts))
        )
        self.outcomes_label.setText(self._outcomes(spec))

    def show_pending(self, test: PendingTest) -> None:
        self.show_target(formula(test.parts), pending_chance(test), test.parts, test.spec)

    def show_problem(self, problem: str) -> None:
        self.formula_label.setText("—")
        self.chance_label.setText("")
        self.parts_label.setText(problem)
        self.outcomes_label.setText("")

    @staticmethod
    def _outcomes(spec: TestSpec | None) -> str:
        if spec is None:
            return ""
        lines = []
        if not spec.success.is_empty:
            lines.append(f"<b>Success:</b> {spec.success.describe()}")
        if not spec.failure.is_empty:
            lines.append(f"<b>Failure:</b> {spec.failure.describe()}")
        if spec.skills:
            lines.append(f"<b>Skills:</b> {', '.join(spec.skills)}")
        return "<br>".join(lines)


class RolledPanel(QGroupBox):
    """The dice rolled, success or failure, and Fate to re-roll them until the roll is accepted."""

    fate_requested = Signal(list)  # the dice to re-roll: [0] tens, [1] units
    accept_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Roll", parent)
        rolled = QVBoxLayout(self)
        line = QHBoxLayout()
        self.faces = DiceFacesView()
        self.faces.setFixedWidth(130)
        line.addWidget(self.faces)
        self.result_label = QLabel()
        self.result_label.setObjectName("result")
        self.result_label.setWordWrap(True)
        line.addWidget(self.result_label, 1)
        rolled.addLayout(line)
        # the Fate left (and spent on this roll) on its own line: beside the three buttons it was cut at the
        # dialog's width ("Fate (1 left, 1 spe")
        self.fate_label = QLabel()
        self.fate_label.setWordWrap(True)
        rolled.addWidget(self.fate_label)
        fate = QHBoxLayout()
        self.fate_tens = QPushButton("Re-roll tens")
        self.fate_units = QPushButton("Re-roll units")
        self.fate_both = QPushButton("Re-roll both")
        for button, dice in ((self.fate_tens, [0]), (self.fate_units, [1]), (self.fate_both, [0, 1])):
            button.clicked.connect(partial(self._fate, dice))
            button.setToolTip("Spend Fate to re-roll these dice")
            fate.addWidget(button)
        fate.addStretch(1)
        rolled.addLayout(fate)
        self.accept_button = QPushButton("Accept the roll")
        self.accept_button.setToolTip("Take the result as it stands: no more Fate on this roll")
        self.accept_button.clicked.connect(lambda _=False: self.accept_requested.emit())
        rolled.addWidget(self.accept_button)

    def _fate(self, dice: list[int], _checked: bool = False) -> None:
        self.fate_requested.emit(dice)

    def _verdict(self, natural: int, target: int, success: bool) -> None:
        self.result_label.setText(f"Rolled {natural} against {target}: {'SUCCESS' if success else 'FAILURE'}")
        style = SUCCESS_STYLE if success else FAILURE_STYLE
        ink = readable(QColor(style.split(";")[0].split(":")[1].strip()), self.result_label.palette())
        self.result_label.setStyleSheet(f"color: {ink.name()};" + style.split(";", 1)[1])  # readable in either theme

    def show_pending(self, test: PendingTest, fate: int, fate_cost: int) -> None:
        roll = test.roll
        self.faces.set_faces(roll.dice, roll.rerolled)
        self._verdict(roll.natural, test.target, test.success)
        spent = f", {test.fate_spent} spent on this roll" if test.fate_spent else ""
        self.fate_label.setText(f"Fate ({fate} left{spent}):")
        single = is_single_die(test)
        self.fate_tens.setText("Re-roll the die" if single else "Re-roll tens")
        self.fate_units.setVisible(not single)
        self.fate_both.setVisible(not single)
        for b in (self.fate_tens, self.fate_units, self.fate_both):
            b.setEnabled(fate >= fate_cost)
            b.setToolTip(f"Spend {fate_cost} Fate to re-roll")
        for w in (self.fate_label, self.fate_tens, self.accept_button):
            w.setVisible(True)

    def show_settled(self, natural: int, target: int, success: bool) -> None:
        self._verdict(natural, target, success)
        for w in (self.fate_label, self.fate_tens, self.fate_units, self.fate_both, self.accept_button):
            w.setVisible(False)


class DecisionHandlers:
    """What the decision boxes' buttons call (the dialog's command senders)."""

    def __init__(
        self,
        assign_experience: Callable[[str, str, list[str] | None], object],
        choose_outcome: Callable[[str, int], object],
        choose_target: Callable[[str, str], object],
        roll_called: Callable[[str], object],
        dismiss: Callable[[str], object],
    ) -> None:
        self.assign_experience = assign_experience
        self.choose_outcome = choose_outcome
        self.choose_target = choose_target
        self.roll_called = roll_called
        self.dismiss = dismiss


class DecisionBox(QGroupBox):
    """One decision a settled test left, with a button per answer."""

    def __init__(self, decision: object, rules: Rules, on: DecisionHandlers) -> None:
        super().__init__()
        self.buttons: list[QPushButton] = []
        self.combos: tuple[QComboBox, ...] = ()
        self.col = QVBoxLayout(self)
        prompt = QLabel(getattr(decision, "prompt", ""))
        prompt.setWordWrap(True)
        self.col.addWidget(prompt)
        self.row = QHBoxLayout()
        self.known = True
        if isinstance(decision, ExperienceChoice):
            self._experience(decision, rules, on)
        elif isinstance(decision, OutcomeChoice):
            self.setTitle("Choose one")
            for i, option in enumerate(decision.outcome.options):
                self.button(option.describe(), partial(on.choose_outcome, decision.id, i))
        elif isinstance(decision, TargetChoice):
            self.setTitle("Choose which")
            for choice in decision.choices:
                self.button(choice, partial(on.choose_target, decision.id, choice))
        elif isinstance(decision, CalledTest):
            self.setTitle("Another test")
            self.button(f"Roll {decision.spec.label()}", partial(on.roll_called, decision.id))
            self.button("Not now", partial(on.dismiss, decision.id))
        else:
            self.known = False
        self.col.addLayout(self.row)

    def button(self, text: str, slot: Callable[[], object], into: QHBoxLayout | None = None) -> QPushButton:
        b = QPushButton(text)
        b.clicked.connect(lambda _=False: slot())
        (into or self.row).addWidget(b)
        self.buttons.append(b)
        return b

    def _experience(self, decision: ExperienceChoice, rules: Rules, on: DecisionHandlers) -> None:
        self.setTitle("Experience")
        one = experience_pips(rules, "characteristic")
        pip_word = "pip" if one == 1 else "pips"
        self.button(
            f"{one} {pip_word} on {decision.characteristic}", partial(on.assign_experience, decision.id, "characteristic", None)
        )
        if decision.skills:
            picks = QHBoxLayout()
            combos = []
            for i in range(experience_pips(rules, "skills")):
                combo = QComboBox()
                combo.addItems(decision.skills)
                combo.setCurrentIndex(i if len(decision.skills) > i else 0)
                picks.addWidget(combo)
                combos.append(combo)

            def skills() -> object:
                return on.assign_experience(decision.id, "skills", [c.currentText() for c in combos])

            self.button(f"{len(combos)} skill pips", skills, picks)
            self.col.addLayout(self.row)
            self.col.addLayout(picks)
            self.row = QHBoxLayout()
            self.combos = tuple(combos)
        self.button("Don't take it", partial(on.dismiss, decision.id))
