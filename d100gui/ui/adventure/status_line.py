"""The status line above the map: what matters always in view while playing (issue 19, Deliver 3).

One compact line from the engine's :class:`~d100gui.engine.flow.Status` (the bridge's flow): the quest
and its objective's progress ("Parts 1 of 3"), the turn, the time track's clocks shaded with its next
printed symbol ("next: food in 2"), HP, Fate and Lives, and what waits for the player. It renders data
only; the whole objective and what waits are in the tooltips.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from d100gui.engine.flow import Status
from d100gui.ui.common.bridge import EngineBridge
from d100gui.ui.common.flow import FOR_THE_QUEST, FlowLayout, SteadyHeight


class StatusLine(QWidget):
    """Quest, objective, turn, clocks, HP, Fate, Lives and what waits, refreshed once per change."""

    def __init__(self, bridge: EngineBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setObjectName("statusLine")
        # never widens the window: its parts wrap onto another line when the map's column is narrow
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.quest = QLabel()
        self.quest.setObjectName("statusQuest")
        self.clocks = QLabel()
        self.clocks.setObjectName("statusClocks")
        self.hero = QLabel()
        self.hero.setObjectName("statusHero")
        self.waits = QLabel()
        self.waits.setObjectName("statusWaits")
        #: its height kept while what waits comes and goes (a line more, a line less): the map below stays put
        self.steady = SteadyHeight(patience=FOR_THE_QUEST)
        layout = self.parts = FlowLayout(self, spacing=12, steady=self.steady)
        layout.setContentsMargins(2, 0, 2, 0)
        for label in (self.quest, self.clocks, self.hero, self.waits):
            layout.addWidget(label)
        self.status: Status | None = None
        bridge.changed.connect(lambda _change: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        """Re-read the status from the bridge's flow (worked out once per change)."""
        status = self.bridge.flow().status
        self.status = status
        if self.isHidden() == (status is not None):  # set only when it changes
            self.setVisible(status is not None)
        if status is None:
            return
        if self.steady.changed(status.quest):
            self.parts.invalidate()  # the room kept is given back
        if status.quest:
            self.quest.setText(f"<b>{html.escape(status.quest)}</b>: {html.escape(status.progress)}")
            self.quest.setToolTip(f"Objective: {status.objective}")
            nxt = f" (next: {status.next_trigger})" if status.next_trigger else ""
            self.clocks.setText(f"Turn {status.turn} · clocks {status.clock}/{status.clocks}{html.escape(nxt)}")
            self.clocks.setToolTip("The time track: clocks shaded, and the next printed symbol (oil, food, wandering monster).")
        else:
            self.quest.setText("<b>No quest</b>")
            self.quest.setToolTip("")
            self.clocks.setText("")
        self.clocks.setVisible(bool(status.quest))
        self.hero.setText(f"HP {status.hp}/{status.max_hp} · Fate {status.fate} · Lives {status.lives}")
        self.hero.setToolTip(f"{status.hero}: hit points, Fate and Lives")
        # a few words: the prompt in full and its answers are the strip's (or the fight panel's), said once
        self.waits.setText(f"<i>Waiting:</i> {html.escape(status.waits_short, quote=False)}" if status.waits else "")
        self.waits.setToolTip(status.waits)

    def text(self) -> str:
        """The line as the player reads it (plain text)."""
        parts = [w.text() for w in (self.quest, self.clocks, self.hero, self.waits) if w.isVisible() and w.text()]
        return " | ".join(parts).replace("<b>", "").replace("</b>", "").replace("<i>", "").replace("</i>", "")
