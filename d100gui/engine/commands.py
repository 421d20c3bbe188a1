"""Every command the game knows, in one place (used to read logs and replay them).

Each command class registers itself by kind (``@register_command``, :mod:`d100gui.engine.command_registry`);
importing every feature's command modules here fills the registry, and :data:`ALL_COMMANDS` is it.
"""

from __future__ import annotations

import d100gui.engine.adventure.commands
import d100gui.engine.dice_commands
import d100gui.engine.dungeon_entry
import d100gui.engine.fight_start
import d100gui.engine.hero.sheet_edits
import d100gui.engine.item_commands
import d100gui.engine.magic.commands
import d100gui.engine.toolbox.commands
import d100gui.engine.town.commands  # noqa: F401  every feature's commands registered
from d100gui.engine.command_registry import COMMAND_KINDS
from d100gui.engine.game import Command

ALL_COMMANDS: tuple[type[Command], ...] = tuple(c for c in COMMAND_KINDS.values() if issubclass(c, Command))
