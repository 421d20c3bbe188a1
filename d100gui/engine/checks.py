"""Is this campaign one the rules could have produced? The check a loaded file must pass.

A campaign file is data from outside: it may have been edited by hand, cut short, or written by
a buggy tool. The storage layer checks types, sizes and shapes; this module checks the values
against the rules, so a file with HP −40, Fate 9999, the hero standing on an area that does not
exist or a tile numbered −5 is refused with the reason, instead of opening "fine" and then
showing nonsense or crashing later (issue 10 #8).

The character is checked with the same invariants every command enforces
(:func:`~d100gui.engine.hero.invariants.violations`, Fate and Lives at most
:data:`MOST_FATE_OR_LIVES` included), against the campaign's own rules (the player's sheet layout
among them: the caller passes them), plus what only a loaded file can get wrong. ``Game.execute``
runs the same check after every command that reached the hero, so what the engine accepts, the
open path accepts (issue 27 #2): its referee (:mod:`d100gui.engine.referee`) asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.dungeon.map import Dungeon, pos_key
from d100gui.engine.dungeon.tiles import TILE_COUNT
from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.invariants import violations
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

__all__ = ["campaign_problems", "character_problems", "dungeon_problems"]


def character_problems(character: Character, rules: Rules, where: str = "the hero") -> list[str]:
    """What is impossible on this sheet, each said so a player can read it."""
    problems = [f"{where}: {p}" for p in violations(character, rules)]
    if character.dead:
        return problems
    max_hp = derive(character, rules).max_hp
    if character.hp < 0:
        problems.append(f"{where}: HP is {character.hp}; a living hero's HP cannot be below 0.")
    elif character.hp > max(max_hp, 0):
        problems.append(f"{where}: HP is {character.hp} but the sheet's maximum is {max_hp}.")
    return problems


def dungeon_problems(dungeon: Dungeon) -> list[str]:
    """Tiles that do not exist, and a hero standing where no area is."""
    name = dungeon.name or dungeon.id
    problems = [
        f"Dungeon {name}, area {key}: tile {area.tile} is not a Table M tile (1 to {TILE_COUNT})."
        for key, area in dungeon.areas.items()
        if not 1 <= area.tile <= TILE_COUNT
    ]
    if dungeon.hero is not None:
        key = pos_key(dungeon.hero)
        if key not in dungeon.areas:
            problems.append(f"Dungeon {name}: the hero stands at {key}, where no area is mapped.")
    return problems


def campaign_problems(campaign: Campaign, rules: Rules) -> list[str]:
    """Every impossible value in the campaign (empty: it can be played)."""
    problems: list[str] = []
    if campaign.character is not None:
        problems += character_problems(campaign.character, rules)
    for dungeon in campaign.dungeons.dungeons:
        problems += dungeon_problems(dungeon)
    return problems
