"""Edit > Preferences: the choices players genuinely differ on, and the helpers that apply them.

:class:`Choices` is what the dialog edits and :class:`~d100gui.ui.common.settings.Preferences`
keeps; :class:`PreferenceActions` opens the dialog for the window and applies a changed set at
once (the sheet layout at the next start, as the page says). :class:`FateWindows` sets the
game's Fate policy (the engine answers the Fate windows a player chose not to stop at, inside the
same command, and logs the policy so a replay answers the same), and :class:`Confirmations` asks before the actions a player
asked to be asked about."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.dice.roller import MissingRowPolicy
from d100gui.engine.game import Command
from d100gui.engine.policies import STOP_AT_EVERY_WINDOW, FatePolicy
from d100gui.engine.referee import answer_for
from d100gui.engine.rules.model import SheetLayout
from d100gui.storage.resources import player_layout, reset_player_layout, save_player_layout, shipped_layout
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.contrast import error_style
from d100gui.ui.common.layout_editor import LayoutProblem, SheetLayoutEditor
from d100gui.ui.common.settings import CONFIRMATIONS, Preferences
from d100gui.ui.common.theme import apply_theme

POLICY_ASK_TEXT = "Type them from my rulebook as they come up"
POLICY_REROLL_TEXT = "Sample play: re-roll among printed rows (labelled as such)"
POLICY_QUESTION = "When a roll lands on a row my tables lack"

DICE_CHOICES = (("The app rolls them", False), ("I roll real dice and type the faces", True))
FATE_TEST_TEXT = (
    ("always", "Always: I accept each roll or spend Fate"),
    ("fate", "Only while my hero has Fate to spend"),
    ("never", "Never: settle each test at once"),
)
FATE_FIGHT_TEXT = (
    ("fate", "After each roll while my hero has Fate to spend"),
    ("never", "Never: the fight goes on by itself"),
)
THEME_TEXT = (("system", "Follow the system"), ("light", "Light"), ("dark", "Dark"))
QUESTIONS = {
    "new_campaign": "Start a new campaign? The one on screen is saved and stays in File > Campaigns.",
    "new_dungeon": "Start a new dungeon? The current one is kept in Map > Dungeons.",
    "quit": "Quit d100gui? Your campaign is saved.",
    "fail_quest": "Fail the quest? Its fail costs are paid now (such as half your gold); Undo takes it back.",
}


@dataclass
class Choices:
    """Every preference the dialog shows, as values (``layout``, ``tileset`` None: left as they are)."""

    policy: MissingRowPolicy = MissingRowPolicy.ASK
    theme: str = "system"
    physical: bool = False
    fate_tests: str = "always"
    fate_fights: str = "fate"
    tileset: str | None = "standard"  # None from the dialog: left as it was
    sheet_size: tuple[int, int] = (0, 0)
    unbounded: bool = False
    confirm: dict[str, bool] = field(default_factory=dict)
    layout: SheetLayout | None = None

    @classmethod
    def stored(cls, prefs: Preferences) -> Choices:
        return cls(
            policy=prefs.missing_row_policy,
            theme=prefs.theme,
            physical=prefs.physical_dice,
            fate_tests=prefs.fate_tests,
            fate_fights=prefs.fate_fights,
            tileset=prefs.tileset,
            sheet_size=prefs.sheet_size,
            unbounded=prefs.unbounded_sheet,
            confirm={key: prefs.confirms(key) for key in CONFIRMATIONS},
        )

    def store(self, prefs: Preferences) -> None:
        """Keep these choices for the next start (the sheet layout is saved by the window, checked)."""
        prefs.missing_row_policy = self.policy
        prefs.theme = self.theme
        prefs.physical_dice = self.physical
        prefs.fate_tests, prefs.fate_fights = self.fate_tests, self.fate_fights
        if self.tileset is not None:
            prefs.tileset = self.tileset
        prefs.sheet_size, prefs.unbounded_sheet = self.sheet_size, self.unbounded
        for key, on in self.confirm.items():
            prefs.set_confirms(key, on)
        prefs.sync()


def _combo(items: tuple[tuple[object, str], ...] | list[tuple[object, str]], current: object) -> QComboBox:
    combo = QComboBox()
    for value, text in items:
        combo.addItem(text, value)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


def _page(*rows: tuple[str, QWidget] | QWidget) -> QWidget:
    """A tab page: a form of labelled rows (a bare widget spans the row), scrolled if the window is small."""
    inner = QWidget()
    form = QFormLayout(inner)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    for row in rows:
        if isinstance(row, tuple):
            form.addRow(*row)
        else:
            form.addRow(row)
    return _scrolled(inner)


def _scrolled(inner: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidget(inner)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the page's controls; the page scrolls to each
    return area


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class PreferencesDialog(QDialog):
    """The preferences in four pages: Play, Map, Look and Sheet layout. OK checks, then closes."""

    def __init__(
        self,
        choices: Choices,
        parent: QWidget | None = None,
        *,
        tilesets: Mapping[str, str] | None = None,
        layout: SheetLayout | None = None,
        default_layout: SheetLayout | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.original = choices
        outer = QVBoxLayout(self)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Preferences pages")
        self.tabs.addTab(self._play_page(choices), "&Play")
        self.tabs.addTab(self._map_page(choices, tilesets or {"standard": "Standard"}), "&Map")
        self.tabs.addTab(self._look_page(choices), "&Look")
        self.layout_editor: SheetLayoutEditor | None = None
        if layout is not None:
            self.layout_editor = SheetLayoutEditor(layout, default_layout or layout)
            self.tabs.addTab(_scrolled(self.layout_editor), "&Sheet layout")
        outer.addWidget(self.tabs)
        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setVisible(False)
        outer.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        self._fit_screen()

    def _fit_screen(self) -> None:
        """Room for the longest page, never taller than the screen (each page scrolls if it must)."""
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        width, height = max(self.sizeHint().width(), 640), 640
        if screen is not None:
            width, height = min(width, screen.width() - 40), min(height, screen.height() - 60)
        self.resize(width, height)

    # ------------------------------------------------------------------ pages
    def _play_page(self, c: Choices) -> QWidget:
        self.dice = _combo([(v, t) for t, v in DICE_CHOICES], c.physical)
        self.policy = _combo(
            [(MissingRowPolicy.ASK.value, POLICY_ASK_TEXT), (MissingRowPolicy.REROLL.value, POLICY_REROLL_TEXT)], c.policy.value
        )
        self.fate_tests = _combo(FATE_TEST_TEXT, c.fate_tests)
        self.fate_fights = _combo(FATE_FIGHT_TEXT, c.fate_fights)
        self.confirm = {key: QCheckBox(text) for key, text in CONFIRMATIONS.items()}
        for key, box in self.confirm.items():
            box.setChecked(c.confirm.get(key, False))
        fate = QGroupBox("Fate windows: which rolls wait for you to accept them or spend Fate")
        fate_form = QFormLayout(fate)
        fate_form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        fate_form.addRow("Skill &tests (doors, traps, searches)", self.fate_tests)
        fate_form.addRow("Rolls in a &fight (attacks, damage, loot)", self.fate_fights)
        ask = QGroupBox("Ask first before")
        ask_rows = QVBoxLayout(ask)
        for box in self.confirm.values():
            ask_rows.addWidget(box)
        return _page(("&Dice", self.dice), (POLICY_QUESTION, self.policy), fate, ask)

    def _map_page(self, c: Choices, tilesets: Mapping[str, str]) -> QWidget:
        self.tileset = _combo(list(tilesets.items()), c.tileset)
        self.sheet_width, self.sheet_height = QSpinBox(), QSpinBox()
        self.sheet_width.setRange(3, 200)
        self.sheet_height.setRange(2, 200)
        self.sheet_width.setValue(c.sheet_size[0])
        self.sheet_height.setValue(c.sheet_size[1])
        self.unbounded = QCheckBox("Exits beyond the sheet edge lead on (no dead end at the edge)")
        self.unbounded.setChecked(c.unbounded)
        return _page(
            ("&Tile set (Table M)", self.tileset),
            _note("The campaign on screen rolls on it from now on, and so does every new campaign."),
            ("New mapping sheets: areas &across", self.sheet_width),
            ("New mapping sheets: areas &down", self.sheet_height),
            self.unbounded,
            _note("Sheet size and the edge rule apply to the next dungeon you start."),
        )

    def _look_page(self, c: Choices) -> QWidget:
        self.theme = _combo(THEME_TEXT, c.theme)
        return _page(("&Theme", self.theme), _note("The theme applies at once. Text size follows your desktop's font setting."))

    # ------------------------------------------------------------------ results
    def chosen_policy(self) -> MissingRowPolicy:
        return MissingRowPolicy(self.policy.currentData())

    def chosen_theme(self) -> str:
        return str(self.theme.currentData())

    def chosen_sheet(self) -> tuple[tuple[int, int], bool]:
        return (self.sheet_width.value(), self.sheet_height.value()), self.unbounded.isChecked()

    def chosen(self) -> Choices:
        """What the dialog shows; the sheet layout only if it was touched (a bad one raises :class:`LayoutProblem`)."""
        size, unbounded = self.chosen_sheet()
        editor = self.layout_editor
        return Choices(
            policy=self.chosen_policy(),
            theme=self.chosen_theme(),
            physical=bool(self.dice.currentData()),
            fate_tests=str(self.fate_tests.currentData()),
            fate_fights=str(self.fate_fights.currentData()),
            tileset=None if self.tileset.currentData() == self.original.tileset else str(self.tileset.currentData()),
            sheet_size=size,
            unbounded=unbounded,
            confirm={key: box.isChecked() for key, box in self.confirm.items()},
            layout=editor.sheet_layout() if editor is not None and editor.dirty else None,
        )

    def accept(self) -> None:
        """OK: a sheet layout that cannot be used is refused with the reason, and the dialog stays."""
        try:
            self.chosen()
        except LayoutProblem as exc:
            self.refuse(str(exc))
            return
        super().accept()

    def refuse(self, problem: str) -> None:
        """Show why OK did not close (the window calls it too, when saving the layout fails)."""
        self.error_label.setText(problem)
        self.error_label.setStyleSheet(error_style(self.palette()))
        self.error_label.setVisible(True)
        if self.layout_editor is not None:
            self.tabs.setCurrentIndex(self.tabs.count() - 1)


class FateWindows(QObject):
    """Keeps the game's Fate policy as the player chose it (Preferences > Play > Fate windows).

    The engine answers the windows the player skips inside the command that opened them
    (:mod:`d100gui.engine.policies`): one click is one command and one undo step. This only sets
    the policy on the game shown (again when another campaign is shown) and, when the choice
    changes while a window is open, sends the one accept the new choice calls for.
    """

    def __init__(self, bridge: EngineBridge, prefs: Preferences, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.prefs = bridge, prefs
        bridge.changed.connect(self.apply_policy)  # another campaign's game gets the same policy
        self.apply_policy()

    def policy(self) -> FatePolicy:
        """The policy the preferences hold (a stored value this version does not know: every window waits)."""
        try:
            return FatePolicy(tests=self.prefs.fate_tests, fights=self.prefs.fate_fights)  # type: ignore[arg-type]
        except ValueError:
            return STOP_AT_EVERY_WINDOW

    def apply_policy(self, *_: object) -> None:
        game = self.bridge.game
        policy = self.policy()
        if game.fate_policy != policy:
            game.fate_policy = policy

    def settle(self) -> int:
        """Answer a window open now that the (new) policy skips: one command; returns how many were sent."""
        self.apply_policy()
        command = self.answer()
        return 1 if command is not None and self.bridge.send(command) else 0

    def answer(self) -> Command | None:
        """The accept the policy gives for what waits now, or None when the player decides."""
        return answer_for(self.bridge.game.campaign, self.policy(), self.bridge.rules.fate_cost)


class Confirmations(QObject):
    """Asks before an action when the player chose so (Preferences > Play > Ask first)."""

    def __init__(self, prefs: Preferences, parent: QWidget) -> None:
        super().__init__(parent)
        self.prefs, self.window = prefs, parent
        self.box: QMessageBox | None = None

    def guard(self, action: str, run: Callable[[], object]) -> Callable[[], None]:
        """``run``, asked about first if the player wants ``action`` confirmed."""

        def guarded() -> None:
            self.ask(action, run)

        return guarded

    def ask(self, action: str, run: Callable[[], object]) -> QMessageBox | None:
        """Run at once, or open the question (not modal to the app) and run on Yes."""
        if not self.prefs.confirms(action):
            run()
            return None
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "d100gui",
            QUESTIONS[action],
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self.window,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.buttonClicked.connect(lambda button: run() if box.standardButton(button) == QMessageBox.StandardButton.Yes else None)
        box.open()
        self.box = box
        return box


class PreferenceActions(QObject):
    """Edit > Preferences for the window: the dialog on the stored choices, and each change applied.

    The window hands over what a preference changes (the map's sheet options and theme, the
    physical-dice action, the tile-set chooser); nothing here reaches into the window's parts.
    ``message`` is a line for the status bar, ``error`` a problem to show.
    """

    message = Signal(str)
    error = Signal(str)

    def __init__(
        self,
        bridge: EngineBridge,
        prefs: Preferences,
        window: QWidget,
        *,
        physical: QAction,
        set_sheet: Callable[[tuple[int, int], bool], None],
        set_dark: Callable[[bool], None],
        choose_tileset: Callable[[str], object],
    ) -> None:
        super().__init__(window)
        self.bridge, self.prefs, self.window = bridge, prefs, window
        self.physical, self.set_sheet, self.set_dark, self.choose_tileset = physical, set_sheet, set_dark, choose_tileset
        self.fate_windows = FateWindows(bridge, prefs, self)
        self.dialog: PreferencesDialog | None = None

    def start(self, layout_problem: str = "") -> None:
        """At start: the dice the player rolls (kept when toggled), a sheet layout that did not load."""
        self.physical.setChecked(self.prefs.physical_dice)
        self.physical.toggled.connect(self._remember_physical)
        if layout_problem:
            self.error.emit(layout_problem)

    def edit(self) -> PreferencesDialog:
        """Open the dialog (not modal to the app); OK applies what it shows."""
        game = self.bridge.game
        choices = Choices.stored(self.prefs)
        choices.tileset = game.campaign.tileset  # the page shows the tile set on screen
        dialog = PreferencesDialog(
            choices,
            self.window,
            tilesets={set_id: tileset.title for set_id, tileset in game.tilesets.items()},
            layout=player_layout(),
            default_layout=shipped_layout(),
        )
        dialog.accepted.connect(lambda: self.apply(dialog.chosen()))
        dialog.open()
        self.dialog = dialog
        return dialog

    def apply(self, choices: Choices) -> None:
        """Keep ``choices`` and apply each at once; the sheet layout is saved, checked, for the next start."""
        choices.store(self.prefs)
        game = self.bridge.game
        game.policy = choices.policy
        self.set_sheet(choices.sheet_size, choices.unbounded)
        self.physical.setChecked(choices.physical)
        if choices.tileset not in (None, game.campaign.tileset) and choices.tileset in game.tilesets:
            self.choose_tileset(str(choices.tileset))
        if choices.layout is not None:
            if choices.layout == shipped_layout():
                reset_player_layout()
            else:
                save_player_layout(choices.layout)
            self.message.emit("The sheet layout is saved; it applies when d100gui next starts.")
        app = QApplication.instance()
        if isinstance(app, QApplication):
            self.set_dark(apply_theme(app, choices.theme) == "dark")
        self.fate_windows.settle()  # a roll waiting now follows the new choice

    def preferred_tileset(self) -> None:
        """A new campaign rolls on the player's preferred tile set."""
        game = self.bridge.game
        if self.prefs.tileset != game.campaign.tileset and self.prefs.tileset in game.tilesets:
            self.choose_tileset(self.prefs.tileset)

    def _remember_physical(self, on: bool) -> None:
        self.prefs.physical_dice = on
        self.prefs.sync()
