"""Checking a row the player types against its table's columns, before it joins their tables.

The packs do not type their columns, so a column's kind is read from the rows the rule text
prints (the player's own rows do not count): a column whose printed cells all hold a number
(``25``, ``-2``, ``23 gp``, ``0 DEF``) wants a number; one whose cells are numbers joined by
``/`` (``3/2/2``) wants such a list; one whose cells all name a slot of the rules (``Legs``,
``Torso``) wants a slot that exists. An effect column is read by the notation parser and its
reading is shown, so the player sees what the engine will do with the text. Anything else
is free text. The range is checked with the table's own validation
(:func:`~d100gui.engine.dice.tables.check_table`) plus what a typed row must also respect:
the roll it answers, the gap it fills, and the rows already there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from pydantic import Field

from d100gui.engine.dice.tables import Column, Row, Table, check_table
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.notation import TestSpec, parse
from d100gui.engine.rules.slots import slot_for_name

MIN_SAMPLES = 2  # a column's kind is read from at least this many printed cells

_NUMBER_SHAPE = re.compile(r"\s*[+\-–−]?\s*\d[\d,]*\s*[A-Za-z]{0,6}\.?\s*")
_HAS_NUMBER = re.compile(r"\d")
_NUMBERS_SHAPE = re.compile(r"\s*\d+(?:\s*/\s*\d+)+\s*")
_NUMBERS_TYPED = re.compile(r"\s*\d+(?:\s*/\s*\d+)*\s*")
_DASHES = re.compile(r"[-–—]+")


class ColumnKind(StrEnum):
    """What a column's cells hold, as its printed rows show."""

    TEXT = "text"
    NUMBER = "number"
    NUMBERS = "numbers"
    SLOT = "slot"


class CellCheck(Model):
    """One typed cell: what is wrong with it (``""`` when nothing) and, for an effect column,
    the text as the engine reads it."""

    key: str
    label: str
    text: str
    kind: ColumnKind = ColumnKind.TEXT
    problem: str = ""
    reading: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem


class RowCheck(Model):
    """A typed row checked whole: its range and each cell."""

    range_problem: str = ""
    cells: list[CellCheck] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.range_problem and all(c.ok for c in self.cells)

    def cell(self, key: str) -> CellCheck | None:
        return next((c for c in self.cells if c.key == key), None)

    def problems(self) -> list[str]:
        """Every problem as a sentence naming the column (the range first)."""
        found = [self.range_problem] if self.range_problem else []
        return found + [f"{c.label}: {c.problem}" for c in self.cells if c.problem]


# --------------------------------------------------------------------------- column kinds


def printed_rows(table: Table) -> list[Row]:
    """The rows the rule text prints (not the player's own)."""
    return [r for r in table.rows if not r.user]


def column_kinds(table: Table, rules: Rules | None = None) -> dict[str, ColumnKind]:
    """Each column's kind, read from the printed cells (fewer than two cells: free text)."""
    return {c.key: _kind_of(c, [r.fields.get(c.key, "").strip() for r in printed_rows(table)], rules) for c in table.columns}


def _kind_of(column: Column, cells: list[str], rules: Rules | None) -> ColumnKind:
    cells = [c for c in cells if c]
    if len(cells) < MIN_SAMPLES:
        return ColumnKind.TEXT
    if all(_NUMBERS_TYPED.fullmatch(c) for c in cells) and any(_NUMBERS_SHAPE.fullmatch(c) for c in cells):
        return ColumnKind.NUMBERS
    if all(_NUMBER_SHAPE.fullmatch(c) for c in cells):
        return ColumnKind.NUMBER
    if rules is not None and all(slot_for_name(rules, c) for c in cells):
        return ColumnKind.SLOT
    return ColumnKind.TEXT


# --------------------------------------------------------------------------- cells


def effect_reading(text: str) -> str:
    """Effect text as the engine reads it: ``"Test DEX -5 (Traps); success: Avoid Trap; failure: Lose 6 HP"``."""
    notation = parse(text)
    if not text.strip():
        return ""
    if not notation.has_mechanics:
        return "not a rule the app applies: shown to you as written"
    return "; ".join(p for p in (_item_line(i) for i in notation.items) if p)


def _item_line(item: object) -> str:
    if isinstance(item, TestSpec):
        success, failure = item.success.describe(), item.failure.describe()
        parts = [item.describe()]
        if success:
            parts.append(f"success: {success}")
        if failure:
            parts.append(f"failure: {failure}")
        return "; ".join(parts)
    describe = getattr(item, "describe", None)
    return str(describe()) if callable(describe) else ""


def _example(table: Table, key: str) -> str:
    return next((r.fields[key].strip() for r in printed_rows(table) if r.fields.get(key, "").strip()), "")


def check_cell(table: Table, column: Column, text: str, kind: ColumnKind, rules: Rules | None = None) -> CellCheck:
    """One cell against its column: filled in where the column needs it, of the column's kind."""
    text = text.strip()
    check = CellCheck(key=column.key, label=column.label, text=text, kind=kind)
    if column.effect and text:
        check.reading = effect_reading(text)
    if not text:
        check.problem = "" if column.optional else "fill this in (the printed rows all have it)"
        return check
    if kind in (ColumnKind.NUMBER, ColumnKind.NUMBERS) and (_printed_anywhere(table, text) or _DASHES.fullmatch(text)):
        return check  # a value the table itself prints ("No Gain"), or a dash for "none"
    example = _example(table, column.key)
    like = f" like {example!r}" if example else ""
    if kind is ColumnKind.NUMBER and not _HAS_NUMBER.search(text):
        check.problem = f"needs a number here{like}"
    elif kind is ColumnKind.NUMBERS and not _numbers_ok(text):
        check.problem = f"needs a number, or numbers joined by '/'{like}, each at least 1"
    elif kind is ColumnKind.SLOT and rules is not None and slot_for_name(rules, text) is None:
        names = ", ".join(dict.fromkeys(s.name for s in rules.slots))
        check.problem = f"{text!r} is not a slot: use one of {names}"
    return check


def _printed_anywhere(table: Table, text: str) -> bool:
    wanted = text.casefold()
    return any(v.strip().casefold() == wanted for r in printed_rows(table) for v in r.fields.values())


def _numbers_ok(text: str) -> bool:
    return bool(_NUMBERS_TYPED.fullmatch(text)) and all(int(p) >= 1 for p in text.split("/"))


# --------------------------------------------------------------------------- rows


def check_row(
    table: Table,
    row: Row,
    rules: Rules | None = None,
    *,
    covers: int | None = None,
    within: tuple[int, int] | None = None,
    others: Sequence[Row] = (),
) -> RowCheck:
    """Check ``row`` for ``table``: every cell against its column, and its range.

    ``covers`` is a roll the row must include, ``within`` the gap it must lie in, ``others``
    the player's other rows typed beside it (a typed row may not overlap them, nor a printed row).
    """
    kinds = column_kinds(table, rules)
    cells = [check_cell(table, c, row.fields.get(c.key, ""), kinds[c.key], rules) for c in table.columns]
    return RowCheck(range_problem=range_problem(table, row, covers=covers, within=within, others=others), cells=cells)


def range_problem(
    table: Table, row: Row, *, covers: int | None = None, within: tuple[int, int] | None = None, others: Sequence[Row] = ()
) -> str:
    """Why the row's range cannot be used ("" when it can)."""
    if not table.rollable:
        return ""
    if row.range is None:
        return "The row needs a range: From and To, whole numbers."
    alone = table.model_copy(update={"rows": [row.model_copy(update={"partial": True, "fields": {}})]})
    own = [p.message for p in check_table(alone) if p.field == "range"]
    if own:
        return f"Range: {own[0]}."
    lo, hi = row.range
    if covers is not None and not lo <= covers <= hi:
        return f"The row must include the roll of {covers}."
    if within is not None and (lo < within[0] or hi > within[1]):
        return f"The row must lie inside the missing range {within[0]}-{within[1]}."
    for other in [*printed_rows(table), *others]:
        if other is not row and other.range and other.range[0] <= hi and lo <= other.range[1]:
            whose = "your row" if other.user or other in others else "the printed row"
            return f"Range {row.range_label()} overlaps {whose} {other.range_label()}."
    return ""


def completeness(table: Table) -> tuple[int, int]:
    """(results covered, results on the die): Table E with rows for 1-25 of d100 is (25, 100)."""
    if not table.rollable:
        return len(table.rows), len(table.rows)
    lo, hi = table.die_range()
    missing = sum(b - a + 1 for a, b in table.missing_ranges())
    return hi - lo + 1 - missing, hi - lo + 1


__all__ = [
    "CellCheck",
    "ColumnKind",
    "RowCheck",
    "check_cell",
    "check_row",
    "column_kinds",
    "completeness",
    "effect_reading",
    "printed_rows",
    "range_problem",
]
