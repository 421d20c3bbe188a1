"""Passing a castle: whether its occupants come out, who they are, what rides with them.

Occupants come out on a d6 of 1-3 when the party crosses the castle's hex, 1-2 one hex away,
1 two hexes away, and always when a party that looks weak hails the castle from its hex.
The occupant is a d6 on the occupant table; a d4 picks the column of its guards or
retainers, whose number is the die the cell names ("Griffons*6": a d6, with as many Heroes
riding them). Patriarchs are Lawful and Evil High Priests Chaotic; everyone else is hostile
on a d6 of 1-3, else neutral. 30-180 men (a d6 x 30) man the walls, half crossbow-armed
light foot, half heavy foot. The resident's class may bring companions on their chances.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import MissingRowPolicy, TableRoll, TableRoller
from d100gui.engine.dice.tables import Table
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import a_die, percent_die
from d100gui.engine.toolbox.inputs import in_range

__all__ = ["OCCUPANT_TABLE", "CastleCompanion", "CastleEncounter", "castle_encounter"]

OCCUPANT_TABLE = "classic.castle_occupant"
COMPANIONS_TABLE = "classic.castle_companions"
RULES_TABLE = "classic.castle_rules"
MAX_HEXES = 2  # on the hex, one away, two away: the text's three distances
_COME_OUT_KEYS = ("Come out: on the castle hex", "Come out: one hex away", "Come out: two hexes away")
_TOLL_KEYS = {"Fighting-Men": "Fighting-man's toll", "MU": "Magic-user's toll"}
#: Patriarchs and Evil High Priests have an alignment, not a hostile/neutral die: pursue as these
PURSUE_AS = {"lawful": "neutral", "chaotic": "hostile"}
GUARD_COLUMNS = "1d4"
ALIGNED = {"Patriarch": "Lawful", "Evil H.P.": "Chaotic"}
_AMOUNT = re.compile(r"([\d,]+)\s*(?:to|-)\s*([\d,]+)")


def guard_columns(roller: TableRoller) -> str:
    """The die for the guards' column: one face per guards column the occupant table prints (the text's four)."""
    table = roller.library.get(OCCUPANT_TABLE) if OCCUPANT_TABLE in roller.library else None
    count = sum(1 for c in table.columns if c.key.startswith("guards_")) if table is not None else 0
    return f"1d{count}" if count > 1 else GUARD_COLUMNS


class CastleNumbers(Model):
    """The castle procedure's numbers as ``classic.castle_rules`` prints them (the text's, when the player lacks it)."""

    come_out: tuple[int, int, int] = (3, 2, 1)  # d6 at or under, by hexes away (0, 1, 2)
    hostile: int = 3
    pursue: dict[str, int] = Field(default_factory=lambda: {"hostile": 3, "neutral": 1})
    walls: tuple[str, int] = ("1d6", 30)  # 30 to 180 men: a d6 times 30
    tolls: dict[str, tuple[str, int]] = Field(default_factory=lambda: {"Fighting-Men": ("1d6", 100), "MU": ("1d4", 1000)})
    tithe: int = 10


def _top_face(text: str) -> int:
    return int(text.strip().rpartition("-")[2])


def _die_times(text: str) -> tuple[str, int] | None:
    """ "100 to 600" as one die times the bottom (1d6 x 100), as the other ranges of the texts are read."""
    match = _AMOUNT.search(text)
    if match is None:
        return None
    low, high = (int(g.replace(",", "")) for g in match.groups())
    return (f"1d{high // low}", low) if low and high % low == 0 else None


def castle_numbers(table: Table | None) -> CastleNumbers:
    """The numbers of ``table``; a row it lacks keeps the text's."""
    numbers = CastleNumbers()
    if table is None:
        return numbers

    def cell(key: str) -> str:
        row = table.find_key(key)
        return row.fields.get("value", "") if row is not None else ""

    come_out = tuple(_top_face(cell(k)) if cell(k) else d for k, d in zip(_COME_OUT_KEYS, numbers.come_out, strict=True))
    pursue = {"hostile": cell("Pursue if hostile"), "neutral": cell("Pursue if neutral")}
    tolls = {who: _die_times(cell(key)) or numbers.tolls[who] for who, key in _TOLL_KEYS.items()}
    tithe = re.search(r"\d+", cell("Cleric's tithe"))
    return numbers.model_copy(
        update={
            "come_out": come_out,
            "hostile": _top_face(cell("Hostile")) if cell("Hostile") else numbers.hostile,
            "pursue": {k: _top_face(v) if v else numbers.pursue[k] for k, v in pursue.items()},
            "walls": _die_times(cell("Men on the walls")) or numbers.walls,
            "tolls": tolls,
            "tithe": int(tithe.group()) if tithe else numbers.tithe,
        }
    )


_CHANCE = re.compile(r"(\d+)%(?: chance)? for (?:\d+-\d+ )?([A-Za-z-]+)")
Attitude = Literal["hostile", "neutral", "lawful", "chaotic"]


class CastleCompanion(Model):
    """One chance of the companions table: who, the chance, its roll, and (when present) their level."""

    who: str
    chance: int
    roll: RollRecord
    level: int | None = None
    count: int | None = None

    @property
    def present(self) -> bool:
        return self.roll.final <= self.chance

    def describe(self) -> str:
        if not self.present:
            return f"no {self.who} ({self.roll.final} against {self.chance}%)"
        count = f"{self.count} " if self.count else ""
        level = f", level {self.level}" if self.level else ""
        return f"{count}{self.who}{level}"


class CastleEncounter(Model):
    """The come-out die, and when they come out: occupant, guards, attitude, men on the walls, companions."""

    hexes: int
    hailed: bool = False
    come_out_roll: RollRecord | None = None
    comes_out: bool
    occupant: TableRoll | None = None
    guard_column: RollRecord | None = None
    attitude_roll: RollRecord | None = None
    attitude: Attitude | None = None
    wall_men: RollRecord | None = None
    companions: list[CastleCompanion] = Field(default_factory=list)
    toll: RollRecord | None = None
    toll_times: int = 1
    resident: str = ""  # the companions row: Fighting-Men, MU or Cleric
    pursue_roll: RollRecord | None = None  # the party moved on: do they pursue?
    numbers: CastleNumbers = Field(default_factory=CastleNumbers)  # the table's numbers this encounter was read with

    @property
    def pursues(self) -> bool:
        if self.pursue_roll is None or self.attitude is None:
            return False
        return self.pursue_roll.final <= self.numbers.pursue[PURSUE_AS.get(self.attitude, self.attitude)]

    @property
    def men_on_walls(self) -> int:
        return self.wall_men.final * self.numbers.walls[1] if self.wall_men else 0

    def demands(self, occupant: str) -> list[str]:
        """What the resident asks of passers-by, by class: a joust or a toll, a geas or a magic item, a tithe."""
        toll = f"{self.toll.final * self.toll_times:,} GP" if self.toll is not None else ""
        if self.resident == "Fighting-Men":
            return [
                "a joust with any passer-by of like class (Chainmail rules): if the lord wins he takes the loser's armor; "
                "if the character wins, the lord hosts the whole party for up to 1 month, supplies 2 weeks of rations "
                "and Heavy warhorses if the party needs them",
                f"toll if demanded: {toll} (of passers-by not of like class)",
            ]
        if self.resident == "MU":
            if self.attitude != "hostile":
                return [
                    "sends the party after treasure by Geas: the MU takes at least 1/2 of it and first choice of magic "
                    "(Miscellaneous Magic, then Wands/Staves, then Rings, before anything else)"
                ]
            return [f"a magical item as toll; with none suitable for the MU's use, a toll of {toll}"]
        if self.resident == "Cleric":
            slay = (
                "; an Evil High Priest simply tries to slay Lawful or Neutral passers-by who fail to pay"
                if occupant == "Evil H.P."
                else ""
            )
            return [
                f"a tithe ({self.numbers.tithe}%) of all their money and jewels; if they cannot pay, a Lawful or Chaotic "
                f"task under Quest{slay}"
            ]
        return [f"toll if demanded: {toll}"] if toll else []

    def describe(self) -> str:
        where = "on the castle's hex" if self.hexes == 0 else f"{self.hexes} hex(es) from the castle"
        needs = self.numbers.come_out[self.hexes]
        die = f" (die {self.come_out_roll.final}, needs {needs} or less)" if self.come_out_roll else " (hailed)"
        if not self.comes_out or self.occupant is None:
            return f"Passing {where}: nobody comes out{die}."
        if self.occupant.row is None:
            return f"Passing {where}: they come out{die}; {self.occupant.describe()}: type the row when asked."
        guards = self.occupant.text + "".join(f" = {d.value}" for d in self.occupant.dice)
        riders = " with as many Heroes riding" if "*" in self.occupant.text else ""
        occupant = self.occupant.row.fields["occupant"] if self.occupant.row else "?"
        parts = [
            f"Passing {where}: they come out{die}",
            f"{occupant} ({self.attitude}), guards: {guards}{riders}",
            f"{self.men_on_walls} men on the walls (half crossbow light foot, half heavy foot)",
        ]
        parts += [c.describe() for c in self.companions]
        parts += self.demands(occupant)
        if self.pursue_roll is not None:
            chase = "they pursue: try to evade them as monsters" if self.pursues else "they let the party go"
            parts.append(f"the party moves on, die {self.pursue_roll.final}: {chase}")
        return "; ".join(parts)


def _companions(roller: TableRoller, occupant: TableRoll) -> tuple[str, list[CastleCompanion]]:
    link = next((link for link in roller.links(occupant) if link.table == COMPANIONS_TABLE and link.key), None)
    if link is None:
        return "", []
    [row_roll] = roller.follow(link, "castle companions")
    row = row_roll.row
    assert row is not None  # a pointed-at row exists (the pack's links are checked)
    found = []
    for chance, who in _CHANCE.findall(row.fields.get("chance", "")):
        roll = roller.dice.roll(percent_die(roller.library), f"castle companions: {who} ({chance}%)?")
        companion = CastleCompanion(who=who, chance=int(chance), roll=roll)
        if companion.present:  # the row's level and number dice were rolled when it was read
            stem = who[:5].lower()
            for rolled in row_roll.dice:
                if rolled.value is not None and stem in rolled.spec.label.lower():
                    key = "level" if rolled.spec.label.startswith("level") else "count"
                    companion = companion.model_copy(update={key: rolled.value})
        found.append(companion)
    return row.key, found


def _occupant(roller: TableRoller, die: RollRecord, column: str) -> TableRoll:
    """The occupant row the d6 points at; a row the player's table lacks is left missing (policy "ask": the
    dice history asks for it) or, by the "re-roll" policy, the table's die is rolled again among its rows."""
    table = roller.library.get(OCCUPANT_TABLE)
    if table.find(die.final) is not None:
        read = roller.read(OCCUPANT_TABLE, die.final, column=column, purpose="castle occupant")
        return read.model_copy(update={"roll": die, "fixed": False})
    if roller.policy is MissingRowPolicy.REROLL and table.die is not None:
        again = roller.roll(OCCUPANT_TABLE, "castle occupant", column=column)
        return again.model_copy(update={"sample": True, "discarded": [die, *again.discarded]})
    missing = TableRoll(table_id=table.id, table_title=table.title, roll=die, column=column)
    return missing.model_copy(update={"missing": table.gap_containing(die.final)})


def castle_encounter(roller: TableRoller, hexes: int, hailed: bool = False, moving_on: bool = False) -> CastleEncounter:
    """Pass a castle ``hexes`` away (0: on its hex; ``hailed`` by a weak-looking party there); ``moving_on``:
    the party goes its way, and the occupants who came out may pursue. The numbers are the castle rules table's."""
    in_range("Hexes from the castle", hexes, 0, MAX_HEXES)
    dice = roller.dice
    n = castle_numbers(roller.library.get(RULES_TABLE) if RULES_TABLE in roller.library else None)
    always = hailed and hexes == 0
    die = a_die(roller.library)  # "(die 1-3)": the text's bare die
    come_out = None if always else dice.roll(die, "do the castle's occupants come out?")
    if come_out is not None and come_out.final > n.come_out[hexes]:
        return CastleEncounter(hexes=hexes, hailed=hailed, come_out_roll=come_out, comes_out=False, numbers=n)
    occupant_die = dice.roll(roller.library.get(OCCUPANT_TABLE).die or die, "castle occupant")
    column = dice.roll(guard_columns(roller), "castle guards: which column")
    occupant = _occupant(roller, occupant_die, f"guards_{column.final}")
    if occupant.row is None:  # a row the player's table lacks: asked for like the dice panel's, the rest waits
        return CastleEncounter(
            hexes=hexes, hailed=hailed, come_out_roll=come_out, comes_out=True, occupant=occupant, guard_column=column,
            numbers=n,
        )  # fmt: skip
    name = occupant.row.fields["occupant"] if occupant.row else ""
    attitude_roll = None if name in ALIGNED else dice.roll(die, "castle occupant: hostile or neutral")
    attitude: Attitude = (
        "lawful" if ALIGNED.get(name) == "Lawful" else "chaotic" if name in ALIGNED
        else "hostile" if attitude_roll is not None and attitude_roll.final <= n.hostile else "neutral"
    )  # fmt: skip
    wall_men = dice.roll(n.walls[0], f"men on the castle walls (x{n.walls[1]})")
    resident, companions = _companions(roller, occupant)
    toll_dice = n.tolls.get(resident)
    toll = dice.roll(toll_dice[0], f"toll (x{toll_dice[1]:,} GP)") if toll_dice else None
    return CastleEncounter(
        hexes=hexes, hailed=hailed, come_out_roll=come_out, comes_out=True, occupant=occupant, guard_column=column,
        attitude_roll=attitude_roll, attitude=attitude, wall_men=wall_men, companions=companions, toll=toll,
        toll_times=toll_dice[1] if toll_dice else 1, resident=resident,
        pursue_roll=dice.roll(die, "do they pursue?") if moving_on else None, numbers=n,
    )  # fmt: skip
