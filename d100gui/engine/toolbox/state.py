"""What the toolbox keeps between actions, as one model the campaign can hold.

Not yet a field of :class:`~d100gui.engine.game.Campaign`: until it is, the commands carry
each tool's state in and out (see :mod:`.commands`). Adding ``toolbox: ToolboxState`` to the
campaign (default empty, so older saves load unchanged) is all it takes to save it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from d100gui.engine.toolbox.exploration import DungeonClock, TravelClock
from d100gui.engine.toolbox.scars import ScarsClock, ScarsEncounter

__all__ = ["ToolboxState"]


class ToolboxState(BaseModel):
    """Every toolbox tool's state: the scars fight and clock, the dungeon clock and the travel clock."""

    scars_encounter: ScarsEncounter | None = None
    scars_clock: ScarsClock = Field(default_factory=ScarsClock)
    dungeon_clock: DungeonClock = Field(default_factory=DungeonClock)
    travel_clock: TravelClock = Field(default_factory=TravelClock)
