"""Every command the game knows, in one place (used to read logs and replay them)."""

from __future__ import annotations

from .character_commands import CHARACTER_COMMANDS
from .combat import COMBAT_COMMANDS
from .dice_commands import DICE_COMMANDS
from .game import Command
from .map_commands import MAP_COMMANDS
from .sheet_edits import SHEET_EDIT_COMMANDS

ALL_COMMANDS: tuple[type[Command], ...] = (
    *DICE_COMMANDS,
    *CHARACTER_COMMANDS,
    *SHEET_EDIT_COMMANDS,
    *MAP_COMMANDS,
    *COMBAT_COMMANDS,
)
