"""A reference panel: one or more tables of the classic texts shown as printed, to read, never rolled.

The tables come from the player's library (the bundled rows and any they typed), so the
panel shows what the tools use. Each table has its notes (in our own words) and a Copy
button that puts it on the clipboard as tab-separated lines.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.tables import Table, TableError
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.toolbox.tool_panel import tool_header
from d100gui.ui.toolbox.tools import Tool

IN_SHORT = "In short"  # the header of the column holding a row's one-line description


def table_lines(table: Table) -> list[list[str]]:
    """The table as lines of cells, header first (a range column for rolled tables, a description column when rows have one)."""
    ranged = table.rollable
    described = any(r.text for r in table.rows)
    header = ([table.die or ""] if ranged else []) + [c.label for c in table.columns] + ([IN_SHORT] if described else [])
    lines = [header]
    for row in table.rows:
        cells = ([row.range_label()] if ranged else []) + [row.fields.get(c.key, "") for c in table.columns]
        lines.append(cells + ([row.text] if described else []))
    if ranged and table.otherwise:
        lines.append(["other rolls", *(table.otherwise.get(c.key, "") for c in table.columns)] + ([""] if described else []))
    return lines


def table_text(table: Table) -> str:
    """The table as plain text: its title, its lines tab-separated, its notes."""
    body = ["\t".join(cells) for cells in table_lines(table)]
    return "\n".join([table.title, *body, *(n.text for n in table.notes)])


class ReferenceTable(QWidget):
    """One table: its title, the grid, its notes and a Copy button."""

    def __init__(self, table: Table, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        lines = table_lines(table)
        self.grid = QTableWidget(len(lines) - 1, len(lines[0]))
        self.grid.setObjectName(f"ref_{table.id}")
        self.grid.setHorizontalHeaderLabels(lines[0])
        self.grid.verticalHeader().hide()
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setWordWrap(True)
        for r, cells in enumerate(lines[1:]):
            for c, text in enumerate(cells):
                self.grid.setItem(r, c, QTableWidgetItem(text))
        header = self.grid.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.grid.resizeRowsToContents()
        # every row shown (the panel scrolls, not the grid); room kept for a sideways scroll bar on a wide table
        self.grid.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        rows = sum(self.grid.rowHeight(r) for r in range(self.grid.rowCount()))
        bar = self.grid.horizontalScrollBar().sizeHint().height()
        self.grid.setFixedHeight(header.sizeHint().height() + rows + bar + 2 * self.grid.frameWidth())
        self.copy_button = QPushButton("Copy table")
        self.copy_button.clicked.connect(self.copy)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.addWidget(QLabel(f"<b>{table.title}</b>"))
        layout.addWidget(self.grid)
        for note in table.notes:
            label = QLabel(note.text)
            label.setWordWrap(True)
            layout.addWidget(label)
        layout.addWidget(self.copy_button)

    def copy(self) -> None:
        QApplication.clipboard().setText(table_text(self.table))


class ReferencePanel(QWidget):
    """A reference tool: its header and each of its tables, read from the bridge's library (refreshed when tables change)."""

    def __init__(self, tool: Tool, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tool, self.bridge = tool, bridge
        self.tables: list[ReferenceTable] = []
        self.body = QVBoxLayout(self)
        self.body.addWidget(tool_header(tool, bridge.game.library))
        self.missing = QLabel("")
        self.missing.setWordWrap(True)
        self.body.addWidget(self.missing)
        self.holder = QVBoxLayout()
        self.body.addLayout(self.holder)
        self.body.addStretch(1)
        bridge.tables_changed.connect(self.fill)
        self.fill()

    def fill(self) -> None:
        for old in self.tables:
            old.setParent(None)
            old.deleteLater()
        self.tables, missing = [], []
        for table_id in self.tool.tables:
            try:
                table = self.bridge.game.library.get(table_id)
            except TableError:
                missing.append(table_id)
                continue
            shown = ReferenceTable(table)
            self.holder.addWidget(shown)
            self.tables.append(shown)
        self.missing.setText(f"Not in your tables: {', '.join(missing)}" if missing else "")
        self.missing.setVisible(bool(missing))
