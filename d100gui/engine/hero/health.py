"""HP at 0 or less, anywhere: RES first, then a Life (HP back to maximum), else the hero dies.

The rule lives here once. :func:`cheat_death` decides it on the character alone;
:func:`lay_to_rest` moves a dead hero's sheet to the campaign's hall of the fallen.
:func:`settle_hp` is both, for commands outside a fight (traps, food, poison); a fight calls
:func:`cheat_death` and then ends itself before :func:`lay_to_rest`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from d100gui.engine.hero.derive import derive
from d100gui.engine.hero.events import DeathCheated, HeroFell
from d100gui.engine.hero.model import Character
from d100gui.engine.rules.model import Rules

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign


def cheat_death(character: Character, rules: Rules, source: str = "") -> DeathCheated | HeroFell | None:
    """Apply the HP-zero rule to ``character``: None while HP is above 0.

    RES is used before a Life (the Resurrection spell says so); either brings HP back to the
    adjusted maximum. With neither, ``dead`` is set: the caller lays the sheet to rest.
    """
    if character.hp > 0:
        return None
    maximum = derive(character, rules).max_hp
    if character.res:
        character.res = False
        character.hp = maximum
        return DeathCheated(how="res", hp=maximum, lives=character.lives, source=source)
    if character.lives > 0:
        character.lives -= 1
        character.hp = maximum
        return DeathCheated(how="life", hp=maximum, lives=character.lives, source=source)
    character.dead = True
    return HeroFell(name=character.name, source=source)


def lay_to_rest(campaign: Campaign, character: Character) -> None:
    """A dead hero's sheet joins the hall of the fallen; the decisions and fight they left end with them."""
    if not any(fallen is character for fallen in campaign.hall_of_fallen):
        campaign.hall_of_fallen.append(character)
    if campaign.character is character:
        campaign.character = None
    campaign.pending = []
    campaign.combat = None


def settle_hp(campaign: Campaign, rules: Rules, source: str = "") -> DeathCheated | HeroFell | None:
    """The HP-zero rule for the campaign's hero outside a fight; a death lays the sheet to rest."""
    character = campaign.character
    if character is None:
        return None
    outcome = cheat_death(character, rules, source)
    if isinstance(outcome, HeroFell):
        lay_to_rest(campaign, character)
    return outcome
