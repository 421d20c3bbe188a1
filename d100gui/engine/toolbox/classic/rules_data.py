"""The numbers of the referee's procedures, read from the rules tables of ``classic-procedures.json``.

A tool asks for one value by its row key; a player whose tables lack the row (or the table) gets
the text's own number, which the tool passes as the default. So the numbers live in data, and a
player's edited copy of a rules table is what the tools use.
"""

from __future__ import annotations

import re

from d100gui.engine.dice.tables import TableLibrary

__all__ = [
    "A_DIE",
    "DICE_TABLE",
    "ITEM_RULES_TABLE",
    "PERCENT_DIE",
    "SAVE_DIE",
    "a_die",
    "percent_die",
    "rule_dice",
    "rule_die",
    "rule_fraction",
    "rule_number",
    "rule_numbers",
    "rule_range",
    "rule_range_dice",
    "rule_text",
    "save_die",
]

ITEM_RULES_TABLE = "classic.item_rules"
DICE_TABLE = "classic.dice"  # the dice the text names without sides: its bare "die" and its percentages
A_DIE = "1d6"  # a bare "die" ("(die 1-3)" is "a 50% chance"): a reading, the text's when the row is missing
PERCENT_DIE = "d100"  # the die a printed "N% chance" is rolled on
SAVE_DIE = "1d20"  # the die of a saving throw ("saving throw becomes 16 or better"): a reading
_NUMBER = re.compile(r"\d+")
_BASE_PLUS_DICE = re.compile(r"(\d+)\s*\+\s*(\d*)d(\d+)")
_DIE = re.compile(r"(\d*)d(\d+)")
_RANGE = re.compile(r"(\d+)\s*-\s*(\d+)")
_FRACTION = re.compile(r"(\d+)\s*/\s*(\d+)")


def _cell(library: TableLibrary, table_id: str, key: str) -> str:
    if table_id not in library:
        return ""
    row = library.get(table_id).find_key(key)
    return row.fields.get("value", "") if row is not None else ""


def rule_number(library: TableLibrary, table_id: str, key: str, default: int) -> int:
    """The first number of the row's value ("25%" is 25, "6" is 6), or ``default`` (the text's) without it."""
    found = _NUMBER.search(_cell(library, table_id, key))
    return int(found.group()) if found else default


def rule_dice(library: TableLibrary, table_id: str, key: str, default: str) -> str:
    """A value such as "6+d6 turns" as a dice expression ("1d6+6"), or ``default`` without it."""
    found = _BASE_PLUS_DICE.search(_cell(library, table_id, key))
    if found is None:
        return default
    base, count, sides = found.groups()
    return f"{count or 1}d{sides}+{base}"


def rule_text(library: TableLibrary, table_id: str, key: str) -> str:
    """The row's value as printed ("" without the row or the table)."""
    return _cell(library, table_id, key)


def rule_die(library: TableLibrary, table_id: str, key: str, default: str) -> str:
    """A value such as "d6" as a dice expression ("1d6"), or ``default`` without it."""
    found = _DIE.search(_cell(library, table_id, key))
    return f"{found.group(1) or 1}d{found.group(2)}" if found else default


def rule_range_dice(library: TableLibrary, table_id: str, key: str, default: str, step: int = 1) -> str:
    """A printed range read as the dice that give it, in ``step``s: "2-8" is 2d4, "20-80" in tens is 2d4
    (as many dice as the low end, each up to the high end over that); ``default`` without the row, or when
    no dice give the range so."""
    found = _RANGE.search(_cell(library, table_id, key))
    if found is None:
        return default
    low, high = int(found.group(1)), int(found.group(2))
    if low < step or low % step or high % low:
        return default
    count, sides = low // step, high // low
    return f"{count}d{sides}" if sides >= 2 else default


def rule_numbers(library: TableLibrary, table_id: str, key: str, default: tuple[int, ...]) -> tuple[int, ...]:
    """Every number of the row's value ("5th or 6th level" is (5, 6)), or ``default`` without one."""
    found = tuple(int(n) for n in _NUMBER.findall(_cell(library, table_id, key)))
    return found or default


def rule_range(library: TableLibrary, table_id: str, key: str, default: tuple[int, int]) -> tuple[int, int]:
    """A printed range ("1-12") as (low, high), or ``default`` without it."""
    found = _RANGE.search(_cell(library, table_id, key))
    return (int(found.group(1)), int(found.group(2))) if found else default


def rule_fraction(library: TableLibrary, table_id: str, key: str, default: float) -> float:
    """A value such as "1/2 day" (0.5) or "2 days" (2.0), or ``default`` without a number."""
    cell = _cell(library, table_id, key)
    found = _FRACTION.search(cell)
    if found is not None and int(found.group(2)):
        return int(found.group(1)) / int(found.group(2))
    number = _NUMBER.search(cell)
    return float(number.group()) if number else default


def a_die(library: TableLibrary) -> str:
    """The die the classic text means by a bare "die" ("1d6"), as ``classic.dice`` reads it."""
    return rule_die(library, DICE_TABLE, "A die", A_DIE)


def percent_die(library: TableLibrary) -> str:
    """The die a printed percentage is rolled on ("d100"), as ``classic.dice`` prints it."""
    die = rule_die(library, DICE_TABLE, "A percentage chance", PERCENT_DIE)
    return die.removeprefix("1") if die.startswith("1d") else die


def save_die(library: TableLibrary) -> str:
    """The die a saving throw is rolled on ("1d20"), as ``classic.dice`` reads it."""
    return rule_die(library, DICE_TABLE, "A saving throw", SAVE_DIE)
