"""Meeting monsters: how far away they are first seen, and who is surprised.

Both classic procedures use it: in the underworld monsters are seen at 20-80 feet (a pair of
d4, in tens of feet), in the wilderness at 40-240 yards (the same inches read as tens of
yards: 4d6 tens). Where surprise is possible each side rolls a d6 and is surprised on a 1 or
2; if anyone is, the distance is 10-30 (a d3, in tens) feet or yards instead.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.roller import TableRoller

__all__ = ["Meeting", "Where", "meet", "surprise_face"]

Where = Literal["underworld", "wilderness"]
#: (dice, times, unit) of the sighting distance where nobody is surprised
SIGHTING: dict[Where, tuple[str, int, str]] = {"underworld": ("2d4", 10, "feet"), "wilderness": ("4d6", 10, "yards")}
SURPRISE_DISTANCE = ("1d3", 10)
SURPRISE_DIE = "1d6"
SURPRISED_ON = 2  # a side is surprised on 1-2
CIRCLE_FROM = 3  # wilderness: 3 or more monsters that surprise the party surround it
ATTACK_DISTANCE = 10  # monsters this close can attack at once


class Meeting(BaseModel):
    """The surprise dice (none when surprise was not possible) and the distance they lead to."""

    where: Where
    party_die: RollRecord | None = None  # the party's d6: 1-2 and the party is surprised
    monster_die: RollRecord | None = None
    distance_roll: RollRecord
    times: int = 10
    unit: str = "feet"
    surprised_on: int = SURPRISED_ON  # a side is surprised at or under this face (the stocking rules table's)

    @property
    def party_surprised(self) -> bool:
        return self.party_die is not None and self.party_die.final <= self.surprised_on

    @property
    def monsters_surprised(self) -> bool:
        return self.monster_die is not None and self.monster_die.final <= self.surprised_on

    @property
    def distance(self) -> int:
        return self.distance_roll.final * self.times

    def describe(self) -> str:
        if self.party_die is None:
            surprise = "no surprise possible"
        else:
            sides = [n for n, s in (("the party", self.party_surprised), ("the monsters", self.monsters_surprised)) if s]
            surprise = f"surprised: {' and '.join(sides)}" if sides else "nobody surprised"
            surprise += f" (party {self.party_die.final}, monsters {self.monster_die.final if self.monster_die else '-'})"
        close = "; close enough to attack" if self.distance <= ATTACK_DISTANCE else ""
        circle = (
            f"; if there are {CIRCLE_FROM} or more monsters, they have moved into a circle around the party"
            if self.where == "wilderness" and self.party_surprised
            else ""
        )
        return f"{surprise}; {self.distance} {self.unit} away{close}{circle}"


RULES_TABLE = "classic.stocking_rules"  # where the text's "a roll of 1 or 2 indicates the party is surprised" is kept


def surprise_face(roller: TableRoller) -> int:
    """The top face a side is surprised on, as the player's rules table prints it (the text's 2 without it)."""
    table = roller.library.get(RULES_TABLE) if RULES_TABLE in roller.library else None
    row = table.find_key("Surprised") if table is not None else None
    value = row.fields.get("value", "") if row is not None else ""
    return int(value.rpartition("-")[2]) if value else SURPRISED_ON


def meet(dice: Dice, where: Where, surprise_possible: bool = True, surprised_on: int = SURPRISED_ON) -> Meeting:
    """Roll surprise for both sides (when it is possible), then the distance it leads to; a side is surprised at
    or under ``surprised_on`` (the text's 2, or the player's table's)."""
    party = dice.roll(SURPRISE_DIE, "surprise: the party") if surprise_possible else None
    monsters = dice.roll(SURPRISE_DIE, "surprise: the monsters") if surprise_possible else None
    surprised = any(d is not None and d.final <= surprised_on for d in (party, monsters))
    sighting, times, unit = SIGHTING[where]
    dice_text, times = SURPRISE_DISTANCE if surprised else (sighting, times)
    distance = dice.roll(dice_text, "distance when met (tens)")
    return Meeting(
        where=where, party_die=party, monster_die=monsters, distance_roll=distance, times=times, unit=unit,
        surprised_on=surprised_on,
    )  # fmt: skip
