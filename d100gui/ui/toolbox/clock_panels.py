"""The exploration procedure's two clocks: the dungeon clock (Turns, lights) and the travel clock (hours, Rounds, days).

Both read their state from ``campaign.toolbox`` (so a reopened campaign shows the clock where
it stopped, and undo moves it back) and send commands through the :class:`ToolRunner`. The
action buttons and their costs come from the exploration text's tables; the light warning
comes from the clock's own warning threshold and the engine's light events.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.tables import Table, TableError
from d100gui.engine.game import Command
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox import exploration as ex
from d100gui.engine.toolbox.events import LightLow, LightOut
from d100gui.ui.common.bridge import ChangeSet
from d100gui.ui.toolbox.result_box import ResultBox
from d100gui.ui.toolbox.runner import ToolResult, ToolRunner
from d100gui.ui.toolbox.tool_panel import tool_header
from d100gui.ui.toolbox.tools import Tool

ACTION_COLUMNS = 1  # one button a line: a dock is narrow
WARNING_STYLE = "color: #b9770e; font-weight: bold;"
BUTTON_MARGIN = 6  # pixels around a wrapping button's words


class WrapButton(QPushButton):
    """A push button whose words wrap onto more lines in a narrow dock instead of being clipped."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.words = QLabel(text.replace("&&", "&"))
        self.words.setWordWrap(True)
        self.words.setTextFormat(Qt.TextFormat.PlainText)
        self.words.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(BUTTON_MARGIN, BUTTON_MARGIN, BUTTON_MARGIN, BUTTON_MARGIN)
        layout.addWidget(self.words)
        self.setAccessibleName(self.words.text())
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def text(self) -> str:  # the words the wrapping label draws
        return self.words.text()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self.words.heightForWidth(max(1, width - 2 * BUTTON_MARGIN)) + 2 * BUTTON_MARGIN

    def sizeHint(self) -> QSize:
        hint = self.words.sizeHint()
        return QSize(hint.width() + 2 * BUTTON_MARGIN, hint.height() + 2 * BUTTON_MARGIN)

    def minimumSizeHint(self) -> QSize:
        line = self.fontMetrics().height()
        return QSize(self.fontMetrics().averageCharWidth() * 8, line + 2 * BUTTON_MARGIN)


class ClockPanel(QWidget):
    """What both clocks share: the header, a grid of action buttons, a custom spend, the latest result."""

    unit = "turn"  # what the clock's actions cost, as the button says it
    actions_table = ex.ACTIONS_TABLE

    def __init__(self, tool: Tool, runner: ToolRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tool, self.runner = tool, runner
        self._last: Command | None = None
        self.clock_label = QLabel("")
        self.clock_label.setObjectName("clockState")
        self.clock_label.setWordWrap(True)
        self.action_buttons: dict[str, QPushButton] = {}
        self.actions_box = QWidget()
        self.actions_grid = QGridLayout(self.actions_box)
        self.custom_name = QLineEdit()
        self.custom_name.setPlaceholderText("your own action")
        self.custom_cost = QSpinBox()
        self.custom_cost.setObjectName("customCost")
        self.custom_button = QPushButton("Spend")
        self.custom_button.clicked.connect(self.spend_custom)
        self.result_box = ResultBox()
        self.result_box.same_dice_requested.connect(self.same_dice)
        runner.result_replaced.connect(self.result_box.replace)  # a run continued once its row was answered
        custom = QHBoxLayout()
        custom.addWidget(self.custom_cost, 1)
        self.custom_range = QLabel("")
        custom.addWidget(self.custom_range)
        custom.addWidget(self.custom_button)
        self.body = QVBoxLayout(self)
        self.body.addWidget(tool_header(tool, runner.bridge.game.library))
        self.body.addWidget(self.clock_label)
        self.body.addWidget(self.actions_box)
        self.body.addWidget(self.custom_name)
        self.body.addLayout(custom)
        self.extra = QVBoxLayout()
        self.body.addLayout(self.extra)
        self.body.addWidget(self.result_box)
        self.body.addStretch(1)
        runner.bridge.changed.connect(self._changed)  # once per do, undo, redo or campaign shown
        runner.bridge.tables_changed.connect(self.fill_actions)

    def table(self, table_id: str) -> Table | None:
        try:
            return self.runner.bridge.game.library.get(table_id)
        except TableError:
            return None

    def fill_actions(self) -> None:
        """One button per action of the text's table, its cost on it."""
        while self.actions_grid.count():
            item = self.actions_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.action_buttons.clear()
        table = self.table(self.actions_table)
        costs = ex.action_costs(table) if table is not None else []
        for i, cost in enumerate(costs):
            label = f"{cost.action} ({cost.turns} {self.unit}{'s' if cost.turns != 1 else ''})"
            button = WrapButton(label)  # its words wrap in a narrow dock, never clipped
            button.setToolTip(f"{label}: {cost.note}" if cost.note else label)
            button.clicked.connect(lambda _checked=False, name=cost.action: self.take(name))
            self.action_buttons[cost.action] = button
            self.actions_grid.addWidget(button, i // ACTION_COLUMNS, i % ACTION_COLUMNS)
        if not costs:
            self.actions_grid.addWidget(QLabel("The actions table is not loaded: spend your own costs below."), 0, 0)

    def take(self, action: str) -> None:  # pragma: no cover - each clock sends its own command
        raise NotImplementedError

    def spend_custom(self) -> None:  # pragma: no cover - each clock sends its own command
        raise NotImplementedError

    def send(self, command: Command) -> None:
        self._last = command
        self._show(self.runner.run(self.tool.title, command))

    def same_dice(self) -> None:
        last = self.result_box.result
        if self._last is None or last is None:
            return
        self._show(self.runner.rerun(last, self.tool.title, self._last))

    def _show(self, outcome: ToolResult | str) -> None:
        self.result_box.show_result(outcome)
        self.refresh()

    def _changed(self, _change: ChangeSet) -> None:
        """Every action, undo, redo or campaign shown: the panel's state and its result's latest flag are read again."""
        self.refresh()

    def refresh(self) -> None:
        self.result_box.set_latest(self.runner.is_latest(self.result_box.result))


class DungeonClockPanel(ClockPanel):
    """Turns and Rounds in the dungeon, the lights burning down (warned before they go out), encounter checks."""

    def __init__(self, tool: Tool, runner: ToolRunner, parent: QWidget | None = None) -> None:
        super().__init__(tool, runner, parent)
        self.custom_cost.setRange(1, ex.MAX_TURNS)
        self.custom_range.setText(f"1 to {ex.MAX_TURNS} turns")
        self.items = QComboBox()
        self.items.setObjectName("lightItems")
        self.items.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.items.setMinimumContentsLength(12)  # long item names do not widen the dock
        self.light_button = QPushButton("Light")
        self.light_button.clicked.connect(self.light)
        self.lights = QListWidget()
        self.lights.setObjectName("lights")
        self.lights.setMaximumHeight(110)
        self.snuff_button = QPushButton("Put out")
        self.snuff_button.clicked.connect(self.snuff)
        self.warning = QLabel("")
        self.warning.setObjectName("lightWarning")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(WARNING_STYLE)
        row = QHBoxLayout()
        row.addWidget(self.items, 1)
        row.addWidget(self.light_button)
        row.addWidget(self.snuff_button)
        self.extra.addWidget(QLabel("Light or use an item:"))
        self.extra.addLayout(row)
        self.extra.addWidget(self.lights)
        self.extra.addWidget(self.warning)
        runner.bridge.tables_changed.connect(self.fill_items)
        self.fill_actions()
        self.fill_items()
        self.refresh()

    def fill_items(self) -> None:
        self.items.clear()
        table = self.table(ex.DURATIONS_TABLE)
        for name, turns in (ex.item_durations(table) if table is not None else {}).items():
            self.items.addItem(f"{name} ({turns} turns)", name)

    def take(self, action: str) -> None:
        self.send(tc.ExploreSpend(action=action))

    def spend_custom(self) -> None:
        self.send(tc.ExploreSpend(action=self.custom_name.text().strip(), turns=self.custom_cost.value()))

    def light(self) -> None:
        item = self.items.currentData()
        if item:
            self.send(tc.ExploreLight(item=str(item)))

    def snuff(self) -> None:
        row = self.lights.currentRow()
        self.send(tc.ExploreSnuff(index=max(row, 0)))

    def refresh(self) -> None:
        super().refresh()
        clock = self.runner.bridge.game.campaign.toolbox.dungeon_clock
        every = clock.turns_per_round * clock.encounter_every_rounds
        due = every - clock.elapsed % every
        self.clock_label.setText(f"{clock.describe()} Next encounter check in {due} turn(s).")
        row = self.lights.currentRow()
        self.lights.clear()
        low = []
        for source in clock.lights:
            self.lights.addItem(f"{source.name}: {source.remaining} of {source.duration} turns left")
            if source.remaining <= clock.light_warning_turns:
                low.append(f"{source.name} is about to go out: {source.remaining} turn(s) left.")
        self.lights.setCurrentRow(min(row, self.lights.count() - 1) if row >= 0 else 0)
        self.snuff_button.setEnabled(bool(clock.lights))
        self.snuff_button.setToolTip("Put out the chosen light" if clock.lights else "Nothing is lit: light an item first")
        self.warning.setText(" ".join(low + self._went_out()))
        self.warning.setVisible(bool(self.warning.text()))

    def _went_out(self) -> list[str]:
        """The lights the latest result put out (from its events' payloads), while it is the latest."""
        result = self.result_box.result
        if result is None or not self.runner.is_latest(result):
            return []
        out = []
        for event in result.events:
            payload = event.payload() if event.kind in (LightOut.event_kind, LightLow.event_kind) else None
            if isinstance(payload, LightOut):
                out.append(payload.light.describe())
        return out


class TravelClockPanel(ClockPanel):
    """Hours, Rounds and days on the road, the Round's encounter check, and the rest owed after two Rounds."""

    unit = "hour"
    actions_table = ex.TRAVEL_ACTIONS_TABLE

    def __init__(self, tool: Tool, runner: ToolRunner, parent: QWidget | None = None) -> None:
        super().__init__(tool, runner, parent)
        self.custom_cost.setRange(1, ex.MAX_HOURS)
        self.custom_range.setText(f"1 to {ex.MAX_HOURS} hours")
        self.rest_owed = QLabel("")
        self.rest_owed.setObjectName("restOwed")
        self.rest_owed.setStyleSheet(WARNING_STYLE)
        self.extra.addWidget(self.rest_owed)
        self.fill_actions()
        self.refresh()

    def take(self, action: str) -> None:
        self.send(tc.TravelSpend(action=action))

    def spend_custom(self) -> None:
        self.send(tc.TravelSpend(action=self.custom_name.text().strip(), hours=self.custom_cost.value()))

    def refresh(self) -> None:
        super().refresh()
        clock = self.runner.bridge.game.campaign.toolbox.travel_clock
        pending = " An encounter is coming this Round." if clock.pending is not None else ""
        self.clock_label.setText(clock.describe() + pending)
        owed = "Two Rounds of travel: rest a Round (Push on, in its own tool, if you cannot)." if clock.must_rest else ""
        self.rest_owed.setText(owed)
        self.rest_owed.setVisible(bool(owed))
