"""The sheet-layout page of the preferences: track lengths, time-track triggers, combat-track milestones.

These are the figures the rule text leaves to the printed sheet (``resources/sheet-layout.json``,
each default with its reason in the file's notes). The page edits a copy; :meth:`SheetLayoutEditor.layout`
builds a :class:`SheetLayout` from what is typed and raises :class:`LayoutProblem` with a sentence
naming the row and field at fault, so nothing invalid is ever saved. Every control is a plain
widget in reading order, so Tab walks the page and a screen reader names each one.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
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

from d100gui.engine.rules.model import SheetLayout

#: the sheet's tracks a player may lengthen or shorten, with the words the page shows
TRACKS = (
    ("characteristic_track", "Characteristic experience pips"),
    ("skill_track", "Skill experience pips"),
    ("repair_track", "Repair pips per item"),
    ("poison_track", "Poison pips"),
    ("disease_track", "Disease pips"),
    ("keys_track", "Keys track"),
    ("levers_track", "Levers track"),
)
TRIGGER_KINDS = (("oil", "Oil"), ("food", "Food"), ("wandering", "Wandering monster"))


class LayoutProblem(ValueError):
    """What is typed cannot be a sheet layout; the message says where and why."""


class _Rows(QGroupBox):
    """A titled list of editable rows with an Add button; each row has its own Remove button."""

    def __init__(
        self, title: str, headers: list[str], add_text: str, make_row: Callable[[], list[QWidget]], on_change: Callable[[], None]
    ) -> None:
        super().__init__(title)
        self.make_row, self.headers, self.on_change = make_row, headers, on_change
        self.rows: list[list[QWidget]] = []
        outer = QVBoxLayout(self)
        self.grid = QGridLayout()
        for col, text in enumerate(headers):
            self.grid.addWidget(QLabel(f"<b>{text}</b>"), 0, col)
        outer.addLayout(self.grid)
        self.add_button = QPushButton(add_text)
        self.add_button.clicked.connect(lambda _checked=False: self.add())
        outer.addWidget(self.add_button)

    def add(self) -> list[QWidget]:
        widgets = self.make_row()
        n = len(self.rows) + 1
        remove = QPushButton("Remove")
        remove.clicked.connect(lambda _checked=False, w=widgets: self.remove(w))
        row = [*widgets, remove]
        for col, widget in enumerate(row):
            self.grid.addWidget(widget, n, col)
        self.rows.append(row)
        self._name_rows()
        self.on_change()
        return widgets

    def remove(self, widgets: list[QWidget]) -> None:
        row = next(r for r in self.rows if r[0] is widgets[0])
        self.rows.remove(row)
        for widget in row:
            self.grid.removeWidget(widget)
            widget.deleteLater()
        for n, r in enumerate(self.rows, start=1):  # close the gap
            for col, widget in enumerate(r):
                self.grid.addWidget(widget, n, col)
        self._name_rows()
        self.on_change()

    def clear(self) -> None:
        for row in list(self.rows):
            self.remove(row)

    def _name_rows(self) -> None:
        """Each control says its row and column to a screen reader (the header is out of its sight)."""
        for n, row in enumerate(self.rows, start=1):
            for header, widget in zip(self.headers, row, strict=False):
                widget.setAccessibleName(f"{self.title()} row {n}: {header}")
            row[-1].setAccessibleName(f"Remove row {n} of {self.title().lower()}")


class SheetLayoutEditor(QWidget):
    """Edits a sheet layout; ``changed`` says a field was touched (the dialog then saves it)."""

    changed = Signal()

    def __init__(self, layout: SheetLayout, defaults: SheetLayout, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.defaults = defaults
        self.base = layout  # notes and hit-location mods travel through untouched
        self.dirty = False
        outer = QVBoxLayout(self)
        intro = QLabel(
            "The figures the rulebook leaves to the printed sheet. Changes are checked when you press OK and "
            "apply when d100gui next starts."
        )
        intro.setWordWrap(True)
        outer.addWidget(intro)
        self.lengths: dict[str, QSpinBox] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        for key, text in (*TRACKS, ("clocks", "Time track clocks"), ("combat_length", "Combat track boxes")):
            spin = QSpinBox()
            spin.setRange(1, 1000 if key == "combat_length" else 100)
            spin.valueChanged.connect(self._touched)
            form.addRow(text, spin)
            self.lengths[key] = spin
        outer.addLayout(form)
        self.triggers = _Rows(
            "Time-track triggers", ["Clock", "Symbol", "d10 ≤ (wandering)"], "Add a trigger", self._trigger_row, self._touched
        )
        self.milestones = _Rows(
            "Combat-track milestones", ["Box", "Reward", "Effect"], "Add a milestone", self._milestone_row, self._touched
        )
        outer.addWidget(self.triggers)
        outer.addWidget(self.milestones)
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.clicked.connect(lambda _checked=False: self.reset())
        row = QHBoxLayout()
        row.addWidget(self.reset_button)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(1)
        self.show_layout(layout)
        self.dirty = False

    # ------------------------------------------------------------------ rows
    def _trigger_row(self) -> list[QWidget]:
        clock, kind, number = QSpinBox(), QComboBox(), QSpinBox()
        clock.setRange(1, 100)
        for value, text in TRIGGER_KINDS:
            kind.addItem(text, value)
        number.setRange(0, 10)
        number.setSpecialValueText("none")
        for signal in (clock.valueChanged, kind.currentIndexChanged, number.valueChanged):
            signal.connect(self._touched)
        return [clock, kind, number]

    def _milestone_row(self) -> list[QWidget]:
        box, reward, effect = QSpinBox(), QLineEdit(), QLineEdit()
        box.setRange(1, 1000)
        effect.setPlaceholderText("e.g. +50 gp")
        for signal in (box.valueChanged, reward.textChanged, effect.textChanged):
            signal.connect(self._touched)
        return [box, reward, effect]

    def _touched(self, *_args: object) -> None:
        self.dirty = True
        self.changed.emit()

    # ------------------------------------------------------------------ in and out
    def show_layout(self, layout: SheetLayout) -> None:
        """Fill every field from ``layout``."""
        for key, _text in TRACKS:
            self.lengths[key].setValue(int(getattr(layout, key)))
        self.lengths["clocks"].setValue(layout.time_track.clocks)
        self.lengths["combat_length"].setValue(layout.combat_track.length)
        self.triggers.clear()
        for trigger in layout.time_track.triggers:
            clock, kind, number = self.triggers.add()
            assert isinstance(clock, QSpinBox) and isinstance(kind, QComboBox) and isinstance(number, QSpinBox)
            clock.setValue(trigger.clock)
            kind.setCurrentIndex(max(0, kind.findData(trigger.kind)))
            number.setValue(trigger.number or 0)
        self.milestones.clear()
        for milestone in layout.combat_track.milestones:
            box, reward, effect = self.milestones.add()
            assert isinstance(box, QSpinBox) and isinstance(reward, QLineEdit) and isinstance(effect, QLineEdit)
            box.setValue(milestone.position)
            reward.setText(milestone.reward)
            effect.setText(milestone.effect)

    def reset(self) -> None:
        """Reset to defaults: the shipped layout fills the page (saved on OK)."""
        self.base = self.defaults
        self.show_layout(self.defaults)
        self._touched()

    def layout_data(self) -> dict[str, object]:
        """What the page holds, as the layout file's fields."""
        data = self.base.model_dump()
        for key, _text in TRACKS:
            data[key] = self.lengths[key].value()
        triggers = []
        for clock, kind, number in (r[:3] for r in self.triggers.rows):
            assert isinstance(clock, QSpinBox) and isinstance(kind, QComboBox) and isinstance(number, QSpinBox)
            triggers.append({"clock": clock.value(), "kind": kind.currentData(), "number": number.value() or None})
        milestones = []
        for box, reward, effect in (r[:3] for r in self.milestones.rows):
            assert isinstance(box, QSpinBox) and isinstance(reward, QLineEdit) and isinstance(effect, QLineEdit)
            milestones.append({"position": box.value(), "reward": reward.text().strip(), "effect": effect.text().strip()})
        data["time_track"] = {"clocks": self.lengths["clocks"].value(), "triggers": triggers}
        data["combat_track"] = {"length": self.lengths["combat_length"].value(), "milestones": milestones}
        return data

    def sheet_layout(self) -> SheetLayout:
        """The layout as typed; :class:`LayoutProblem` says what is wrong with it."""
        data = self.layout_data()
        combat = data["combat_track"]
        assert isinstance(combat, dict)
        for n, milestone in enumerate(combat["milestones"], start=1):
            if not milestone["reward"] or not milestone["effect"]:
                raise LayoutProblem(f"Combat-track milestone {n}: type both its reward and its effect.")
        try:
            return SheetLayout.model_validate(data)
        except ValidationError as exc:
            raise LayoutProblem(describe(exc)) from None


def describe(exc: ValidationError) -> str:
    """A pydantic error as the page's own words: which list, which row, what is wrong."""
    err = exc.errors()[0]
    loc = [str(p) for p in err.get("loc", ())]
    message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    if loc[:2] == ["time_track", "triggers"] and len(loc) > 2:
        return f"Time-track trigger {int(loc[2]) + 1}: {message}."
    if loc[:2] == ["combat_track", "milestones"] and len(loc) > 2:
        return f"Combat-track milestone {int(loc[2]) + 1}: {message}."
    where = {"time_track": "Time track", "combat_track": "Combat track"}.get(loc[0] if loc else "", ".".join(loc))
    return f"{where}: {message}."
