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
    offer: Literal["any", "no"] = "any"  # "no": refused while an offered monster waits to be fought
    why: str = ""
    instead: str = ""  # what to do instead when the phase refuses it (e.g. "use the turn: click an exit")


#: tools that read dice or tables and change no rule state: any time a hero lives
ANY_TIME = Phases(fight="any", quest="any", town="any", why="a dice or table tool: it moves nothing in the game")
#: a fight's own commands
FIGHT_ONLY = Phases(fight="only", quest="any", town="no")
#: making a hero (there is no quest, fight or town phase before the hero is made)
CREATION = Phases(fight="no", quest="no", town="no")
#: the hero's own gear and sheet outside a fight (step 1 of a turn, or between quests)
OUTSIDE_FIGHT = Phases(fight="no", quest="any", town="any")
#: the between-quests phase's own steps
TOWN_ONLY = Phases(fight="no", quest="no", town="only")
#: the quest's own procedure (the turn, completing or failing it)
QUEST_ONLY = Phases(fight="no", quest="only", town="no", offer="no")
#: choosing and starting the next quest (no quest under way, the town phase closed)
BETWEEN_QUESTS = Phases(fight="no", quest="no", town="no", offer="no")
#: a map command outside the turn: free play outside a quest, refused during one (the turn does it)
MAP_MOVE = Phases(fight="no", quest="no", town="no", offer="no", instead="use the turn: click an exit of the hero's area")
#: a map edit: free outside a quest, a hand correction (marked manual in the log) during one
MAP_EDIT = Phases(fight="no", quest="manual", town="no")
#: the player's own notes and sheet corrections: no rule reads them in the middle of a fight
NOTES = Phases(fight="any", quest="any", town="any", why="the player's own notes: no rule reads them")
#: a hand correction of the hero's sheet (marked manual in the log): the player's word over the engine's
SHEET_FIX = Phases(fight="any", quest="any", town="any", why="a hand correction of the sheet, marked in the log")
#: answering what waits for the player (a decision, a test, a typed row): whatever waits is answered where it waits
ANSWER = Phases(fight="any", quest="any", town="any", why="it answers a decision, a test or a row that waits now")
#: a new mapping sheet: a hand correction during a quest (a sheet that ran out of room), refused in the town phase
NEW_SHEET = Phases(fight="no", quest="manual", town="no", offer="no")
#: leaving by the entrance, a secret passage, a door tried, the time track: in the dungeon, never in a fight
IN_DUNGEON = Phases(fight="no", quest="any", town="no", offer="no")
LEAVE = IN_DUNGEON
SECRET = IN_DUNGEON
#: a fight begins: never inside another, never in the town phase
START_FIGHT = Phases(fight="no", quest="any", town="no")
#: typing a missing Table D row names a door already on the map: nothing moves, so a fight does not stop it
DOOR_ROW = Phases(fight="any", quest="any", town="no", why="typing a door's missing row only names a door already mapped")
#: the classic-rules toolbox: its own tables, clocks and encounters, apart from the d100 game's fight, quest and town
TOOLBOX = Phases(fight="any", quest="any", town="any", why="a classic-rules tool: its own tables and clocks, not the d100 game's")
#: facing the monster that waits (a wandering monster, a red area's, an effect's): in or out of a quest
FACE_OFFER = Phases(fight="no", quest="any", town="no")
#: the Table E row an offered monster's roll needs (typed from the rulebook): answers what waits
OFFER_ROW = Phases(fight="no", quest="any", town="no")
