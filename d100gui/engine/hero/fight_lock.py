"""What a fight forbids elsewhere: checks other packages call before they change the sheet.

The rulebook's "Change Weapon" lets the hero change weapons only instead of attacking ("he
may forfeit his attack for that round to change his weapon"): while a fight is on, equipment
changes go through the fight's Change weapon action, never the sheet's equip commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign

#: the player's name of the action that changes weapons in a fight
CHANGE_WEAPON = "Change weapon"


def equipment_locked(campaign: Campaign) -> str | None:
    """Why equipping or unequipping is refused now (a fight is on), or None when it is allowed.

    The hero's equip and unequip commands call this first; the fight's own Change weapon
    action is the way to change weapons while it lasts (it replaces the attack).
    """
    combat = campaign.combat
    if combat is None:
        return None
    return (
        f"A fight with {combat.monster.name} is on: change weapons with the fight's {CHANGE_WEAPON} action "
        "(instead of attacking); other equipment waits until the fight is over."
    )
