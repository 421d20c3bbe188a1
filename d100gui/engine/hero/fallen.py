"""The hall of the fallen: whether a campaign's hero has died, and how and when (from the log's death event).

A campaign is one hero's story. When the hero dies the engine lays the sheet to rest
(:func:`d100gui.engine.hero.health.lay_to_rest`): it joins ``Campaign.hall_of_fallen`` and
``Campaign.character`` is emptied. That pair, saved with the campaign like any other part, is
the mark the roster reads (:func:`fallen_hero`); a fallen campaign is kept read-only
(:func:`read_only_reason`), and the next hero starts a campaign of their own. The cause and the
date come from the death event in the log (:func:`death_in`), never from its sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from d100gui.engine.hero.model import Character
from d100gui.engine.model import Model

if TYPE_CHECKING:  # pragma: no cover
    from d100gui.engine.campaign import Campaign
    from d100gui.engine.game import LogEntry

#: the events that say the hero died: a fight's death, an HP-zero death outside one (traps, curses, costs)
DEATH_EVENTS = ("hero_died", "hero_fell")


class Death(Model):
    """How and when a hero died, as the log's death event tells it."""

    cause: str = ""  # the payload's reason or source ("" when it names none)
    foe: str = ""  # the monster of the fight the hero died in (its ``combat_started`` event), "" outside a fight
    at: str = ""  # the time of the log entry holding the death ("" when the log does not hold it)
    log_index: int | None = None


def fallen_hero(campaign: Campaign) -> Character | None:
    """The hero whose death closed ``campaign``, or None while it has a living hero (or none yet).

    A sheet marked dead but not laid to rest yet counts; a campaign whose hall holds a hero but
    which has a new living one (an older save's way) is not closed.
    """
    hero = campaign.character
    if hero is not None:
        return hero if hero.dead else None
    return campaign.hall_of_fallen[-1] if campaign.hall_of_fallen else None


def read_only_reason(campaign: Campaign) -> str:
    """Why ``campaign`` takes no more commands ("" while its hero lives): the dead stay as they fell."""
    hero = fallen_hero(campaign)
    if hero is None:
        return ""
    return f"{hero.name or 'This hero'} has fallen: this campaign is kept read-only in the hall of the fallen."


def cause_of(kind: str, data: Mapping[str, Any]) -> str:
    """The cause a death event's payload names (``reason`` of a fight's death, ``source`` of another)."""
    value = data.get("reason" if kind == "hero_died" else "source", "")
    return value if isinstance(value, str) else ""


def death_in(entries: Iterable[LogEntry]) -> Death | None:
    """The newest death event in ``entries`` (log entries, oldest first), or None; a fight's death names its
    monster when the fight's start is among the entries."""
    found: Death | None = None
    foe = ""
    for entry in entries:
        for event in entry.events:
            if event.kind == "combat_started":
                monster = event.data.get("monster")
                foe = str(monster.get("name", "")) if isinstance(monster, dict) else ""
            elif event.kind in DEATH_EVENTS:
                fight = foe if event.kind == "hero_died" else ""
                found = Death(cause=cause_of(event.kind, event.data), foe=fight, at=entry.at, log_index=entry.index)
    return found


def death_of(campaign: Campaign) -> Death | None:
    """How the fallen hero of ``campaign`` died, from the log it holds (the newest entries, when opened from a store)."""
    if fallen_hero(campaign) is None:
        return None
    return death_in(campaign.log) or Death()


def when(at: str) -> str:
    """A log time as the roster shows it: ``2026-12-01 11:05`` (the first 16 characters of ISO time)."""
    return at.replace("T", " ")[:16]


def describe(name: str, death: Death | None) -> str:
    """One line for the hall: "Wilma fell on 2026-12-01 11:05 (HP 0 and no Lives left)"."""
    who = name or "An unnamed hero"
    if death is None:
        return f"{who} has fallen."
    date = f" on {when(death.at)}" if death.at else ""
    cause = f" ({how(death)})" if how(death) else ""
    return f"{who} fell{date}{cause}."


def how(death: Death) -> str:
    """The cause in words: "HP 0 and no Lives left, fighting Orc" ("" when the log names none)."""
    return ", ".join(part for part in (death.cause, f"fighting {death.foe}" if death.foe else "") if part)
