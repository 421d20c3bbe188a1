"""The spell book section: a line per position, greyed above what the hero's INT reaches.

Positions, thresholds and why a spell cannot be cast come from
:func:`d100gui.engine.magic.book.positions`; learning (Table S or a belt scroll), removing and
casting outside a fight are the magic commands, so the engine refuses what the rules forbid
(Spell Caster to cast from the book, a full book, a fight under way) and the sheet says why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSpinBox, QToolButton, QWidget

from d100gui.engine.hero.derive import Derived
from d100gui.engine.hero.model import Character
from d100gui.engine.hero.queries import SPELL_CASTER, spells_castable
from d100gui.engine.magic.book import BookPosition, positions
from d100gui.engine.magic.commands import CastSpell, LearnSpell, RemoveSpell
from d100gui.engine.magic.events import (
    CurseApplied,
    CurseRowMissing,
    SpellCast,
    SpellLearned,
    SpellRowMissing,
    SpellTookEffect,
)
from d100gui.engine.protocol import Event
from d100gui.engine.rules.model import Rules
from d100gui.ui.hero.sheet_parts import ElidedLabel, ItemRow, Send, SheetRequests, SheetSection, set_dim, set_tip, small

LastEvents = Callable[[], list[Event]]


def describe_events(events: list[Event]) -> str:
    """What a cast or a learn did, from the events' payloads (the sentence is never read)."""
    parts: list[str] = []
    payloads = [event.payload() for event in events]
    cursed = any(isinstance(p, CurseApplied | CurseRowMissing) for p in payloads)  # else a failure waits for Fate
    for payload in payloads:
        if isinstance(payload, SpellCast):
            paid = f", paying {', '.join(payload.paid)}" if payload.paid else ""
            if payload.success is None:
                parts.append(f"{payload.spell}{paid}: the cost was more than you had.")
            else:
                rolled = payload.roll.natural if payload.roll is not None else "?"
                outcome = (
                    "success"
                    if payload.success
                    else ("failed: Table C" if cursed else "failed for now: accept it or use Fate in the turn strip")
                )
                parts.append(f"{payload.spell}{paid}. CAST SPELL {rolled} against {payload.target}: {outcome}.")
        elif isinstance(payload, SpellTookEffect):
            parts.append(
                f"Effect: {payload.effect.replace('_', ' ')}" + (f", HP {payload.hp}." if payload.hp is not None else ".")
            )
        elif isinstance(payload, CurseApplied) and not payload.result.missing:  # a missing row: said below
            curse = f"Table C: {payload.result.curse}. " if payload.result.curse else ""
            parts.append(curse + " ".join(payload.result.notes))
        elif isinstance(payload, CurseRowMissing):
            parts.append(
                f"Table C rolled {payload.table_roll.roll.final}: your tables lack that row; the curse waits for it "
                "(Hero > Type the curse's row)."
            )
        elif isinstance(payload, SpellLearned):
            parts.append(f"{payload.spell} is written at position {payload.index + 1}.")
        elif isinstance(payload, SpellRowMissing):
            parts.append(f"Table S rolled {payload.table_roll.roll.final}: your tables lack that row; nothing was written.")
    return " ".join(parts)


class SpellBookSection(SheetSection):
    """The spell-book positions with their INT thresholds; cast, remove or learn a spell from here.

    Right-click a line to write or erase a spell by hand (the paper sheet's way)."""

    def __init__(self, rules: Rules, send: Send, requests: SheetRequests, parent: QWidget | None = None) -> None:
        super().__init__("Spell book", rules, send, parent)
        self.last_events: LastEvents | None = None  # set by HeroActions: the events of the last command
        self.spell_state = small()
        self.spell_state.setWordWrap(True)
        self.body.addWidget(self.spell_state)
        self.spell_rows: list[ItemRow] = []
        self.spell_names: list[ElidedLabel] = []
        self.spell_thresholds: list[QLabel] = []
        self.cast_buttons: list[QToolButton] = []
        self.remove_buttons: list[QToolButton] = []
        self.body.addLayout(self._build_grid(requests))
        self.body.addLayout(self._build_learn())
        self.result = small()
        self.result.setObjectName("spellResult")
        self.result.setWordWrap(True)
        self.result.setVisible(False)
        self.body.addWidget(self.result)

    def _build_grid(self, requests: SheetRequests) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(0)
        for i, threshold in enumerate(self.rules.spell_thresholds()):
            level = QLabel(f"{threshold}+")
            level.setObjectName("fieldLabel")
            level.setFixedWidth(30)
            grid.addWidget(level, i, 0)
            row = ItemRow(partial(requests.spell_menu, i), partial(requests.edit_spell, i))
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            name = ElidedLabel()
            line.addWidget(name, 1)
            grid.addWidget(row, i, 1)
            cast, remove = QToolButton(), QToolButton()
            cast.setText("Cast")
            cast.setToolTip("Cast the spell at this place (outside a fight)")
            remove.setText("✕")
            remove.setToolTip("Remove the spell at this place: no other spell moves")
            cast.clicked.connect(partial(self.cast, i))
            remove.clicked.connect(partial(self.remove, i))
            grid.addWidget(cast, i, 2)
            grid.addWidget(remove, i, 3)
            self.spell_rows.append(row)
            self.spell_names.append(name)
            self.spell_thresholds.append(level)
            self.cast_buttons.append(cast)
            self.remove_buttons.append(remove)
        grid.setColumnStretch(1, 1)
        return grid

    def _build_learn(self) -> QGridLayout:
        learn = QGridLayout()
        learn.setContentsMargins(0, 2, 0, 0)
        self.learn_table_button = QPushButton("Learn from Table S")
        self.learn_table_button.setToolTip("Roll Table S: the spell is written at the first free position")
        self.learn_table_button.clicked.connect(lambda _=False: self._run(LearnSpell(from_table=True)))
        self.bonus = QSpinBox()
        self.bonus.setAccessibleName("Spell bonus")
        self.bonus.setRange(-100, 100)
        self.bonus.setPrefix("bonus ")
        self.bonus.setToolTip("The spell bonus of the CAST SPELL test")
        self.scrolls = QComboBox()
        self.scrolls.setToolTip("A scroll from your belt or backpack: copy it into the spell book, or cast it")
        self.learn_scroll_button = QPushButton("Copy scroll")
        self.learn_scroll_button.setToolTip("Copy the scroll's spell into the book (the scroll is used up)")
        self.learn_scroll_button.clicked.connect(lambda _=False: self._scroll(learn=True))
        self.cast_scroll_button = QPushButton("Cast scroll")
        self.cast_scroll_button.setToolTip("Cast the scroll (no Spell Caster needed; it is used up)")
        self.cast_scroll_button.clicked.connect(lambda _=False: self._scroll(learn=False))
        learn.addWidget(self.learn_table_button, 0, 0, 1, 2)
        learn.addWidget(self.bonus, 0, 2)
        learn.addWidget(self.scrolls, 1, 0)
        learn.addWidget(self.learn_scroll_button, 1, 1)
        learn.addWidget(self.cast_scroll_button, 1, 2)
        learn.setColumnStretch(0, 1)
        return learn

    # ------------------------------------------------------------------ actions
    def cast(self, index: int) -> bool:
        """Cast the spell at ``index`` outside a fight; the result (or the refusal) is shown."""
        return self._run(CastSpell(index=index, bonus=self.bonus.value(), window=True))  # a Fate window per the policy

    def remove(self, index: int) -> bool:
        """Remove the spell at ``index``; the others keep their positions."""
        return self._run(RemoveSpell(index=index))

    def _scroll(self, learn: bool) -> bool:
        slot = self.scrolls.currentData()
        if not slot:
            return False
        command = (
            LearnSpell(belt_slot=int(slot)) if learn else CastSpell(belt_slot=int(slot), bonus=self.bonus.value(), window=True)
        )
        return self._run(command)

    def _run(self, command: LearnSpell | CastSpell | RemoveSpell) -> bool:
        ok = self.send(command)
        self._show_result()
        return ok

    def follow(self) -> None:
        """Once per change of the campaign (whatever it touched): the last action's magic, or nothing."""
        self._show_result()

    def _show_result(self) -> None:
        """What the last action did with magic, read from its events at every change: a cast settled from the strip
        (its Fate, its curse) shows here, and an undo or the next action takes the text away."""
        said = describe_events(self.last_events()) if self.last_events is not None else ""
        if said != self.result.text():
            self.result.setText(said)
        self.result.setVisible(bool(said))

    # ------------------------------------------------------------------ render
    def _state(self, d: Derived) -> str:
        if spells_castable(self.rules, d):
            return f"Spell Caster active: positions up to INT {d.characteristics['INT']} can be cast."
        caster = self.rules.ability(SPELL_CASTER)
        return f"Spell Caster locked ({caster.characteristic} under {caster.threshold}): spells are kept but only scrolls work."

    def show_character(self, ch: Character, d: Derived) -> None:
        self.spell_state.setText(self._state(d))
        self._show_result()
        for place in positions(ch, self.rules):
            self._show_position(place)
        self._show_scrolls(ch)

    def _show_position(self, place: BookPosition) -> None:
        i, spell, reach = place.index, place.spell, place.in_reach
        name = self.spell_names[i]
        name.setText(f"{spell.name}  ({spell.cost})" if spell and spell.cost else (spell.name if spell else "—"))
        dim = not reach or spell is None
        style = "" if dim else "font-weight: bold;"
        if name.styleSheet() != style:  # set again, a style sheet polishes the label again
            name.setStyleSheet(style)
        set_dim(name, dim)
        set_dim(self.spell_thresholds[i], not reach)
        state = "usable" if place.castable else (place.why_not or ("empty" if reach else "out of reach: INT too low"))
        set_tip(name, f"INT {place.threshold}+ · {state}" + (f"\n{spell.effect}" if spell and spell.effect else ""))
        if name.property("usable") != place.castable:
            name.setProperty("usable", place.castable)
        if name.property("in_reach") != reach:
            name.setProperty("in_reach", reach)
        cast, remove = self.cast_buttons[i], self.remove_buttons[i]
        cast.setEnabled(place.castable)
        set_tip(cast, f"Cast {spell.name} (outside a fight)" if place.castable and spell else (place.why_not or "No spell here."))
        remove.setEnabled(spell is not None)
        set_tip(remove, f"Remove {spell.name}: no other spell moves" if spell else "No spell here.")

    def _show_scrolls(self, ch: Character) -> None:
        belt = [
            (f"{item.name} (belt {i + 1})", i + 1) for i, item in enumerate(ch.belt) if item is not None and item.kind == "scroll"
        ]
        shown = [(self.scrolls.itemText(n), self.scrolls.itemData(n)) for n in range(self.scrolls.count())]
        if belt != shown:  # filled again only when the belt's scrolls change (the sheet renders on every action)
            chosen = self.scrolls.currentData()
            self.scrolls.clear()
            for text, slot in belt:
                self.scrolls.addItem(text, slot)
            if chosen is not None and (found := self.scrolls.findData(chosen)) >= 0:
                self.scrolls.setCurrentIndex(found)
        why = "" if self.scrolls.count() else "No scroll on the belt."
        for button, tip in (
            (self.learn_scroll_button, "Copy the scroll's spell into the book (the scroll is used up)"),
            (self.cast_scroll_button, "Cast the scroll (no Spell Caster needed; it is used up)"),
        ):
            button.setEnabled(not why)
            set_tip(button, why or tip)
        self.scrolls.setEnabled(not why)
