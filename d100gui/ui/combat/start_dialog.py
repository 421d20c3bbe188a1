"""Start a fight: roll Table E, meet the Giant Snake, or type a monster in from the rulebook.

The form only checks what the player typed reads as a monster; the engine decides the rest
(a Table E row missing from the tables comes back as its refusal).
"""

from __future__ import annotations

import re
from typing import Protocol

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import TYPE_NAMES, TYPED_LIMITS, parse_abilities, parse_hp, typed_monster
from d100gui.engine.fight_start import StartCombat
from d100gui.engine.game import Command
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import parse_loot
from d100gui.ui.combat.widgets import follow_theme


class FightStarter(Protocol):
    """What the dialog needs of the panel: the campaign, the rules, a way to send and the last refusal."""

    rules: Rules
    last_error: str

    @property
    def campaign(self) -> Campaign: ...

    def send(self, command: Command) -> bool: ...


class StartFightDialog(QDialog):
    """Start a fight: roll Table E (or give the roll), the Giant Snake, or a monster typed in.

    Every field is checked before anything is sent, with a message that says what to type;
    a refusal from the engine (a Table E row missing from your tables) is shown the same way.
    """

    def __init__(self, panel: FightStarter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = panel
        self.setWindowTitle("Start a fight")
        self.setMinimumWidth(420)
        outer = QVBoxLayout(self)
        self._build_sources(outer)
        self.form_box = self._build_form()
        outer.addWidget(self.form_box)
        self.surprise = QCheckBox("It has SURPRISE (Table F says so): test SURPRISE first")
        self.surprise.setToolTip("The monster may strike before you can act: its SURPRISE test is rolled first")
        outer.addWidget(self.surprise)
        self.fate_windows = QCheckBox("Stop after each roll while I have Fate to spend")
        self.fate_windows.setToolTip("Each roll of the fight waits so you can spend Fate on it; off: the fight runs on")
        self.fate_windows.setChecked(True)
        outer.addWidget(self.fate_windows)
        self.message = QLabel()
        self.message.setObjectName("startError")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("font-weight: bold;")
        outer.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.fight_button = self.buttons.addButton("Fight!", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.try_start)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        self.group.idToggled.connect(lambda _id, _on: self._sync())
        self.use_value.toggled.connect(lambda _on: self._sync())
        self._sync()

    def changeEvent(self, event: QEvent) -> None:
        """A new theme: the dialog's texts take its colours at once."""
        super().changeEvent(event)
        follow_theme(self, event)

    def _build_sources(self, outer: QVBoxLayout) -> None:
        self.group = QButtonGroup(self)
        ch = self.panel.campaign.character
        modifier = ch.quest_encounter_modifier if ch is not None else 0
        self.table_e = QRadioButton(f"Roll Table E (encounter modifier {modifier:+d})")
        self.table_e.setChecked(True)
        self.table_e.setToolTip("Roll the encounter table for the monster, with your quest's encounter modifier")
        self.snake = QRadioButton("The Giant Snake (Table G's snake pit)")
        self.snake.setToolTip("Fight the snake a geographic result names")
        self.typed = QRadioButton("Type a monster in from your rulebook")
        self.typed.setToolTip("Type the monster's numbers from your rulebook in the form below")
        for i, radio in enumerate((self.table_e, self.snake, self.typed)):
            self.group.addButton(radio, i)
        outer.addWidget(self.table_e)
        rolled = QHBoxLayout()
        rolled.setContentsMargins(24, 0, 0, 0)
        self.use_value = QCheckBox("I rolled it myself:")
        self.use_value.setToolTip("You rolled the encounter table at the table: type the result instead of rolling")
        self.table_value = QLineEdit()
        self.table_value.setPlaceholderText("1-100, modifier included")
        self.table_value.setToolTip("The encounter roll you made, with the modifier")
        self.table_value.setMaximumWidth(160)
        rolled.addWidget(self.use_value)
        rolled.addWidget(self.table_value)
        rolled.addStretch(1)
        outer.addLayout(rolled)
        outer.addWidget(self.snake)
        outer.addWidget(self.typed)

    def _build_form(self) -> QWidget:
        box = QWidget()
        form = QFormLayout(box)
        form.setContentsMargins(24, 0, 0, 0)
        self.type = QComboBox()
        self.type.setToolTip("The monster's type, if your rulebook gives one")
        self.type.addItem("(none)", "")
        for code, name in TYPE_NAMES.items():
            self.type.addItem(f"[{code}] {name}", code)

        def line(hint: str) -> QLineEdit:
            edit = QLineEdit()
            edit.setPlaceholderText(hint)
            return edit

        self.name = line("Giant Rats")
        self.name.setToolTip("The monster's name")
        self.av = line("25")
        self.av.setToolTip("Its attack value (AV): it hits on this or less")
        self.defence = line("0")
        self.defence.setToolTip("Its defence (DEF), taken off your damage")
        self.dmg = line("-2")
        self.dmg.setToolTip("Its damage modifier (DMG), added to its damage die")
        self.hp = line("3/2/2 (one number per individual)")
        self.hp.setToolTip("Its health; a pack gives one number per individual")
        self.loot = line("[K:Table P]")
        self.loot.setToolTip("What killing it brings, as your rulebook writes it")
        self.special = line("Disease, Pack")
        self.special.setToolTip("Its abilities, as your rulebook lists them")
        for label, widget in (
            ("Name", self.name),
            ("Type", self.type),
            ("AV", self.av),
            ("DEF", self.defence),
            ("DMG", self.dmg),
            ("HP", self.hp),
            ("Loot", self.loot),
            ("Special", self.special),
        ):
            form.addRow(label, widget)
        return box

    def _sync(self) -> None:
        self.form_box.setEnabled(self.typed.isChecked())
        self.use_value.setEnabled(self.table_e.isChecked())
        self.table_value.setEnabled(self.table_e.isChecked() and self.use_value.isChecked())

    @staticmethod
    def _number(text: str, what: str, default: int | None = None, lo: int = -100, hi: int = 100) -> int:
        text = text.strip().replace("−", "-").replace("–", "-")
        if not text and default is not None:
            return default
        if not re.fullmatch(r"[+-]?\d+", text):
            example = "25" if what == "AV" else "-2 or +1"
            raise ValueError(
                f"{what} must be a whole number, like {example}" + (" (it is required)." if not text else f", not {text!r}.")
            )
        value = int(text)
        if not lo <= value <= hi:
            raise ValueError(f"{what} must be between {lo} and {hi}.")
        return value

    def command(self) -> StartCombat:
        """The StartCombat the form describes; ValueError with a message for the player if it cannot."""
        surprise, windows = self.surprise.isChecked(), self.fate_windows.isChecked()
        if self.snake.isChecked():
            return StartCombat(source="snake", surprise=surprise, fate_windows=windows)
        if self.table_e.isChecked():
            value = None
            if self.use_value.isChecked():
                value = self._number(self.table_value.text(), "The Table E roll", None, 1, 100)
            return StartCombat(source="table_e", table_value=value, surprise=surprise, fate_windows=windows)
        name = self.name.text().strip()
        if not name:
            raise ValueError("Give the monster a name.")
        av = self._number(self.av.text(), "AV", None, *TYPED_LIMITS["av"])
        defence = self._number(self.defence.text(), "DEF", 0, *TYPED_LIMITS["defence"])
        dmg = self._number(self.dmg.text(), "DMG", 0, *TYPED_LIMITS["dmg"])
        try:
            parse_hp(self.hp.text().strip())
        except ValueError as exc:
            raise ValueError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
        loot = self.loot.text().strip()
        if loot and parse_loot(loot) is None:
            raise ValueError(f"Loot reads like [K:Table P] or [K:Table P +10 / Table I]; {loot!r} names no table.")
        _abilities, unknown = parse_abilities(self.special.text())
        if unknown:
            names = ", ".join(a.name for a in self.panel.rules.monster_abilities.values())
            raise ValueError(f"Special: {', '.join(unknown)} is not a Monster Ability. The abilities are: {names}.")
        monster = typed_monster(
            name, av, self.hp.text().strip(), defence, dmg, loot, self.special.text(), self.type.currentData()
        )
        return StartCombat(source="monster", monster=monster, surprise=surprise, fate_windows=windows)

    def try_start(self) -> bool:
        """Check the form, send start_combat, close on success; otherwise say why and stay open."""
        try:
            command = self.command()
        except ValueError as exc:
            self.message.setText(str(exc))
            return False
        if not self.panel.send(command):
            self.message.setText(self.panel.last_error)
            return False
        self.message.setText("")
        self.accept()
        return True
