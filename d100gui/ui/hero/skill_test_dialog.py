"""The skill-test dialog: the target before the roll, the dice after it, Fate, experience, outcomes.

:class:`SkillTestDialog` runs one test through the engine's commands:

1. *Ready* — for a ``Test:`` line (``text``) or ad hoc (characteristic, modifier, skills), it
   shows the target as the rulebook writes it (``65 -10 +5 +10 = 70``) and the chance (70%)
   from :func:`~d100gui.engine.hero.skill_test.preview_test`, and what success and failure bring.
2. *Rolled* — ``RollTest`` made the roll: the dice are drawn, success or failure shown, and
   Fate can re-roll the tens die, the units die or both (``UseFate``), again and again while
   Fate lasts. "Accept" settles it (``AcceptTest``).
3. *Settled* — what happened is listed, and every decision the test left is offered as
   buttons: experience pips on a natural roll of 10 or less (``AssignExperience``), a "/"
   choice (``ChooseOutcome``), a "choose which" target (``ChooseTarget``), a test the
   outcome calls for (``RollTest(called=...)``, which starts again at *Rolled*).

The dialog decides nothing itself. Closing it while a roll is waiting leaves the roll
pending in the campaign (saved with it); opening the dialog again picks it up.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
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

from d100gui.engine.game import Command, CommandRefused
from d100gui.engine.hero.character import (
    STATS,
    CalledTest,
    ExperienceChoice,
    OutcomeChoice,
    PendingTest,
    TargetChoice,
)
from d100gui.engine.hero.skill_test import (
    AcceptTest,
    AssignExperience,
    ChooseOutcome,
    ChooseTarget,
    DismissDecision,
    RollTest,
    TestPreview,
    UseFate,
    make_spec,
    preview_test,
)
from d100gui.engine.rules.notation import TestSpec, parse_test
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dice_faces import DiceFacesView

BONUS_LABEL = "situational bonus"
ERROR_STYLE = "color: #c0392b;"
SUCCESS_STYLE = "color: #2e8b57; font-weight: bold; font-size: 13pt;"
FAILURE_STYLE = "color: #c0392b; font-weight: bold; font-size: 13pt;"


def _chance(target: int, die: str) -> int:
    """Percent chance of rolling ``target`` or under: d100, or a d10 against a count."""
    return max(0, min(100, target)) if die == "d100" else max(0, min(10, target)) * 10


def _formula(parts) -> str:
    if not parts:
        return ""
    return f"{parts[0].value}" + "".join(f" {p.value:+d}" for p in parts[1:]) + f" = {sum(p.value for p in parts)}"


class SkillTestDialog(QDialog):
    """One skill test, from a ``Test:`` line (``text``) or ad hoc, driven by engine commands."""

    def __init__(self, bridge: EngineBridge, text: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.rules = bridge.rules
        self.text = (text or "").strip()
        parsed = parse_test(self.text) if self.text else None
        # a text with outcomes but no "Test: Str" line: the player says which characteristic
        self._text_needs_stat = bool(self.text) and not (parsed and (parsed.characteristic or parsed.against))
        self._closed = False
        self._mine: set[str] = set()  # ids of the decisions this dialog's commands made
        self._messages: list[str] = []
        self._collecting = False
        self._error = ""
        self.last_result: tuple[int, int, bool] | None = None  # natural, target, success of the settled roll
        self.spec: TestSpec | None = None
        self.preview: TestPreview | None = None
        self.decision_buttons: dict[str, list[QPushButton]] = {}
        self.setWindowTitle("Skill test")
        self.setMinimumWidth(420)
        self._build()
        self._adopt_waiting_roll()
        self.bridge.log_appended.connect(self._log)
        self.bridge.error.connect(self._remember_error)
        self.bridge.campaign_changed.connect(self.render)
        self.update_preview()
        self.render()

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold; font-size: 12pt;")
        self.title.setWordWrap(True)
        outer.addWidget(self.title)
        self.line = QLabel(self.text)
        self.line.setWordWrap(True)
        self.line.setStyleSheet("color: palette(placeholder-text);")
        self.line.setVisible(bool(self.text))
        self.line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.line)

        self.inputs = QGroupBox("Before you roll")
        form = QFormLayout(self.inputs)
        self.characteristic = QComboBox()
        for stat in STATS:
            self.characteristic.addItem(f"{stat} ({self.rules.characteristic_names.get(stat, stat)})", stat)
        form.addRow("Characteristic", self.characteristic)
        self.modifier = QSpinBox()
        self.modifier.setRange(-100, 100)
        self.modifier.setSingleStep(5)
        form.addRow("Modifier", self.modifier)
        self.name = QLineEdit()
        self.name.setPlaceholderText("(optional) what is being tested")
        form.addRow("Name", self.name)
        skills = QWidget()
        grid = QGridLayout(skills)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(0)
        self.skill_checks: dict[str, QCheckBox] = {}
        for i, skill in enumerate(self.rules.skills):
            check = QCheckBox(skill)
            self.skill_checks[skill] = check
            grid.addWidget(check, i // 3, i % 3)
            check.toggled.connect(self.update_preview)
        form.addRow("Skills", skills)
        self._adhoc_rows = [self.modifier, self.name, skills]
        self.bonus = QSpinBox()
        self.bonus.setRange(-100, 100)
        self.bonus.setSingleStep(5)
        self.bonus.setToolTip("A situational bonus the text leaves open: a brew, a spell bonus, Fly")
        form.addRow("Situational bonus", self.bonus)
        self.form = form
        outer.addWidget(self.inputs)
        for widget in (self.characteristic, self.modifier, self.bonus):
            signal = widget.currentIndexChanged if isinstance(widget, QComboBox) else widget.valueChanged
            signal.connect(self.update_preview)
        self.name.textChanged.connect(self.update_preview)
        if self.text:
            for w in self._adhoc_rows:
                form.setRowVisible(w, False)

        target = QFrame()
        target.setFrameShape(QFrame.Shape.StyledPanel)
        col = QVBoxLayout(target)
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
        outer.addWidget(target)

        self.roll_button = QPushButton("Roll d100")
        self.roll_button.setDefault(True)
        self.roll_button.clicked.connect(lambda _=False: self.roll())
        outer.addWidget(self.roll_button)

        self.rolled = QGroupBox("Roll")
        rolled = QVBoxLayout(self.rolled)
        line = QHBoxLayout()
        self.faces = DiceFacesView()
        self.faces.setFixedWidth(130)
        line.addWidget(self.faces)
        self.result_label = QLabel()
        self.result_label.setObjectName("result")
        self.result_label.setWordWrap(True)
        line.addWidget(self.result_label, 1)
        rolled.addLayout(line)
        fate = QHBoxLayout()
        self.fate_label = QLabel()
        fate.addWidget(self.fate_label)
        self.fate_tens = QPushButton("Re-roll tens")
        self.fate_units = QPushButton("Re-roll units")
        self.fate_both = QPushButton("Re-roll both")
        for button, dice in ((self.fate_tens, [0]), (self.fate_units, [1]), (self.fate_both, [0, 1])):
            button.clicked.connect(lambda _=False, d=dice: self.use_fate(d))
            fate.addWidget(button)
        fate.addStretch(1)
        rolled.addLayout(fate)
        self.accept_button = QPushButton("Accept the roll")
        self.accept_button.clicked.connect(lambda _=False: self.accept_roll())
        rolled.addWidget(self.accept_button)
        outer.addWidget(self.rolled)

        self.happened = QLabel()
        self.happened.setWordWrap(True)
        self.happened.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.happened)
        self.decisions = QVBoxLayout()
        outer.addLayout(self.decisions)
        outer.addStretch(1)

        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.setWordWrap(True)
        outer.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)

    # ------------------------------------------------------------------ model
    @property
    def campaign(self):
        return self.bridge.game.campaign

    def pending_test(self) -> PendingTest | None:
        return next((d for d in self.campaign.pending if isinstance(d, PendingTest) and d.id in self._mine), None)

    def my_decisions(self) -> list:
        return [d for d in self.campaign.pending if d.id in self._mine and not isinstance(d, PendingTest)]

    def _adopt_waiting_roll(self) -> None:
        waiting = next((d for d in self.campaign.pending if isinstance(d, PendingTest)), None)
        if waiting is not None:
            self._mine.add(waiting.id)

    def _log(self, text: str) -> None:
        if self._collecting:
            self._messages.append(text)

    def _remember_error(self, text: str) -> None:
        self._error = text

    def send(self, command: Command) -> bool:
        """Send a command; remember the decisions it leaves and what it said."""
        before = {d.id for d in self.campaign.pending}
        self._error = ""
        self._collecting = True
        try:
            ok = self.bridge.send(command)
        finally:
            self._collecting = False
        self._mine |= {d.id for d in self.campaign.pending} - before
        self.error_label.setText("" if ok else self._error)
        self.render()
        return ok

    # ------------------------------------------------------------------ ready
    def _ad_hoc_spec(self) -> TestSpec:
        skills = [s for s, c in self.skill_checks.items() if c.isChecked()]
        return make_spec(
            "", self.characteristic.currentData(), self.modifier.value(), skills, self.name.text().strip(), rules=self.rules
        )

    def update_preview(self) -> None:
        """Work out the target and chance of the test as set up now (nothing is rolled)."""
        ch = self.campaign.character
        self.preview_error = ""
        try:
            if ch is None:
                raise CommandRefused("There is no character yet: create one first.")
            if self.text:
                spec = make_spec(self.text, self.characteristic.currentData(), rules=self.rules)
            else:
                spec = self._ad_hoc_spec()
            self.spec = spec
            self.preview = preview_test(ch, self.rules, spec, self.bonus.value(), BONUS_LABEL)
        except CommandRefused as exc:
            self.spec, self.preview = None, None
            self.preview_error = str(exc)
        self.render()

    def roll(self) -> bool:
        """Roll the test (RollTest)."""
        if self.preview is None or self.spec is None:
            return False
        if self.text:
            command = RollTest(
                text=self.text,
                characteristic=self.characteristic.currentData() if self._text_needs_stat else "",
                bonus=self.bonus.value(),
                bonus_label=BONUS_LABEL,
            )
        else:
            command = RollTest(
                characteristic=self.spec.characteristic,
                modifier=self.spec.modifier,
                skills=list(self.spec.skills),
                name=self.spec.name,
                bonus=self.bonus.value(),
                bonus_label=BONUS_LABEL,
            )
        self._messages = []
        self.last_result = None
        return self.send(command)

    # ------------------------------------------------------------------ rolled
    def use_fate(self, dice: list[int]) -> bool:
        test = self.pending_test()
        if test is None:
            return False
        if test.roll.expression != "d100":
            dice = [0]
        return self.send(UseFate(decision=test.id, dice=dice))

    def accept_roll(self) -> bool:
        test = self.pending_test()
        if test is None:
            return False
        result = (test.roll.natural, test.target, test.success)
        self._messages = []
        ok = self.send(AcceptTest(decision=test.id))
        if ok:
            self.last_result = result
        self.render()
        return ok

    # ------------------------------------------------------------------ settled
    def assign_experience(self, decision: str, choice: str, skills: list[str] | None = None) -> bool:
        return self.send(AssignExperience(decision=decision, choice=choice, skills=skills or []))  # type: ignore[arg-type]

    def choose_outcome(self, decision: str, option: int) -> bool:
        return self.send(ChooseOutcome(decision=decision, option=option))

    def choose_target(self, decision: str, target: str) -> bool:
        return self.send(ChooseTarget(decision=decision, target=target))

    def roll_called(self, decision: str) -> bool:
        self._messages = []
        self.last_result = None
        return self.send(RollTest(called=decision))

    def dismiss(self, decision: str) -> bool:
        return self.send(DismissDecision(decision=decision))

    # ------------------------------------------------------------------ render
    def render(self) -> None:
        test = self.pending_test()
        ch = self.campaign.character
        spec = test.spec if test is not None else self.spec
        self.title.setText(spec.name if spec and spec.name else ("Skill test" if not self.text else "Test"))
        self.form.setRowVisible(self.characteristic, not self.text or self._text_needs_stat)
        ready = test is None and self.last_result is None and not self.my_decisions()
        self.inputs.setEnabled(ready)
        self.roll_button.setVisible(ready)
        if test is not None:
            self.formula_label.setText(_formula(test.parts))
            self.chance_label.setText(f"{_chance(test.target, test.roll.expression)}%")
            self._show_parts(test.parts, test.spec)
        elif self.preview is not None and ready:
            self.formula_label.setText(self.preview.formula)
            self.chance_label.setText(f"{self.preview.chance}%")
            self._show_parts(self.preview.parts, self.spec)
            self.roll_button.setText(f"Roll {self.preview.die}")
        elif ready:
            self.formula_label.setText("—")
            self.chance_label.setText("")
            self.parts_label.setText(self.preview_error)
            self.outcomes_label.setText("")
        self.roll_button.setEnabled(ready and self.preview is not None and ch is not None and ch.creation is None)

        self.rolled.setVisible(test is not None or self.last_result is not None)
        if test is not None:
            roll = test.roll
            self.faces.set_faces(roll.dice, roll.rerolled)
            verdict = "SUCCESS" if test.success else "FAILURE"
            self.result_label.setText(f"Rolled {roll.natural} against {test.target}: {verdict}")
            self.result_label.setStyleSheet(SUCCESS_STYLE if test.success else FAILURE_STYLE)
            fate = ch.fate if ch else 0
            spent = f", {test.fate_spent} spent on this roll" if test.fate_spent else ""
            self.fate_label.setText(f"Fate ({fate} left{spent}):")
            single = roll.expression != "d100"
            self.fate_tens.setText("Re-roll the die" if single else "Re-roll tens")
            self.fate_units.setVisible(not single)
            self.fate_both.setVisible(not single)
            for b in (self.fate_tens, self.fate_units, self.fate_both):
                b.setEnabled(fate >= self.rules.fate_cost)
                b.setToolTip(f"Spend {self.rules.fate_cost} Fate to re-roll")
            for w in (self.fate_label, self.fate_tens, self.accept_button):
                w.setVisible(True)
        elif self.last_result is not None:
            natural, target, success = self.last_result
            self.result_label.setText(f"Rolled {natural} against {target}: {'SUCCESS' if success else 'FAILURE'}")
            self.result_label.setStyleSheet(SUCCESS_STYLE if success else FAILURE_STYLE)
            for w in (self.fate_label, self.fate_tens, self.fate_units, self.fate_both, self.accept_button):
                w.setVisible(False)
        prompts = {d.prompt for d in self.my_decisions()}  # shown with their buttons below
        said = [m for m in self._messages if m not in prompts]
        self.happened.setText("\n".join(said) if self.last_result is not None else "")
        self.happened.setVisible(bool(self.happened.text()))
        self._render_decisions()
        if self.isVisible():  # grow to fit new decisions; never shrink what the player sized
            hint = self.sizeHint()
            if hint.height() > self.height() or hint.width() > self.width():
                self.resize(max(hint.width(), self.width()), max(hint.height(), self.height()))

    def _show_parts(self, parts, spec: TestSpec | None) -> None:
        self.parts_label.setText(
            " · ".join(f"{p.label} {p.value:+d}" if i else f"{p.label} {p.value}" for i, p in enumerate(parts))
        )
        if spec is None:
            self.outcomes_label.setText("")
            return
        lines = []
        if not spec.success.is_empty:
            lines.append(f"<b>Success:</b> {spec.success.describe()}")
        if not spec.failure.is_empty:
            lines.append(f"<b>Failure:</b> {spec.failure.describe()}")
        if spec.skills:
            lines.append(f"<b>Skills:</b> {', '.join(spec.skills)}")
        self.outcomes_label.setText("<br>".join(lines))

    def _render_decisions(self) -> None:
        while self.decisions.count():
            w = self.decisions.takeAt(0).widget()
            if w is not None:
                w.hide()  # deleteLater waits for the event loop; hide it now
                w.deleteLater()
        self.decision_buttons = {}
        for decision in self.my_decisions():
            box = QGroupBox()
            col = QVBoxLayout(box)
            prompt = QLabel(decision.prompt)
            prompt.setWordWrap(True)
            col.addWidget(prompt)
            row = QHBoxLayout()
            buttons: list[QPushButton] = []

            def button(text: str, slot, into=row, keep=buttons) -> QPushButton:
                b = QPushButton(text)
                b.clicked.connect(lambda _=False: slot())
                into.addWidget(b)
                keep.append(b)
                return b

            if isinstance(decision, ExperienceChoice):
                box.setTitle("Experience")
                button(f"1 pip on {decision.characteristic}", lambda d=decision: self.assign_experience(d.id, "characteristic"))
                if decision.skills:
                    picks = QHBoxLayout()
                    first, second = QComboBox(), QComboBox()
                    for combo in (first, second):
                        combo.addItems(decision.skills)
                    second.setCurrentIndex(1 if len(decision.skills) > 1 else 0)
                    picks.addWidget(first)
                    picks.addWidget(second)
                    button(
                        "2 skill pips",
                        lambda d=decision, a=first, b=second: self.assign_experience(
                            d.id, "skills", [a.currentText(), b.currentText()]
                        ),
                        picks,
                    )
                    col.addLayout(row)
                    col.addLayout(picks)
                    row = QHBoxLayout()
                    self.experience_combos = (first, second)
                button("Don't take it", lambda d=decision: self.dismiss(d.id), row)
            elif isinstance(decision, OutcomeChoice):
                box.setTitle("Choose one")
                for i, option in enumerate(decision.outcome.options):
                    button(option.describe(), lambda d=decision, i=i: self.choose_outcome(d.id, i))
            elif isinstance(decision, TargetChoice):
                box.setTitle("Choose which")
                for choice in decision.choices:
                    button(choice, lambda d=decision, c=choice: self.choose_target(d.id, c))
            elif isinstance(decision, CalledTest):
                box.setTitle("Another test")
                button(f"Roll {decision.spec.label()}", lambda d=decision: self.roll_called(d.id))
                button("Not now", lambda d=decision: self.dismiss(d.id))
            else:
                continue
            col.addLayout(row)
            self.decisions.addWidget(box)
            box.show()  # a layout shows new children only on the next event loop pass
            self.decision_buttons[decision.id] = buttons

    def done(self, result: int) -> None:
        if self._closed:
            super().done(result)
            return
        self._closed = True
        for signal, slot in (
            (self.bridge.log_appended, self._log),
            (self.bridge.error, self._remember_error),
            (self.bridge.campaign_changed, self.render),
        ):
            signal.disconnect(slot)
        super().done(result)
