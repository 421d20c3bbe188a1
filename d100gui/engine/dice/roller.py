"""Rolling on tables: the roll, the row it lands on, and what happens when the row is missing.

The bundled tables are excerpts, so a roll may land in a gap. That is never an error. The
player's preference decides:

* ``ask`` (default): the result comes back with ``row=None`` and the missing range; the UI
  asks the player to type the row from their rulebook and calls
  :meth:`TableRoller.resolve_missing`, which validates it and lays it over the table.
* ``reroll``: the table's die is rolled again until it lands on a known row, and the result
  is marked ``sample`` so the UI labels it as sample play.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from enum import StrEnum

from pydantic import Field

from d100gui.engine.dice.dice import Dice, DiceError, RollRecord
from d100gui.engine.dice.tables import Link, Row, Table, TableLibrary, TextDice
from d100gui.engine.model import Model

MAX_REROLLS = 500


class MissingRowPolicy(StrEnum):
    ASK = "ask"
    REROLL = "reroll"


class TextRoll(Model):
    """Dice written inside a result, rolled (``roll`` is None for dice rolled when the effect is used)."""

    spec: TextDice
    roll: RollRecord | None = None

    @property
    def value(self) -> int | None:
        return None if self.roll is None else self.roll.final * self.spec.times

    def describe(self) -> str:
        what = f" {self.spec.label}" if self.spec.label else ""
        if self.roll is None:
            return f"{self.spec.text}{what}: roll {self.spec.dice} when it is used"
        times = f" x {self.spec.times:,}" if self.spec.times != 1 else ""
        return (
            f"{self.spec.text}{what}: {self.roll.final}{times} = {self.value:,}"
            if times
            else f"{self.spec.text}{what}: {self.value}"
        )


class TableRoll(Model):
    """One roll on one table, with the row it found (or the gap it fell in).

    ``column`` is the column read (the tool's dungeon level or terrain); ``ignored`` the
    rolls the text says to ignore and roll again; ``fixed`` marks a row pointed at, not
    rolled; ``dice`` the dice written inside the result, rolled.
    """

    table_id: str
    table_title: str
    roll: RollRecord
    row: Row | None = None
    missing: tuple[int, int] | None = None
    sample: bool = False
    discarded: list[RollRecord] = Field(default_factory=list)
    column: str = ""
    ignored: list[RollRecord] = Field(default_factory=list)
    fixed: bool = False
    reversed: bool = False
    dice: list[TextRoll] = Field(default_factory=list)

    @property
    def value(self) -> int:
        return self.roll.final

    @property
    def player_row(self) -> Row | None:
        """The player's own row this roll read (None for a printed row or a gap): the log names it, so a
        replay on another machine can say exactly which of the player's rows it lacks."""
        return self.row if self.row is not None and self.row.user else None

    @property
    def text(self) -> str:
        """The result as printed: the chosen column's cell, else every field."""
        if self.row is None:
            return ""
        if self.column:
            return self.row.fields.get(self.column, "")
        return " | ".join(v for v in self.row.fields.values() if v)

    def describe(self, table: Table | None = None) -> str:
        mods = "".join(f" {m.value:+d}" for m in self.roll.modifiers)
        if self.fixed:
            head = f"{self.table_title}: row {self.row.range_label() if self.row else self.roll.final}"
        elif mods:
            head = f"{self.table_title}: {self.roll.natural}{mods} = {self.roll.final}"
        else:
            head = f"{self.table_title}: {self.roll.final}"
        if self.reversed:
            head += " (percentages reversed)"
        if self.row is None:
            lo, hi = self.missing or (self.roll.final, self.roll.final)
            return f"{head} - row {lo}-{hi} is not in your tables"
        if self.column:
            body = self.text
        else:
            body = self.row.summary(table) if table else " | ".join(self.row.fields.values())
        tag = " (sample play: re-rolled among known rows)" if self.sample else ""
        ignored = f" (ignored and rolled again: {', '.join(str(r.final) for r in self.ignored)})" if self.ignored else ""
        dice = "".join(f"; {d.describe()}" for d in self.dice)
        return f"{head} -> {body}{dice}{tag}{ignored}"


class RollTree(Model):
    """A roll with every roll its links asked for, rolled through to the end."""

    roll: TableRoll
    label: str = ""
    children: list[RollTree] = Field(default_factory=list)

    def walk(self) -> Iterator[RollTree]:
        yield self
        for child in self.children:
            yield from child.walk()

    def lines(self, depth: int = 0) -> list[str]:
        lead = "  " * depth + (f"{self.label}: " if self.label and depth else "")
        out = [lead + self.roll.describe()]
        for child in self.children:
            out.extend(child.lines(depth + 1))
        return out

    def describe(self) -> str:
        return "\n".join(self.lines())


MAX_DEPTH = 24


def reversed_value(table: Table, value: int) -> int:
    """The value to look up when ``table``'s percentages are reversed: the rows keep their order
    but take the widths of their bands in reverse (65/25/10 becomes 10/25/65), so the odds swap
    ends. Reading the die backwards would keep the odds; this changes them, as the text means."""
    ranged = [r for r in table.rows if r.range]
    if not ranged:
        return value
    lo = ranged[0].range[0] if ranged[0].range else value
    widths = [r.range[1] - r.range[0] + 1 for r in ranged if r.range]
    start = lo
    for row, width in zip(ranged, reversed(widths), strict=True):
        if start <= value < start + width and row.range:
            return row.range[0]
        start += width
    return value


def _fixed_record(value: int, purpose: str) -> RollRecord:
    return RollRecord(expression=f"row {value}", purpose=purpose, terms=[], dice=[], natural=value, final=value)


class TableRoller:
    """Rolls on the library's tables with the dice, applying the missing-row policy."""

    def __init__(self, library: TableLibrary, dice: Dice, policy: MissingRowPolicy = MissingRowPolicy.ASK) -> None:
        self.library = library
        self.dice = dice
        self.policy = policy

    def with_policy(self, policy: MissingRowPolicy) -> TableRoller:
        """This roller (same library and dice, and whoever records its results) with another missing-row policy."""
        other = copy.copy(self)
        other.policy = policy
        return other

    def roll(
        self,
        table_id: str,
        purpose: str = "",
        modifier: int = 0,
        modifier_label: str = "modifier",
        die: str | None = None,
        column: str = "",
        reroll: Sequence[tuple[int, int]] = (),
        reverse: bool = False,
    ) -> TableRoll:
        """Roll ``table_id``'s die (or ``die`` where the text names another), add
        ``modifier`` and clamp into the table die's range.

        ``column`` is the column the tool reads; rolls in ``reroll`` and rows printed as
        "no entry" in that column are ignored and rolled again; ``reverse`` reads the die
        percentages reversed (the bands' widths in reverse order)."""
        table = self.library.get(table_id)
        if not table.rollable or table.die is None:
            raise DiceError(f"{table.title} is a reference table: it is read, not rolled.")
        if column and table.column(column) is None:
            raise DiceError(f"{table.title} has no column {column!r}.")
        lo, hi = table.die_range()
        die = die or table.die
        mods = [(modifier_label, modifier)] if modifier else []
        label = purpose or table.title
        record = self.dice.roll(die, label, mods, clamp=(lo, hi))
        ignored: list[RollRecord] = []
        for _ in range(MAX_REROLLS):
            looked = reversed_value(table, record.final) if reverse else record.final
            found = table.find(looked)
            if not any(a <= record.final <= b for a, b in reroll) and not (found and table.is_no_entry(found, column)):
                break
            ignored.append(record)
            record = self.dice.roll(die, f"{label} (rolled again)", mods, clamp=(lo, hi))
        else:
            raise DiceError(f"{table.title}: no roll the text accepts came up in {MAX_REROLLS} rolls.")
        result = TableRoll(
            table_id=table.id, table_title=table.title, roll=record, column=column, ignored=ignored, reversed=reverse
        )
        row = table.find(reversed_value(table, record.final) if reverse else record.final)
        if row is not None:
            return self._found(result, row)
        if self.policy is MissingRowPolicy.REROLL and any(r.range for r in table.rows):
            discarded = [record]
            for _ in range(MAX_REROLLS):
                again = self.dice.roll(die, f"{label} (sample re-roll)", mods, clamp=(lo, hi))
                row = table.find(again.final)
                if row is not None:
                    return self._found(result.model_copy(update={"roll": again, "sample": True, "discarded": discarded}), row)
                discarded.append(again)
        return result.model_copy(update={"missing": table.gap_containing(record.final)})

    def resample(self, missed: TableRoll) -> TableRoll:
        """Sample play for one roll that landed on a row the tables lack: the table rolled again, with the
        same modifiers, until a printed row comes up (nothing is saved)."""
        modifier = sum(m.value for m in missed.roll.modifiers)
        result = self.with_policy(MissingRowPolicy.REROLL).roll(missed.table_id, missed.roll.purpose, modifier)
        if result.row is None:
            raise DiceError(f"{missed.table_title} has no printed row to re-roll among: type the row from your rulebook.")
        return result.model_copy(update={"sample": True})

    def _found(self, result: TableRoll, row: Row) -> TableRoll:
        """The result with its row, and the dice written in the cell it reads rolled."""
        cells = [row.fields.get(result.column, "")] if result.column else [*row.fields.values(), row.text]
        rolled = []
        for spec in row.dice:
            if not any(spec.text in cell for cell in cells):
                continue
            purpose = f"{result.table_title}: {spec.text} {spec.label}".strip()
            rolled.append(TextRoll(spec=spec, roll=None if spec.later else self.dice.roll(spec.dice, purpose)))
        return result.model_copy(update={"row": row, "dice": rolled})

    def read(self, table_id: str, value: int | None = None, key: str = "", column: str = "", purpose: str = "") -> TableRoll:
        """A printed row pointed at, not rolled: ``value`` on a rolled table, ``key`` on a reference table."""
        table = self.library.get(table_id)
        row = table.find_key(key) if key else (table.find(value) if value is not None else None)
        if row is None:
            raise DiceError(f"{table.title} has no row {key or value}.")
        record = _fixed_record(row.low if value is None else value, purpose or table.title)
        return self._found(TableRoll(table_id=table.id, table_title=table.title, roll=record, column=column, fixed=True), row)

    def links(self, result: TableRoll) -> list[Link]:
        """The links the result's row asks for, read in the result's column."""
        if result.row is None:
            return []
        return [link for link in result.row.links if link.applies(result.column)]

    def resolve_missing(self, result: TableRoll, row: Row) -> TableRoll:
        """The player typed the missing row: check it covers the roll, lay it over the table."""
        if row.range is None or not row.range[0] <= result.roll.final <= row.range[1]:
            raise ValueError(f"The row you typed must cover the roll of {result.roll.final}.")
        if result.missing and (row.range[0] < result.missing[0] or row.range[1] > result.missing[1]):
            lo, hi = result.missing
            raise ValueError(f"The row must lie inside the missing range {lo}-{hi}; other rows are already known.")
        self.library.add_user_row(result.table_id, row)
        stored = self.library.get(result.table_id).find(result.roll.final)
        return result.model_copy(update={"row": stored, "missing": None})

    def follow(self, link: Link, purpose: str = "") -> list[TableRoll]:
        """Follow a nested roll ("roll x2 on Table TA"): roll ``times`` on the linked table,
        or read the row it points at. A link to a reference table with no row is read by
        the player, not rolled: it gives no roll."""
        label = purpose or link.label or f"nested roll on {link.table}"
        if link.key or link.row is not None:
            return [self.read(link.table, link.row, link.key, link.column, label)]
        if not self.library.get(link.table).rollable:
            return []
        times_text = link.times.strip() or "1"
        if times_text.isdigit():
            times = int(times_text)
        else:
            times = self.dice.roll(times_text, f"how many rolls on {link.table}").final
        return [
            self.roll(link.table, label, link.modifier, "link modifier", link.die, link.column, link.reroll, link.reverse)
            for _ in range(max(0, times))
        ]

    def expand(self, result: TableRoll, optional: bool = False, label: str = "", depth: int = 0) -> RollTree:
        """``result`` with every link it asks for followed, and theirs, to the end
        (``optional`` links too when asked). A chain deeper than :data:`MAX_DEPTH` is a loop in the tables."""
        if depth > MAX_DEPTH:
            raise DiceError(f"The links from {result.table_title} go deeper than {MAX_DEPTH} rolls: the tables loop.")
        children = [
            self.expand(child, optional, link.label, depth + 1)
            for link in self.links(result)
            if optional or not link.optional
            for child in self.follow(link)
        ]
        return RollTree(roll=result, label=label, children=children)

    def roll_through(self, table_id: str, purpose: str = "", column: str = "", optional: bool = False) -> RollTree:
        """Roll ``table_id`` (reading ``column``) and follow every link to a final result."""
        return self.expand(self.roll(table_id, purpose, column=column), optional)
