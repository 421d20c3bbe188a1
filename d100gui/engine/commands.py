"""Every command the game knows, in one place (used to read logs and replay them)."""

from __future__ import annotations

from d100gui.engine.adventure.commands import ADVENTURE_COMMANDS
from d100gui.engine.combat.commands import COMBAT_COMMANDS
from d100gui.engine.dice.commands import DICE_COMMANDS
from d100gui.engine.dungeon.commands import MAP_COMMANDS
from d100gui.engine.game import Command
from d100gui.engine.hero.commands import CHARACTER_COMMANDS
from d100gui.engine.hero.sheet_edits import SHEET_EDIT_COMMANDS
from d100gui.engine.magic.commands import MAGIC_COMMANDS
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.engine.town.commands import TOWN_COMMANDS

ALL_COMMANDS: tuple[type[Command], ...] = (
    *DICE_COMMANDS,
    *CHARACTER_COMMANDS,
    *SHEET_EDIT_COMMANDS,
    *MAP_COMMANDS,
    *COMBAT_COMMANDS,
    *ADVENTURE_COMMANDS,
    *TOWN_COMMANDS,
    *MAGIC_COMMANDS,
    *TOOLBOX_COMMANDS,
)
