"""Guards every hero command starts with: refuse a command, find the character it acts on.

:func:`refuse` raises :class:`~d100gui.engine.protocol.CommandRefused` (the game restores
the campaign and shows the message); it returns ``NoReturn`` so it reads as a guard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from d100gui.engine.protocol import CommandRefused

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.hero.model import Character


def refuse(message: str) -> NoReturn:
    """Refuse the command: nothing changes and the player reads ``message``."""
    raise CommandRefused(message)


def living_character(campaign: Campaign, *, created: bool = True) -> Character:
    """The campaign's character; refused if there is none, it is dead, or (``created``) unfinished."""
    ch = campaign.character
    if ch is None:
        refuse("There is no character yet: create one first.")
    if ch.dead:
        refuse(f"{ch.name or 'The character'} is dead.")
    if created and ch.creation is not None:
        refuse("Finish creating the character first.")
    return ch
