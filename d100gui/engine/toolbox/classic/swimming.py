"""A man in the water: the chance of drowning by his armour, and the storm's own chance each turn.

The swimming table gives the chance by armour (plate always, chain-type 80%, leather 20%, none
5% and only for someone thrown overboard). We read a "yes" under "must remove?" as: whoever
survives the roll in that armour must shed it at once or drown. In a gale or storm anyone in
the water drowns on 50%, rolled each turn.
"""

from __future__ import annotations

from d100gui.engine.dice.dice import Dice, RollRecord
from d100gui.engine.dice.tables import Table
from d100gui.engine.model import Model
from d100gui.engine.toolbox.classic.rules_data import PERCENT_DIE
from d100gui.engine.toolbox.inputs import ToolInputError

__all__ = ["SWIMMING_TABLE", "Swimming", "swim"]

SWIMMING_TABLE = "classic.swimming"
STORM_CHANCE = 50  # the text's, used when the player's tables lack the wilderness rules table
RULES_TABLE = "classic.wilderness_rules"
OVERBOARD_MARK = "*"  # the no-armour chance applies only to someone thrown overboard


class Swimming(Model):
    armor: str
    chance: int
    roll: RollRecord | None = None
    must_remove: bool = False
    storm_roll: RollRecord | None = None
    storm_chance: int = STORM_CHANCE

    @property
    def drowned(self) -> bool:
        in_armor = self.roll is not None and self.roll.final <= self.chance
        in_storm = self.storm_roll is not None and self.storm_roll.final <= self.storm_chance
        return in_armor or in_storm

    def describe(self) -> str:
        parts = [f"In the water wearing {self.armor.lower()}"]
        parts.append(f"{self.roll.final} against {self.chance}%" if self.roll else "no chance of drowning")
        if self.storm_roll is not None:
            parts.append(f"storm {self.storm_roll.final} against {self.storm_chance}%")
        if self.drowned:
            parts.append("drowns")
        else:
            parts.append("stays afloat" + ("; must shed the armour now or drown" if self.must_remove else ""))
        return ": ".join(parts[:2]) + ("; " + "; ".join(parts[2:]) if parts[2:] else "")


def storm_chance(rules: Table | None) -> int:
    """The chance a man in the water drowns in a gale or storm, as the rules table prints it (the text's 50%)."""
    row = rules.find_key("Drowning in a gale or storm") if rules is not None else None
    value = row.fields.get("value", "").rstrip("%").strip() if row is not None else ""
    return int(value) if value.isdigit() else STORM_CHANCE


def swim(
    dice: Dice,
    table: Table,
    armor: str,
    overboard: bool = True,
    storm: bool = False,
    rules: Table | None = None,
    percent: str = PERCENT_DIE,
) -> Swimming:
    """Roll for a man in ``armor`` (a row key of the swimming table) going into the water; ``rules`` holds the storm's chance."""
    row = table.find_key(armor)
    if row is None:
        raise ToolInputError(f"Armour must be one of {', '.join(r.key for r in table.rows)}; {armor!r} is not.")
    printed = row.fields.get("chance", "0%")
    chance = int(printed.strip().rstrip("*").rstrip("%"))
    if printed.endswith(OVERBOARD_MARK) and not overboard:
        chance = 0
    roll = dice.roll(percent, f"drowning in {armor.lower()} ({chance}%)") if chance else None
    result = Swimming(
        armor=armor, chance=chance, roll=roll, must_remove=row.fields.get("remove", "").lower() == "yes",
        storm_chance=storm_chance(rules),
    )  # fmt: skip
    if storm and not result.drowned:
        result.storm_roll = dice.roll(percent, f"drowning in the storm ({result.storm_chance}%)")
    return result
