"""The wandering monster of a dungeon level: the check, the matrix, the monster level table, how many.

At the end of a turn a d6 shows 6 when a wandering monster appears. The matrix is read in the
column of the level beneath the surface and names a monster level table; that table names
the monster, with any dice its entry holds (a hydra's heads). How many: the text bases it on
one creature where the monster's level roughly matches the dungeon level, more for kinds that
come in groups (the referee's call), and scales it by the party: 1-3 adventurers draw the
basic number, 4-6 about twice as many, and so on.
"""

from __future__ import annotations

import math
import re

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.levels import check_level, matrix_column
from d100gui.engine.toolbox.classic.meeting import Meeting, distances, meet, meeting_numbers, surprise_face
from d100gui.engine.toolbox.classic.rules_data import ITEM_RULES_TABLE, rule_text
from d100gui.engine.toolbox.inputs import in_range

__all__ = [
    "MATRIX_TABLE",
    "WanderingCheck",
    "WanderingMonster",
    "meet_wandering",
    "wandering_check",
    "wandering_monster",
    "wandering_monster_inputs",
]

MATRIX_TABLE = "classic.monster_determination_matrix"
WANDERING_DIE = "1d6"
WANDERING_ON = 6  # the end-of-turn d6 brings one on a 6
PARTY_STEP = 3  # each three adventurers (or part) draw the basic number once more
MAX_PARTY = 1000
REACTION_TABLE = "classic.monster_random_actions"
MAX_ENTRIES = 20  # ways into the place the monster may come from
MAX_REACTION_MODIFIER = 10


class WanderingCheck(Model):
    roll: RollRecord
    on: int = WANDERING_ON  # the face that brings one (the item rules table's)

    @property
    def appeared(self) -> bool:
        return self.roll.final >= self.on

    def describe(self) -> str:
        return f"Wandering monster check: {self.roll.final}: " + ("a monster appears." if self.appeared else "nothing comes.")


def wandering_check(dice: Dice, on: int = WANDERING_ON, die: str = WANDERING_DIE) -> WanderingCheck:
    """The end-of-turn check: a 6 (``on``, as the rules table prints it) on a d6 (``die``, the table's) brings a
    wandering monster."""
    return WanderingCheck(roll=dice.roll(die, "wandering monster check"), on=on)


class WanderingMonster(Model):
    """The matrix roll in the level's column, the monster level table's roll, and the number to base it on."""

    level: int
    party_size: int
    matrix: TableRoll
    monster: TableRoll
    direction: RollRecord | None = None  # which of the ways in it comes from
    entries: int = 0
    meeting: Meeting | None = None
    reaction: TableRoll | None = None
    party_step: int = PARTY_STEP  # the party that draws the basic number: 1 to this (the item rules table's)

    @property
    def monster_level(self) -> int:
        level = self.monster.table_id.rsplit("_", 1)[-1]
        return int(level) if level.isdigit() else 0  # 0: the matrix row is still missing

    @property
    def party_factor(self) -> int:
        """1 for 1-3 adventurers, 2 for 4-6, and so on."""
        return math.ceil(self.party_size / self.party_step)

    @property
    def name(self) -> str:
        return self.monster.text

    def describe(self) -> str:
        if self.matrix.row is None or self.monster.row is None:
            missing = self.matrix if self.matrix.row is None else self.monster
            return f"Level {self.level}: {missing.describe()}: type the row from your rulebook when asked"
        extra = "".join(f"; {d.describe()}" for d in self.monster.dice)
        text = (
            f"Level {self.level}: {self.matrix.text} (rolled {self.matrix.value}) -> {self.name}{extra} "
            f"(rolled {self.monster.value}); number: the basic number for the kind x {self.party_factor} "
            f"for a party of {self.party_size}"
        )
        if self.direction is not None:
            text += f"; comes by way {self.direction.final} of {self.entries}"
        if self.meeting is not None:
            text += f"; {self.meeting.describe()}"
        if self.reaction is not None:
            text += f"; if it acts on its own: {self.reaction.text} ({self.reaction.value})"
        return text


def wandering_monster_inputs(level: int, party_size: int) -> None:
    """Refuse a dungeon level under 1 or a party of none, before anything is rolled."""
    check_level(level)
    in_range("Party size", party_size, 1, MAX_PARTY)


def wandering_monster(roller: TableRoller, level: int, party_size: int = 3) -> WanderingMonster:
    """Roll the matrix in ``level``'s column, then the monster level table it names."""
    wandering_monster_inputs(level, party_size)
    column = matrix_column(roller.library.get(MATRIX_TABLE), level)
    matrix = roller.roll(MATRIX_TABLE, f"wandering monster, level {level}", column=column)
    links = roller.links(matrix)
    # a matrix row the player's tables lack: asked for like the dice panel's, the monster level waits for it
    [monster] = roller.follow(links[0], f"monster level table ({matrix.text})") if links else [matrix]
    printed = re.findall(r"\d+", rule_text(roller.library, ITEM_RULES_TABLE, "A party drawing the basic number"))
    step = int(printed[-1]) if printed and int(printed[-1]) > 0 else PARTY_STEP
    return WanderingMonster(level=level, party_size=party_size, matrix=matrix, monster=monster, party_step=step)


def meet_wandering(
    roller: TableRoller, monster: WanderingMonster, entries: int = 0, reaction_modifier: int = 0, surprise: bool = True
) -> WanderingMonster:
    """Where it comes from (one of ``entries`` ways in), surprise and distance, and its reaction (2d6, modified)."""
    in_range("Ways in", entries, 0, MAX_ENTRIES)
    in_range("Reaction modifier", reaction_modifier, -MAX_REACTION_MODIFIER, MAX_REACTION_MODIFIER)
    direction = roller.dice.roll(f"1d{entries}", "which way it comes") if entries > 1 else None
    meeting = meet(
        roller.dice, "underworld", surprise, surprise_face(roller), distances(roller, "underworld"),
        meeting_numbers(roller, "underworld"),
    )  # fmt: skip
    reaction = (
        roller.roll(REACTION_TABLE, "its reaction", reaction_modifier, "bribes, fear, alignment")
        if REACTION_TABLE in roller.library
        else None
    )
    return monster.model_copy(update={"direction": direction, "entries": entries, "meeting": meeting, "reaction": reaction})
