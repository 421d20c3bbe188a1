"""Starting a fight: the ``StartCombat`` command, and the fights an event or a rolled result offers.

``StartCombat`` starts any fight the player asks for (:func:`~d100gui.engine.fight_commands.begin_fight`),
except that a monster the rules offer now (a wandering monster, a red area's) is fought through the
adventure's turn (``FaceOfferedMonster``), so the turn counts it: this module sits on a floor above the
adventure for that.

Views never decide on an event's kind or a table id whether a fight starts; they ask here.
:func:`follow_up` answers for an event the engine emitted (an escaped monster waiting in an
area must be faced), :func:`fight_from_roll` for a line of the dice history (a Table E result
is a monster to fight). Both are pure: they return the command to send, or ``None``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from d100gui.engine.adventure.turn import FaceOfferedMonster
from d100gui.engine.combat.monster import Monster
from d100gui.engine.command_registry import register_command
from d100gui.engine.dice.history import HistoryEntry
from d100gui.engine.dungeon.events import EscapedMonsterHere
from d100gui.engine.fight_commands import (
    CombatAttack,
    CombatBlockEscape,
    CombatCastSpell,
    CombatChangeWeapon,
    CombatChooseLoot,
    CombatContinue,
    CombatEscape,
    CombatFate,
    CombatOffset,
    CombatPass,
    CombatPerfectAim,
    CombatProvideRow,
    CombatUseBelt,
    FaceEscapedMonster,
    begin_fight,
    fight_may_start,
)
from d100gui.engine.game import Command, GameContext
from d100gui.engine.phases import START_FIGHT, Phases
from d100gui.engine.protocol import Event

#: Table E (Encounter): each of its rows is a monster.
ENCOUNTER_TABLE = "d100.E"


@register_command
class StartCombat(Command):
    """Start a fight: ``source`` ``table_e`` (roll Table E with the quest's encounter modifier,
    or use ``table_value`` already rolled), ``snake`` (Table G's GIANT SNAKE) or ``monster``
    (typed in). ``surprise`` forces a SURPRISE test (Table F: "it has SURPRISE").
    ``fate_windows``: stop after each roll while the hero has Fate."""

    kind: Literal["start_combat"] = "start_combat"
    when: ClassVar[Phases] = START_FIGHT
    source: Literal["table_e", "snake", "monster"] = "table_e"
    monster: Monster | None = None
    table_value: int | None = None
    modifier: int | None = None
    surprise: bool = False
    fate_windows: bool = True

    def apply(self, ctx: GameContext) -> list[Event]:
        fight_may_start(ctx.campaign)
        offer = ctx.campaign.adventure.fight_offered
        if offer is not None and self.source == "table_e" and self.table_value in (None, offer.table_roll.value):
            return FaceOfferedMonster().apply(ctx)  # the same fight as the turn's Fight: the turn counts it
        return begin_fight(ctx, self.source, self.monster, self.table_value, self.modifier, self.surprise, self.fate_windows)


COMBAT_COMMANDS: tuple[type[Command], ...] = (
    FaceEscapedMonster,
    StartCombat,
    CombatContinue,
    CombatFate,
    CombatAttack,
    CombatChangeWeapon,
    CombatCastSpell,
    CombatUseBelt,
    CombatEscape,
    CombatBlockEscape,
    CombatPass,
    CombatPerfectAim,
    CombatOffset,
    CombatChooseLoot,
    CombatProvideRow,
)


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
