"""The combat panel: the fight in progress, its round step by step with the dice drawn, and its choices.

:class:`CombatPanel` is built from the :class:`~d100gui.ui.common.bridge.EngineBridge` and re-renders from
``bridge.game.campaign.combat`` once per change set (``bridge.changed``), do, undo and redo
alike. It decides nothing: every button sends one of the engine's combat commands and a refusal
comes back as the engine's own reason.

The fight's record follows the log entry by entry (:class:`~.record.FightTrail`): an action
reads its own new entries, once; the record is read whole only when the panel starts following
a fight (a campaign opened, an undo) and only while a fight is on or has just ended, so a log of
any length with no fight is never read back.

It composes its parts, each in its own module:

* :class:`~.monster_card.MonsterCard` — the monster, its HP pips, abilities and reaction;
* :class:`~.hero_box.HeroBox` — the hero's numbers and conditions for the fight;
* :class:`~.steps_view.StepsView` — the steps of the round from the fight's record
  (:func:`~.record.read_fight`: event kinds and payloads, never message text), every die drawn;
* :class:`~.decision_view.DecisionBox` — what the fight waits for (Continue, Fate, Perfect Aim,
  offsets, loot) and the experience pips and choices it left;
* :class:`~.odds_view.OddsView` — the odds (:func:`~d100gui.engine.combat.odds.combat_odds`);
* :class:`~.actions.ActionsBox` — step 2's actions from
  :func:`~d100gui.engine.combat.actions.available_actions`;
* the end of the fight (victory, escape, the monster escaped, death), or, with no fight, how to
  start one (:class:`~.start_dialog.StartFightDialog`).

Keys (live in the panel's window while a fight is on and the panel shows): A attack with the
main weapon, E escape, Space continue, F spend Fate on every die of the roll; Enter/Return
continue while the focus is in the panel.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.fight_commands import CombatEscape
from d100gui.engine.game import Command, LogEntry
from d100gui.engine.hero.decisions import PendingTest
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.model import Character
from d100gui.ui.combat.actions import ActionsBox, shortcut
from d100gui.ui.combat.decision_view import DecisionBox, FightDecision, fight_decisions, waiting_roll, waiting_test
from d100gui.ui.combat.hero_box import HeroBox
from d100gui.ui.combat.monster_card import MonsterCard
from d100gui.ui.combat.odds_view import OddsView
from d100gui.ui.combat.record import (
    FightRecord,
    FightTrail,
    LogReader,
    ended_in,
    fight_start_in,
    starts_fight,
    trail_at,
)
from d100gui.ui.combat.start_dialog import StartFightDialog
from d100gui.ui.combat.steps_view import StepsView
from d100gui.ui.combat.widgets import Box, follow_theme, set_dim_style
from d100gui.ui.common.bridge import ChangeSet, EngineBridge
from d100gui.ui.common.theme import scaled_font

__all__ = ["OUTCOME_TITLES", "CombatPanel", "EndBanner"]

OUTCOME_TITLES = {
    "won": "Victory",
    "hero_escaped": "You escaped",
    "monster_escaped": "The monster escaped",
    "died": "Fallen",
    "over": "The fight is over",
}
#: the campaign's parts the panel shows: the fight, the hero, what waits, and the log (a fight's end)
PANEL_PARTS = ("combat", "character", "pending", "log")
OUTCOME_COLOURS = {"won": "#2e8b57", "died": "#c0392b", "hero_escaped": "#d08a00", "monster_escaped": "#d08a00"}


class EndBanner(Box):
    """How the fight ended, with what its log says of the ending; Done closes it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        top = QHBoxLayout()
        self.end_title = QLabel()
        self.end_title.setObjectName("endTitle")
        scaled_font(self.end_title, 1.5, bold=True)
        top.addWidget(self.end_title, 1)
        self.done_button = QPushButton("Done")
        self.done_button.setToolTip("Close this fight's summary")
        top.addWidget(self.done_button)
        self.column.addLayout(top)
        self.end_text = QLabel()
        self.end_text.setWordWrap(True)
        self.end_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.column.addWidget(self.end_text)

    def refresh(self, record: FightRecord, ch: Character | None, max_hp: int) -> None:
        """Show the ending of ``record`` (the hero ``ch`` with ``max_hp``, None if they fell)."""
        outcome = record.outcome or "over"
        self.end_title.setText(OUTCOME_TITLES.get(outcome, OUTCOME_TITLES["over"]))
        self.set_border(f"3px solid {OUTCOME_COLOURS.get(outcome, 'palette(mid)')}")
        lines = list(record.ending)
        rounds = record.sections[-1].round
        if ch is not None and not ch.dead:
            lines.append(f"After {rounds} round{'s' if rounds != 1 else ''}: HP {ch.hp} of {max_hp}.")
        if outcome == "monster_escaped":
            lines.append("It is marked on the map as escaped.")
        if outcome == "died":
            lines.append("The hero has fallen: create a new character to play on.")
        self.end_text.setText("\n".join(f"• {t}" for t in lines))


class CombatPanel(QWidget):
    """The fight in progress, driven by the engine's combat commands through the bridge."""

    #: True when a fight is in progress, False when there is none (emitted on change only).
    fight_active_changed = Signal(bool)
    #: A fight just ended: "won", "hero_escaped", "monster_escaped", "died" (or "over").
    fight_ended = Signal(str)

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.rules = bridge.rules
        self.record: FightRecord | None = None
        self._trail: FightTrail | None = None  # the fight followed, entry by entry
        self.records_read = 0  # how many times a fight was read whole (tests count: not on an undo with no fight)
        self.renders = 0
        #: reads log entries older than those in memory (the window sets it to its campaign store's)
        self.older_log: LogReader | None = None
        self.last_error = ""
        self._sending = False
        self._dismissed = -1  # start index of a finished fight the player closed
        self._active: bool | None = None
        self._announced_end = -1
        self.start_dialog: StartFightDialog | None = None
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.refresh)
        self.setObjectName("combatPanel")
        self._build()  # no minimum width of its own: its parts wrap to the dock's width (1280x720, a narrowed dock)
        self._build_shortcuts()
        bridge.changed.connect(self._changed)
        bridge.error.connect(self._remember_error)
        self.odds_view.answered.connect(self._odds_answered)
        self.refresh()

    # ------------------------------------------------------------------ model
    @property
    def campaign(self) -> Campaign:
        return self.bridge.game.campaign

    @property
    def combat(self) -> CombatState | None:
        return self.campaign.combat

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        self.pages = QStackedWidget()
        outer.addWidget(self.pages)
        self.pages.addWidget(self._build_idle())
        self.fight_page = QWidget()
        col = QVBoxLayout(self.fight_page)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(6)
        self.end_banner = EndBanner()
        self.end_banner.done_button.clicked.connect(lambda _=False: self.dismiss_end())
        self.monster_card = MonsterCard(self.rules)
        self.hero_box = HeroBox(self.rules)
        self.steps = StepsView()
        self.decision = DecisionBox(self.rules, lambda: self.campaign, self.send, library=lambda: self.bridge.game.library)
        self.odds_view = OddsView()
        self.action_box = ActionsBox(self.rules, lambda: self.campaign, self.send)
        parts: list[QWidget] = [self.end_banner, self.monster_card, self.hero_box, self.steps]
        parts += [self.decision, self.odds_view, self.action_box]
        for part in parts:
            col.addWidget(part, 1 if part is self.steps else 0)
        self.error_label = QLabel()
        self.error_label.setObjectName("combatError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("font-weight: bold;")
        col.addWidget(self.error_label)
        self.pages.addWidget(self.fight_page)

    def _build_idle(self) -> QWidget:
        self.idle_page = QWidget()
        idle = QVBoxLayout(self.idle_page)
        idle.addStretch(1)
        self.idle_label = QLabel()
        self.idle_label.setWordWrap(True)
        self.idle_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        set_dim_style(self.idle_label, "color: {dim}; padding: 12px;")
        scaled_font(self.idle_label, 1.05)
        idle.addWidget(self.idle_label)
        self.start_button = QPushButton("Start a fight...")
        self.start_button.setToolTip("Roll Table E, meet the Giant Snake, or type a monster in from your rulebook")
        self.start_button.clicked.connect(lambda _=False: self.open_start_dialog())
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.start_button)
        row.addStretch(1)
        idle.addLayout(row)
        idle.addStretch(2)
        return self.idle_page

    def _build_shortcuts(self) -> None:
        self.attack_shortcut = shortcut(self, Qt.Key.Key_A, lambda: self.attack("main_weapon"))
        self.escape_shortcut = shortcut(self, Qt.Key.Key_E, lambda: self.send(CombatEscape()))
        space = shortcut(self, Qt.Key.Key_Space, self.continue_or_apply)
        self.fate_shortcut = shortcut(self, Qt.Key.Key_F, self.fate_all)
        enter = [shortcut(self, key, self.continue_or_apply) for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)]
        for s in enter:  # Enter belongs to whatever field has the focus elsewhere in the window
            s.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.continue_shortcuts = [space, *enter]
        self.fight_shortcuts: list[QShortcut] = [self.attack_shortcut, self.escape_shortcut, self.fate_shortcut, space]
        words = ("Fight: attack", "Fight: try to escape", "Fight: Fate on every die waiting", *["Fight: continue"] * 3)
        for key, what in zip([*self.fight_shortcuts, *enter], words, strict=True):
            key.setWhatsThis(what)  # the words of Help > Keyboard shortcuts

    # ------------------------------------------------------------------ the parts' widgets, as before
    buttons = property(lambda self: self.action_box.buttons)
    main_stat = property(lambda self: self.action_box.main_stat)
    off_stat = property(lambda self: self.action_box.off_stat)
    change_menu = property(lambda self: self.action_box.change_menu)
    cast_menu = property(lambda self: self.action_box.cast_menu)
    belt_menu = property(lambda self: self.action_box.belt_menu)
    spell_bonus = property(lambda self: self.action_box.spell_bonus)
    actions_box = property(lambda self: self.action_box)
    odds_box = property(lambda self: self.odds_view)
    hit_odds = property(lambda self: self.odds_view.hit_odds)
    monster_odds = property(lambda self: self.odds_view.monster_odds)
    win_odds = property(lambda self: self.odds_view.win_odds)
    odds = property(lambda self: self.odds_view.odds)
    monster_name = property(lambda self: self.monster_card.monster_name)
    monster_stats = property(lambda self: self.monster_card.monster_stats)
    round_label = property(lambda self: self.monster_card.round_label)
    hp_view = property(lambda self: self.monster_card.hp_view)
    hp_text = property(lambda self: self.monster_card.hp_text)
    ability_row = property(lambda self: self.monster_card.ability_row)
    reaction_label = property(lambda self: self.monster_card.reaction_label)
    condition_row = property(lambda self: self.hero_box.condition_row)
    end_title = property(lambda self: self.end_banner.end_title)
    end_text = property(lambda self: self.end_banner.end_text)
    done_button = property(lambda self: self.end_banner.done_button)
    round_picker = property(lambda self: self.steps.round_picker)
    shown_steps = property(lambda self: self.steps.shown_steps)
    step_rows = property(lambda self: self.steps.step_rows)
    decision_box = property(lambda self: self.decision)
    prompt_label = property(lambda self: self.decision.prompt_label)
    continue_button = property(lambda self: self.decision.continue_button)
    fate_buttons = property(lambda self: self.decision.fate_buttons)
    big_dice = property(lambda self: self.decision.big_dice)
    aim_buttons = property(lambda self: self.decision.aim_buttons)
    loot_buttons = property(lambda self: self.decision.loot_buttons)
    row_buttons = property(lambda self: self.decision.row_buttons)
    row_dialog = property(lambda self: self.decision.row_dialog)
    offset_item = property(lambda self: self.decision.offset_item)
    offset_shield = property(lambda self: self.decision.offset_shield)
    offset_apply = property(lambda self: self.decision.offset_apply)
    decision_buttons = property(lambda self: self.decision.decision_buttons)

    # ------------------------------------------------------------------ commands
    def _remember_error(self, text: str) -> None:
        if self._sending:
            self.last_error = text

    def send(self, command: Command) -> bool:
        """Send one command; show the engine's reason when it is refused."""
        self.last_error = ""
        self._sending = True
        try:
            ok = self.bridge.send(command)
        finally:
            self._sending = False
        self.error_label.setText("" if ok else self.last_error)
        if not ok:
            self.refresh()
        return ok

    def attack(self, slot: str) -> bool:
        """Step 2: attack with the weapon in ``slot``."""
        return self.action_box.attack(slot)

    def block_escape(self) -> bool:
        return self.action_box.block_escape()

    def continue_fight(self) -> bool:
        return self.decision.continue_fight()

    def continue_or_apply(self) -> bool:
        """Space/Enter: accept the roll, or apply the offsets as set."""
        return self.decision.continue_or_apply()

    def fate(self, dice: list[int]) -> bool:
        return self.decision.fate(dice)

    def fate_all(self) -> bool:
        """F: spend Fate on every die of the waiting roll (both dice of a d100)."""
        return self.decision.fate_all()

    def apply_offset(self) -> bool:
        return self.decision.apply_offset()

    def dismiss_end(self) -> None:
        """Done: close the summary of the fight that ended."""
        if self.record is not None:
            self._dismissed = self.record.start
        self.refresh()

    def waiting_roll(self) -> RollRecord | None:
        """The roll the fight waits on: a held roll or its pending test's d100."""
        return waiting_roll(self.campaign)

    def waiting_test(self) -> PendingTest | None:
        return waiting_test(self.campaign)

    def fight_decisions(self) -> list[FightDecision]:
        """Experience pips and choices the fight left."""
        return fight_decisions(self.campaign, self.record)

    def open_start_dialog(self) -> StartFightDialog:
        """The small dialog that starts a fight (Table E, the Giant Snake, a typed monster)."""
        self.start_dialog = StartFightDialog(self, self)
        self.start_dialog.show()
        return self.start_dialog

    # ------------------------------------------------------------------ render
    def changeEvent(self, event: QEvent) -> None:
        """A new theme: every style sheet takes its colours again, then the panel draws again."""
        super().changeEvent(event)
        if follow_theme(self, event):
            self._render_later()

    def _render_later(self) -> None:
        if not self._sending:
            self._later.start()

    def _changed(self, change: ChangeSet) -> None:
        """Once per action: another campaign starts the record again; the fight's parts (or the log,
        which tells a fight's end) draw the panel again."""
        if change.reset:
            self._trail = None
            self._dismissed = -1
        if not (change.reset or change.touches(*PANEL_PARTS)):
            return
        if self._still_idle(change):  # no fight was on, none began: only the hero can change what the idle page says
            if change.touches("character"):
                self._render_idle(self.campaign.character)
            return
        self.refresh()

    def _still_idle(self, change: ChangeSet) -> bool:
        """The panel showed no fight and this action began none: nothing of a fight to read or draw again
        (a search, a move, a table roll outside a fight left the panel's widgets untouched)."""
        if change.action != "do" or self._active is not False or self._trail is not None or self.record is not None:
            return False  # an undo or redo can bring a fight (or its end) back; a fight followed must be read
        if self.combat is not None or self.pages.currentWidget() is not self.idle_page:
            return False
        campaign = self.campaign
        newest = campaign.log[-1:] if campaign.log_length > campaign.log_start else []
        return not any(starts_fight(entry) for entry in newest)  # a fight begun and over in one command: its end shown

    def _odds_answered(self) -> None:
        """The odds worked out off the GUI thread came: the attack buttons name the best weapon."""
        ch, c = self.campaign.character, self.combat
        if c is not None and ch is not None:
            self.action_box.refresh(ch, self.odds_view.odds)

    def _follow_log(self, campaign: Campaign, fighting: bool) -> FightRecord | None:
        """The fight the panel shows, following the log: the new entries added to the fight followed;
        else (opened, undone) the fight read whole while one is on, or the one that has just ended."""
        log, first, length = campaign.log, campaign.log_start, campaign.log_length
        trail = self._trail
        if trail is not None and not _still_follows(trail, log, first, length):
            trail = None
        if trail is not None:
            for i in range(trail.next, length):
                entry = log[i - first]
                if starts_fight(entry):
                    trail = FightTrail(i)
                trail.add(i, entry)
        elif fighting:
            self.records_read += 1
            trail = trail_at(log, first, self.older_log, True)
        else:
            trail = self._just_ended(log, first)
        if trail is not None and trail.moved_on and not fighting:
            trail = None  # the game has moved on: nothing to follow until the next fight
        if trail is not self._trail or trail is not None:
            self.record = trail.record() if trail is not None else None
        self._trail = trail
        return self.record

    def _just_ended(self, log: list[LogEntry], first: int) -> FightTrail | None:
        """With no fight on: the fight whose end only its follow-ups came after, read from memory
        (its newest entries are looked at, never the store); None, at once, after any other action."""
        end = ended_in(log)
        if end < 0:
            return None
        start = fight_start_in(log[: end + 1])
        if start < 0:
            return None
        self.records_read += 1
        trail = FightTrail(first + start)
        for i in range(start, len(log)):
            trail.add(first + i, log[i])
        return trail

    def refresh(self) -> None:
        """Re-read the campaign and show it."""
        self._later.stop()
        self.renders += 1
        campaign, c = self.campaign, self.combat
        ch = campaign.character
        record = self._follow_log(campaign, c is not None)
        ended = (
            c is None
            and record is not None
            and record.end == campaign.log_length
            and record.start != self._dismissed
            and bool(record.outcome or record.events)
        )
        active = c is not None and ch is not None
        if self._active is not None and active != self._active:
            self.fight_active_changed.emit(active)
        self._active = active
        for s in self.fight_shortcuts:
            s.setEnabled(active)
        if not active and not ended:
            self._render_idle(ch)
            return
        self._show_page(self.fight_page)
        self._render_end(record if ended else None, ch)
        self._render_fight(c if active else None, ch)
        self.steps.show_record(record)
        self.decision.refresh(c, ch, record)

    def _render_fight(self, c: CombatState | None, ch: Character | None) -> None:
        for part in (self.monster_card, self.odds_view, self.action_box):
            part.setVisible(c is not None)
        self.hero_box.setVisible(ch is not None)
        if c is not None and ch is not None:
            self.monster_card.refresh(c, ch)
            self.odds_view.compute(self.campaign, self.rules)
            self.odds_view.refresh()
            self.action_box.refresh(ch, self.odds_view.odds)
        if ch is not None:
            self.hero_box.refresh(ch, c)

    def _show_page(self, page: QWidget) -> None:
        if self.pages.currentWidget() is not page:  # asked again, the stack lays itself out again
            self.pages.setCurrentWidget(page)

    def _render_idle(self, ch: Character | None) -> None:
        self._show_page(self.idle_page)
        if ch is None or ch.dead:
            self.idle_label.setText("No fight.\nCreate a character first: a fight needs a hero.")
        else:
            self.idle_label.setText(
                'No fight in progress.\n\nTo start one, roll Table E in the dice panel and press "Fight this monster", '
                'or use "Start a fight..." below: roll Table E here, meet the Giant Snake of Table G, '
                "or type a monster in from your rulebook."
            )
        self.start_button.setEnabled(ch is not None and not ch.dead and ch.creation is None)
        self.odds_view.forget()

    def _render_end(self, record: FightRecord | None, ch: Character | None) -> None:
        self.end_banner.setVisible(record is not None)
        if record is None:
            return
        if self._announced_end != record.start:
            self._announced_end = record.start
            self.fight_ended.emit(record.outcome or "over")
        alive = ch is not None and not ch.dead
        self.end_banner.refresh(record, ch, derive(ch, self.rules).max_hp if alive and ch is not None else 0)


def _still_follows(trail: FightTrail, log: list[LogEntry], first: int, length: int) -> bool:
    """The log still holds what the trail read (no undo took its last entry back, nothing else was shown)."""
    last = trail.next - 1
    if trail.next > length or last < first:
        return False
    return log[last - first] is trail.last
