"""The creation wizard: "Creating a Character", one page per step, every step a command.

Pages follow the rulebook's order (``engine.creation.STEPS``): characteristics 50/40/30,
two skills at +5, REP 1, one roll on Table W, three on Table A, supplies, three Lesser
Healing Potions, 20 HP / 3 Fate / 3 Lives, and the name. Each page sends its command when
the player moves on (a roll is sent when the player clicks Roll), so the engine validates
every step and a refusal stays on the page with its message.

Rolls are drawn with their dice and the row they landed on. A starting armour piece for a
slot already filled offers "keep the new piece" or "roll again"; a roll on a row the
player's tables lack asks for the row (the missing-row dialog) and sends
``ProvideStartingRow``. Physical dice need nothing here: the game asks for the faces.

Cancel undoes every command this wizard sent, so the campaign is exactly as it was. Undo
restores the dice generator too, so starting again rolls the same dice: cancelling cannot
be used to fish for better equipment.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.tables import PackInvalid, TableLibrary
from d100gui.engine.game import Command
from d100gui.engine.hero.creation import (
    STEP_LABELS,
    STEPS,
    AssignCharacteristics,
    ChooseStartingSkills,
    CreateCharacter,
    FinishCharacter,
    NameCharacter,
    ProvideStartingRow,
    ResolveArmourClash,
    RollStartingArmour,
    RollStartingWeapon,
    SetStartingHealth,
    SetStartingReputation,
    TakeStartingPotions,
    TakeStartingSupplies,
    next_step,
)
from d100gui.engine.hero.decisions import ArmourClash, RowNeeded
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.queries import ability_requirement, unlock_thresholds
from d100gui.engine.rules.model import STATS, Rules
from d100gui.storage import packs
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.contrast import error_style
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.common.dice_faces import DiceFacesView

ERROR_STYLE = "color: #c0392b;"
PAGE_IDS = {"intro": 0, **{step: i + 1 for i, step in enumerate(STEPS)}, "name": len(STEPS) + 1}


def _sentence(text: str) -> str:
    """A step's words as a sentence: the first letter raised, the rest as written ("STR, DEX and INT", "Table W",
    "REP 1" keep their capitals, which str.capitalize lowered)."""
    return text[:1].upper() + text[1:]


class _Page(QWizardPage):
    """A wizard page that knows the wizard's bridge and shows refusals inline."""

    def __init__(self, wizard: CreationWizard, title: str, subtitle: str = "") -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(title)
        if subtitle:
            self.setSubTitle(subtitle)
        self.box = QVBoxLayout(self)
        self.error = QLabel()
        self.error.setObjectName("errorLabel")
        self.error.setStyleSheet(error_style(self.palette()))  # the red, readable in either theme
        self.error.setWordWrap(True)

    def finish_layout(self) -> None:
        self.box.addStretch(1)
        self.box.addWidget(self.error)

    @property
    def character(self) -> Character | None:
        return self.w.character

    def done_step(self, step: str) -> bool:
        ch = self.character
        return ch is not None and ch.creation is not None and step in ch.creation.done

    def send(self, command: Command) -> bool:
        ok = self.w.send(command)
        self.error.setText("" if ok else self.w.last_error)
        return ok

    def refresh(self) -> None:
        """Re-read the model (after any command)."""

    def why_incomplete(self) -> str:
        """Why Next is greyed on this page (empty when the page is complete)."""
        return ""


class IntroPage(_Page):
    """The rulebook's steps listed; Next starts the sheet (or carries on with one being created)."""

    def __init__(self, wizard: CreationWizard) -> None:
        step = wizard.rules.creation_step("intro")
        super().__init__(wizard, step.title, "The rulebook's steps, one page each.")
        steps = "".join(f"<li>{_sentence(STEP_LABELS[s])}</li>" for s in STEPS)
        text = QLabel(f"<ol>{steps}<li>Write the character's name</li></ol>" + wizard.step_text("intro"))
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        self.box.addWidget(text)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.box.addWidget(self.state)
        self.finish_layout()

    def refresh(self) -> None:
        ch = self.character
        if ch is not None and ch.creation is not None:
            step = next_step(ch)
            self.state.setText(
                f"<b>Carrying on</b> with {ch.name or 'the character being created'}: next, {STEP_LABELS[step]}."
                if step
                else f"<b>Carrying on</b> with {ch.name or 'the character being created'}: only the name is left."
            )
        elif ch is not None and not ch.dead:
            self.state.setText(f"<b>{ch.name or 'The character'}</b> is alive: a campaign has one character at a time.")
        else:
            self.state.setText("")

    def validatePage(self) -> bool:
        ch = self.character
        if ch is not None and ch.creation is not None:
            return True
        return self.send(CreateCharacter())

    def nextId(self) -> int:
        ch = self.character
        if ch is None or ch.creation is None:
            return PAGE_IDS["characteristics"]
        step = next_step(ch)
        return PAGE_IDS[step] if step else PAGE_IDS["name"]


class CharacteristicsPage(_Page):
    """Assign the starting values to STR, DEX and INT, one each."""

    def __init__(self, wizard: CreationWizard) -> None:
        rules = wizard.rules
        values = sorted(rules.creation.characteristic_values, reverse=True)
        super().__init__(wizard, rules.creation_step("characteristics").title, wizard.step_text("characteristics"))
        form = QFormLayout()
        self.combos: dict[str, QComboBox] = {}
        for stat, default in zip(STATS, values, strict=True):
            combo = QComboBox()
            for v in values:
                combo.addItem(str(v), v)
            combo.setCurrentIndex(values.index(default))
            combo.currentIndexChanged.connect(self._changed)
            combo.setToolTip(f"The value {rules.characteristic_names.get(stat, stat)} starts with (each value goes to one)")
            self.combos[stat] = combo
            form.addRow(f"{rules.characteristic_names.get(stat, stat)} ({stat})", combo)
        self.box.addLayout(form)
        hints = ", ".join(f"{a.name} at {ability_requirement(rules, a.id)}" for a in rules.abilities)
        at = " or ".join(str(t) for t in unlock_thresholds(rules))
        hint = QLabel(f"Abilities unlock at {at}: {hints}.")
        hint.setWordWrap(True)
        self.box.addWidget(hint)
        self.finish_layout()

    def scores(self) -> dict[str, int]:
        return {stat: int(combo.currentData()) for stat, combo in self.combos.items()}

    def set_scores(self, scores: dict[str, int]) -> None:
        for stat, value in scores.items():
            self.combos[stat].setCurrentIndex(self.combos[stat].findData(value))

    def _changed(self) -> None:
        self.error.setText("")
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return sorted(self.scores().values()) == sorted(self.w.rules.creation.characteristic_values)

    def why_incomplete(self) -> str:
        if self.isComplete():
            return ""
        values = sorted(self.w.rules.creation.characteristic_values, reverse=True)
        return f"Give each characteristic a different value: {', '.join(str(v) for v in values)}."

    def refresh(self) -> None:
        ch = self.character
        if ch is not None and self.done_step("characteristics"):
            for stat, combo in self.combos.items():
                combo.blockSignals(True)
                combo.setCurrentIndex(combo.findData(ch.characteristics[stat].primary))
                combo.blockSignals(False)

    def validatePage(self) -> bool:
        ch = self.character
        if ch is not None and self.done_step("characteristics"):
            if {s: ch.characteristics[s].primary for s in STATS} == self.scores():
                return True
        return self.send(AssignCharacteristics(scores=self.scores()))


class SkillsPage(_Page):
    """Choose the skills that start with a bonus."""

    def __init__(self, wizard: CreationWizard) -> None:
        rules = wizard.rules
        super().__init__(wizard, rules.creation_step("skills").title, wizard.step_text("skills"))
        grid = QGridLayout()
        self.checks: dict[str, QCheckBox] = {}
        for i, skill in enumerate(rules.skills):
            check = QCheckBox(skill)
            check.setToolTip(f"Start with a bonus in {skill}")
            check.toggled.connect(self._changed)
            self.checks[skill] = check
            grid.addWidget(check, i // 2, i % 2)
        self.box.addLayout(grid)
        self.count = QLabel()
        self.box.addWidget(self.count)
        self.finish_layout()
        self._changed()

    def chosen(self) -> list[str]:
        return [s for s, c in self.checks.items() if c.isChecked()]

    def choose(self, *skills: str) -> None:
        for s, c in self.checks.items():
            c.setChecked(s in skills)

    def _changed(self) -> None:
        n = self.w.rules.creation.skill_choices
        chosen = self.chosen()
        self.count.setText(f"{len(chosen)} of {n} chosen.")
        for c in self.checks.values():
            c.setEnabled(c.isChecked() or len(chosen) < n)
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return len(self.chosen()) == self.w.rules.creation.skill_choices

    def why_incomplete(self) -> str:
        n = self.w.rules.creation.skill_choices
        chosen = len(self.chosen())
        return "" if chosen == n else f"Choose {n} skills to go on ({chosen} chosen so far)."

    def refresh(self) -> None:
        ch = self.character
        if ch is not None and self.done_step("skills"):
            chosen = [s for s, v in ch.skills.items() if v.bonus]
            for s, c in self.checks.items():
                c.blockSignals(True)
                c.setChecked(s in chosen)
                c.blockSignals(False)
            self._changed()

    def validatePage(self) -> bool:
        ch = self.character
        if (
            ch is not None
            and self.done_step("skills")
            and sorted(s for s, v in ch.skills.items() if v.bonus) == sorted(self.chosen())
        ):
            return True
        return self.send(ChooseStartingSkills(skills=self.chosen()))


class FixedStepPage(_Page):
    """A step with nothing to choose: the page says what is written, Next writes it."""

    def __init__(self, wizard: CreationWizard, step: str, command: Callable[[], Command]) -> None:
        super().__init__(wizard, wizard.rules.creation_step(step).title, _sentence(STEP_LABELS[step]) + ".")
        text = wizard.step_text(step)
        self.step = step
        self.command = command
        self.text = QLabel(text)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.box.addWidget(self.text)
        self.finish_layout()

    def validatePage(self) -> bool:
        if self.done_step(self.step):
            return True
        return self.send(self.command())


class RollPage(_Page):
    """Table W once or Table A three times: roll, see the dice and the row, settle clashes and gaps."""

    def __init__(self, wizard: CreationWizard, purpose: str) -> None:
        rules = wizard.rules
        self.purpose = purpose
        self.step = "weapon" if purpose == "weapon" else "armour"
        self.table_id = rules.creation.weapon_table if purpose == "weapon" else rules.creation.armour_table
        self.total = rules.creation.weapon_rolls if purpose == "weapon" else rules.creation.armour_rolls
        title = wizard.library.get(self.table_id).title if self.table_id in wizard.library else self.table_id
        self.table_title = title
        times = "once" if self.total == 1 else f"{self.total} times"
        text = wizard.step_text(self.step, times=times, table=title)
        super().__init__(wizard, rules.creation_step(self.step).title, text)
        self._build_roll_row(title)
        self._build_clash()
        self._build_missing()
        self.row_dialog: MissingRowDialog | None = None
        self.rolls: list[tuple[RollRecord | None, str]] = []  # each roll's dice and what it brought
        self.finish_layout()

    def _build_roll_row(self, title: str) -> None:
        line = QHBoxLayout()
        self.roll_button = QPushButton(f"Roll {title.split('–')[0].strip()}")
        self.roll_button.clicked.connect(lambda _=False: self.roll())
        self.roll_button.setToolTip("Roll this step's table; what it brings goes on the sheet")
        line.addWidget(self.roll_button)
        self.progress = QLabel()
        line.addWidget(self.progress, 1)
        self.box.addLayout(line)
        shown = QHBoxLayout()
        self.faces = DiceFacesView()
        self.faces.setFixedWidth(130)
        shown.addWidget(self.faces)
        self.result = QLabel()
        self.result.setWordWrap(True)
        shown.addWidget(self.result, 1)
        self.box.addLayout(shown)
        self.history = QLabel()
        self.history.setWordWrap(True)
        self.history.setStyleSheet("color: palette(placeholder-text);")
        self.box.addWidget(self.history)

    def _build_clash(self) -> None:
        self.clash = QGroupBox("Armour for a slot already filled")
        col = QVBoxLayout(self.clash)
        self.clash_text = QLabel()
        self.clash_text.setWordWrap(True)
        col.addWidget(self.clash_text)
        buttons = QHBoxLayout()
        self.keep_button = QPushButton("Keep the new piece")
        self.keep_button.setToolTip("Wear the new armour; the piece already in that slot is discarded")
        self.reroll_button = QPushButton("Roll again")
        self.reroll_button.setToolTip("Keep the armour you have and roll the table again")
        self.keep_button.clicked.connect(lambda _=False: self.resolve_clash("keep_new"))
        self.reroll_button.clicked.connect(lambda _=False: self.resolve_clash("reroll"))
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.reroll_button)
        col.addLayout(buttons)
        self.box.addWidget(self.clash)

    def _build_missing(self) -> None:
        self.missing = QGroupBox("A row your tables do not have")
        col = QVBoxLayout(self.missing)
        self.missing_text = QLabel()
        self.missing_text.setWordWrap(True)
        col.addWidget(self.missing_text)
        self.type_row_button = QPushButton("Type the row from my rulebook…")
        self.type_row_button.setToolTip("Your tables lack the row rolled: type it from your rulebook (kept in your pack)")
        self.type_row_button.clicked.connect(lambda _=False: self.ask_row())
        self.sample_row_button = QPushButton("Re-roll among printed rows")
        self.sample_row_button.setToolTip(
            "Sample play, this time only: the table is rolled again until it lands on a printed row"
        )
        self.sample_row_button.clicked.connect(lambda _=False: self.sample_row())
        row = QHBoxLayout()
        row.addWidget(self.type_row_button)
        row.addWidget(self.sample_row_button)
        col.addLayout(row)
        self.box.addWidget(self.missing)

    # ------------------------------------------------------------------ state
    def _count(self) -> int:
        ch = self.character
        if ch is None or ch.creation is None:
            return 0
        return ch.creation.weapon_rolls if self.purpose == "weapon" else ch.creation.armour_rolls

    def pending_clash(self) -> ArmourClash | None:
        return next((d for d in self.w.campaign.pending if isinstance(d, ArmourClash)), None)

    def pending_row(self) -> RowNeeded | None:
        return next((d for d in self.w.campaign.pending if isinstance(d, RowNeeded) and d.purpose == self.purpose), None)

    def isComplete(self) -> bool:
        return self.done_step(self.step) and self.pending_clash() is None and self.pending_row() is None

    def why_incomplete(self) -> str:
        if self.pending_clash() is not None:
            return "Keep the new armour piece or roll again first."
        if self.pending_row() is not None:
            return "Type the missing row from your rulebook first."
        if not self.done_step(self.step):
            return f"Roll on {self.table_title} first ({self._count()} of {self.total} done)."
        return ""

    def refresh(self) -> None:
        clash, row = self.pending_clash(), self.pending_row()
        done = self.done_step(self.step)
        self.roll_button.setEnabled(not done and clash is None and row is None and self.character is not None)
        self.progress.setText(f"{self._count()} of {self.total} done" + (": finished." if done else "."))
        self.clash.setVisible(clash is not None)
        if clash is not None:
            rules = self.w.rules
            self.clash_text.setText(
                f"<b>{clash.new_item.name}</b> is for the <b>{rules.slot(clash.slot).name}</b>, "
                f"where <b>{clash.old_item.name}</b> already is."
            )
        self.missing.setVisible(row is not None)
        if row is not None:
            lo, hi = row.table_roll.missing or (row.table_roll.roll.final, row.table_roll.roll.final)
            self.missing_text.setText(
                f"You rolled <b>{row.table_roll.roll.final}</b>. The bundled {row.table_roll.table_title} is an excerpt: "
                f"rows {lo}-{hi} are not in your tables. Type the row from your rulebook (it is kept in your own "
                "table pack and used from now on), or re-roll among the printed rows this time."
            )
        waiting = clash or row
        if not self.rolls and waiting is not None:  # carrying on: show the roll that is waiting
            self.rolls.append((waiting.table_roll.roll, waiting.table_roll.describe()))
        if self.rolls:
            roll, text = self.rolls[-1]
            self.faces.set_faces(roll.dice if roll else [], roll.rerolled if roll else [])
            if row is not None and roll == row.table_roll.roll:  # the box below says what is missing, once
                text = f"{row.table_roll.table_title}: {roll.final}, a row your tables do not have."
            self.result.setText(text)
            self.history.setText("<br>".join(t for _, t in self.rolls[:-1]))
        self.completeChanged.emit()

    # ------------------------------------------------------------------ actions
    def _record(self) -> None:
        """Show the dice and what the engine said for the command just sent."""
        entry = self.w.campaign.log[-1] if self.w.campaign.log else None
        if entry is None or not entry.rolls:
            return
        messages = [m for m in entry.messages if not m.endswith("rolling again.")]
        line = (entry.rolls[-1], "<br>".join(messages))
        if self.rolls and self.rolls[-1][0] == entry.rolls[-1]:
            self.rolls[-1] = line  # the refresh inside send showed this roll already (as the one waiting)
        else:
            self.rolls.append(line)

    def _settled(self, needed: RowNeeded, how: str) -> None:
        """The missing-row line of ``needed``'s roll, once its row is typed or re-rolled: it says so instead."""
        roll = needed.table_roll
        for n, (record, _text) in enumerate(self.rolls):
            if record == roll.roll:
                self.rolls[n] = (record, f"{roll.table_title}: {roll.roll.final} - not printed in your tables; {how}.")

    def _amend(self, text: str) -> None:
        """Add what a decision brought to the last roll's line."""
        if self.rolls:
            roll, before = self.rolls[-1]
            self.rolls[-1] = (roll, f"{before}<br>{text}")
        else:
            self.rolls.append((None, text))

    def roll(self) -> bool:
        command = RollStartingWeapon() if self.purpose == "weapon" else RollStartingArmour()
        ok = self.send(command)
        if ok:
            self._record()
        self.w.refresh()
        return ok

    def resolve_clash(self, choice: str) -> bool:
        clash = self.pending_clash()
        if clash is None:
            return False
        ok = self.send(ResolveArmourClash(decision=clash.id, choice=choice))  # type: ignore[arg-type]
        if ok and choice == "reroll":
            self._record()
        elif ok:
            self._amend("<br>".join(self.w.campaign.log[-1].messages))
        self.w.refresh()
        return ok

    def ask_row(self) -> MissingRowDialog | None:
        needed = self.pending_row()
        if needed is None:
            return None
        table = self.w.library.get(needed.table_roll.table_id)
        lo, hi = needed.table_roll.missing or (needed.table_roll.roll.final, needed.table_roll.roll.final)
        dialog = MissingRowDialog(table, needed.table_roll.roll.final, (lo, hi), self, rules=self.w.rules, can_sample=True)
        dialog.sample_always.setVisible(False)  # "from now on" is the window's preference (Edit > Preferences)
        dialog.accepted.connect(lambda: self.provide_row(needed.id, dialog))
        dialog.sample_requested.connect(lambda _always: self.sample_row())
        dialog.open()
        self.row_dialog = dialog
        return dialog

    def sample_row(self) -> bool:
        """Re-roll the waiting roll among the printed rows (sample play, this time only); the result is placed."""
        needed = self.pending_row()
        if needed is None:
            return False
        ok = self.send(ProvideStartingRow(decision=needed.id, sample=True))
        if ok:
            self._settled(needed, "re-rolled among the printed rows")
            self._record()
        self.w.refresh()
        return ok

    def provide_row(self, decision: str, dialog: MissingRowDialog) -> bool:
        row = dialog.row()
        table_id = dialog.table.id
        needed = self.pending_row()
        ok = self.send(ProvideStartingRow(decision=decision, row=row))
        if ok:
            if needed is not None:
                self._settled(needed, "the row typed from your rulebook")
            self._amend("<br>".join(self.w.campaign.log[-1].messages))
            self.w.save_row(table_id)
        self.w.refresh()
        return ok

    def validatePage(self) -> bool:
        return self.isComplete()


class NamePage(_Page):
    """Name the character; Finish checks every step is done."""

    def __init__(self, wizard: CreationWizard) -> None:
        super().__init__(wizard, wizard.rules.creation_step("name").title, wizard.step_text("name"))
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.setMaxLength(60)
        self.name.setToolTip("The hero's name, as it goes on the sheet")
        self.name.textChanged.connect(lambda _t: self.completeChanged.emit())
        form.addRow("Name", self.name)
        self.box.addLayout(form)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.box.addWidget(self.summary)
        self.finish_layout()

    def isComplete(self) -> bool:
        return bool(self.name.text().strip())

    def why_incomplete(self) -> str:
        return "" if self.isComplete() else "Write the character's name first."

    def refresh(self) -> None:
        ch = self.character
        if ch is None:
            self.summary.setText("")
            return
        if ch.name and not self.name.text():
            self.name.setText(ch.name)
        rules = self.w.rules
        d = derive(ch, rules)
        stats = ", ".join(f"{s} {d.characteristics[s]}" for s in STATS)
        skills = ", ".join(f"{s} +{v.bonus}" for s, v in ch.skills.items() if v.bonus) or "none yet"
        items = ", ".join(f"{i.name} ({rules.slot(s).name})" for s, i in ch.equipment.items() if i) or "none yet"
        belt = sum(1 for b in ch.belt if b)
        self.summary.setText(
            f"<b>{stats}</b><br>Skills: {skills}<br>Equipment: {items}<br>"
            f"REP {ch.rep} · HP {ch.hp} · Fate {ch.fate} · Lives {ch.lives}<br>"
            f"Oil {ch.supplies.oil}, food {ch.supplies.food}, picks {ch.supplies.picks}; {belt} on the belt."
        )

    def validatePage(self) -> bool:
        ch = self.character
        if ch is None:
            return False
        if ch.name != " ".join(self.name.text().split()) and not self.send(NameCharacter(name=self.name.text())):
            return False
        return self.send(FinishCharacter())


class CreationWizard(QWizard):
    """Creates a character by the rules, sending one command per step through the bridge."""

    row_saved = Signal(str)  # a typed row was stored in the player's table pack (table id)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None, user_pack_path: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("creationWizard")
        self.bridge = bridge
        self.rules: Rules = bridge.rules
        self.user_pack_path = user_pack_path
        self.sent = 0  # commands this wizard ran (Cancel undoes them)
        self.discard_box: QMessageBox | None = None  # Cancel's "discard this hero?" question, while open
        self.last_error = ""
        self._error_seen = ""
        self.setWindowTitle("Create a character")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setMinimumSize(520, 440)
        self.button(QWizard.WizardButton.CancelButton).setToolTip("Stop creating: every step taken in this wizard is undone")
        self.button(QWizard.WizardButton.BackButton).setToolTip("The previous step")
        self.button(QWizard.WizardButton.CommitButton).setToolTip("Keep this step's results and go on")
        self.pages_by_name: dict[str, _Page] = self._build_pages()
        for name, page in self.pages_by_name.items():
            self.setPage(PAGE_IDS[name], page)
            page.completeChanged.connect(self._explain_next)
        self.setStartId(PAGE_IDS["intro"])
        self.bridge.error.connect(self._remember_error)
        self.currentIdChanged.connect(lambda _id: self.refresh())
        self.currentIdChanged.connect(lambda _id: self._explain_next())
        self.refresh()

    def _build_pages(self) -> dict[str, _Page]:
        return {
            "intro": IntroPage(self),
            "characteristics": CharacteristicsPage(self),
            "skills": SkillsPage(self),
            "reputation": FixedStepPage(self, "reputation", SetStartingReputation),
            "weapon": RollPage(self, "weapon"),
            "armour": RollPage(self, "armour"),
            "supplies": FixedStepPage(self, "supplies", TakeStartingSupplies),
            "potions": FixedStepPage(self, "potions", TakeStartingPotions),
            "finishing": FixedStepPage(self, "finishing", SetStartingHealth),
            "name": NamePage(self),
        }

    def step_values(self) -> dict[str, object]:
        """The rules' numbers a step text may name in braces (``{rep}``, ``{supplies}``)."""
        rules = self.rules
        c = rules.creation
        return {
            "values": ", ".join(str(v) for v in sorted(c.characteristic_values, reverse=True)),
            "stats": ", ".join(STATS[:-1]) + f" and {STATS[-1]}",
            "skill_choices": c.skill_choices,
            "skill_bonus": c.skill_bonus,
            "rep": c.rep,
            "rep_max": rules.reputation.max,
            "rep_min": rules.reputation.min,
            "supplies": ", ".join(f"{v} {k}" for k, v in c.supplies.items()),
            "maxima": ", ".join(f"{k} {v}" for k, v in rules.supplies_max.items()),
            "belt": ", ".join(f"{b.count} × {b.name} ({b.effect})" for b in c.belt),
            "hp": c.hp,
            "fate": c.fate,
            "lives": c.lives,
        }

    def step_text(self, step: str, **extra: object) -> str:
        """A step's text from the rules, its braces filled with the rules' numbers."""
        text = self.rules.creation_step(step).text
        try:
            return text.format_map({**self.step_values(), **extra})
        except (KeyError, IndexError, ValueError):
            return text  # a player's rules file with an unknown name in braces: show it as written

    def _explain_next(self) -> None:
        """Say why Next (or Finish) is greyed: a tooltip from the page, empty when it can go on."""
        page = self.currentPage()
        reason = page.why_incomplete() if isinstance(page, _Page) else ""
        for which in (QWizard.WizardButton.NextButton, QWizard.WizardButton.FinishButton):
            self.button(which).setToolTip(reason)

    # ------------------------------------------------------------------ model
    @property
    def campaign(self) -> Campaign:
        return self.bridge.game.campaign

    @property
    def library(self) -> TableLibrary:
        return self.bridge.game.library

    @property
    def character(self) -> Character | None:
        return self.campaign.character

    def page_named(self, name: str) -> _Page:
        return self.pages_by_name[name]

    def send(self, command: Command) -> bool:
        self._error_seen = ""
        ok = self.bridge.send(command)
        if ok:
            self.sent += 1
        self.last_error = "" if ok else self._error_seen
        self.refresh()
        return ok

    def _remember_error(self, text: str) -> None:
        self._error_seen = text

    def refresh(self) -> None:
        for page in self.pages_by_name.values():
            page.refresh()

    def save_row(self, table_id: str) -> None:
        """Keep a typed row in the player's table pack (when the wizard knows where it is)."""
        if self.user_pack_path is None:
            self.row_saved.emit(table_id)
            return
        try:
            packs.save_user_table(self.user_pack_path, self.library.get(table_id))
        except (OSError, PackInvalid) as exc:
            self.last_error = f"The row is in use but could not be saved to {self.user_pack_path}: {exc}"
            page = self.currentPage()
            if isinstance(page, _Page):
                page.error.setText(self.last_error)
            return
        self.row_saved.emit(table_id)

    # ------------------------------------------------------------------ closing
    def reject(self) -> None:
        """Cancel (or Esc): once choices were made, ask before they are discarded; then :meth:`discard`."""
        if self.sent == 0:
            self.discard()
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Discard this hero?",
            f"Cancel discards the {self.sent} choice(s) and roll(s) made for this hero so far.",
            QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)  # Esc or Return twice keeps the hero
        box.button(QMessageBox.StandardButton.Cancel).setText("Keep creating")
        box.button(QMessageBox.StandardButton.Discard).clicked.connect(self.discard)
        box.open()
        self.discard_box = box

    def discard(self) -> None:
        """Undo every command this wizard sent, leaving the campaign as it was, and close."""
        while self.sent > 0 and self.bridge.game.can_undo:
            self.bridge.undo()
            self.sent -= 1
        self._disconnect()
        super().reject()

    def accept(self) -> None:
        self._disconnect()
        super().accept()

    def _disconnect(self) -> None:
        if getattr(self, "_connected", True):
            self.bridge.error.disconnect(self._remember_error)
            self._connected = False
