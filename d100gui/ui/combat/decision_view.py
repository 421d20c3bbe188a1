"""The choice the fight waits for, read from ``CombatState.waiting`` and the pending decisions.

Continue and Fate on the roll waiting (die by die), Perfect Aim, offsets, the loot table,
and the experience pips and milestone choices the fight left. Every button sends one command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.flow import WAIT_TEXT
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.fight_commands import (
    CombatChooseLoot,
    CombatContinue,
    CombatFate,
    CombatOffset,
    CombatPerfectAim,
    CombatProvideRow,
)
from d100gui.engine.game import Command
from d100gui.engine.hero.decisions import ExperienceChoice, OutcomeChoice, PendingTest, TargetChoice
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules
from d100gui.engine.skill_test_commands import AssignExperience, ChooseOutcome, ChooseTarget, DismissDecision
from d100gui.ui.combat.dice_views import BigDice, die_names, location_of, roll_value
from d100gui.ui.combat.record import FightRecord
from d100gui.ui.combat.widgets import Box, clear_layout, dim_label
from d100gui.ui.common.dialogs import MissingRowDialog
from d100gui.ui.common.theme import scaled_font

Send = Callable[[Command], bool]
FightDecision = ExperienceChoice | TargetChoice | OutcomeChoice


def waiting_test(campaign: Campaign) -> PendingTest | None:
    """The combat test the fight waits on (its pending decision), if any."""
    c = campaign.combat
    if c is None or c.waiting != "test" or c.test is None:
        return None
    return next((d for d in campaign.pending if d.id == c.test.decision and isinstance(d, PendingTest)), None)


def waiting_roll(campaign: Campaign) -> RollRecord | None:
    """The roll the fight waits on: a held roll or its pending test's d100."""
    c = campaign.combat
    if c is None:
        return None
    if c.waiting == "roll" and c.held is not None:
        return c.held.record
    test = waiting_test(campaign)
    return test.roll if test is not None else None


def fight_decisions(campaign: Campaign, record: FightRecord | None) -> list[FightDecision]:
    """Experience pips and choices the fight left (the fight's events name their decision ids)."""
    if record is None:
        return []
    return [d for d in campaign.pending if isinstance(d, FightDecision) and d.id in record.decisions]


def _pips(count: float) -> str:
    """A number of repair pips as the sheet says it ("half a pip", "a pip", "2 pips")."""
    return {0.5: "half a pip", 1: "a pip"}.get(count, f"{count:g} pips")


@dataclass
class FateButtons:
    """One set of Fate buttons: its row, the Fate left, a button per die (then "both" and "picked")."""

    holder: QWidget
    label: QLabel
    buttons: list[QPushButton]
    picked: QPushButton | None

    def parts(self) -> tuple[QLabel, list[QPushButton], QPushButton | None]:
        return self.label, self.buttons, self.picked


class RollChoice(QWidget):
    """The roll the fight waits on: its dice drawn large, what it came to, where a table roll lands,
    Continue, and Fate die by die.

    Kept between actions (the fight waits on a roll at about every other step): an action gives it
    other dice, words and enabled states; its Fate buttons are made again only when the dice are
    named otherwise (a d100, then a damage roll). Made and thrown away at each action, its widgets
    cost their polish, first layout and deletion every time.
    """

    def __init__(self, box: DecisionBox) -> None:
        super().__init__()
        self._box = box
        self._names: tuple[str, ...] | None = None
        self._can = False
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(4)
        top = QHBoxLayout()
        top.setSpacing(4)
        self.dice = BigDice(RollRecord(expression="", terms=[], dice=[], natural=0, final=0), selectable=True)
        self.dice.selection_changed.connect(self._picked_changed)
        top.addWidget(self.dice)
        self.what = QLabel()
        scaled_font(self.what, 1.2)  # grows with the system font
        top.addWidget(self.what)
        top.addStretch(1)
        col.addLayout(top)
        self.landed = dim_label()
        self.landed.setObjectName("landed")
        col.addWidget(self.landed)
        row = QHBoxLayout()  # the answers on lines of their own: a narrow dock must never cut them short
        row.setSpacing(4)
        self.continue_button = QPushButton("Continue (Space)")
        self.continue_button.setToolTip("Accept the roll and carry on")
        self.continue_button.clicked.connect(lambda _=False: box.continue_fight())
        self.continue_button.setDefault(True)
        row.addWidget(self.continue_button)
        row.addStretch(1)
        col.addLayout(row)
        self.fate_rows = QVBoxLayout()  # one set of Fate buttons per way the dice are named, the one in use shown
        self.fate_rows.setContentsMargins(0, 0, 0, 0)
        col.addLayout(self.fate_rows)
        self._fate_sets: dict[tuple[str, ...], FateButtons] = {}
        self.fate_label = QLabel()
        self.fate_buttons: list[QPushButton] = []
        self.picked: QPushButton | None = None

    def show_roll(self, record: RollRecord, what: str, landed: str, fate: int, cost: int) -> None:
        """Show ``record`` (``what`` it came to, where it ``landed``), with ``fate`` left at ``cost`` a re-roll."""
        self.dice.roll = record
        self.dice.set_faces(record.dice, record.rerolled)  # the dice picked for Fate are forgotten
        self.dice.setFixedSize(self.dice.sizeHint())
        self.dice.setToolTip(record.describe())
        self.what.setText(what)
        self.landed.setText(landed)
        self.landed.setVisible(bool(landed))
        names = tuple(die_names(record))
        if names != self._names:
            self._names = names
            for kept, fates in self._fate_sets.items():
                fates.holder.setVisible(kept == names)
            if names not in self._fate_sets:
                self._fate_sets[names] = self._fate_set(names, cost)
            self.fate_label, self.fate_buttons, self.picked = self._fate_sets[names].parts()
        self._can = fate >= cost
        self.fate_label.setText(f"Fate ({fate} left):")
        for b in self.fate_buttons:
            if b is not self.picked:
                b.setEnabled(self._can)
        if self.picked is not None:
            self.picked.setEnabled(False)  # until dice are picked

    def _fate_set(self, names: tuple[str, ...], cost: int) -> FateButtons:
        """The Fate buttons for dice named ``names`` (a d100's tens and units, a damage roll's d6 and
        location...), made once and kept: the fight's rolls take turns between a few sets."""
        box = self._box
        fates = FateButtons(QWidget(), QLabel(), [], None)
        rows = QVBoxLayout(fates.holder)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(4)
        fate_row, more = QHBoxLayout(), QHBoxLayout()
        for line in (fate_row, more):
            line.setSpacing(4)
            rows.addLayout(line)
        fate_row.addWidget(fates.label)

        def button(line: QHBoxLayout, text: str, slot: Callable[[], object], tip: str) -> QPushButton:
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False: slot())
            line.addWidget(b)
            fates.buttons.append(b)
            return b

        for i, name in enumerate(names):
            button(fate_row, f"Re-roll {name}", partial(box.fate, [i]), f"Spend {cost} Fate to re-roll the {name} die")
        if len(names) > 1:
            both = "both" if len(names) == 2 else "all"
            button(more, f"Re-roll {both} (F)", box.fate_all, f"Spend {cost} Fate to re-roll every die")
            tip = "Click dice above to pick them, then re-roll those"
            fates.picked = button(more, "Re-roll picked", lambda: box.fate(self.dice.selected()), tip)
        fate_row.addStretch(1)
        more.addStretch(1)
        self.fate_rows.addWidget(fates.holder)
        return fates

    def _picked_changed(self, selected: list[int]) -> None:
        if self.picked is not None:
            self.picked.setEnabled(bool(selected) and self._can)


class DecisionBox(Box):
    """What the fight asks now, with one button per answer."""

    def __init__(
        self,
        rules: Rules,
        campaign: Callable[[], Campaign],
        send: Send,
        parent: QWidget | None = None,
        library: Callable[[], TableLibrary] | None = None,
    ) -> None:
        super().__init__(parent)
        self.rules = rules
        self._campaign = campaign
        self._library = library
        self.send = send
        self.prompt_label = QLabel()
        self.prompt_label.setObjectName("prompt")
        self.prompt_label.setWordWrap(True)
        self.prompt_label.setStyleSheet("font-weight: bold;")
        self.column.addWidget(self.prompt_label)
        self.roll_choice = RollChoice(self)  # kept: shown whenever the fight waits on a roll
        # Its room is kept while it is hidden and the fight waits on an action (see refresh): the box keeps its
        # height from step to step, so the action buttons below stay where they were and the steps above are
        # not laid out again at every action (a box that grows and shrinks moves and repaints the whole panel).
        self.roll_choice.hide()
        self.column.addWidget(self.roll_choice)
        self.choice_area = QVBoxLayout()  # the rarer choices (aim, offsets, loot, a row): made for each
        self.choice_area.setSpacing(4)
        self.column.addLayout(self.choice_area)
        self.xp_area = QVBoxLayout()
        self.column.addLayout(self.xp_area)
        self.row_dialog: MissingRowDialog | None = None  # the last "type the row" dialog opened
        self._reset()
        self.decision_buttons: dict[str, list[QPushButton]] = {}
        self._decisions_shown: tuple[str, ...] | None = None  # what the experience and choice boxes show

    def _reset(self) -> None:
        self.fate_buttons: list[QPushButton] = []
        self.continue_button: QPushButton | None = None
        self.big_dice: BigDice | None = None
        self.aim_buttons: list[QPushButton] = []
        self.loot_buttons: list[QPushButton] = []
        self.row_buttons: list[QPushButton] = []
        self.landed_label: QLabel | None = None  # where a held table roll lands
        spins = [getattr(self, "offset_item", None), getattr(self, "offset_shield", None)]
        if any(spin is None or spin.parent() is not None for spin in spins):  # new ones once shown (they go with the form)
            self.offset_item = QSpinBox()
            self.offset_shield = QSpinBox()
        self.offset_apply: QPushButton | None = None

    # ------------------------------------------------------------------ commands
    def continue_fight(self) -> bool:
        """Accept the roll (or the test) and carry on."""
        return self.send(CombatContinue())

    def continue_or_apply(self) -> bool:
        """Space/Enter: accept the roll, or apply the offsets as set."""
        c = self._campaign().combat
        if c is not None and c.waiting == "offset":
            return self.apply_offset()
        return self.continue_fight()

    def fate(self, dice: list[int]) -> bool:
        """Spend Fate to re-roll the dice ``dice`` (indexes) of the waiting roll."""
        return self.send(CombatFate(dice=dice))

    def fate_all(self) -> bool:
        """F: spend Fate on every die of the waiting roll (both dice of a d100)."""
        record = waiting_roll(self._campaign())
        return self.fate(list(range(len(record.dice))) if record is not None else [0, 1])

    def apply_offset(self) -> bool:
        """Offset the damage as the spin boxes say."""
        return self.send(CombatOffset(item=self.offset_item.value(), shield=self.offset_shield.value()))

    def type_row(self) -> MissingRowDialog | None:
        """Open the "type the row" dialog for the table roll the fight waits on; OK sends the row."""
        c = self._campaign().combat
        waiting = c.row_wait if c is not None and c.waiting == "row" else None
        if waiting is None or self._library is None or waiting.table_id not in self._library():
            return None
        table = self._library().get(waiting.table_id)
        gap = waiting.missing or table.gap_containing(waiting.value) or (waiting.value, waiting.value)
        dialog = MissingRowDialog(table, waiting.value, gap, self.window(), can_sample=True)
        dialog.sample_always.setVisible(False)  # "from now on" is the preference's (Edit > Preferences)
        dialog.accepted.connect(lambda: self.send(CombatProvideRow(row=dialog.row())))
        dialog.sample_requested.connect(lambda _always: self.send(CombatProvideRow(sample=True)))  # settles the fight's roll
        dialog.open()
        self.row_dialog = dialog
        return dialog

    # ------------------------------------------------------------------ render
    def refresh(self, c: CombatState | None, ch: Character | None, record: FightRecord | None) -> None:
        """Show what ``c`` waits for and the decisions ``record`` left; hidden when nothing is asked."""
        clear_layout(self.choice_area)
        self._reset()
        prompt = self._render_waiting(c, ch) if c is not None and ch is not None else ""
        rolling = self.continue_button is not None
        # the roll's room kept only while the fight waits on an action (nothing else shown in the box): other
        # choices (aim, offsets, loot, a row) and the experience after the fight come with no gap above them
        self._keep_roll_room(rolling or (c is not None and self.choice_area.count() == 0))
        self.roll_choice.setVisible(rolling)
        self.prompt_label.setText(prompt)
        self.prompt_label.setVisible(bool(prompt))
        self._render_decisions(fight_decisions(self._campaign(), record))
        self.setVisible(bool(prompt) or bool(self.decision_buttons))

    def _keep_roll_room(self, keep: bool) -> None:
        policy = self.roll_choice.sizePolicy()
        if policy.retainSizeWhenHidden() != keep:
            policy.setRetainSizeWhenHidden(keep)
            self.roll_choice.setSizePolicy(policy)

    def _row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(4)
        self.choice_area.addLayout(row)
        return row

    def _button(self, row: QHBoxLayout, text: str, slot: Callable[[], object], tip: str = "") -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(lambda _=False: slot())
        row.addWidget(b)
        return b

    def _send_checked(self, command: Command, _checked: bool = False) -> bool:
        return self.send(command)

    def _where(self, location: int) -> str:
        slot = self.rules.slot_at_location(location)
        return slot.name if slot else "?"

    def _render_waiting(self, c: CombatState, ch: Character) -> str:
        waiting = c.waiting
        if waiting in ("roll", "test"):
            return self._render_roll(ch, waiting)
        if waiting == "action":
            return f"Round {c.round}: choose your action."
        if waiting in ("aim", "aim_pick") and c.hero_hit is not None:
            return self._render_aim(c, waiting)
        if waiting == "offset" and c.monster_hit is not None:
            return self._render_offset(c)
        if waiting == "loot" and c.monster.loot is not None:
            row = self._row()
            for i, option in enumerate(c.monster.loot.options):
                self.loot_buttons.append(self._button(row, f"Roll {option.text}", partial(self.send, CombatChooseLoot(option=i))))
            row.addStretch(1)
            return f"Loot {c.monster.loot.text}: choose the table to roll on."
        if waiting == "row" and c.row_wait is not None:
            return self._render_row(c)
        return f"Waiting for {WAIT_TEXT.get(waiting, waiting)}." if waiting else ""

    def _render_row(self, c: CombatState) -> str:
        waiting = c.row_wait
        assert waiting is not None
        row = self._row()
        self.row_buttons = [
            self._button(row, "Type the row...", self.type_row, "Type the row from your rulebook: it is applied at once"),
            self._button(
                row,
                "Re-roll among printed rows",
                lambda: self.send(CombatProvideRow(sample=True)),
                "Sample play: roll again until a printed row comes up, this time only",
            ),
        ]
        if c.row_use == "loot":
            self.row_buttons.append(self._button(row, "Go without the loot", lambda: self.send(CombatProvideRow())))
        row.addStretch(1)
        lo, hi = waiting.missing or (waiting.value, waiting.value)
        what = "the loot" if c.row_use == "loot" else "the curse"
        return f"{waiting.table_title} rolled {waiting.value} for {what}: rows {lo}-{hi} are not in your tables."

    def _render_roll(self, ch: Character, waiting: str) -> str:
        campaign = self._campaign()
        record, test = waiting_roll(campaign), waiting_test(campaign)
        if record is None:
            return f"Waiting for {WAIT_TEXT[waiting]}."
        if test is not None:
            verdict = "SUCCESS" if test.success else "FAILURE"
            what = f"<b>{record.natural}</b> against {test.target}: <b>{verdict}</b>"
        else:
            location = location_of(record)
            what = f"<b>{roll_value(record, self._where(location) if location else '')}</b>"
        landed = self._landed(campaign)
        choice = self.roll_choice
        choice.show_roll(record, what, landed, ch.fate, self.rules.fate_cost)
        self.big_dice, self.continue_button = choice.dice, choice.continue_button
        self.fate_buttons = list(choice.fate_buttons)
        self.landed_label = choice.landed if landed else None
        purpose = (test.spec.name or test.spec.label()) if test is not None else record.purpose
        return f"{purpose}: accept the roll, or spend Fate to re-roll dice."

    def _landed(self, campaign: Campaign) -> str:
        """A held table roll (loot, a curse): the row it lands on now, before it applies."""
        held = campaign.combat.held if campaign.combat is not None else None
        if held is None or held.table is None:
            return ""
        if held.record == held.table.roll or self._library is None or held.table.table_id not in self._library():
            result = held.table
        else:
            table = self._library().get(held.table.table_id)
            row = table.find(held.record.final)
            result = held.table.model_copy(
                update={"roll": held.record, "row": row, "missing": table.gap_containing(held.record.final)}
            )
        return f"{result.describe()} - applied when you accept it."

    def _render_aim(self, c: CombatState, waiting: str) -> str:
        hit = c.hero_hit
        assert hit is not None
        row = self._row()
        if waiting == "aim":
            keep = f"Keep location {hit.location} ({self._where(hit.location)})"
            self.aim_buttons = [
                self._button(row, keep, lambda: self.send(CombatPerfectAim(choice="keep"))),
                self._button(row, "Re-roll the location once", lambda: self.send(CombatPerfectAim(choice="reroll"))),
            ]
            row.addStretch(1)
            return "Perfect Aim: keep the hit location, or re-roll it once and pick either result."
        first, second = hit.first_location or 0, hit.second_location or 0
        self.aim_buttons = [
            self._button(row, f"First: {first} ({self._where(first)})", lambda: self.send(CombatPerfectAim(choice="first"))),
            self._button(row, f"Second: {second} ({self._where(second)})", lambda: self.send(CombatPerfectAim(choice="second"))),
        ]
        row.addStretch(1)
        return "Perfect Aim: pick the hit location."

    def _render_offset(self, c: CombatState) -> str:
        mh = c.monster_hit
        assert mh is not None
        form = QFormLayout()
        self.choice_area.addLayout(form)
        if mh.item_max:
            self.offset_item.setRange(0, mh.item_max)
            self.offset_item.setValue(mh.item_max)
            self.offset_item.setSuffix(" damage")
            form.addRow(f"Onto {mh.item_name} (a repair pip each)", self.offset_item)
        if mh.shield_max:
            self.offset_shield.setRange(0, mh.shield_max)
            self.offset_shield.setValue(max(0, min(mh.shield_max, mh.damage - self.offset_item.value())))
            self.offset_shield.setSuffix(" damage")
            form.addRow(f"Onto {mh.shield_name} ({_pips(self.rules.repair.shield_pips_per_point)} each)", self.offset_shield)
        row = self._row()
        self.offset_apply = self._button(
            row, "Offset (Space)", self.apply_offset, "Shade the repair pips and take the rest as HP"
        )
        self._button(row, "Take it all as HP", lambda: self.send(CombatOffset()), "Offset nothing")
        row.addStretch(1)
        return f"{mh.damage} damage to your {self._where(mh.location)}: offset some onto your items?"

    # ------------------------------------------------------------------ experience and choices
    def _render_decisions(self, decisions: list[FightDecision]) -> None:
        shown = tuple(d.model_dump_json() for d in decisions)
        if shown == self._decisions_shown:  # the same choices: kept (with the skills picked in them)
            return
        self._decisions_shown = shown
        clear_layout(self.xp_area)
        self.decision_buttons = {}
        for decision in decisions:
            box = QGroupBox()
            col = QVBoxLayout(box)
            col.setContentsMargins(6, 2, 6, 2)
            prompt = QLabel(decision.prompt)
            prompt.setWordWrap(True)
            col.addWidget(prompt)
            row = QHBoxLayout()
            buttons = self._decision_buttons(box, row, decision)
            row.addStretch(1)
            col.addLayout(row)
            self.xp_area.addWidget(box)
            box.show()
            self.decision_buttons[decision.id] = buttons

    def _decision_buttons(self, box: QGroupBox, row: QHBoxLayout, decision: FightDecision) -> list[QPushButton]:
        buttons: list[QPushButton] = []

        def add(text: str, command: Command) -> None:
            b = QPushButton(text)
            b.clicked.connect(partial(self._send_checked, command))
            row.addWidget(b)
            buttons.append(b)

        if isinstance(decision, ExperienceChoice):
            box.setTitle("Experience")
            add(f"1 pip on {decision.characteristic}", AssignExperience(decision=decision.id, choice="characteristic"))
            if decision.skills:
                buttons.append(self._skill_pips(row, decision))
            add("Don't take it", DismissDecision(decision=decision.id))
        elif isinstance(decision, OutcomeChoice):
            box.setTitle("Choose one")
            for i, option in enumerate(decision.outcome.options):
                add(option.describe(), ChooseOutcome(decision=decision.id, option=i))
        else:
            box.setTitle("Choose which")
            for choice in decision.choices:
                add(choice, ChooseTarget(decision=decision.id, target=choice))
        return buttons

    def _skill_pips(self, row: QHBoxLayout, decision: ExperienceChoice) -> QPushButton:
        first, second = QComboBox(), QComboBox()
        for combo in (first, second):
            combo.addItems(decision.skills)
        second.setCurrentIndex(1 if len(decision.skills) > 1 else 0)
        row.addWidget(first)
        row.addWidget(second)
        pips = self.rules.experience.skill_pips
        b = QPushButton(f"{pips} skill pip{'s' if pips != 1 else ''}")
        b.clicked.connect(
            lambda _=False: self.send(
                AssignExperience(decision=decision.id, choice="skills", skills=[first.currentText(), second.currentText()])
            )
        )
        row.addWidget(b)
        return b
