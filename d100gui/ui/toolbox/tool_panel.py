"""The form of a tool, built from its :class:`~d100gui.ui.toolbox.tools.Tool` description.

Spin boxes take their range from the description (the engine's constants) and show it; the
Roll button sends the tool's command through the :class:`ToolRunner`, and what the engine
refuses comes back as its own message.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.game import Command
from d100gui.ui.toolbox.result_box import ResultBox
from d100gui.ui.toolbox.runner import ToolResult, ToolRunner
from d100gui.ui.toolbox.tools import OPEN_MAX, Tool, ToolInput

InputWidget = QSpinBox | QCheckBox | QComboBox | QLineEdit


def input_widget(spec: ToolInput) -> InputWidget:
    """The widget for one input, set to its default, limited to its range."""
    if spec.kind == "bool":
        box = QCheckBox()
        box.setChecked(bool(spec.default))
        return box
    if spec.kind == "choice":
        combo = QComboBox()
        for label, value in spec.choices:
            combo.addItem(label, value)
        combo.setCurrentIndex(max(0, combo.findData(spec.default)))
        return combo
    if spec.kind == "text":
        return QLineEdit(str(spec.default or ""))
    spin = QSpinBox()
    spin.setRange(spec.low, spec.high if spec.high is not None else max(OPEN_MAX, spec.low))
    spin.setSingleStep(spec.step)
    spin.setValue(int(spec.default if spec.default is not None else spec.low))
    spin.setToolTip(f"Valid: {spec.range_text()}")
    return spin


def widget_value(widget: InputWidget) -> Any:
    if isinstance(widget, QSpinBox):
        return widget.value()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QComboBox):
        return widget.currentData()
    return widget.text()


def tool_header(tool: Tool) -> QWidget:
    """The tool's title, its rule text, its summary in our words and its text's time units."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    title = QLabel(f"<b>{tool.title}</b> — <i>{tool.rule_text}</i>")
    summary = QLabel(tool.summary)
    summary.setObjectName("toolSummary")
    summary.setWordWrap(True)
    layout.addWidget(title)
    layout.addWidget(summary)
    if tool.units:
        units = QLabel(tool.units)
        units.setObjectName("toolUnits")
        units.setWordWrap(True)
        units.setStyleSheet("color: palette(mid);")
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
        for spec in tool.inputs:
            widget = self.inputs[spec.name] = input_widget(spec)
            widget.setObjectName(f"input_{spec.name}")
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
        layout = QVBoxLayout(self)
        layout.addWidget(tool_header(tool))
        layout.addLayout(form)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.status)
        layout.addWidget(self.result_box)
        layout.addStretch(1)
        self.status.setVisible(tool.status is not None)
        runner.bridge.command_done.connect(self.refresh)
        runner.bridge.campaign_changed.connect(self.refresh)
        self.refresh()

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

    def refresh(self) -> None:
        """The tool's saved state and whether its result can still be re-run on the same dice."""
        if self.tool.status is not None:
            self.status.setText(self.tool.status(self.runner.bridge.game.campaign.toolbox))
        self.result_box.set_latest(self.runner.is_latest(self.result_box.result))
