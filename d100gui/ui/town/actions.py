"""What the Town menu does, and opening the wizard when a quest ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from d100gui.ui.common.bridge import EngineBridge

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
        self._seen = bridge.game.campaign.log_length  # the log in memory is only its newest entries
        bridge.command_done.connect(self._after_command)
        bridge.campaign_changed.connect(self._reset)

    def open_wizard(self) -> TownWizard:
        """Show the wizard (one per window), at the step the campaign is at."""
        if self.wizard is None:
            from d100gui.ui.town.wizard import TownWizard

            self.wizard = TownWizard(self.bridge, self.window)
        self.wizard.refresh()
        self.wizard.show()
        self.wizard.activateWindow()
        return self.wizard

    def _reset(self) -> None:
        self._seen = self.bridge.game.campaign.log_length

    def _after_command(self) -> None:
        log = self.bridge.game.campaign.log
        length = self.bridge.game.campaign.log_length
        grew, self._seen = length > self._seen, length
        if grew and log and any(e.kind in QUEST_ENDS for e in log[-1].events):
            self.open_wizard()
