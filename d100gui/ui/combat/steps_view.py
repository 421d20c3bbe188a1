"""The steps of the round, each with its dice drawn, and a picker to look back at an earlier round.

Shows a :class:`~d100gui.ui.combat.record.FightRecord`. Looking back is a glance: as soon as
the fight moves on (a new step is logged), the view returns to the latest round and follows
it again, scrolled to the newest step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from d100gui.ui.combat.dice_views import CompactDice, roll_value
from d100gui.ui.combat.record import FightRecord, Step
from d100gui.ui.combat.widgets import WrapLabel, html
from d100gui.ui.common.theme import scaled_font


def step_text(step: Step) -> str:
    """A step's title and lines, as its row shows them (rich text)."""
    body = "".join(f"<br>{html(t)}" for t in step.lines)
    title = html(step.title)
    if step.kind in ("round", "roll", "fate", "action"):
        title = f"<b>{title}</b>"
    if step.kind == "action":
        title = f"▶ {title}"
    return title + body


class StepText(WrapLabel):
    """A step's words: a wrapped rich-text label whose height for a width is measured once (a step's
    text never changes once shown: a changed step is a new row, or :meth:`StepRow.show_step`)."""


class StepRow(QFrame):
    """One step: its dice (if any) on the left, its title and lines on the right."""

    def __init__(self, step: Step, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepRow")
        self.step = step
        self.dice_views: list[CompactDice] = []
        self.values: list[QLabel] = []  # each roll's value beside its dice
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(8)
        self.text_label = text = StepText()
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        text.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        text.setText(step_text(step))
        if step.kind == "round":
            self.setStyleSheet("QFrame#stepRow { border-bottom: 1px solid palette(mid); margin-top: 4px; }")
            layout.addWidget(text, 1)
            return
        layout.addWidget(self._dice(step), 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(text, 1, Qt.AlignmentFlag.AlignTop)

    def show_step(self, step: Step) -> None:
        """The same step (its kind, dice and event) with other words: its title or lines grew as the fight went on."""
        self.step = step
        self.text_label.setText(step_text(step))

    def reuse(self, step: Step) -> None:
        """Show another step built the same way (:func:`row_shape`): its words, and its dice drawn on the kept views."""
        self.show_step(step)
        for view, value, roll in zip(self.dice_views, self.values, step.rolls, strict=True):
            view.roll = roll
            view.set_faces(roll.dice, roll.rerolled)
            view.setFixedSize(view.sizeHint())
            view.setToolTip(roll.describe())
            value.setText(roll_value(roll))

    def _dice(self, step: Step) -> QWidget:
        holder = QWidget()
        if not step.rolls:
            holder.setFixedWidth(150 if step.kind != "action" else 0)
            return holder
        dice_col = QVBoxLayout(holder)
        dice_col.setContentsMargins(0, 0, 0, 0)
        dice_col.setSpacing(2)
        for roll in step.rolls:
            view = CompactDice(roll)
            self.dice_views.append(view)
            line = QHBoxLayout()
            line.setSpacing(4)
            line.addWidget(view)
            value = QLabel(roll_value(roll))
            scaled_font(value, 1.0, bold=True)
            self.values.append(value)
            line.addWidget(value)
            line.addStretch(1)
            dice_col.addLayout(line)
        holder.setFixedWidth(150)
        return holder


class StepsView(QWidget):
    """The fight's steps, one round at a time (round 1 shows what came before it too)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record: FightRecord | None = None
        self.shown_steps: list[Step] = []
        self.step_rows: list[StepRow] = []
        self._row_keys: list[tuple[object, ...]] = []  # what each row was made from (see _step_key)
        self._view_round: int | None = None  # None: follow the latest round
        self._picked_at = 0  # how many events the fight had when a past round was picked
        self._key: tuple[int, int, int, int | None] | None = None
        self._follow = True
        self._spare: dict[tuple[object, ...], list[StepRow]] = {}  # rows dropped, hidden, by their shape
        self.rows_made = 0  # how many rows were built (tests count: a new round reuses the last one's)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        head = QHBoxLayout()
        label = QLabel("Steps")
        label.setStyleSheet("font-weight: bold;")
        head.addWidget(label)
        head.addStretch(1)
        self.round_picker = QComboBox()
        self.round_picker.setToolTip("Look back at an earlier round")
        self.round_picker.activated.connect(self._pick_round)
        head.addWidget(self.round_picker)
        col.addLayout(head)
        self.steps_scroll = QScrollArea()
        self.steps_scroll.setAccessibleName("Steps of the round")
        self.steps_scroll.setWidgetResizable(True)
        self.steps_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.steps_body = QWidget()
        self.steps_layout = QVBoxLayout(self.steps_body)
        self.steps_layout.setContentsMargins(4, 4, 4, 4)
        self.steps_layout.setSpacing(4)
        self.steps_layout.addStretch(1)
        self.steps_scroll.setWidget(self.steps_body)
        self.steps_scroll.setMinimumHeight(140)
        bar = self.steps_scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._scroll_range)
        bar.sliderPressed.connect(self._stop_following)
        col.addWidget(self.steps_scroll, 1)

    @property
    def following(self) -> bool:
        """True while the view shows the latest round (it then keeps up with the fight)."""
        return self._view_round is None

    def _stop_following(self) -> None:
        self._follow = False

    def _pick_round(self, index: int) -> None:
        rounds = [s.round for s in self.record.sections] if self.record else []
        chosen = self.round_picker.itemData(index)
        self._view_round = None if not rounds or chosen == rounds[-1] else chosen
        self._picked_at = len(self.record.events) if self.record else 0
        self._key = None
        self.show_record(self.record)

    def show_record(self, record: FightRecord | None) -> None:
        """Show ``record``: the round picked, or the latest; a fight that moved on brings the view back."""
        self.record = record
        sections = record.sections if record is not None else []
        rounds = [s.round for s in sections]
        if self._view_round is not None and (self._view_round not in rounds or (record and len(record.events) > self._picked_at)):
            self._view_round = None  # the fight moved on (or the round is gone): follow it again
        view = rounds[-1] if self._view_round is None and rounds else self._view_round
        key = (record.start if record else -1, record.end if record else -1, len(record.events) if record else 0, view)
        if key == self._key:
            return
        self._key = key
        self.round_picker.blockSignals(True)
        self.round_picker.clear()
        for s in sections:
            self.round_picker.addItem(s.title + (" (latest)" if s is sections[-1] else ""), s.round)
        if view is not None:
            self.round_picker.setCurrentIndex(rounds.index(view))
        self.round_picker.blockSignals(False)
        self.round_picker.setVisible(len(sections) > 1)
        self.shown_steps = [step for s in sections if s.round == view or (view == 1 and s.round == 0) for step in s.steps]
        self._fill(self.shown_steps)

    def _fill(self, steps: list[Step]) -> None:
        """Show ``steps``: a row already shown for the same step stays; one whose step only has other words
        (the reader adds lines to the latest step) is told them; only a new or another step gets a new row
        (an action adds a step or two to the round: it does not build the round's rows again)."""
        wanted = [_step_key(step) for step in steps]
        shared = min(len(wanted), len(self.step_rows))
        for i in range(shared):
            key, row = wanted[i], self.step_rows[i]
            if key == self._row_keys[i]:
                continue
            if _shape(key) == _shape(self._row_keys[i]):
                row.show_step(steps[i])
            else:
                self.step_rows[i] = self._new_row(steps[i], at=i)
                self._drop(row)
            self._row_keys[i] = key
        for row in self.step_rows[shared:]:
            self._drop(row)
        del self.step_rows[shared:]
        del self._row_keys[shared:]
        for step, key in zip(steps[shared:], wanted[shared:], strict=True):
            self.step_rows.append(self._new_row(step, at=len(self.step_rows)))
            self._row_keys.append(key)
        self._follow = True  # keep the newest step in view once the list has been laid out

    def _new_row(self, step: Step, at: int) -> StepRow:
        """A row for ``step``: one the view dropped, built the same way, told the step; else a new one."""
        spare = self._spare.get(row_shape(step))
        if spare:
            row = spare.pop()
            row.reuse(step)
        else:
            row = StepRow(step)
            self.rows_made += 1
        self.steps_layout.insertWidget(at, row)  # the rows come first; the stretch stays last
        row.show()
        return row

    def _drop(self, row: StepRow) -> None:
        """A row no step shows now: kept hidden for the next step built the same way (a new round's steps are
        mostly the last round's shapes: made anew, each cost its widgets, their style and their first layout)."""
        self.steps_layout.removeWidget(row)
        row.hide()
        spare = self._spare.setdefault(row_shape(row.step), [])
        if len(spare) < SPARE_ROWS:
            spare.append(row)
        else:
            row.deleteLater()

    def _scroll_range(self, _low: int, high: int) -> None:
        if self._follow:
            self.steps_scroll.verticalScrollBar().setValue(high)


#: rows kept hidden per shape for the next steps (a round has a handful of steps of a few shapes)
SPARE_ROWS = 8


def row_shape(step: Step) -> tuple[object, ...]:
    """How a step's row is built: a round's title line, or the dice column (its width, one view per roll)."""
    return (step.kind == "round", step.kind == "action" and not step.rolls, len(step.rolls))


def _step_key(step: Step) -> tuple[object, ...]:
    """What a step's row shows, as it is now (the reader adds lines to the latest step as the fight goes on)."""
    return (step.kind, step.event, tuple(id(r) for r in step.rolls), step.title, tuple(step.lines))


def _shape(key: tuple[object, ...]) -> tuple[object, ...]:
    """What a row is built from (its kind, event and dice): a row of the same shape only needs its words told."""
    return key[:3]
