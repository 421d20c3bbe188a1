"""The table library: pack schema, validation, lookup by roll, and the merged library.

A *pack* is a JSON file holding tables. A table has an id, a title, the die it is rolled
with, its columns, notes (such as Table E's encounter modifier) and rows. Each row covers
an inclusive range of the die and holds the printed fields verbatim. Gaps between rows are
allowed: the rule texts are excerpts, and a gap is reported as a missing range, never as
an error. Reference tables (price lists) have no die and no ranges.

Nothing here reads files: :mod:`d100gui.storage.packs` does, and hands the parsed JSON in.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field, ValidationError, field_validator

from d100gui.engine.dice.dice import DiceError, expression_range
from d100gui.engine.model import Model

PACK_SCHEMA_VERSION = 1


class Column(Model):
    """A printed column. ``effect`` marks columns holding rulebook effect notation;
    ``optional`` marks a column some fully printed rows leave empty (an item with no
    rules effect), so an empty cell there is not a cut-short row."""

    key: str
    label: str
    effect: bool = False
    optional: bool = False


class Link(Model):
    """A nested roll a row asks for ("roll on TABLE I"), which the roller can follow.

    ``die`` overrides the table's own die when the text says so ("roll 1d10 on TABLE G").
    The rest say what the texts say about the roll, so a tool never asks the player to pick:

    * ``when``: the link applies only when the row was read in one of these columns of its
      own table (the matrix column of the dungeon level, the terrain column);
    * ``column``: read this column of the linked table (the Men table's Mountain column);
    * ``row`` / ``key``: point at a printed row (a value of a rolled table, the key of a
      reference table) instead of rolling ("#7 Treasure", "the Fighting-Man's sword");
    * ``reroll``: ranges of the die to ignore and roll again ("ignoring scores over 95
      except a score of 00" is ``[[96, 99]]``, "ignoring 00 if rolled again" ``[[100, 100]]``);
    * ``reverse``: read the die backwards ("the percentages are reversed");
    * ``optional``: the text offers the roll (the referee *may* roll guardians) or makes it
      depend on a chance the tool rolls itself; :meth:`TableRoller.expand` leaves it out.
    """

    table: str
    times: str = "1"
    modifier: int = 0
    label: str = ""
    die: str | None = None
    when: list[str] = Field(default_factory=list)
    column: str = ""
    row: int | None = None
    key: str = ""
    reroll: list[tuple[int, int]] = Field(default_factory=list)
    reverse: bool = False
    optional: bool = False

    def applies(self, column: str) -> bool:
        """Whether the link is asked for when its row was read in ``column`` ("" = no column chosen)."""
        return not self.when or not column or column in self.when

    def ignores(self, value: int) -> bool:
        return any(lo <= value <= hi for lo, hi in self.reroll)


class TextDice(Model):
    """Dice written inside a printed result ("3-30 Magic Arrows", "3d6 x 100 GP").

    ``text`` is the words as printed (it must occur in one of the row's fields), ``dice``
    the expression they stand for ("3-30" is ``3d10``), ``times`` what the roll is
    multiplied by (100 for "3d6 x 100"), ``label`` what is counted. ``later`` marks dice
    rolled when the effect is used, not when the result is found ("for 1-10 Turns").
    """

    text: str
    dice: str
    times: int = 1
    label: str = ""
    later: bool = False


class Note(Model):
    """A table note. Kinds: ``roll_modifier`` (a modifier the player adds, e.g. the quest
    encounter modifier), ``column_bonus`` (per-column roll bonuses), ``text``."""

    kind: str = "text"
    text: str
    value: str = ""


class Row(Model):
    """One printed row. ``partial`` marks a row the excerpt cut short: it is shipped as
    printed and the missing fields are shown as such, never invented."""

    range: tuple[int, int] | None = None
    key: str = ""
    fields: dict[str, str]
    text: str = ""
    links: list[Link] = Field(default_factory=list)
    dice: list[TextDice] = Field(default_factory=list)
    partial: bool = False
    user: bool = False
    implied: bool = False  # not printed: what the text means for the rolls it prints no row for

    @property
    def low(self) -> int:
        return self.range[0] if self.range else 0

    @property
    def high(self) -> int:
        return self.range[1] if self.range else 0

    def range_label(self) -> str:
        if self.range is None:
            return self.key
        lo, hi = self.range
        return str(lo) if lo == hi else f"{lo}-{hi}"

    def summary(self, table: Table) -> str:
        """The row as one line: its printed fields in column order."""
        parts = [self.fields[c.key] for c in table.columns if self.fields.get(c.key)]
        return " | ".join(parts)


class Table(Model):
    id: str
    title: str
    source: str = ""
    die: str | None = "d100"
    columns: list[Column]
    notes: list[Note] = Field(default_factory=list)
    rows: list[Row]
    # What the text means for every roll it prints no row for ("each roll of 1 steps the gem
    # up": any other roll is no change); such rolls are then no gap in the excerpt.
    otherwise: dict[str, str] | None = None
    # A cell printed as this mark ("---": no entry of this kind for that roll) is rolled again.
    no_entry: str = ""

    @field_validator("id")
    @classmethod
    def _id_ok(cls, value: str) -> str:
        if not value or any(ch.isspace() for ch in value):
            raise ValueError("a table id must be non-empty and contain no spaces")
        return value

    @property
    def rollable(self) -> bool:
        return self.die is not None

    def die_range(self) -> tuple[int, int]:
        if self.die is None:
            raise TableError(f"Table {self.id} is a reference table and is not rolled.")
        return expression_range(self.die)

    def column(self, key: str) -> Column | None:
        return next((c for c in self.columns if c.key == key), None)

    def roll_modifier_note(self) -> Note | None:
        return next((n for n in self.notes if n.kind == "roll_modifier"), None)

    def find(self, value: int) -> Row | None:
        """The row whose range holds ``value``, or None where the excerpt has a gap
        (a table with ``otherwise`` has none: the implied row stands for the unprinted rolls)."""
        for row in self.rows:
            if row.range and row.range[0] <= value <= row.range[1]:
                return row
        if self.otherwise is not None and self.rollable:
            lo, hi = self.die_range()
            if lo <= value <= hi:
                return Row(range=(value, value), fields=dict(self.otherwise), implied=True)
        return None

    def find_key(self, key: str) -> Row | None:
        """The row of a reference table with this key."""
        return next((r for r in self.rows if r.key == key), None)

    def is_no_entry(self, row: Row, column: str = "") -> bool:
        """Whether ``row`` read in ``column`` (every column when none is chosen) is printed as "no entry"."""
        if not self.no_entry:
            return False
        cells = [row.fields.get(column, "")] if column else [v for v in row.fields.values() if v]
        return bool(cells) and all(c.strip() == self.no_entry for c in cells)

    def missing_ranges(self) -> list[tuple[int, int]]:
        """Ranges of the die that no row covers (the excerpt's gaps)."""
        if not self.rollable or self.otherwise is not None:
            return []
        lo, hi = self.die_range()
        covered = sorted(r.range for r in self.rows if r.range)
        gaps: list[tuple[int, int]] = []
        nxt = lo
        for a, b in covered:
            if a > nxt:
                gaps.append((nxt, a - 1))
            nxt = max(nxt, b + 1)
        if nxt <= hi:
            gaps.append((nxt, hi))
        return gaps

    def gap_containing(self, value: int) -> tuple[int, int] | None:
        return next(((a, b) for a, b in self.missing_ranges() if a <= value <= b), None)

    def effect_texts(self) -> Iterator[tuple[Row, str, str]]:
        """(row, column key, text) for every field in an effect column."""
        keys = [c.key for c in self.columns if c.effect]
        for row in self.rows:
            for key in keys:
                text = row.fields.get(key, "")
                if text:
                    yield row, key, text


class Pack(Model):
    schema_version: int = PACK_SCHEMA_VERSION
    id: str
    title: str
    source: str = ""
    tables: list[Table]


class TableError(LookupError):
    """A table id that does not exist, or a lookup that cannot be made."""


# --------------------------------------------------------------------------- validation


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a pack, named down to the field."""

    file: str
    table: str
    row: str
    field: str
    message: str

    def __str__(self) -> str:
        where = [self.file]
        if self.table:
            where.append(f"table {self.table}")
        if self.row:
            where.append(f"row {self.row}")
        if self.field:
            where.append(f"field {self.field}")
        return f"{', '.join(where)}: {self.message}"


class PackInvalid(ValueError):
    """A pack that cannot be used, with every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems[:20])
        more = f"\n  ... and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        super().__init__(f"{len(self.problems)} problem(s):\n{lines}{more}")


def _loc_to_where(loc: tuple[str | int, ...], data: object) -> tuple[str, str, str]:
    """Turn a pydantic error location into (table, row, field) names."""
    table = row = field = ""
    node: Any = data  # the untrusted JSON, walked defensively
    parts = list(loc)
    i = 0
    while i < len(parts):
        part = parts[i]
        if part == "tables" and i + 1 < len(parts) and isinstance(idx := parts[i + 1], int):
            try:
                node = node["tables"][idx]
                table = str(node.get("id", f"#{idx + 1}"))
            except (KeyError, IndexError, TypeError, AttributeError):
                table = f"#{idx + 1}"
            i += 2
            continue
        if part == "rows" and i + 1 < len(parts) and isinstance(idx := parts[i + 1], int):
            try:
                rnode = node["rows"][idx]
                rng = rnode.get("range")
                row = f"{rng[0]}-{rng[1]}" if isinstance(rng, list) and len(rng) == 2 else f"#{idx + 1}"
            except (KeyError, IndexError, TypeError, AttributeError):
                row = f"#{idx + 1}"
            i += 2
            continue
        field = ".".join(str(p) for p in parts[i:])
        break
    return table, row, field


def validate_pack_data(data: object, file: str = "<pack>") -> tuple[Pack | None, list[Problem]]:
    """Check a parsed pack: schema, then every table's ranges and fields.

    Returns the pack (None when the schema itself fails) and every problem found.
    """
    if not isinstance(data, dict):
        return None, [Problem(file, "", "", "", "a table pack must be a JSON object with 'id', 'title' and 'tables'")]
    version = data.get("schema_version", PACK_SCHEMA_VERSION)
    if isinstance(version, int) and version > PACK_SCHEMA_VERSION:
        return None, [
            Problem(file, "", "", "schema_version", f"pack format {version} is newer than this app reads ({PACK_SCHEMA_VERSION})")
        ]
    try:
        pack = Pack.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            table, row, field = _loc_to_where(tuple(err["loc"]), data)
            problems.append(Problem(file, table, row, field, err["msg"]))
        return None, problems
    return pack, check_pack(pack, file)


def check_pack(pack: Pack, file: str = "<pack>") -> list[Problem]:
    """Semantic checks the schema cannot make: die, ranges, overlaps, fields, links."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for table in pack.tables:
        if table.id in seen:
            problems.append(Problem(file, table.id, "", "id", "two tables share this id"))
        seen.add(table.id)
        problems.extend(check_table(table, file))
    return problems


def check_table(table: Table, file: str = "<pack>") -> list[Problem]:
    """A table's own checks: columns, die, each row's range and fields, links' dice, overlaps."""
    problems: list[Problem] = []

    def p(row: str, field: str, msg: str) -> None:
        problems.append(Problem(file, table.id, row, field, msg))

    keys = [c.key for c in table.columns]
    if len(set(keys)) != len(keys):
        p("", "columns", "two columns share a key")
    if not table.columns:
        p("", "columns", "a table needs at least one column")
    lo = hi = 0
    if table.die is not None:
        try:
            lo, hi = expression_range(table.die)
        except DiceError as exc:
            p("", "die", str(exc))
            table = table.model_copy(update={"die": None})
    ranged: list[Row] = []
    for index, row in enumerate(table.rows):
        name = row.range_label() or f"#{index + 1}"
        if table.die is not None:
            if row.range is None:
                p(name, "range", "a row of a rolled table needs a range")
            else:
                a, b = row.range
                if a > b:
                    p(name, "range", f"range starts at {a} but ends at {b}")
                elif a < lo or b > hi:
                    p(name, "range", f"range {a}-{b} lies outside the die's {lo}-{hi}")
                else:
                    ranged.append(row)
        elif not row.key and row.range is None:
            p(f"#{index + 1}", "key", "a row of a reference table needs a key or a range")
        for key in row.fields:
            if key not in keys:
                p(name, key, "no column has this key")
        if not row.partial:
            for key in (c.key for c in table.columns if not c.optional):
                if not row.fields.get(key, "").strip():
                    p(name, key, "missing (mark the row partial if the printed row is cut short)")
        for field, message in _row_dice_and_links(row, keys):
            p(name, field, message)
    ranged.sort(key=lambda r: r.low)
    for prev, cur in itertools.pairwise(ranged):
        if cur.low <= prev.high:
            p(cur.range_label(), "range", f"overlaps row {prev.range_label()}")
    return problems


def _row_dice_and_links(row: Row, keys: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(field, message) for each bad dice expression, link column or dice text of a row."""
    for link in row.links:
        for what in (link.times, link.die):
            if what and not what.isdigit():
                try:
                    expression_range(what)
                except DiceError as exc:
                    yield "links", f"link to {link.table}: {exc}"
        for col in link.when:
            if col not in keys:
                yield "links", f"link to {link.table} is for column {col!r}, which this table does not have"
    for found in row.dice:
        if not any(found.text in v for v in row.fields.values()) and found.text not in row.text:
            yield "dice", f"{found.text!r} is not written in this row"
        try:
            expression_range(found.dice)
        except DiceError as exc:
            yield "dice", str(exc)


def check_links(tables: Iterable[Table], known: set[str] | Iterable[Table], file: str = "<pack>") -> list[Problem]:
    """Links must name tables the library has; given the tables themselves (not just
    their ids), a link's column and pointed-at row must exist there too."""
    targets = {t.id: t for t in known if isinstance(t, Table)} if not isinstance(known, set) else {}
    ids = set(known) if isinstance(known, set) else set(targets)
    problems = []
    for table in tables:
        for row in table.rows:
            for link in row.links:
                if link.table not in ids:
                    problems.append(Problem(file, table.id, row.range_label(), "links", f"links to unknown table {link.table!r}"))
                elif link.table in targets and (msg := _link_target_problem(link, targets[link.table])):
                    problems.append(Problem(file, table.id, row.range_label(), "links", msg))
    return problems


def _link_target_problem(link: Link, target: Table) -> str:
    if link.column and target.column(link.column) is None:
        return f"{target.id} has no column {link.column!r}"
    if link.key and target.find_key(link.key) is None:
        return f"{target.id} has no row {link.key!r}"
    if link.row is not None and target.find(link.row) is None:
        return f"{target.id} has no row for {link.row}"
    if not target.rollable and not link.key and not link.optional:
        return f"{target.id} is a reference table: the link must name its row (key) or be optional (read, not rolled)"
    return ""


def load_pack_text(text: str, file: str = "<pack>") -> Pack:
    """Parse and validate pack JSON; raise :class:`PackInvalid` naming every problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PackInvalid(
            [Problem(file, "", "", "", f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")]
        ) from None
    pack, problems = validate_pack_data(data, file)
    if problems or pack is None:
        raise PackInvalid(problems)
    return pack


# --------------------------------------------------------------------------- library


class TableLibrary:
    """Every table the app knows: the bundled packs with the player's rows laid over them.

    A user row replaces any bundled row whose range it overlaps; a user table with a new
    id is added whole.
    """

    def __init__(self, bundled: Iterable[Pack] = (), user: Iterable[Pack] = ()) -> None:
        self._tables: dict[str, Table] = {}
        self._bundled: dict[str, Table] = {}
        for pack in bundled:
            for table in pack.tables:
                self._tables[table.id] = table
                self._bundled[table.id] = table
        for pack in user:
            self.overlay(pack)

    def overlay(self, pack: Pack) -> None:
        for table in pack.tables:
            base = self._tables.get(table.id)
            if base is None:
                self._tables[table.id] = table
                continue
            self._tables[table.id] = merge_rows(base, table.rows)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def __iter__(self) -> Iterator[Table]:
        return iter(self._tables.values())

    def __len__(self) -> int:
        return len(self._tables)

    def ids(self) -> list[str]:
        return list(self._tables)

    def get(self, table_id: str) -> Table:
        try:
            return self._tables[table_id]
        except KeyError:
            raise TableError(f"There is no table {table_id!r}.") from None

    def bundled(self, table_id: str) -> Table | None:
        return self._bundled.get(table_id)

    def has_row(self, table_id: str, row: Row) -> bool:
        """Whether this library holds ``row`` on ``table_id`` exactly as given (range, cells, text)."""
        if table_id not in self._tables:
            return False
        same = (row.range, row.key, row.fields, row.text)
        return any((r.range, r.key, r.fields, r.text) == same for r in self._tables[table_id].rows)

    def add_user_row(self, table_id: str, row: Row) -> Table:
        """Lay one player-typed row over a table (the 'ask me' policy)."""
        merged = merge_rows(self.get(table_id), [row.model_copy(update={"user": True})])
        problems = check_table(merged)
        if problems:
            raise PackInvalid(problems)
        self._tables[table_id] = merged
        return merged

    def search(self, text: str) -> list[Table]:
        words = text.lower().split()
        return [t for t in self._tables.values() if all(w in f"{t.id} {t.title} {t.source}".lower() for w in words)]


def merge_rows(base: Table, rows: Sequence[Row]) -> Table:
    """``base`` with ``rows`` laid over it: overlapped bundled rows give way."""
    kept = [r for r in base.rows if not any(_overlaps(r, u) for u in rows)]
    merged = sorted([*kept, *rows], key=lambda r: (r.low, r.key))
    return base.model_copy(update={"rows": merged})


def _overlaps(a: Row, b: Row) -> bool:
    if a.range is None or b.range is None:
        return bool(a.key) and a.key == b.key
    return a.range[0] <= b.range[1] and b.range[0] <= a.range[1]
