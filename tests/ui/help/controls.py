"""Walking a widget's controls: the buttons, boxes and toolbar actions a player can use, and which lack a tooltip."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QDialogButtonBox,
    QLineEdit,
    QTabBar,
    QToolBar,
    QWidget,
    QWizard,
)

CONTROLS = (QAbstractButton, QAbstractSpinBox, QLineEdit, QComboBox)
WIZARD_BUTTONS = (
    QWizard.WizardButton.BackButton,
    QWizard.WizardButton.NextButton,
    QWizard.WizardButton.FinishButton,
    QWizard.WizardButton.CancelButton,
)


def _inner(widget: QWidget) -> bool:
    """A part of another control (a spin box's or a combo box's own line edit, a tab bar's scroll arrows),
    or a dialog's standard OK / Cancel / Close, which every player reads the same way."""
    parent = widget.parentWidget()
    return isinstance(parent, QAbstractSpinBox | QComboBox | QTabBar | QDialogButtonBox)


def _name(widget: QWidget) -> str:
    text = widget.text() if hasattr(widget, "text") and callable(widget.text) else ""
    where = []
    up = widget.parentWidget()
    while up is not None and len(where) < 3:
        if up.objectName() or type(up).__module__.startswith("d100gui"):
            where.append(up.objectName() or type(up).__name__)
        up = up.parentWidget()
    label = text or widget.objectName() or widget.accessibleName() or "(no text)"
    return f"{type(widget).__name__} {label!r} in {' < '.join(where)}"


def _wizard_buttons(root: QWidget) -> set[QWidget]:
    """A wizard's own Back / Next / Finish / Cancel: read the same way everywhere (a greyed Next says why)."""
    found: set[QWidget] = set()
    for wizard in [root, *root.findChildren(QWizard)]:
        if isinstance(wizard, QWizard):
            found |= {b for which in WIZARD_BUTTONS if (b := wizard.button(which)) is not None}
    return found


def without_tooltip(root: QWidget) -> list[str]:
    """Every control under ``root`` (shown or not) with no tooltip, and every toolbar action with none, by name."""
    standard = _wizard_buttons(root)
    missing = [
        _name(w)
        for w in root.findChildren(QWidget)
        if isinstance(w, CONTROLS) and not _inner(w) and w not in standard and not w.toolTip().strip()
    ]
    for bar in root.findChildren(QToolBar):
        missing += [f"toolbar action {a.text()!r}" for a in bar.actions() if not a.isSeparator() and not a.toolTip().strip()]
    return sorted(missing)
