"""When a command may run: the declaration each command class carries (``Command.when``).

Every command class says, as a class variable, in which phases of the game it may run::

    class MoveHero(Command):
        kind: Literal["move_hero"] = "move_hero"
        when: ClassVar[Phases] = Phases(fight="no", quest="manual", town="no")

:mod:`d100gui.engine.gate` reads it before a command runs (``Game.execute``) and for the flow
query (which actions are greyed, and why). ``Command`` itself declares nothing, so a new
command class that forgets its declaration is refused (and a test walks every kind).

This module imports nothing of the app, so every command module may use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: "any": may run whether or not the phase is on; "no": refused while it is on;
#: "only": refused unless it is on; "manual" (quest only): runs during a quest as a hand correction
#: (marked manual in the log), never as a step of the turn
FightRule = Literal["any", "no", "only"]
QuestRule = Literal["any", "no", "only", "manual"]
TownRule = Literal["any", "no", "only"]


@dataclass(frozen=True)
class Phases:
    """When a command may run.

    ``fight``: while a fight is on (``Campaign.combat``); ``quest``: while a quest is under way
    (``Campaign.adventure.quest``); ``town``: in the middle of the between-quests phase
    (``Campaign.town.active``). ``why`` says, for a command that may run in a fight though it
    touches the dungeon, the quest or the town, which rule lets it (documentation; tests read it).
    No command runs on a fallen hero's campaign: that is not declared, it is the lock.
    """

    fight: FightRule = "no"
    quest: QuestRule = "any"
    town: TownRule = "no"
    why: str = ""


#: tools that read dice or tables and change no rule state: any time a hero lives
ANY_TIME = Phases(fight="any", quest="any", town="any")
#: a fight's own commands
FIGHT_ONLY = Phases(fight="only", quest="any", town="no")
