"""Meeting monsters: how far away they are first seen, and who is surprised.

Both classic procedures use it: in the underworld monsters are seen at 20-80 feet (a pair of
d4, in tens of feet), in the wilderness at 40-240 yards (the same inches read as tens of
yards: 4d6 tens). Where surprise is possible each side rolls a d6 and is surprised on a 1 or
2; if anyone is, the distance is 10-30 (a d3, in tens) feet or yards instead.
"""

from __future__ import annotations

from typing import Literal

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.roller import TableRoller
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import rule_die, rule_number, rule_range_dice, rule_text

__all__ = ["Distances", "Meeting", "MeetingNumbers", "Where", "distances", "meet", "meeting_numbers", "surprise_face"]

Where = Literal["underworld", "wilderness"]
#: (dice, times, unit) of the sighting distance where nobody is surprised
SIGHTING: dict[Where, tuple[str, int, str]] = {"underworld": ("2d4", 10, "feet"), "wilderness": ("4d6", 10, "yards")}
SURPRISE_DISTANCE = ("1d3", 10)
SURPRISE_DIE = "1d6"
SURPRISED_ON = 2  # a side is surprised on 1-2
CIRCLE_FROM = 3  # wilderness: 3 or more monsters that surprise the party surround it
ATTACK_DISTANCE = 10  # monsters this close can attack at once


class Meeting(Model):
    """The surprise dice (none when surprise was not possible) and the distance they lead to."""

    where: Where
    party_die: RollRecord | None = None  # the party's d6: 1-2 and the party is surprised
    monster_die: RollRecord | None = None
    distance_roll: RollRecord
    times: int = 10
    unit: str = "feet"
    surprised_on: int = SURPRISED_ON  # a side is surprised at or under this face (the stocking rules table's)
    attack_distance: int = ATTACK_DISTANCE  # monsters this close can attack at once (the rules table's)
    circle_from: int = CIRCLE_FROM  # wilderness: this many monsters surprising the party circle it (the rules table's)

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
        close = "; close enough to attack" if self.distance <= self.attack_distance else ""
        circle = (
            f"; if there are {self.circle_from} or more monsters, they have moved into a circle around the party"
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


class MeetingNumbers(Model):
    """The surprise die, how close monsters attack from, and how many circle a surprised party (wilderness)."""

    die: str = SURPRISE_DIE
    attack_distance: int = ATTACK_DISTANCE
    circle_from: int = CIRCLE_FROM


def meeting_numbers(roller: TableRoller, where: Where) -> MeetingNumbers:
    """The meeting's numbers as the stocking rules table prints them ("d6", "10 yards", "3 or more"); the text's
    for a row the player's table lacks."""
    library = roller.library
    return MeetingNumbers(
        die=rule_die(library, RULES_TABLE, "Surprise die", SURPRISE_DIE),
        attack_distance=rule_number(library, RULES_TABLE, f"Attack distance: {where}", ATTACK_DISTANCE),
        circle_from=rule_number(library, RULES_TABLE, "Monsters circle a surprised party: wilderness", CIRCLE_FROM),
    )


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
    numbers: MeetingNumbers | None = None,
) -> Meeting:
    """Roll surprise for both sides (when it is possible), then the distance it leads to; a side is surprised at
    or under ``surprised_on`` (the text's 2, or the player's table's); ``at`` is the distances (the text's by
    default, or the player's table's from :func:`distances`); ``numbers`` the surprise die, attack distance and
    circle (the text's by default, or the player's table's from :func:`meeting_numbers`)."""
    n = numbers or MeetingNumbers()
    party = dice.roll(n.die, "surprise: the party") if surprise_possible else None
    monsters = dice.roll(n.die, "surprise: the monsters") if surprise_possible else None
    surprised = any(d is not None and d.final <= surprised_on for d in (party, monsters))
    sighting, when_surprised, times, unit = at if at is not None else _text_distances(where)
    dice_text = when_surprised if surprised else sighting
    distance = dice.roll(dice_text, "distance when met (tens)")
    return Meeting(
        where=where, party_die=party, monster_die=monsters, distance_roll=distance, times=times, unit=unit,
        surprised_on=surprised_on, attack_distance=n.attack_distance, circle_from=n.circle_from,
    )  # fmt: skip
