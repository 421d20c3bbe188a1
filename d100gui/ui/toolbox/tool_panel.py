"""The form of a tool, built from its :class:`~d100gui.ui.toolbox.tools.Tool` description.

Spin boxes take their range from the description (the engine's constants) and show it; the
Roll button sends the tool's command through the :class:`ToolRunner`, and what the engine
refuses comes back as its own message.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QPoint, QSize
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.game import Command
from d100gui.ui.common.bridge import ChangeSet
from d100gui.ui.toolbox.result_box import ResultBox
from d100gui.ui.toolbox.runner import ToolResult, ToolRunner
from d100gui.ui.toolbox.tools import Tool, ToolInput

InputWidget = QSpinBox | QCheckBox | QComboBox | QLineEdit
TICK_COLUMNS = 2
COMBO_CHARS = 12  # the shortest a choice box gets, in characters
TICK_FITS = 24  # characters: a tick's label longer than this takes the whole width (two would widen a narrow dock)


OPEN_TOP = 2**31 - 1  # an open range ("1 or more") takes any value a spin box can hold
OPEN_DIGITS = 7  # ... and is sized for this many digits, so a narrow dock keeps its width


class OpenSpinBox(QSpinBox):
    """A spin box for an open range: no top but the widget's own, sized for a few digits (longer values scroll)."""

    def _narrow(self, hint: QSize) -> QSize:
        wanted = (
            self.fontMetrics().horizontalAdvance("9" * OPEN_DIGITS)
            + hint.width()
            - self.fontMetrics().horizontalAdvance(str(self.maximum()))
        )
        return QSize(min(hint.width(), max(wanted, 0)), hint.height())

    def sizeHint(self) -> QSize:
        return self._narrow(super().sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._narrow(super().minimumSizeHint())


def fill_choices(combo: QComboBox, spec: ToolInput, library: TableLibrary | None) -> None:
    """The combo's choices: the spec's own, or the row keys of its table in the player's library."""
    current = combo.currentData()
    combo.clear()
    choices = spec.choices
    if spec.choices_from and library is not None and spec.choices_from in library:
        choices = tuple((r.key, r.key) for r in library.get(spec.choices_from).rows if r.key)
    elif spec.choices_for is not None and library is not None:
        choices = spec.choices_for(library)
    for label, value in choices:
        combo.addItem(label, value)
    wanted = current if current is not None else spec.default
    combo.setCurrentIndex(max(0, combo.findData(wanted)))


def input_widget(spec: ToolInput, library: TableLibrary | None = None) -> InputWidget:
    """The widget for one input, set to its default, limited to its range."""
    if spec.kind == "bool":
        box = QCheckBox()
        box.setChecked(bool(spec.default))
        return box
    if spec.kind == "choice":
        combo = QComboBox()
        # a long choice must not widen the panel past a narrow dock: the box shortens, its list shows all
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(COMBO_CHARS)
        fill_choices(combo, spec, library)
        return combo
    if spec.kind == "text":
        return QLineEdit(str(spec.default or ""))
    spin = QSpinBox() if spec.high is not None else OpenSpinBox()
    spin.setRange(spec.low, spec.high if spec.high is not None else OPEN_TOP)
    spin.setSingleStep(spec.step)
    spin.setValue(int(spec.default if spec.default is not None else spec.low))
    spin.setToolTip(f"Valid: {spec.range_text()}")
    if spec.step_for is not None and library is not None:
        set_step(spin, spec, spec.step_for(library))
    if spec.high_for is not None and library is not None:
        set_high(spin, spec.high_for(library))
    return spin


def label_of(spec: ToolInput, library: TableLibrary | None) -> str:
    """A yes/no input's label, naming the number the player's tables print when it quotes one."""
    return spec.label_for(library) if spec.label_for is not None and library is not None else spec.label


def set_high(spin: QSpinBox, high: int) -> None:
    """An input whose top is a number of the player's tables (a ship's grappling tries a turn)."""
    spin.setMaximum(max(spin.minimum(), high))
    spin.setToolTip(f"Valid: {spin.minimum()} to {spin.maximum()}")


def set_step(spin: QSpinBox, spec: ToolInput, step: int) -> None:
    """A stepped input (a partial rest's minutes) counting by the step the player's tables print."""
    step = max(1, step)
    spin.setMinimum(step)
    spin.setSingleStep(step)
    spin.setValue(max(step, spin.value() // step * step))
    high = spec.high if spec.high is not None else None
    spin.setToolTip(f"Valid: {step} to {high}, in steps of {step}" if high is not None else f"Valid: {step} or more")


def widget_value(widget: InputWidget) -> Any:
    if isinstance(widget, QSpinBox):
        return widget.value()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QComboBox):
        return widget.currentData()
    return widget.text()


def tool_header(tool: Tool, library: TableLibrary | None = None) -> QWidget:
    """The tool's title, its rule text, its summary in our words (with the numbers ``library`` prints) and its
    text's time units."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    title = QLabel(f"<b>{tool.title}</b> — <i>{tool.rule_text}</i>")
    summary = QLabel(tool.summary_in(library))
    summary.setObjectName("toolSummary")
    summary.setWordWrap(True)
    layout.addWidget(title)
    layout.addWidget(summary)
    if tool.units_for(library):
        units = QLabel(tool.units_for(library))
        units.setObjectName("toolUnits")
        units.setWordWrap(True)
        units.setStyleSheet("font-style: italic;")  # set apart by style, not a faint colour (kept readable in both themes)
        layout.addWidget(units)
    return box


class ToolPanel(QWidget):
    """One tool: header, inputs with their ranges, Roll, and the latest result (copy, same dice)."""

    def __init__(self, tool: Tool, runner: ToolRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tool, self.runner = tool, runner
        self.inputs: dict[str, InputWidget] = {}
        self.range_labels: dict[str, QLabel] = {}
        form = QFormLayout()
        ticks = QGridLayout()  # yes/no inputs two to a line, labelled on the box itself: a dock is short
        labels = [s.label for s in tool.inputs if s.kind == "bool"]
        columns = TICK_COLUMNS if all(len(label) <= TICK_FITS for label in labels) else 1
        for spec in tool.inputs:
            widget = self.inputs[spec.name] = input_widget(spec, runner.bridge.game.library)
            widget.setObjectName(f"input_{spec.name}")
            widget.setAccessibleName(spec.label)
            if isinstance(widget, QCheckBox):
                widget.setText(label_of(spec, runner.bridge.game.library))
                count = ticks.count()
                ticks.addWidget(widget, count // columns, count % columns)
                continue
            row = QHBoxLayout()
            row.addWidget(widget, 1)
            if spec.range_text():
                label = self.range_labels[spec.name] = QLabel(spec.range_text())
                row.addWidget(label)
            form.addRow(spec.label, row)
        self.roll_button = QPushButton("Roll")
        self.roll_button.setObjectName("rollButton")
        self.roll_button.clicked.connect(self.roll)
        self.status = QLabel("")
        self.status.setObjectName("toolStatus")
        self.status.setWordWrap(True)
        self.result_box = ResultBox()
        self.result_box.same_dice_requested.connect(self.same_dice)
        runner.result_replaced.connect(self.result_box.replace)  # a run continued once its row was answered
        layout = QVBoxLayout(self)
        layout.addWidget(tool_header(tool, runner.bridge.game.library))
        layout.addLayout(form)
        layout.addLayout(ticks)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.status)
        layout.addWidget(self.result_box)
        layout.addStretch(1)
        self.status.setVisible(tool.status is not None)
        runner.bridge.changed.connect(self._changed)  # once per do, undo, redo or campaign shown
        runner.bridge.tables_changed.connect(self.refill_choices)
        self.refresh()

    def refill_choices(self) -> None:
        """Choices, steps, the summary and the units note read from a table follow the player's tables."""
        library = self.runner.bridge.game.library
        summary, units = self.findChild(QLabel, "toolSummary"), self.findChild(QLabel, "toolUnits")
        if summary is not None:
            summary.setText(self.tool.summary_in(library))
        if units is not None:
            units.setText(self.tool.units_for(library))
        for spec in self.tool.inputs:
            widget = self.inputs[spec.name]
            if (spec.choices_from or spec.choices_for) and isinstance(widget, QComboBox):
                fill_choices(widget, spec, self.runner.bridge.game.library)
            if spec.step_for is not None and isinstance(widget, QSpinBox):
                set_step(widget, spec, spec.step_for(self.runner.bridge.game.library))
            if spec.high_for is not None and isinstance(widget, QSpinBox):
                set_high(widget, spec.high_for(self.runner.bridge.game.library))
            if spec.label_for is not None and isinstance(widget, QCheckBox):
                widget.setText(label_of(spec, library))

    def values(self) -> dict[str, Any]:
        return {name: widget_value(widget) for name, widget in self.inputs.items()}

    def command(self) -> Command | str:
        """The tool's command for the inputs as they are, or why the inputs cannot make one."""
        try:
            return self.tool.command_for(self.values())
        except ValidationError as exc:
            return "; ".join(str(e.get("msg", "")) for e in exc.errors()) or str(exc)

    def roll(self) -> None:
        command = self.command()
        self._show(command if isinstance(command, str) else self.runner.run(self.tool.title, command))

    def same_dice(self) -> None:
        command, last = self.command(), self.result_box.result
        if isinstance(command, str) or last is None:
            self._show(command if isinstance(command, str) else "Roll first.")
            return
        self._show(self.runner.rerun(last, self.tool.title, command))

    def _show(self, outcome: ToolResult | str) -> None:
        self.result_box.show_result(outcome)
        self.refresh()
        self.reveal_result()

    def reveal_result(self) -> None:
        """Scroll the result (or the refusal) into view: in a short dock it sits below the inputs and the Roll button."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if parent is None:
            return
        if self.result_box.height() < parent.viewport().height():
            parent.ensureWidgetVisible(self.result_box, 0, 0)
        else:  # taller than the view: its first lines, not its buttons
            parent.verticalScrollBar().setValue(self.result_box.mapTo(self, QPoint(0, 0)).y())

    def _changed(self, _change: ChangeSet) -> None:
        """Every action, undo, redo or campaign shown: the panel's state and its result's latest flag are read again."""
        self.refresh()

    def refresh(self) -> None:
        """The tool's saved state and whether its result can still be re-run on the same dice."""
        if self.tool.status is not None:
            self.status.setText(self.tool.status(self.runner.bridge.game.campaign.toolbox))
        self.result_box.set_latest(self.runner.is_latest(self.result_box.result))
