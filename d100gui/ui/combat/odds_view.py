"""The odds before each action, from :func:`~d100gui.engine.combat.odds.combat_odds`.

Worked out only when what the odds read changed (the fight's state and the hero, as JSON: the
key), never on paint; each answer is kept by its key, so going back (undo) shows it at once. In
the window (``background = True``) the simulation (10,000 fights) runs off the GUI thread, on a
copy of the fight and the hero made from the key, once the fight has stood still for
:data:`SETTLE_MS` (the action's repaint comes first), and the answer is shown when it comes if the
fight still stands there; a panel on its own (tests) works it out at once.
"""

from __future__ import annotations

from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from d100gui.engine.campaign import Campaign
from d100gui.engine.combat.monster import CombatState
from d100gui.engine.combat.odds import FightOdds, combat_odds, life_warning
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules
from d100gui.ui.combat.widgets import dim_label

#: the answers kept, by key (a fight's last few states: undo and redo show theirs at once)
KEPT = 16
#: how long the fight stands still before its odds are worked out off the GUI thread (ms)
SETTLE_MS = 40
#: the one thread that works out odds in the window (one at a time: the newest state is what counts)
_WORKER: ThreadPoolExecutor | None = None

Answer = tuple[FightOdds | None, str]


def odds_key(campaign: Campaign) -> tuple[str, str] | None:
    """What the odds read, as text: the fight's state and the hero (None with no fight)."""
    c, ch = campaign.combat, campaign.character
    if c is None or ch is None:
        return None
    return c.model_dump_json(), ch.model_dump_json()


def work_out(key: tuple[str, str], rules: Rules) -> Answer:
    """The odds of the fight ``key`` describes (on copies: safe off the GUI thread)."""
    combat, hero = key
    campaign = Campaign(character=Character.model_validate_json(hero), combat=CombatState.model_validate_json(combat))
    try:
        return combat_odds(campaign, rules), ""
    except ValueError as exc:
        return None, str(exc)


def _worker() -> ThreadPoolExecutor:
    global _WORKER
    if _WORKER is None:
        _WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fight-odds")
    return _WORKER


class OddsView(QWidget):
    """Chance to hit, chance to be hit, win chance and expected HP lost, with the assumptions as tooltip."""

    #: an answer worked out off the GUI thread: (key, odds, error)
    _answered = Signal(object, object, str)
    #: odds worked out off the GUI thread are shown (the panel's buttons may use them)
    answered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.odds: FightOdds | None = None
        self.odds_error = ""
        self.background = False  # the window sets it: the simulation runs off the GUI thread
        self.computed = 0  # how many simulations were run (tests count them)
        self._key: tuple[str, str] | None = None
        self._answers: OrderedDict[tuple[str, str], Answer] = OrderedDict()
        self._asked: tuple[str, str] | None = None  # the key being worked out off the GUI thread
        self._answered.connect(self._take)
        self._rules: Rules | None = None
        # The simulation starts a moment after the last change: the action's repaint first (the worker
        # thread shares the interpreter), and no simulation for a state the next click replaces at once.
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(SETTLE_MS)
        self._soon.timeout.connect(self._submit)
        # ... counted from when the action's events are all handled (its layout and repaint): a zero timer
        # runs once the events waiting are done, so a slow action's repaint never meets the simulation
        self._arm = QTimer(self)
        self._arm.setSingleShot(True)
        self._arm.setInterval(0)
        self._arm.timeout.connect(self._soon.start)
        column = QVBoxLayout(self)
        column.setContentsMargins(2, 0, 2, 0)
        column.setSpacing(0)
        row = QHBoxLayout()
        column.addLayout(row)
        self.hit_odds = QLabel()
        self.hit_odds.setObjectName("hitOdds")
        self.monster_odds = QLabel()
        self.monster_odds.setObjectName("monsterOdds")
        self.win_odds = QLabel()
        self.win_odds.setObjectName("winOdds")
        for label in (self.hit_odds, self.monster_odds, self.win_odds):
            label.setStyleSheet("font-weight: bold;")
        row.setSpacing(4)
        row.addWidget(self.hit_odds)
        row.addWidget(dim_label(" · "))  # spaces each side: "40%·Monster" read as one word
        row.addWidget(self.monster_odds)
        row.addStretch(1)
        column.addWidget(self.win_odds)  # its own line: it must never be cut off in a narrow dock
        #: what the figures mean (the rest of the simulated fights), in words
        self.meaning = dim_label()
        self.meaning.setObjectName("oddsMeaning")
        column.addWidget(self.meaning)
        #: the engine's warning that a Life (or RES) may be spent in this fight ("" hides it)
        self.life_warning = QLabel()
        self.life_warning.setObjectName("lifeWarning")
        self.life_warning.setWordWrap(True)
        self.life_warning.setStyleSheet("font-weight: bold;")
        self.life_warning.hide()
        column.addWidget(self.life_warning)

    def forget(self) -> None:
        """No fight: nothing shown (the answers stay kept: the next fight's states are new keys)."""
        self.odds = None
        self._key = None

    def compute(self, campaign: Campaign, rules: Rules) -> None:
        """The odds of the fight as it stands: kept ones at once, else worked out (off the GUI thread in the window)."""
        key = odds_key(campaign)
        if key is None or key == self._key:
            return
        self._key = key
        known = self._answers.get(key)
        if known is not None:
            self._answers.move_to_end(key)
            self.odds, self.odds_error = known
            return
        if not self.background:
            self._keep(key, self._run(key, rules))
            self.odds, self.odds_error = self._answers[key]
            return
        self.odds, self.odds_error = None, "Working out the odds…"
        self._rules = rules
        self._soon.stop()
        self._arm.start()  # once the action's repaint is done and the fight stands still a moment

    def _submit(self) -> None:
        key, rules = self._key, self._rules
        if key is None or rules is None or key in self._answers or self._asked == key:
            return
        self._asked = key
        future = _worker().submit(self._run, key, rules)
        future.add_done_callback(partial(self._deliver, key))

    def _run(self, key: tuple[str, str], rules: Rules) -> Answer:
        self.computed += 1
        return work_out(key, rules)

    def _deliver(self, key: tuple[str, str], done: Future[Answer]) -> None:
        """In the worker thread: hand the answer to the GUI thread (a queued signal)."""
        error = done.exception()
        odds, why = (None, f"The odds could not be worked out: {error}") if error is not None else done.result()
        self._answered.emit(key, odds, why)

    def _take(self, key: tuple[str, str], odds: FightOdds | None, why: str) -> None:
        self._keep(key, (odds, why))
        if self._asked == key:
            self._asked = None
        if key == self._key:  # the fight still stands there: show it
            self.odds, self.odds_error = odds, why
            self.refresh()
            self.answered.emit()

    def _keep(self, key: tuple[str, str], answer: Answer) -> None:
        self._answers[key] = answer
        while len(self._answers) > KEPT:
            self._answers.popitem(last=False)

    def refresh(self) -> None:
        """Show the odds last computed."""
        o = self.odds
        if o is None:
            for label in (self.hit_odds, self.monster_odds, self.win_odds, self.meaning, self.life_warning):
                label.setText("")
            self.life_warning.hide()
            self.setToolTip(self.odds_error)
            return
        weapon = f" ({o.weapon}, {o.stat})" if o.weapon else ""
        self.hit_odds.setText(f"Chance to hit: {round(o.hero_hit_chance * 100)}%")
        self.hit_odds.setToolTip(f"Your attack this round{weapon}.")
        self.monster_odds.setText(f"Monster hits: {round(o.monster_hit_chance * 100)}%")
        self.win_odds.setText(f"Win: {round(o.win * 100)}% · Expected HP lost: {o.expected_hp_lost:.1f}")
        self.meaning.setText(
            f"Of {o.fights:,} simulated fights from here: you die in {o.lose:.0%}, the monster escapes in "
            f"{o.monster_escapes:.0%}; HP lost is the average over the rest of the fight."
        )
        warning = life_warning(o)
        self.life_warning.setText(warning)
        self.life_warning.setVisible(bool(warning))
        tip = (
            f"From {o.start}, over {o.fights:,} simulated fights:\n"
            f"win {o.win:.0%} · you die {o.lose:.0%} · it escapes {o.monster_escapes:.0%} · a Life or RES used {o.life_used:.0%}\n"
            f"expected HP lost {o.expected_hp_lost:.1f}\n\nThe odds assume:\n" + "\n".join(f"• {a}" for a in o.assumptions)
        )
        for label in (self.hit_odds, self.monster_odds, self.win_odds):
            label.setToolTip((label.toolTip() + "\n\n" if label is self.hit_odds else "") + tip)
        self.setToolTip(tip)
