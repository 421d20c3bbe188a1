"""Hiring and holding land: specialists' and men-at-arms' costs, the cost of finding them,
rumours in the taverns, a character's upkeep, and a barony's villages and tax.

Every cost is read from the tables as printed (``classic.specialists``, ``classic.men_at_arms``,
``classic.hiring_costs``, ``classic.barony``); the dice written in a cell ("100-600 Gold
Pieces", "2-8") are rolled by the table roller like any other row's dice.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from d100gui.engine.dice.dice import RollRecord
from d100gui.engine.dice.roller import TableRoll, TableRoller
from d100gui.engine.dice.tables import TableLibrary
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import rule_fraction
from d100gui.engine.toolbox.inputs import ToolInputError, in_range

__all__ = [
    "BARONY_TABLE",
    "HIRING_TABLE",
    "MEN_AT_ARMS_TABLE",
    "SPECIALISTS_TABLE",
    "Barony",
    "Hiring",
    "Rumours",
    "Upkeep",
    "barony",
    "hire_men_at_arms",
    "hire_specialist",
    "rumours",
    "upkeep",
]

SPECIALISTS_TABLE = "classic.specialists"
MEN_AT_ARMS_TABLE = "classic.men_at_arms"
#: the share of a man's upkeep an orc costs, as classic.wilderness_rules prints it (the text's "1/2"); the
#: men-at-arms table prints the orcs' costs themselves, so this only names the rule
ORC_UPKEEP = 0.5
WILDERNESS_RULES_TABLE = "classic.wilderness_rules"  # the same table as wilderness.RULES_TABLE
HIRING_TABLE = "classic.hiring_costs"
BARONY_TABLE = "classic.barony"
MAX_HIRED = 10_000
MAX_MONTHS = 120
MAX_WEEKS = 52
MAX_ROUNDS = 20
MAX_XP = 10_000_000
Race = Literal["man", "dwarf", "elf", "orc"]
Stronghold = Literal["none", "wilderness", "town"]
_AMOUNT = re.compile(r"(\d[\d,]*)(?:\s+(\d+)/(\d+))?")


def _amount(text: str) -> float | None:
    """A printed cost: "3", "1 1/2", "1000/month" (the number before the slash); None for "---"."""
    match = _AMOUNT.search(text)
    if match is None:
        return None
    whole = float(int(match.group(1).replace(",", "")))
    if match.group(2):
        whole += int(match.group(2)) / int(match.group(3))
    return whole


def _dice_total(read: TableRoll) -> tuple[int, list[RollRecord]]:
    rolls = [d.roll for d in read.dice if d.roll is not None]
    return sum(d.value or 0 for d in read.dice), rolls


class Hiring(Model):
    """Hirelings taken on: the cost each as printed, the total for the time, and the finding of them."""

    who: str
    race: str = ""
    count: int
    printed: str
    per: str  # "month" or "mission"
    periods: int
    each: float
    advertising: list[int] = Field(default_factory=list)  # each week's notices or servitors, in GP

    @property
    def total(self) -> float:
        return self.each * self.count * self.periods

    @property
    def advertising_total(self) -> int:
        return sum(self.advertising)

    def describe(self) -> str:
        race = f" ({self.race})" if self.race else ""
        each = f"{self.each:g}"
        total = self.total
        total_text = f"{total:,.1f}" if total % 1 else f"{int(total):,}"
        head = (
            f"{self.count} {self.who}{race} at {each} GP a {self.per} each ({self.printed}), "
            f"{self.periods} {self.per}(s): {total_text} GP"
        )
        if self.advertising:
            weeks = ", ".join(f"{gp:,}" for gp in self.advertising)
            head += f"; finding them: {len(self.advertising)} week(s) of notices or servitors, {self.advertising_total:,} GP ({weeks}); the DM judges the chance they come"
        return head + "."


def _advertise(roller: TableRoller, weeks: int) -> list[int]:
    in_range("Weeks of notices or servitors", weeks, 0, MAX_WEEKS)
    out = []
    for n in range(weeks):
        read = roller.read(HIRING_TABLE, key="Notices or servitors, per week", column="value", purpose=f"hiring: week {n + 1}")
        out.append(_dice_total(read)[0])
    return out


def hire_specialist(roller: TableRoller, specialist: str, count: int = 1, periods: int = 1, weeks: int = 0) -> Hiring:
    """``count`` of a specialist for ``periods`` months (or missions, as the table prices them)."""
    in_range("How many", count, 1, MAX_HIRED)
    in_range("Months or missions", periods, 1, MAX_MONTHS)
    row = roller.library.get(SPECIALISTS_TABLE).find_key(specialist)
    if row is None:
        raise ToolInputError(f"{specialist!r} is not on the specialists table.")
    printed = row.fields["cost"]
    each = _amount(printed)
    if each is None:
        raise ToolInputError(f"The specialists table prints no cost for {specialist}.")
    per = printed.partition("/")[2].strip() or "month"
    return Hiring(
        who=specialist, count=count, printed=printed, per=per, periods=periods, each=each, advertising=_advertise(roller, weeks)
    )


def hire_men_at_arms(
    roller: TableRoller, classification: str, race: Race = "man", count: int = 1, months: int = 1, weeks: int = 0
) -> Hiring:
    """``count`` men-at-arms of a classification and race for ``months``, at the table's monthly upkeep."""
    in_range("How many", count, 1, MAX_HIRED)
    in_range("Months", months, 1, MAX_MONTHS)
    table = roller.library.get(MEN_AT_ARMS_TABLE)
    row = table.find_key(classification)
    if row is None:
        raise ToolInputError(f"{classification!r} is not on the men-at-arms table.")
    printed = row.fields.get(race, "")
    each = _amount(printed)
    if each is None:
        raise ToolInputError(
            f"The table gives no cost for a {race.capitalize()} {classification} ({printed or 'blank'}): none to hire."
        )
    return Hiring(
        who=classification, race=race.capitalize(), count=count, printed=printed, per="month", periods=months, each=each,
        advertising=_advertise(roller, weeks),
    )  # fmt: skip


class Rumours(Model):
    """A round of the taverns: drinks bought and the barman paid, what it cost."""

    rounds: list[int] = Field(default_factory=list)
    barman: int = 0

    @property
    def total(self) -> int:
        return sum(self.rounds) + self.barman

    def describe(self) -> str:
        drinks = ", ".join(f"{gp}" for gp in self.rounds)
        barman = f"; the barman slipped {self.barman} GP" if self.barman else ""
        return (
            f"Making the rounds: {len(self.rounds)} round(s) of drinks ({drinks} GP){barman}: {self.total:,} GP. "
            "What is heard (and any misinformation) is the DM's."
        )


def rumours(roller: TableRoller, rounds: int = 1, barman: bool = True) -> Rumours:
    """Buy ``rounds`` rounds of drinks (10-60 GP each) and slip the barman a few coins (1-10 GP)."""
    in_range("Rounds of drinks", rounds, 0, MAX_ROUNDS)
    drinks = [
        _dice_total(roller.read(HIRING_TABLE, key="A round of drinks", column="value", purpose="a round of drinks"))[0]
        for _ in range(rounds)
    ]
    paid = _dice_total(roller.read(HIRING_TABLE, key="The barman", column="value", purpose="the barman"))[0] if barman else 0
    return Rumours(rounds=drinks, barman=paid)


class Upkeep(Model):
    """A character's support and upkeep: 1% of experience, until a stronghold in the wilderness."""

    xp: int
    stronghold: Stronghold
    percent: int
    due: int

    def describe(self) -> str:
        if self.stronghold == "wilderness":
            return f"A stronghold in the wilderness: support and upkeep cease (no payment on {self.xp:,} XP)."
        where = (
            " (the stronghold is in a village or town the character does not control: payments go on)"
            if self.stronghold == "town"
            else ""
        )
        return f"Support and upkeep: {self.percent}% of {self.xp:,} XP = {self.due:,} GP{where}."


def upkeep(roller: TableRoller, xp: int, stronghold: Stronghold = "none") -> Upkeep:
    """What a character pays for support and upkeep (the table's share of XP), or nothing once a wilderness stronghold stands."""
    in_range("Experience points", xp, 0, MAX_XP)
    row = roller.library.get(HIRING_TABLE).find_key("Player character upkeep")
    percent = int(_amount(row.fields["value"]) or 0) if row is not None else 0
    due = 0 if stronghold == "wilderness" else xp * percent // 100
    return Upkeep(xp=xp, stronghold=stronghold, percent=percent, due=due)


class Barony(Model):
    """A stronghold's territory: its villages, each one's inhabitants, and the annual tax they bring."""

    villages_roll: RollRecord | None
    inhabitants: list[int] = Field(default_factory=list)
    tax_each: int

    @property
    def population(self) -> int:
        return sum(self.inhabitants)

    @property
    def income(self) -> int:
        return self.population * self.tax_each

    def describe(self) -> str:
        each = ", ".join(f"{n}" for n in self.inhabitants)
        return (
            f"Barony: {len(self.inhabitants)} village(s) of {each} inhabitants: {self.population:,} people, "
            f"{self.tax_each} GP each a year: {self.income:,} GP annual tax. Investments are the DM's to judge."
        )


def barony(roller: TableRoller) -> Barony:
    """A new territory: 2-8 villages of 100-400 inhabitants each, taxed 10 GP a head a year."""
    villages_read = roller.read(BARONY_TABLE, key="Villages", column="value", purpose="barony: villages")
    count, rolls = _dice_total(villages_read)
    inhabitants = [
        _dice_total(
            roller.read(BARONY_TABLE, key="Inhabitants per village", column="value", purpose=f"village {n + 1}: inhabitants")
        )[0]
        for n in range(count)
    ]
    row = roller.library.get(BARONY_TABLE).find_key("Tax per inhabitant")
    tax = int(_amount(row.fields["value"]) or 0) if row is not None else 0
    return Barony(villages_roll=rolls[0] if rolls else None, inhabitants=inhabitants, tax_each=tax)


def orc_upkeep(library: TableLibrary) -> float:
    """An orc's upkeep as a share of a man's: classic.wilderness_rules' "Orc upkeep, of a man's" (the text's 1/2)."""
    return rule_fraction(library, WILDERNESS_RULES_TABLE, "Orc upkeep, of a man's", ORC_UPKEEP)
