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
from d100gui.engine.toolbox.classic.rules_data import rule_range_dice, rule_text

__all__ = ["Distances", "Meeting", "Where", "distances", "meet", "surprise_face"]

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


#: (sighting dice, dice when surprised, times, unit)
Distances = tuple[str, str, int, str]
_DISTANCE_KEYS: dict[Where, tuple[str, str]] = {
    "underworld": ("Sighting: underworld", "Distance when surprised: underworld"),
    "wilderness": ("Sighting: wilderness", "Distance when surprised: wilderness"),
}


def _text_distances(where: Where) -> Distances:
    sighting, times, unit = SIGHTING[where]
    return sighting, SURPRISE_DISTANCE[0], times, unit


def distances(roller: TableRoller, where: Where) -> Distances:
    """The sighting and surprise distances as the rules table prints them ("20-80 feet": 2d4 tens of feet,
    "10-30 feet": a d3 of tens); the text's where the player's table lacks a row."""
    sighting, surprised, times, unit = _text_distances(where)
    seen_key, surprised_key = _DISTANCE_KEYS[where]
    seen = rule_text(roller.library, RULES_TABLE, seen_key).split()
    printed_unit = seen[-1] if len(seen) > 1 and seen[-1].isalpha() else unit
    return (
        rule_range_dice(roller.library, RULES_TABLE, seen_key, sighting, step=times),
        rule_range_dice(roller.library, RULES_TABLE, surprised_key, surprised, step=times),
        times,
        printed_unit,
    )


def meet(
    dice: Dice,
    where: Where,
    surprise_possible: bool = True,
    surprised_on: int = SURPRISED_ON,
    at: Distances | None = None,
) -> Meeting:
    """Roll surprise for both sides (when it is possible), then the distance it leads to; a side is surprised at
    or under ``surprised_on`` (the text's 2, or the player's table's); ``at`` is the distances (the text's by
    default, or the player's table's from :func:`distances`)."""
    party = dice.roll(SURPRISE_DIE, "surprise: the party") if surprise_possible else None
    monsters = dice.roll(SURPRISE_DIE, "surprise: the monsters") if surprise_possible else None
    surprised = any(d is not None and d.final <= surprised_on for d in (party, monsters))
    sighting, when_surprised, times, unit = at if at is not None else _text_distances(where)
    dice_text = when_surprised if surprised else sighting
    distance = dice.roll(dice_text, "distance when met (tens)")
    return Meeting(
        where=where, party_die=party, monster_die=monsters, distance_roll=distance, times=times, unit=unit,
        surprised_on=surprised_on,
    )  # fmt: skip
