"""The skill-test dialog: the target before the roll, the dice after it, Fate, experience, outcomes.

:class:`SkillTestDialog` runs one test through the engine's commands:

1. *Ready* — for a ``Test:`` line (``text``) or ad hoc (characteristic, modifier, skills), it
   shows the target as the rulebook writes it (``65 -10 +5 +10 = 70``) and the chance (70%)
   from :func:`~d100gui.engine.hero.queries.preview`, and what success and failure bring.
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

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.dungeon.map import DoorAt
from d100gui.engine.game import Command
from d100gui.engine.hero.decisions import PendingDecision, PendingTest, fight_test_id, fight_test_reason
from d100gui.engine.hero.queries import is_single_die, preview
from d100gui.engine.hero.skill_test import TestPreview, make_spec
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.rules.faces import chance_of
from d100gui.engine.rules.notation import TestSpec, parse_test
from d100gui.engine.skill_test_commands import (
    AcceptTest,
    AssignExperience,
    ChooseOutcome,
    ChooseTarget,
    DismissDecision,
    RollTest,
    UseFate,
)
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.contrast import error_style
from d100gui.ui.hero.skill_test_panels import (
    DecisionBox,
    DecisionHandlers,
    RolledPanel,
    TargetPanel,
    TestInputs,
    formula,
)

BONUS_LABEL = "situational bonus"
ERROR_STYLE = "color: #c0392b;"


def _chance(target: int, die: str) -> int:
    """Kept for callers: the engine's answer (:func:`~d100gui.engine.rules.faces.chance_of`)."""
    return chance_of(target, die)


_formula = formula  # kept for callers


class SkillTestDialog(QDialog):
    """One skill test, from a ``Test:`` line (``text``) or ad hoc, driven by engine commands."""

    def __init__(
        self, bridge: EngineBridge, text: str | None = None, parent: QWidget | None = None, door: DoorAt | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("skillTestDialog")
        self.bridge = bridge
        self.rules = bridge.rules
        self.text = (text or "").strip()
        self.door = door  # the door a Table D test is for (the engine opens it when the test passes)
        parsed = parse_test(self.text) if self.text else None
        # a text with outcomes but no "Test: Str" line: the player says which characteristic
        self._text_needs_stat = bool(self.text) and not (parsed and (parsed.characteristic or parsed.against))
        self._closed = False
        self._mine: set[str] = set()  # ids of the decisions this dialog's commands made
        self._messages: list[str] = []
        self._collecting = False
        self._error = ""
        self._busy_said = ""  # the reason shown while the fight's test waits (cleared when it is settled)
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
        self.bridge.changed.connect(self._changed)  # once per do, undo, redo or campaign shown
        self.update_preview()
        self.show_state()

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
        self.inputs = TestInputs(self.rules, bool(self.text))
        self.inputs.changed.connect(self.update_preview)
        outer.addWidget(self.inputs)
        self.target = TargetPanel()
        outer.addWidget(self.target)
        self.roll_button = QPushButton("Roll d100")
        self.roll_button.setToolTip("Roll against the target shown")
        self.roll_button.setDefault(True)
        self.roll_button.clicked.connect(lambda _=False: self.roll())
        outer.addWidget(self.roll_button)
        self.rolled = RolledPanel()
        self.rolled.fate_requested.connect(self.use_fate)
        self.rolled.accept_requested.connect(self.accept_roll)
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
        self.error_label.setStyleSheet(error_style(self.palette()))  # the red, readable in either theme
        self.error_label.setWordWrap(True)
        outer.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        self._name_parts()

    def _name_parts(self) -> None:
        """The panels' fields by the names the dialog has always had (tests and callers read them)."""
        i, t, r = self.inputs, self.target, self.rolled
        self.form, self.characteristic, self.modifier, self.name = i.form, i.characteristic, i.modifier, i.name
        self.skill_checks, self.bonus = i.skill_checks, i.bonus
        self.formula_label, self.chance_label, self.parts_label, self.outcomes_label = (
            t.formula_label,
            t.chance_label,
            t.parts_label,
            t.outcomes_label,
        )
        self.faces, self.result_label, self.fate_label, self.accept_button = (
            r.faces,
            r.result_label,
            r.fate_label,
            r.accept_button,
        )
        self.fate_tens, self.fate_units, self.fate_both = r.fate_tens, r.fate_units, r.fate_both

    # ------------------------------------------------------------------ model
    @property
    def campaign(self) -> Campaign:
        return self.bridge.game.campaign

    def pending_test(self) -> PendingTest | None:
        return next((d for d in self.campaign.pending if isinstance(d, PendingTest) and d.id in self._mine), None)

    def my_decisions(self) -> list[PendingDecision]:
        return [d for d in self.campaign.pending if d.id in self._mine and not isinstance(d, PendingTest)]

    def _adopt_waiting_roll(self) -> None:
        """Pick up a test rolled earlier and left waiting; never the fight's (it settles its own)."""
        fights = fight_test_id(self.campaign)
        waiting = next((d for d in self.campaign.pending if isinstance(d, PendingTest) and d.id != fights), None)
        if waiting is not None:
            self._mine.add(waiting.id)

    def _log(self, text: str) -> None:
        if self._collecting:
            self._messages.append(text)

    def _remember_error(self, text: str) -> None:
        self._error = text

    def _changed(self, _change: object) -> None:
        """The campaign changed (an action here or elsewhere, an undo, another campaign): show it as it is now."""
        self.show_state()

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
        self.show_state()
        return ok

    # ------------------------------------------------------------------ ready
    def _ad_hoc_spec(self) -> TestSpec:
        skills = [s for s, c in self.skill_checks.items() if c.isChecked()]
        return make_spec(
            "", self.characteristic.currentData(), self.modifier.value(), skills, self.name.text().strip(), rules=self.rules
        )

    def _waiting_test(self) -> PendingTest | None:
        """The rolled test this dialog shows (one it made, or one rolled elsewhere it picked up), while it waits."""
        return next((d for d in self.campaign.pending if isinstance(d, PendingTest) and d.id in self._mine), None)

    def update_preview(self) -> None:
        """Work out the target and chance of the test as set up now (nothing is rolled); a roll that waits (say,
        one rolled from the turn strip) shows its own test and target, never the ad hoc defaults."""
        ch = self.campaign.character
        self.preview_error = ""
        waiting = self._waiting_test()
        if waiting is not None:
            spec = waiting.spec
            die: Literal["d100", "d10"] = "d10" if spec.against else "d100"
            self.spec = spec
            self.preview = TestPreview(
                label=spec.label(),
                characteristic=spec.characteristic,
                against=spec.against,
                die=die,
                parts=waiting.parts,
                target=waiting.target,
                chance=chance_of(waiting.target, die),
                formula=formula(waiting.parts),
            )
            index = self.characteristic.findData(spec.characteristic)
            if index >= 0:
                self.characteristic.blockSignals(True)  # the inputs show the test's, not STR's defaults
                self.characteristic.setCurrentIndex(index)
                self.characteristic.blockSignals(False)
            for skill, box in self.skill_checks.items():  # and its skills (Traps, Aware, Lucky), not none
                box.blockSignals(True)
                box.setChecked(skill in spec.skills)
                box.blockSignals(False)
            self.show_state()
            return
        try:
            if ch is None:
                raise CommandRefused("There is no character yet: create one first.")
            if self.text:
                spec = make_spec(self.text, self.characteristic.currentData(), rules=self.rules)
            else:
                spec = self._ad_hoc_spec()
            self.spec = spec
            self.preview = preview(ch, self.rules, spec, self.bonus.value(), BONUS_LABEL)
        except CommandRefused as exc:
            self.spec, self.preview = None, None
            self.preview_error = str(exc)
        self.show_state()

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
                door=self.door,
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
        if is_single_die(test):
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
        self.show_state()
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
    def show_state(self) -> None:
        """Show the test as the campaign has it now: ready, rolled, or settled with its decisions."""
        test = self.pending_test()
        ch = self.campaign.character
        spec = test.spec if test is not None else self.spec
        self.title.setText(spec.name if spec and spec.name else ("Skill test" if not self.text else "Test"))
        self.form.setRowVisible(self.characteristic, not self.text or self._text_needs_stat)
        ready = test is None and self.last_result is None and not self.my_decisions()
        self.inputs.setEnabled(ready)
        self.roll_button.setVisible(ready)
        if test is not None:
            self.target.show_pending(test)
        elif self.preview is not None and ready:
            self.target.show_target(self.preview.formula, self.preview.chance, self.preview.parts, self.spec)
            self.roll_button.setText(f"Roll {self.preview.die}")
        elif ready:
            self.target.show_problem(self.preview_error)
        busy = fight_test_reason(self.campaign) if ready else ""  # the fight's test waits: no other test now
        self.roll_button.setEnabled(ready and not busy and self.preview is not None and ch is not None and ch.creation is None)
        self.roll_button.setToolTip(busy or "Roll against the target shown")
        if busy or self.error_label.text() == self._busy_said:
            self.error_label.setText(busy)
        self._busy_said = busy
        self.rolled.setVisible(test is not None or self.last_result is not None)
        if test is not None:
            self.rolled.show_pending(test, ch.fate if ch else 0, self.rules.fate_cost)
        elif self.last_result is not None:
            self.rolled.show_settled(*self.last_result)
        prompts = {d.prompt for d in self.my_decisions()}  # shown with their buttons below
        said = [m for m in self._messages if m not in prompts]
        self.happened.setText("\n".join(said) if self.last_result is not None else "")
        self.happened.setVisible(bool(self.happened.text()))
        self._render_decisions()
        if self.isVisible():  # grow to fit new decisions; never shrink what the player sized
            hint = self.sizeHint()
            if hint.height() > self.height() or hint.width() > self.width():
                self.resize(max(hint.width(), self.width()), max(hint.height(), self.height()))

    def _render_decisions(self) -> None:
        while self.decisions.count():
            item = self.decisions.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()  # deleteLater waits for the event loop; hide it now
                w.deleteLater()
        self.decision_buttons = {}
        handlers = DecisionHandlers(
            self.assign_experience, self.choose_outcome, self.choose_target, self.roll_called, self.dismiss
        )
        for decision in self.my_decisions():
            box = DecisionBox(decision, self.rules, handlers)
            if not box.known:
                box.deleteLater()
                continue
            if box.combos:
                self.experience_combos = box.combos
            self.decisions.addWidget(box)
            box.show()  # a layout shows new children only on the next event loop pass
            self.decision_buttons[decision.id] = box.buttons

    def done(self, result: int) -> None:
        if self._closed:
            super().done(result)
            return
        self._closed = True
        for signal, slot in (
            (self.bridge.log_appended, self._log),
            (self.bridge.error, self._remember_error),
            (self.bridge.changed, self._changed),
        ):
            signal.disconnect(slot)
        super().done(result)
