"""What the toolbox keeps between actions, as one model the campaign holds.

It is ``Campaign.toolbox`` (default empty, so older saves load unchanged): the commands of
:mod:`.commands` read a tool's state there and write the state after back, so it is saved
with the campaign, one journal part, and undo and redo move it like any other part.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.calendar import CampaignCalendar
from d100gui.engine.toolbox.classic.swords import Sword
from d100gui.engine.toolbox.classic.underworld import UnderworldClock
from d100gui.engine.toolbox.classic.wilderness import WildernessTrip
from d100gui.engine.toolbox.exploration import DungeonClock, TravelClock
from d100gui.engine.toolbox.scars import ScarsClock, ScarsEncounter

__all__ = ["MAX_RUNS", "ToolRun", "ToolboxState"]

MAX_RUNS = 20  # the tool runs kept waiting for a row (the oldest is dropped: roll that tool again)


class ToolRun(Model):
    """A tool's run that stopped at a row the player's tables lack, kept so that typing or sampling the row
    continues it (:mod:`.runs`): the command, every roll it made (replayed, the same dice, when it runs again),
    the rolls answered by sample play, the dice-history rolls still waiting, the log entry of its latest result,
    and what it changed of the toolbox's state (before and after, as JSON) so a continued run starts from the
    state the first one started from."""

    command: dict[str, Any]
    rolls: list[RollRecord] = Field(default_factory=list)
    sampled: list[TableRoll] = Field(default_factory=list)  # missing rolls answered by a re-roll among printed rows
    waiting: list[int] = Field(default_factory=list)  # dice-history indexes of its rolls still missing a row
    result: int  # the command log's index of the run's latest result
    before: dict[str, Any] = Field(default_factory=dict)  # the toolbox state's fields the run changed, as they were
    after: dict[str, Any] = Field(default_factory=dict)  # ... and as the run left them


class ToolboxState(Model):
    """Every toolbox tool's state: the scars fight and clock, the dungeon and travel clocks, the wilderness
    trip, the latest sword generated (the one the ego contest tests), the campaign calendar and the underworld turns."""

    scars_encounter: ScarsEncounter | None = None
    scars_clock: ScarsClock = Field(default_factory=ScarsClock)
    dungeon_clock: DungeonClock = Field(default_factory=DungeonClock)
    travel_clock: TravelClock = Field(default_factory=TravelClock)
    wilderness: WildernessTrip = Field(default_factory=WildernessTrip)
    sword: Sword | None = None
    calendar: CampaignCalendar = Field(default_factory=CampaignCalendar)
    underworld: UnderworldClock = Field(default_factory=UnderworldClock)  # the classic move/turn and its rests
    runs: list[ToolRun] = Field(default_factory=list)  # tools' runs waiting for a missing row (newest last)

    def run_waiting_on(self, index: int) -> ToolRun | None:
        """The kept tool run whose roll ``index`` of the dice history waits for a row, if any."""
        return next((r for r in self.runs if index in r.waiting), None)
