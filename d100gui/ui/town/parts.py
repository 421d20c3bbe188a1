"""What every step panel of the town wizard shares: the view it renders, how it sends, greyed controls.

A panel renders :class:`~d100gui.engine.town.queries.TownView` (every price and limit comes
from there) and sends town commands through the wizard, which shows a refusal on the panel
that sent it, beside its controls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QLayout, QSpinBox, QVBoxLayout, QWidget

from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.game import Command
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules
from d100gui.engine.town.model import TownState
from d100gui.engine.town.queries import TownView


@dataclass
class TownContext:
    """What a panel renders: the engine's view of the step, and the sheet and phase it came from."""

    view: TownView
    character: Character
    state: TownState
    rules: Rules
    library: TableLibrary


Sender = Callable[[Command, "StepPanel"], bool]


def allow(widget: QWidget, why: str, tip: str = "") -> None:
    """Enable ``widget`` unless there is a reason not to; a greyed control says why in its tooltip."""
    widget.setEnabled(not why)
    widget.setToolTip(why or tip)


def clear(layout: QLayout) -> None:
    """Remove every row of ``layout`` (rows are rebuilt from the model on each refresh)."""
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.hide()
            widget.deleteLater()


def counter(top: int, value: int = 1) -> QSpinBox:
    """A count box from 1 (0 when nothing can be taken) to ``top``."""
    box = QSpinBox()
    box.setRange(min(1, top), max(top, 0))
    box.setValue(min(value, max(top, 0)))
    return box


def row(*widgets: QWidget | str, stretch: int = 0) -> QWidget:
    """One line of a panel: labels (a ``str``) and controls side by side; ``stretch`` is the growing one
    (-1: none, the line keeps to the left)."""
    line = QWidget()
    box = QHBoxLayout(line)
    box.setContentsMargins(0, 0, 0, 0)
    for i, part in enumerate(widgets):
        widget = QLabel(part) if isinstance(part, str) else part
        box.addWidget(widget, 1 if i == stretch else 0)
    if stretch < 0:
        box.addStretch(1)
    return line


def grid(lines: list[list[QWidget | str]], stretch: int = -1) -> QWidget:
    """Lines of labels (a ``str``) and controls in aligned columns; column ``stretch`` grows
    (-1: an empty column after the last, so the lines keep to the left)."""
    table = QWidget()
    layout = QGridLayout(table)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setVerticalSpacing(2)
    for r, parts in enumerate(lines):
        for c, part in enumerate(parts):
            layout.addWidget(QLabel(part) if isinstance(part, str) else part, r, c)
    width = max((len(parts) for parts in lines), default=0)
    layout.setColumnStretch(stretch if stretch >= 0 else width, 1)
    return table


class StepPanel(QWidget):
    """One step of the wizard: an explanation, its rows, and the engine's refusal beside them."""

    def __init__(self, send: Sender, intro: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._send = send
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        outer.addWidget(self.intro)
        self.head = QVBoxLayout()
        outer.addLayout(self.head)
        self.rows = QVBoxLayout()
        self.rows.setSpacing(2)
        outer.addLayout(self.rows)
        self.message = QLabel()
        self.message.setObjectName("townRefusal")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: palette(link); font-weight: bold;")
        self.message.setVisible(False)
        outer.addWidget(self.message)
        outer.addStretch(1)

    def act(self, command: Command) -> bool:
        """Send ``command``; a refusal shows on this panel."""
        return self._send(command, self)

    def say(self, text: str) -> None:
        """Show the engine's refusal (an empty text hides it)."""
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def show_context(self, ctx: TownContext) -> None:
        """Render the step from the engine's view (each panel overrides it)."""

    def empty(self, text: str) -> None:
        """Say there is nothing to do at this step."""
        label = QLabel(text)
        label.setWordWrap(True)
        self.rows.addWidget(label)
