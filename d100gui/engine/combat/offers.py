"""What the rules call for next: the fights an event or a rolled result offers.

Views never decide on an event's kind or a table id whether a fight starts; they ask here.
``follow_up`` answers for an event the engine emitted (an escaped monster waiting in an
area must be faced), ``fight_from_roll`` for a line of the dice history (a Table E result
is a monster to fight). Both are pure: they return the command to send, or ``None``.
"""

from __future__ import annotations

from d100gui.engine.combat.commands import FaceEscapedMonster, StartCombat
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dungeon.events import EscapedMonsterHere
from d100gui.engine.game import Command
from d100gui.engine.protocol import Event

#: Table E (Encounter): each of its rows is a monster.
ENCOUNTER_TABLE = "d100.E"


def follow_up(event: Event) -> Command | None:
    """The command the rules require right after ``event``, or ``None`` when the player chooses.

    Entering an area where the hero escaped a monster means meeting it again (at full HP).
    """
    if event.kind == EscapedMonsterHere.event_kind:
        payload = event.payload()
        if isinstance(payload, EscapedMonsterHere):
            return FaceEscapedMonster(pos=payload.pos)
    return None


def fight_from_roll(entry: HistoryEntry) -> StartCombat | None:
    """The fight a dice-history line offers: a Table E roll that found its row starts one."""
    table = entry.table
    if table is None or table.table_id != ENCOUNTER_TABLE or table.row is None:
        return None
    return StartCombat(source="table_e", table_value=entry.roll.final)
