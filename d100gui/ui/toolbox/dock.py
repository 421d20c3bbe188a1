"""The Toolbox dock: the tools grouped by rule text, the chosen tool's panel, and the results list.

Every result is a toolbox action in the command log, so it is already in the adventure log
with its dice; "Mark noted" ticks it in this list (a note for the table, kept while the
window is open), and Copy puts it on the clipboard.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.toolbox.clock_panels import DungeonClockPanel, TravelClockPanel
from d100gui.ui.toolbox.fight_panel import FightPanel
from d100gui.ui.toolbox.reference_panel import ReferencePanel
from d100gui.ui.toolbox.runner import ToolResult, ToolRunner
from d100gui.ui.toolbox.tool_panel import ToolPanel
from d100gui.ui.toolbox.tools import Tool, tool_groups

KEY_ROLE = Qt.ItemDataRole.UserRole + 1
TREE_HEIGHT = 180  # the tool list's starting height (the splitter lets the player change it)
NOTED_TIP = (
    "Every result is already in the adventure log, with its dice (the command log records it). "
    "Mark noted ticks it here, for your own bookkeeping."
)


def _titles(groups: list[tuple[str, tuple[Tool, ...]]]) -> dict[str, str]:
    """Command kind -> the tool title results of that kind are listed under."""
    titles = {
        "toolbox_explore_light": "Dungeon clock",
        "toolbox_explore_snuff": "Dungeon clock",
        "toolbox_scars_start_encounter": "Fight tracker",
        "toolbox_scars_next_round": "Fight tracker",
        "toolbox_scars_modify_attack": "Fight tracker",
    }
    for _text, tools in groups:
        for tool in tools:
            if tool.command is not None:
                titles.setdefault(tool.command.model_fields["kind"].default, tool.title)
    return titles


class _Panels(Mapping[str, QWidget]):
    """Every tool's panel by key, each built when it is first asked for (shown, or read by a caller)."""

    def __init__(self, dock: ToolboxPanel) -> None:
        self._dock = dock

    def __getitem__(self, key: str) -> QWidget:
        return self._dock.panel(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._dock.tools)

    def __len__(self) -> int:
        return len(self._dock.tools)


class ToolboxPanel(QWidget):
    """The toolbox: pick a tool on the left, use it on the right, keep its results below.

    A tool's panel is built the first time it is chosen (or asked for through :attr:`panels`): the
    dock starts behind the dice tab, and building its forty-odd forms was a third of building the window.
    Each panel reads the campaign when it is built, so a late one shows the same state an early one would.
    """

    panel_built = Signal(QWidget)  # a tool's panel, just made (the read-only lock watches the new ones)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        groups = tool_groups()
        self.runner = ToolRunner(bridge, _titles(groups), self)
        self.tools: dict[str, Tool] = {}
        self.built: dict[str, QWidget] = {}  # the panels made so far, by key
        self._scrolls: dict[str, QScrollArea] = {}
        self.panels: Mapping[str, QWidget] = _Panels(self)
        self.tree = QTreeWidget()
        self.tree.setObjectName("toolList")
        self.tree.setAccessibleName("Tools")
        self.tree.setHeaderHidden(True)
        self.stack = QStackedWidget()
        for text, tools in groups:
            group = QTreeWidgetItem(self.tree, [text])
            group.setFlags(group.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            for tool in tools:
                item = QTreeWidgetItem(group, [tool.title])
                item.setData(0, KEY_ROLE, tool.key)
                item.setToolTip(0, tool.summary)
                self.tools[tool.key] = tool
            group.setExpanded(True)
        self.tree.currentItemChanged.connect(lambda item, _old: self._chosen(item))
        self.results = QListWidget()
        self.results.setObjectName("results")
        self.results.setWordWrap(True)  # a day or a hoard is long: wrap it rather than scroll sideways
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.setAlternatingRowColors(True)
        self.results.setAccessibleName("Results")
        self.copy_button = QPushButton("Copy")
        self.copy_button.clicked.connect(self.copy_selected)
        self.noted_button = QPushButton("Mark noted")
        self.noted_button.setToolTip(NOTED_TIP)
        self.noted_button.clicked.connect(self.mark_noted)
        self.runner.result_added.connect(self._add_result)
        self.runner.results_reset.connect(self._fill_results)
        self._layout()
        self._fill_results()
        first = self.tree.topLevelItem(0)
        child = first.child(0) if first is not None else None
        if child is not None:
            self.tree.setCurrentItem(child)

    def panel(self, key: str) -> QWidget:
        """The panel of the tool ``key``, built now if it was not yet (KeyError for an unknown tool)."""
        if key not in self.built:
            self._add_panel(self.tools[key])
        return self.built[key]

    def _add_panel(self, tool: Tool) -> None:
        panel: QWidget
        if tool.panel == "fight":
            panel = FightPanel(tool, self.runner)
        elif tool.panel == "dungeon_clock":
            panel = DungeonClockPanel(tool, self.runner)
        elif tool.panel == "travel_clock":
            panel = TravelClockPanel(tool, self.runner)
        elif tool.panel == "reference":
            panel = ReferencePanel(tool, self.bridge)
        else:
            panel = ToolPanel(tool, self.runner)
        panel.setObjectName(f"tool_{tool.key}")
        scroll = QScrollArea()
        scroll.setAccessibleName(tool.title)
        scroll.setWidget(panel)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the panel fits the dock's width
        self.built[tool.key], self._scrolls[tool.key] = panel, scroll
        self.stack.addWidget(scroll)
        self.panel_built.emit(panel)

    def _layout(self) -> None:
        results = QWidget()
        box = QVBoxLayout(results)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(QLabel("Results (newest last)"))
        box.addWidget(self.results)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.noted_button)
        buttons.addStretch(1)
        box.addLayout(buttons)
        split = QSplitter(Qt.Orientation.Vertical)  # one column: a dock is narrow
        split.addWidget(self.tree)
        split.addWidget(self.stack)
        split.addWidget(results)
        split.setStretchFactor(1, 3)
        split.setSizes([TREE_HEIGHT, 3 * TREE_HEIGHT, TREE_HEIGHT])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(split)

    # ------------------------------------------------------------------ tools
    def _chosen(self, item: QTreeWidgetItem | None) -> None:
        key = item.data(0, KEY_ROLE) if item is not None else None
        if key in self.tools:
            self.panel(key)
            self.stack.setCurrentWidget(self._scrolls[key])

    def choose(self, key: str) -> QWidget:
        """Show the tool ``key`` (as a click on it in the list does) and return its panel."""
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            for j in range(group.childCount() if group is not None else 0):
                child = group.child(j) if group is not None else None
                if child is not None and child.data(0, KEY_ROLE) == key:
                    self.tree.setCurrentItem(child)
        return self.panels[key]

    @property
    def current_panel(self) -> QWidget | None:
        scroll = self.stack.currentWidget()
        return scroll.widget() if isinstance(scroll, QScrollArea) else None

    # ------------------------------------------------------------------ results
    def _add_result(self, result: ToolResult) -> None:
        item = QListWidgetItem(result.line())
        item.setData(KEY_ROLE, result)
        self.results.addItem(item)
        self.results.setCurrentItem(item)

    def _fill_results(self) -> None:
        self.results.clear()
        for result in self.runner.results:
            self._add_result(result)

    def selected_result(self) -> ToolResult | None:
        item = self.results.currentItem()
        result = item.data(KEY_ROLE) if item is not None else None
        return result if isinstance(result, ToolResult) else None

    def copy_selected(self) -> None:
        result = self.selected_result()
        if result is not None:
            QApplication.clipboard().setText(f"{result.title}: {result.text}")

    def mark_noted(self) -> None:
        item, result = self.results.currentItem(), self.selected_result()
        if item is not None and result is not None:
            result.noted = True
            item.setText(result.line())
