"""The odds before each action, from :func:`~d100gui.engine.combat.odds.combat_odds`.

Recomputed once per change of the game (never on paint): the simulation is the engine's.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from d100gui.engine.combat.odds import FightOdds, combat_odds
from d100gui.engine.game import Campaign
from d100gui.engine.rules.model import Rules
from d100gui.ui.combat.widgets import dim_label


class OddsView(QWidget):
    """Chance to hit, chance to be hit, win chance and expected HP lost, with the assumptions as tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.odds: FightOdds | None = None
        self.odds_error = ""
        self._key: tuple[object, ...] | None = None
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
        row.addWidget(self.hit_odds)
        row.addWidget(dim_label("·"))
        row.addWidget(self.monster_odds)
        row.addStretch(1)
        column.addWidget(self.win_odds)  # its own line: it must never be cut off in a narrow dock

    def forget(self) -> None:
        """No fight: drop the odds so the next fight computes its own."""
        self.odds = None
        self._key = None

    def compute(self, campaign: Campaign, rules: Rules) -> None:
        """Recompute the odds if the game changed since the last time."""
        c, log = campaign.combat, campaign.log
        key = (
            id(campaign),
            len(log),
            log[-1].at if log else "",
            c.round if c else 0,
            c.step if c else "",
            c.waiting if c else "",
        )
        if key == self._key:
            return
        self._key = key
        try:
            self.odds = combat_odds(campaign, rules)
            self.odds_error = ""
        except ValueError as exc:
            self.odds, self.odds_error = None, str(exc)

    def refresh(self) -> None:
        """Show the odds last computed."""
        o = self.odds
        if o is None:
            for label in (self.hit_odds, self.monster_odds, self.win_odds):
                label.setText("")
            self.setToolTip(self.odds_error)
            return
        weapon = f" ({o.weapon}, {o.stat})" if o.weapon else ""
        self.hit_odds.setText(f"Chance to hit: {round(o.hero_hit_chance * 100)}%")
        self.hit_odds.setToolTip(f"Your attack this round{weapon}.")
        self.monster_odds.setText(f"Monster hits: {round(o.monster_hit_chance * 100)}%")
        self.win_odds.setText(f"Win: {round(o.win * 100)}% · Expected HP lost: {o.expected_hp_lost:.1f}")
        tip = (
            f"From {o.start}, over {o.fights:,} simulated fights:\n"
            f"win {o.win:.0%} · you die {o.lose:.0%} · it escapes {o.monster_escapes:.0%} · a Life or RES used {o.life_used:.0%}\n"
            f"expected HP lost {o.expected_hp_lost:.1f}\n\nThe odds assume:\n" + "\n".join(f"• {a}" for a in o.assumptions)
        )
        for label in (self.hit_odds, self.monster_odds, self.win_odds):
            label.setToolTip((label.toolTip() + "\n\n" if label is self.hit_odds else "") + tip)
        self.setToolTip(tip)
