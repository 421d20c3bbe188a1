"""What the toolbox keeps between actions, as one model the campaign holds.

It is ``Campaign.toolbox`` (default empty, so older saves load unchanged): the commands of
:mod:`.commands` read a tool's state there and write the state after back, so it is saved
with the campaign, one journal part, and undo and redo move it like any other part.
"""

from __future__ import annotations

from pydantic import Field

from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.calendar import CampaignCalendar
from d100gui.engine.toolbox.classic.swords import Sword
from d100gui.engine.toolbox.classic.underworld import UnderworldClock
from d100gui.engine.toolbox.classic.wilderness import WildernessTrip
from d100gui.engine.toolbox.exploration import DungeonClock, TravelClock
from d100gui.engine.toolbox.scars import ScarsClock, ScarsEncounter

__all__ = ["ToolboxState"]


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
