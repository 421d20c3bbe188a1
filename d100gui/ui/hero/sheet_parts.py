"""The small pieces every section of the character sheet is made of.

A :class:`SheetSection` is a boxed part of the paper sheet. It builds its own widgets from
the :class:`~d100gui.engine.rules.model.Rules`, shows a character in :meth:`~SheetSection.show_character`,
and turns every edit into a command handed to ``send`` (the sheet's, so a refusal shows on the
sheet). Sections never open dialogs: they call the sheet's request callbacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QFocusEvent, QPainter, QPaintEvent, QPalette, QWheelEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.game import Command
from d100gui.engine.hero.derive import Derived
from d100gui.engine.hero.model import Character, Item
from d100gui.engine.rules.model import Rules
from d100gui.ui.common.contrast import backing, readable
from d100gui.ui.common.pips import PipTrack

ERROR_STYLE = "color: #c0392b;"
#: The sheet's look. ``palette(...)`` is filled in from the sheet's palette by :func:`sheet_style` (Qt would
#: read the application's, and only once), so a theme switch re-colours it; ``[dim="true"]`` is :func:`set_dim`.
SHEET_STYLE = """
*[dim="true"] { color: palette(placeholder-text); }
QFrame#sheetSection { border: 1px solid palette(mid); border-radius: 2px; }
QLabel#sectionTitle { background: palette(window-text); color: palette(window); font-weight: bold; padding: 1px 5px; }
QLabel#locBadge { border: 1px solid palette(window-text); border-radius: 8px; font-weight: bold; }
QLabel#fieldLabel { font-size: 8pt; font-weight: bold; }
QLabel#small { font-size: 8pt; }
QSpinBox#sheetNumber, QLineEdit#sheetText { border: 1px solid palette(mid); background: palette(base); padding: 0 1px; }
QSpinBox#sheetNumber::up-button, QSpinBox#sheetNumber::down-button { width: 0; border: none; }
QLabel#badgeOn { background: palette(highlight); color: palette(highlighted-text); border: 1px solid palette(highlight);
                 border-radius: 3px; padding: 1px 4px; font-weight: bold; }
QLabel#badgeOff { color: palette(placeholder-text); border: 1px dashed palette(mid); border-radius: 3px; padding: 1px 4px; }
"""

Send = Callable[[Command], bool]


def sheet_palette(palette: QPalette) -> QPalette:
    """What the sheet sets on top of the application's ``palette``: its dim text (``palette(placeholder-text)``)
    and its lit badges (highlighted text on the highlight) made readable. Only those roles are set, so
    every other colour still follows the application's palette."""
    own = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        dim = palette.color(group, QPalette.ColorRole.PlaceholderText)
        own.setColor(group, QPalette.ColorRole.PlaceholderText, readable(dim, palette))
        lit = palette.color(group, QPalette.ColorRole.Highlight)
        own.setColor(group, QPalette.ColorRole.Highlight, backing(lit, palette.color(group, QPalette.ColorRole.HighlightedText)))
    return own


_PALETTE_REF = re.compile(r"palette\(([a-z-]+)\)")
_ROLES = {
    "window": QPalette.ColorRole.Window,
    "window-text": QPalette.ColorRole.WindowText,
    "base": QPalette.ColorRole.Base,
    "text": QPalette.ColorRole.Text,
    "mid": QPalette.ColorRole.Mid,
    "highlight": QPalette.ColorRole.Highlight,
    "highlighted-text": QPalette.ColorRole.HighlightedText,
    "placeholder-text": QPalette.ColorRole.PlaceholderText,
}


def sheet_style(palette: QPalette) -> str:
    """:data:`SHEET_STYLE` with its ``palette(...)`` colours taken from ``palette`` (see :func:`sheet_palette`)."""
    return _PALETTE_REF.sub(lambda m: palette.color(_ROLES[m.group(1)]).name(), SHEET_STYLE)


def set_dim(widget: QWidget, on: bool = True) -> None:
    """Grey a widget's text, as the paper prints its hints and empty places (still readable)."""
    if bool(widget.property("dim")) == on:
        return
    widget.setProperty("dim", on)
    widget.style().unpolish(widget)
    widget.style().polish(widget)
    widget.update()


def set_tip(widget: QWidget, tip: str) -> None:
    """Give ``widget`` its tooltip, only if it says something else: Qt sends a ToolTipChange event for every
    ``setToolTip``, same words or not, and the sheet renders ~60 tooltips on every action that touches the hero."""
    if widget.toolTip() != tip:
        widget.setToolTip(tip)


def error_style(palette: QPalette) -> str:
    """The style of an error message: :data:`ERROR_STYLE`'s red, readable on this palette."""
    return f"color: {readable(QColor(ERROR_STYLE.split(':')[1].strip(' ;')), palette).name()};"


class SheetRequests(Protocol):
    """What a section may ask of the sheet: an item's or a spell's menu, and the forms to write them."""

    def item_menu(self, where: str, slot: str = "", index: int = 0) -> QMenu: ...

    def edit_item(self, where: str, slot: str = "", index: int = 0) -> None: ...

    def add_item(self, where: str, belt_index: int = 0) -> None: ...

    def spell_menu(self, index: int) -> QMenu: ...

    def edit_spell(self, index: int) -> None: ...


@contextmanager
def signals_blocked(*widgets: QWidget) -> Iterator[None]:
    """Update widgets from the model without their change signals sending commands back."""
    previous = [w.blockSignals(True) for w in widgets]
    try:
        yield
    finally:
        for w, was in zip(widgets, previous, strict=True):
            w.blockSignals(was)


def signed(n: int) -> str:
    return f"{n:+d}"


def item_stats(item: Item) -> str:
    """The numbers of an item's sheet columns, short: ``DEF 1 · -2 DMG · +5 STR · 23 gp``."""
    bits = item.stat_bits(two_handed="2-handed")
    if item.weapon_type:
        bits.append(f"({item.weapon_type})")
    if item.value:
        bits.append(f"{item.value} gp")
    if item.effect:
        bits.append(item.effect)
    return " · ".join(bits)


class ElidedLabel(QLabel):
    """A label that cuts long text with "…" instead of widening the narrow dock."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(20)

    def minimumSizeHint(self) -> QSize:
        return QSize(20, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setFont(self.font())
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), text)
        painter.end()


class NumberBox(QSpinBox):
    """A boxed number like the paper's: no arrows, commits on Enter or leaving the box,
    ignores the mouse wheel unless focused (so scrolling the sheet never edits it)."""

    def __init__(self, lo: int = 0, hi: int = 9999, width: int = 38, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sheetNumber")
        self.setRange(lo, hi)
        # no arrows: the sheet's style sheet gives the buttons no width (NoButtons would
        # collapse the text field under a style sheet border)
        self.setKeyboardTracking(False)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFixedSize(width, 20)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def show_value(self, value: int) -> None:
        """Show the model's ``value`` (no change signal sent back); left alone when it shows it already: setValue
        repaints the box even for the same value, and a sheet render sets some 30 of them on every action."""
        if self.value() != value:
            was = self.blockSignals(True)
            self.setValue(value)
            self.blockSignals(was)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():
            super().wheelEvent(event)
        else:
            event.ignore()


class NotesEdit(QPlainTextEdit):
    """The notes box; ``editing_finished`` when focus leaves it."""

    editing_finished = Signal()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.editing_finished.emit()


class Section(QFrame):
    """A boxed part of the sheet with an inverted title bar, like the printed sheet's."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sheetSection")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(1, 1, 1, 4)
        outer.setSpacing(3)
        head = QHBoxLayout()
        head.setSpacing(0)
        self.title = QLabel(title.upper())
        self.title.setObjectName("sectionTitle")
        head.addWidget(self.title, 1)
        self.head = head
        outer.addLayout(head)
        self.body = QVBoxLayout()
        self.body.setContentsMargins(4, 0, 4, 0)
        self.body.setSpacing(2)
        outer.addLayout(self.body)

    def add_head_button(self, text: str, tip: str, slot: Callable[[], object]) -> QPushButton:
        button = QPushButton(text)
        button.setToolTip(tip)
        button.setFlat(True)
        button.setFixedHeight(18)
        button.setStyleSheet("padding: 0 4px; font-size: 8pt;")
        button.clicked.connect(lambda _=False: slot())
        self.head.addWidget(button)
        return button


def field_label(text: str, tip: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("fieldLabel")
    if tip:
        label.setToolTip(tip)
    return label


def small(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName("small")
    return label


def loc_badge(text: str) -> QLabel:
    """A round number badge: a hit-location roll or a belt slot number."""
    badge = QLabel(text)
    badge.setObjectName("locBadge")
    badge.setFixedSize(17, 17)
    badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return badge


class ItemRow(QFrame):
    """One item line of the sheet; right-click (or the keyboard menu key) for what can be done with it."""

    def __init__(
        self, menu: Callable[[], QMenu], edit: Callable[[], object] | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._menu = menu
        self._edit = edit
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)

    def contextMenuEvent(self, event: Any) -> None:
        self._menu().exec(event.globalPos())

    def mouseDoubleClickEvent(self, event: Any) -> None:
        if self._edit is not None:
            self._edit()
        else:
            super().mouseDoubleClickEvent(event)


class SheetSection(Section):
    """A section that builds its fields from the rules and sends every edit as a command."""

    def __init__(self, title: str, rules: Rules, send: Send, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.rules = rules
        self.send = send

    def number(self, lo: int, hi: int, command: Callable[[int], Command], width: int = 38, tip: str = "") -> NumberBox:
        """A number box whose committed value is sent as ``command(value)``."""
        box = NumberBox(lo, hi, width)
        box.setAccessibleName(tip)  # what a screen reader says for the box
        if tip:
            box.setToolTip(tip)
        box.valueChanged.connect(lambda v: self.send(command(v)))
        return box

    def track(self, count: int, command: Callable[[int], Command], name: str, **kw: Any) -> PipTrack:
        """A pip track whose clicks are sent as ``command(value)``."""
        track = PipTrack(count, name=name, **kw)
        track.value_requested.connect(lambda v: self.send(command(v)))
        return track

    def show_character(self, ch: Character, d: Derived) -> None:
        """Show the character (each section overrides it)."""
