"""Every event the spell book, casting, curses and boosts emit, declared once with a typed payload.

The spell book view renders from these and from
:func:`d100gui.engine.magic.book.positions`; a curse or boost carries its whole result
(:class:`~.curses.CurseResult`, :class:`~.boosts.BoostResult`), so a view never reads the
sentence to know what happened.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.magic.boosts import BoostResult
from d100gui.engine.magic.casting import EffectKind
from d100gui.engine.magic.curses import CurseResult
from d100gui.engine.protocol import Payload, declare

SpellSource = Literal["table", "scroll", "market", "name"]


@declare("magic_spell_learned", topic="character")
class SpellLearned(Payload):
    """``spell`` was written at book position ``index`` (from 0), the first free one."""

    spell: str
    index: int
    source: SpellSource = "name"
    table_roll: TableRoll | None = None


@declare("magic_spell_roll_missing", topic="dice")
class SpellRowMissing(Payload):
    """A Table S roll fell on a row the player's tables lack: nothing was written; type the row in first."""

    table_roll: TableRoll


@declare("magic_spell_removed", topic="character")
class SpellRemoved(Payload):
    """The spell at book position ``index`` was removed; the other spells keep their positions."""

    spell: str
    index: int


@declare("magic_cast", topic="character")
class SpellCast(Payload):
    """A spell was cast outside a fight: the cost paid, then CAST SPELL (``target``, ``roll``, ``success``)."""

    spell: str
    source: Literal["book", "scroll"]
    paid: list[str] = Field(default_factory=list)
    target: int | None = None
    roll: RollRecord | None = None
    success: bool | None = None  # None: the cost killed the caster before the test


@declare("magic_spell_effect", topic="character")
class SpellTookEffect(Payload):
    """The cast spell worked. ``effect`` ``open_magic_seal``: the dungeon opens the magic-sealed door."""

    spell: str
    effect: EffectKind
    hp: int | None = None


@declare("magic_curse", topic="character")
class CurseApplied(Payload):
    """Table C was rolled and applied (``result.missing``: the row is to be typed in, nothing applied)."""

    result: CurseResult


@declare("magic_curse_row_missing", topic="decision")
class CurseRowMissing(Payload):
    """A Table C roll outside a fight fell on a row the player's tables lack: the curse waits for the row
    (``provide_curse_row``: typed from the rulebook, or re-rolled among the printed rows this time)."""

    table_roll: TableRoll


@declare("magic_boost", topic="character")
class BoostApplied(Payload):
    """Table B was rolled and applied (``result.door_released``: the map opens a closed door)."""

    result: BoostResult
