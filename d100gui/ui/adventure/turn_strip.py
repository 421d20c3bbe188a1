"""The turn strip above the map: the five steps of a turn, what waits for the player, and this step's actions.

It renders the engine's flow (:func:`d100gui.engine.flow.flow`, through ``bridge.flow()``): a
"Waiting" row with the answers of every thing the game waits for - whatever step the turn is at
(an experience choice after a fight or a test, a monster a search brought, a roll waiting for its
row, a full backpack's find, the quest choice, the between-quests step) - then this step's actions
and the quest's. The fight's own answers are the combat panel's and creation's the wizard's (the
flow's ``group`` says whose); the town wizard does each town step's shopping. A greyed button's tooltip says why it is greyed. An answer
that needs a row the player's tables lack opens the row dialog first. Under the buttons, each
narrative of the last action (what the engine could not carry out) is shown with its one-click
hand correction: the obvious effect applied, or ``correction_requested(section)`` for the window
to open the sheet where it is made.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.adventure.corrections import Correction, corrections_for
from d100gui.engine.adventure.turn_view import step_hint
from d100gui.engine.dice.dice import DieFace
from d100gui.engine.flow import Flow, FlowAction, row_wanted, sample_answer
from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.quest.model import TURN_STEPS
from d100gui.ui.adventure.status_line import StatusLine
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.common.dice_faces import DiceFacesView
from d100gui.ui.common.flow import FOR_THE_QUEST, FlowLayout, SteadyColumn, SteadyHeight

#: the flow's groups the strip answers (the fight's are the combat panel's, creation's the wizard's; the town's
#: steps are the wizard's too, but the strip offers to begin the phase and move it on, so play never waits unseen)
STRIP_GROUPS = frozenset({"decision", "turn", "quest", "town"})

#: the steps' names as the strip's narrow labels show them (the full names are in the tooltips)
_SHORT = {"equipment": "Equipment", "time": "Time", "exit": "Exit", "area": "Area", "search": "Search"}
_STEP_TIPS = {
    "equipment": "Step 1: adjust equipment on the character sheet (free, never in a fight).",
    "time": "Step 2: the time track goes +1 when you move on; its oil, food and wandering-monster symbols fire.",
    "exit": "Step 3: click an exit of the hero's area on the map (open a door first).",
    "area": "Step 4: a new area is mapped, then its colour decides: yellow proceed, red a fight, green Table G, blue the objective.",
    "search": "Step 5: search the area once per quest on Table F, or move on.",
}


#: the turn by keyboard: the flow's action keys (or key prefixes, for a waiting thing's answers) a key presses,
#: the first shown and enabled of them; the key; what it does. Plain letters, live in the whole window while the
#: strip shows (a text field keeps its letters); none is the fight's (A, E, F, Space, Return) nor a menu's (those
#: hold Ctrl or Alt). Alt+arrow moves through an exit (Map > Move), steps in at the entrance, or at a dead end
#: makes the secret passage through that wall.
STRIP_KEYS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("search",), "S", "Turn: search the area (Table F)"),
    (("end_turn",), "T", "Turn: end the turn"),
    (("roll_", "accept_"), "Y", "Turn: roll the test that waits, or accept its roll"),
    (("fate_",), "R", "Turn: use Fate to re-roll the roll that waits"),
    (("fight",), "M", "Turn: fight the monster that waits"),
    (("door_",), "O", "Turn: try to open a door (its first Table D method offered)"),
    (("secret_",), "P", "Turn: a secret passage at a dead end (the first wall offered; Alt+arrow picks the wall)"),
    (("begin_quest", "enter_dungeon"), "B", "Quest: begin a quest, then step in at the entrance"),
    (("complete_quest",), "C", "Quest: complete the quest"),
    (("fail_quest",), "X", "Quest: fail the quest (asks first)"),
)


class StripButton(QPushButton):
    """A turn strip button: ``flow_key``, the flow's action it shows now (a button is kept for another action)."""

    flow_key = ""


class TurnStrip(QFrame):
    """The turn's steps and actions, refreshed after every command."""

    correction_requested = Signal(str)  # a narrative's correction: the part of the sheet to open ("hp", "items", "doors", ...)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setObjectName("turnStrip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # The map below sets the centre's width: the strip never widens the window; its steps and
        # buttons wrap onto another line instead of being cut short (1280x720 with both docks open).
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # as tall as its wrapped lines need
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.title = QLabel()
        self.step_labels: dict[str, QLabel] = {}
        self.hint = QLabel()  # this step's hint, or what waits (the status line above says it in a few words)
        self.hint.setObjectName("stripHint")
        self.hint.setWordWrap(True)
        self.buttons: dict[str, StripButton] = {}  # every answer and action shown, by the flow's key
        self.fix_buttons: list[QPushButton] = []  # one per narrative of the last action
        self._fixes_shown: list[Correction] = []  # the corrections the fix buttons answer
        self.row_dialog: MissingRowDialog | None = None  # the last row dialog an action opened
        self.flow: Flow | None = None
        self._shown: dict[str, FlowAction] = {}
        self._spare: list[StripButton] = []  # buttons no action shows now, hidden, for the next new action
        top = FlowLayout(spacing=4)
        top.addWidget(self.title)
        for number, (step, name) in enumerate(TURN_STEPS, start=1):
            label = QLabel(f"{number} {_SHORT[step]}")
            label.setToolTip(f"{name}. {_STEP_TIPS[step]}")
            label.setContentsMargins(6, 2, 6, 2)
            self.step_labels[step] = label
            top.addWidget(label)
        #: the dice of a test roll that waits (its Fate and Accept answers beside them): read from the pending test
        #: the flow's waiting names
        self.faces = DiceFacesView()
        self.faces.setObjectName("stripDice")
        self.faces.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # the strip's Fate re-rolls them all
        self.faces.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._dice_shown: tuple[list[DieFace], list[int]] | None = None
        self.waiting_row = FlowLayout(spacing=4)
        self.waiting_row.addWidget(self.faces)
        self.button_row = FlowLayout(spacing=4)
        #: what matters always in view: :func:`above` puts it over the strip (its own row, so the strip's wrapped
        #: buttons keep their room)
        self.status_line = StatusLine(bridge)
        #: the strip keeps its height while the hint or the rows need a line less, so the map below is not resized
        #: on every action (a fight's hint alone changed by a line each round)
        layout = self.column = SteadyColumn(self)
        layout.steady = SteadyHeight(patience=FOR_THE_QUEST)  # given back when the quest begins or ends
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.hint)
        layout.addLayout(self.waiting_row)
        layout.addLayout(self.button_row)
        self.fixes = QVBoxLayout()
        self.fixes.setSpacing(2)
        layout.addLayout(self.fixes)
        layout.addStretch(1)  # the room kept stays empty under the buttons
        self.keys: dict[str, QShortcut] = {}  # the turn by keyboard, by key text
        self._presses: dict[str, tuple[str, ...]] = {}  # key text -> the action keys (or prefixes) it presses
        for prefixes, key, what in STRIP_KEYS:
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.setWhatsThis(what)  # the shortcut sheet lists it under the panels' keys
            shortcut.activated.connect(lambda k=key: self.press(k))
            self.keys[key], self._presses[key] = shortcut, prefixes
        #: asks before a drastic action (the window's confirmations, per the player's preference); None: asks itself
        self.ask_first: Callable[[str, Callable[[], object]], object] | None = None
        self.confirm_box: QMessageBox | None = None  # the strip's own question, while open
        bridge.changed.connect(self._changed)  # once per do, undo, redo or campaign shown
        self.refresh()

    def _changed(self, _change: object) -> None:
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        """A theme switch: the step labels' style sheets are polished again at once, so they take the new palette
        (a label polished by a style sheet kept the old theme's colours until it was set again)."""
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange, QEvent.Type.StyleChange):
            for label in self.step_labels.values():
                style = label.styleSheet()
                label.setStyleSheet("")
                label.setStyleSheet(style)
        super().changeEvent(event)

    def refresh(self) -> None:
        """Re-read the flow from the engine (worked out once per change by the bridge)."""
        made = self.bridge.flow()
        self.flow = made
        quest = made.phase == "quest"
        if self.column.steady.changed((made.phase, made.quest)):
            self.column.invalidate()  # the room kept is given back
        self.title.setText(f"<b>{html.escape(made.quest)}</b> · turn {made.turn}" if quest else "<b>No quest</b>")
        for step, label in self.step_labels.items():
            current = quest and step == made.step
            label.setEnabled(quest)
            style = "font-weight: bold; border: 1px solid palette(highlight); border-radius: 3px;" if current else "border: none;"
            if label.styleSheet() != style:  # set again, a style sheet polishes the label again
                label.setStyleSheet(style)
        answers = [a for w in made.waiting for a in w.answers if a.group in STRIP_GROUPS]
        self._show_dice(made)
        actions = [a for a in made.actions if a.group in STRIP_GROUPS]
        hint = self._hint(made)
        self.hint.setText(hint)
        self.hint.setToolTip("\n".join(w.prompt for w in made.waiting) or hint)
        self._show(answers, actions)
        self._show_corrections(corrections_for(self.bridge.game.campaign) if quest else [])

    def _show_dice(self, made: Flow) -> None:
        """The dice faces of the first test roll that waits for the strip's answers (Accept, Fate), else none."""
        waiting = next(
            (w for w in made.waiting if w.kind == "test_roll" and any(a.group in STRIP_GROUPS for a in w.answers)), None
        )
        test = None
        if waiting is not None:
            test = next((d for d in self.bridge.game.campaign.pending if d.id == waiting.id and isinstance(d, PendingTest)), None)
        if test is None:
            self.faces.setVisible(False)
            return
        shown = (list(test.roll.dice), list(test.roll.rerolled))
        if shown != self._dice_shown:  # the faces (a Fate re-roll outlined) painted again only when they change
            self._dice_shown = shown
            self.faces.set_faces(*shown)
            self.faces.setFixedSize(self.faces.sizeHint())
        self.faces.setVisible(True)

    @staticmethod
    def _hint(made: Flow) -> str:
        if made.waiting:  # the prompts in full (the status line says "Waiting:" and a few words)
            return "\n".join(w.prompt for w in made.waiting)
        if made.phase == "quest":
            return step_hint(made.step)  # type: ignore[arg-type]
        return "No quest is under way."

    def current_step(self) -> str:
        """The step the strip shows as current ("" with no quest)."""
        return self.flow.step if self.flow is not None and self.flow.phase == "quest" else ""

    def _show(self, answers: list[FlowAction], actions: list[FlowAction]) -> None:
        keys = [a.key for a in (*answers, *actions)]
        self._shown = {a.key: a for a in (*answers, *actions)}
        if keys != list(self.buttons):
            self._place(answers, actions)
        pressed = {self._pressed(key): shortcut.key() for key, shortcut in self.keys.items()}
        for action in (*answers, *actions):
            button = self.buttons[action.key]
            button.setText(action.label)
            button.setEnabled(action.enabled)
            key = pressed.get(action.key)
            said = f" ({key.toString(QKeySequence.SequenceFormat.NativeText)})" if key is not None else ""
            button.setToolTip(action.why + said)  # the key that presses it, if one does
        hidden = [b for b in self.buttons.values() if b.isHidden()]
        if hidden:  # shown once they say their actions; a child's show lays its parent out at once: once for all
            self.column.setEnabled(False)
            for button in hidden:
                button.show()
            self.column.setEnabled(True)
            self.column.invalidate()

    def _place(self, answers: list[FlowAction], actions: list[FlowAction]) -> None:
        """The buttons for the flow's keys, in order: a kept key keeps its button, a new key takes over a button
        whose key went (it stays shown: no hide and show again), else a spare one kept hidden from an earlier
        action (a new button's first show polishes it, ~1 ms each); a row is laid out again only if its buttons
        or their order changed."""
        kept = self.buttons
        keys = {a.key for a in (*answers, *actions)}
        gone = [b for k, b in kept.items() if k not in keys]
        focused = [b for b in gone if b.hasFocus()]  # a focused one goes: Space must not press another action
        free = [b for b in gone if not b.hasFocus()] + self._spare
        self.buttons = {}
        for row, shown in ((self.waiting_row, answers), (self.button_row, actions)):
            wanted: list[StripButton] = []
            for action in shown:
                button = kept.get(action.key) or (free.pop(0) if free else self._new_button())
                if button.flow_key != action.key:
                    button.flow_key = action.key
                    button.setObjectName(f"turn_{action.key}")
                wanted.append(button)
                self.buttons[action.key] = button
            items = (row.itemAt(i) for i in range(row.count()))
            present = [w for w in (item.widget() for item in items if item is not None) if isinstance(w, StripButton)]
            if present != wanted:
                for button in {*present, *wanted}:
                    self.waiting_row.removeWidget(button)
                    self.button_row.removeWidget(button)
                for button in wanted:
                    row.addWidget(button)
        self._spare = []
        for button in (*free, *focused):  # the ones no action shows now
            self.waiting_row.removeWidget(button)
            self.button_row.removeWidget(button)
            if not button.isHidden():
                button.hide()
            button.flow_key = ""
            button.setObjectName("turnSpare")
            if button in focused:
                button.deleteLater()
            else:
                self._spare.append(button)

    def _new_button(self) -> StripButton:
        """A strip button: its click triggers the flow's action it shows now."""
        button = StripButton(self)
        button.clicked.connect(lambda _checked=False, b=button: self.trigger(b.flow_key))
        return button

    def _pressed(self, key: str) -> str:
        """The shown action strip key ``key`` presses now: the first of its actions (or answers with its prefix)
        shown, an enabled one first ("" when none is shown)."""
        prefixes = self._presses.get(key, ())

        def matches(action_key: str) -> bool:
            return any(action_key == p or (p.endswith("_") and action_key.startswith(p)) for p in prefixes)

        shown = [k for k in self._shown if matches(k)]
        return next((k for k in shown if self._shown[k].enabled), shown[0] if shown else "")

    def press(self, key: str) -> bool:
        """Strip key ``key`` (its shortcut fired): trigger the action it presses now; True if a command ran."""
        action = self._pressed(key)
        return bool(action) and self.trigger(action)

    def _show_corrections(self, corrections: list[Correction]) -> None:
        if corrections == self._fixes_shown:  # the same narratives: the same buttons
            return
        self._fixes_shown = list(corrections)
        while self.fixes.count():
            item = self.fixes.takeAt(0)
            row = item.layout() if item is not None else None
            while row is not None and row.count():
                child = row.takeAt(0)
                widget = child.widget() if child is not None else None
                if widget is not None:
                    widget.hide()
                    widget.deleteLater()
        self.fix_buttons = []
        row, said = QHBoxLayout(), ""
        for n, fix in enumerate(corrections):
            if fix.text != said or n == 0:  # one narrative's several choices (a door to open) share its line
                row, said = QHBoxLayout(), fix.text
                text = QLabel(f"<i>To do at the table:</i> {html.escape(fix.text)}")
                text.setWordWrap(True)
                text.setToolTip(fix.text)
                row.addWidget(text, 1)
                self.fixes.addLayout(row)
                text.show()
            button = QPushButton(fix.label)
            button.setObjectName(f"fix_{n}")
            button.setToolTip("A hand correction (marked manual in the log).")
            button.clicked.connect(lambda _checked=False, fix=fix: self.correct(fix))
            row.addWidget(button)
            button.show()
            self.fix_buttons.append(button)

    def correct(self, fix: Correction) -> bool:
        """A narrative's correction: apply the obvious one, or ask the window to open the sheet there."""
        if fix.command is not None:
            return self.bridge.send(fix.command)
        self.correction_requested.emit(fix.section)
        return True

    def trigger(self, key: str) -> bool:
        """Send the command of answer or action ``key`` (a button's click); True if it ran. One that needs a
        typed row opens the row dialog; its OK sends the command with the row."""
        action = self._shown.get(key)
        if action is None or not action.enabled:
            return False
        if action.asks_row:
            return self._ask_row(action)
        if action.confirm:
            return self._ask_first(action)
        return self.bridge.send(action.command)

    def _ask_first(self, action: FlowAction) -> bool:
        """A drastic action (failing a quest pays its fail costs): the question first, the command on Yes."""
        command = action.command
        if self.ask_first is not None:
            self.ask_first(action.confirm, lambda: self.bridge.send(command))
            return False
        box = QMessageBox(
            QMessageBox.Icon.Question,
            action.label,
            f"{action.label}? {action.why}",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.button(QMessageBox.StandardButton.Yes).clicked.connect(lambda: self.bridge.send(command))
        box.open()
        self.confirm_box = box
        return False

    def _ask_row(self, action: FlowAction) -> bool:
        game = self.bridge.game
        held = row_wanted(game.campaign, action, game.rules)
        if held is None or held.table_id not in game.library:
            return False
        table = game.library.get(held.table_id)
        gap = held.gap or table.gap_containing(held.value) or (held.value, held.value)
        sample = sample_answer(self.flow, action) if self.flow is not None else None
        dialog = MissingRowDialog(table, held.value, gap, self, rules=self.bridge.rules, can_sample=sample is not None)
        dialog.sample_always.setVisible(False)  # "from now on" is the preference's (Edit > Preferences)
        command = action.command
        dialog.accepted.connect(lambda: self.bridge.send(command.model_copy(update={"row": dialog.row()})))
        if sample is not None:
            dialog.sample_requested.connect(lambda _always: self.bridge.send(sample.command))
        dialog.open()
        self.row_dialog = dialog
        return True


def above(strip: QWidget, below: QWidget) -> QWidget:
    """A widget holding ``strip`` above ``below`` (the map area), for the window's centre; a turn strip's
    status line goes over it."""
    holder = QWidget()
    layout = QVBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    if isinstance(strip, TurnStrip):
        layout.addWidget(strip.status_line)
    layout.addWidget(strip)
    layout.addWidget(below, 1)
    return Pinned(holder)


class Pinned(QWidget):
    """Holds ``inner`` at its own size: what changes inside (the strip's words, the status line's numbers) is laid
    out inside, and stops there.

    A layout that has run tells its widget's parent to lay out again, whether its size hint changed or not (Qt's
    ``QLayout::activate``), so a new turn number in the status line laid out the centre, then the main window with
    its docks, at every action (~1 ms, issue 18's performance). A widget of fixed size tells no one: ``inner`` is
    given this widget's size (fixed) whenever the window resizes it. The room the strip needs is taken from the map
    below, inside; the window's minimum size is asked of ``inner``'s layout.
    """

    def __init__(self, inner: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.inner = inner
        inner.setParent(self)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def _inner_layout(self) -> QLayout:
        layout = self.inner.layout()
        assert layout is not None
        return layout

    def sizeHint(self) -> QSize:
        return self._inner_layout().sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self._inner_layout().minimumSize()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.inner.setFixedSize(self.size())
