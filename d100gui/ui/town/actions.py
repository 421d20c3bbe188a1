"""What the Town menu does, and opening the wizard when a quest ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from d100gui.ui.common.bridge import ChangeSet, EngineBridge

if TYPE_CHECKING:  # the wizard is imported when it first opens, not at start-up
    from d100gui.ui.town.wizard import TownWizard

#: the events that end a quest, after which the between-quests phase comes
QUEST_ENDS = frozenset({"quest_completed", "quest_failed"})


class TownActions(QObject):
    """Opens the before-next-quest wizard from the menu, and by itself when a quest ends."""

    def __init__(self, bridge: EngineBridge, window: QWidget) -> None:
        super().__init__(window)
        self.bridge = bridge
        self.window = window
        self.wizard: TownWizard | None = None
        bridge.changed.connect(self._changed)

    def open_wizard(self) -> TownWizard:
        """Show the wizard (one per window), at the step the campaign is at."""
        if self.wizard is None:
            from d100gui.ui.town.wizard import TownWizard

            self.wizard = TownWizard(self.bridge, self.window)
        self.wizard.refresh()
        self.wizard.show()
        self.wizard.activateWindow()
        return self.wizard

    def _changed(self, change: ChangeSet) -> None:
        """A quest ended by the action just done (its events say so): the between-quests phase comes next.
        Undo and redo open nothing (a redo brings back the quest's end the player has already seen)."""
        if change.action == "do" and any(event.kind in QUEST_ENDS for event in change.events):
            self.open_wizard()
