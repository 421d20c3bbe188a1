"""A whole table pasted as text from the player's rulebook, read into rows with a verdict per cell.

A PDF viewer copies a table as lines: the roll range first ("01-05", "1–5", "96-00", "7"),
then the cells, separated by tabs or runs of spaces, or only by single spaces; a long cell
wraps onto the next line; a column heading, the table's title, a page footer or blank lines
come between the rows. :func:`read_paste` turns such text into proposed rows:

* a line that begins with a roll of the die starts a row; a line that does not continues the
  row before it (a wrapped cell), unless it is a heading, a title or a page footer, which is
  skipped with the reason;
* the row's text is fitted to the table's columns: separated pieces are kept whole where they
  can be, a printed ``NAME: text`` cell fills a name column and the column after it, and an
  optional column may stay empty; the fit prefers cells of each column's kind (the kinds
  :mod:`~d100gui.engine.dice.row_check` reads from the printed rows);
* every cell is then checked against its column (:func:`~d100gui.engine.dice.row_check.check_row`)
  and the row gets a verdict: new (fills a gap), bad (with every reason), already printed
  (nothing to add), or overlapping a row the table already has (printed or the player's own),
  which the player decides on: it never replaces that row silently.

Qt-free: the table editor only shows what this returns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from pydantic import Field

from d100gui.engine.dice.row_check import ColumnKind, RowCheck, check_cell, column_kinds, printed_rows, range_problem
from d100gui.engine.dice.tables import Column, Row, Table
from d100gui.engine.model import Model
from d100gui.engine.rules.model import Rules
from d100gui.engine.rules.slots import slot_for_name

_DASH = "-–—−‐‑"
_RANGE = re.compile(rf"^\s*(\d{{1,3}})(?:(?:[{_DASH}]|\s+[{_DASH}]\s+|[{_DASH}]\s+)(\d{{1,3}}))?\+?(?=\s|$)")
_SEPARATOR = re.compile(r"\t+|\s{2,}|\u00a0{1,}")
_NUMBER = re.compile(r"[+\-–−]?\s*\d[\d,]*\s*[A-Za-z]{0,6}\.?")
_NUMBERS = re.compile(r"\d+(?:\s*/\s*\d+)+|\d+")
_NAME_COLON = re.compile(r"^([A-Z][A-Z0-9 '’/&\-]*[A-Z0-9)]):\s+(\S.*)$")
_FOOTER = re.compile(r"^\W*(?:page\s*\d+(?:\s*of\s*\d+)?|\d+\s*of\s*\d+|[-–—]\s*\d+\s*[-–—])\W*$", re.IGNORECASE)
_PAGE_WORD = re.compile(r"\bpage\s+\d+\b", re.IGNORECASE)
_TITLE = re.compile(r"\s*table\s+([A-Z]{1,3})\s*[-–—:]\s*[\w' ]{1,40}(?:\([^)]{1,40}\))?\s*", re.IGNORECASE)
_DIE_WORDS = {"d100", "d10", "d6", "d20", "d66", "roll", "rolls", "result", "range", "score", "dice", "die", "%"}
_JOIN_PENALTY = 4  # keeping apart what the text separated is worth this much per join
_BAD = -40  # a cell of the wrong kind: possible (the player sees why), never preferred
_EMPTY = -30  # a required column left empty where the copy kept its cells apart (the book cut the row short)
_EMPTY_WORDS = -100  # ... and where only single spaces came through: any word may be a cell, so fill them all


class Verdict(StrEnum):
    """What saving a pasted row would do."""

    NEW = "new"  # fills a gap: saved
    BAD = "bad"  # a cell or the range is wrong: not saved, each reason shown
    PRINTED = "printed"  # the table already has this very row: nothing to add
    CLASH = "clash"  # overlaps a row the table has, with other cells: the player decides


class PastedRow(Model):
    """One row read from the text: where it came from, its cells, their checks and its verdict.

    ``clashes`` are the table's rows (printed or the player's own) whose range it overlaps;
    ``check`` is made without them, so the cells are judged on their own.
    """

    lines: tuple[int, int]  # first and last line of the text (1-based)
    source: str
    row: Row
    check: RowCheck
    verdict: Verdict
    clashes: list[Row] = Field(default_factory=list)

    @property
    def reasons(self) -> list[str]:
        return self.check.problems()

    def explain(self, table: Table) -> str:
        """The verdict in a sentence: why it is saved, skipped or waits for the player."""
        if self.verdict is Verdict.BAD:
            return "; ".join(self.reasons)
        if self.verdict is Verdict.PRINTED:
            return f"Already in your tables as {self.clashes[0].range_label()}: nothing to add."
        if self.verdict is Verdict.CLASH:
            whose = ", ".join(
                f"{'your' if r.user else 'the printed'} row {r.range_label()} ({r.summary(table)})" for r in self.clashes
            )
            return f"Overlaps {whose}: kept unless you choose to replace it."
        return "OK: fills a missing range."


class SkippedLine(Model):
    """A line that is not a row, and why (a heading, a title, a footer, text before the first row)."""

    line: int
    text: str
    reason: str


class PasteReading(Model):
    """Everything read from one paste."""

    table_id: str
    rows: list[PastedRow] = Field(default_factory=list)
    skipped: list[SkippedLine] = Field(default_factory=list)
    left_out: list[str] = Field(default_factory=list)  # headings of pasted columns the table does not keep

    def of(self, verdict: Verdict) -> list[PastedRow]:
        return [r for r in self.rows if r.verdict is verdict]

    def to_save(self, replace: Sequence[int] = ()) -> list[Row]:
        """The rows saving adds: every new row, and the clashing rows at the indexes in ``replace``."""
        chosen = [
            r.row for i, r in enumerate(self.rows) if r.verdict is Verdict.NEW or (r.verdict is Verdict.CLASH and i in replace)
        ]
        return [r.model_copy(update={"user": True}) for r in chosen]


# --------------------------------------------------------------------------- lines


def read_range(text: str, table: Table) -> tuple[tuple[int, int], str] | None:
    """``"96-00 Ogre ..."`` -> ``((96, 100), "Ogre ...")`` for a d100; None when the line starts with no roll of the die."""
    found = _RANGE.match(text)
    if found is None or not table.rollable:
        return None
    lo_die, hi_die = table.die_range()
    low = _face(int(found.group(1)), lo_die, hi_die)
    high = _face(int(found.group(2)), lo_die, hi_die) if found.group(2) is not None else low
    if not (lo_die <= low <= hi_die and lo_die <= high <= hi_die) or high < low:
        return None
    return (low, high), text[found.end() :].lstrip().rstrip(" ")  # a tab at the end: a cell follows on the next line


def _face(value: int, lo_die: int, hi_die: int) -> int:
    """ "00" (and "0" on a die from 1) reads as the die's highest face: 100 on a d100, 10 on a d10."""
    return hi_die if value == 0 and lo_die >= 1 else value


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9%]+", text.casefold())


def _is_heading(text: str, table: Table) -> bool:
    """Two words or more, all of them column labels or the die's name, one at least a column's ("D100 Slot Item")."""
    labels = {w for c in table.columns for w in _words(c.label)}
    words = _words(text)
    known = labels | _DIE_WORDS | set(_words(table.die or ""))
    return len(words) >= 2 and all(w in known for w in words) and any(w in labels for w in words)


def heading_map(text: str, table: Table) -> list[str | None] | None:
    """A heading line with a column this table does not keep ("D100 Part Description Value" for a table of
    Part and Value): the column key under each heading after the die's, None for the one left out."""
    pieces = [p.strip() for p in _SEPARATOR.split(text) if p.strip()]
    if len(pieces) < 3 or not set(_words(pieces[0])) <= _DIE_WORDS | set(_words(table.die or "")):
        return None
    by_label = {_norm(c.label): c.key for c in table.columns}
    keys = [by_label.get(_norm(p)) for p in pieces[1:]]
    found = [k for k in keys if k is not None]
    if None not in keys or len(found) * 2 < len(keys) or len(set(found)) != len(found):
        return None
    return keys


def _title_letter(text: str) -> str | None:
    """The letter of a table's title line ("Table A – Armour (D100)" is "a"); None for any other line."""
    found = _TITLE.fullmatch(text)
    return found.group(1).casefold() if found else None


def _skip_reason(text: str, table: Table) -> str:
    """Why a line that starts no row is not part of one ("" when it continues the row before)."""
    if _FOOTER.match(text) or _PAGE_WORD.search(text):
        return "a page footer"
    if _title_letter(text) is not None or text.strip().casefold() == table.title.casefold():
        return "a table's title"
    if _is_heading(text, table):
        return "the column headings"
    return ""


# --------------------------------------------------------------------------- fitting cells to columns


class _Column:
    """What the fit knows of a column: its kind and the shape of its printed cells."""

    def __init__(self, column: Column, kind: ColumnKind, printed: list[str], rules: Rules | None) -> None:
        self.column, self.kind, self.rules = column, kind, rules
        self.printed = {p.casefold() for p in printed}
        words = [len(p.split()) for p in printed]
        self.words = (min(words), max(words)) if words else (1, 99)
        letters = [p for p in printed if any(ch.isalpha() for ch in p)]
        self.capitals = bool(letters) and all(_is_capitals(p) for p in letters)
        self.opens = {p[0] for p in printed if p and not p[0].isalnum()}  # "(R)", "[K:Table P]"

    def score(self, text: str, empty: int = _EMPTY) -> int:
        if not text:
            return 0 if self.column.optional else empty
        if text.casefold() in self.printed:
            return 12
        if self.kind is ColumnKind.NUMBER:
            return 10 if _NUMBER.fullmatch(text) else _BAD
        if self.kind is ColumnKind.NUMBERS:
            return 10 if _NUMBERS.fullmatch(text) else _BAD
        if self.kind is ColumnKind.SLOT:
            return 10 if self.rules is not None and slot_for_name(self.rules, text) else _BAD
        return self._text_score(text)

    def _text_score(self, text: str) -> int:
        score = 1
        lo, hi = self.words
        score += 2 if lo <= len(text.split()) <= hi else 0
        if self.capitals:
            score += 3 if _is_capitals(text) else -3
        if self.opens:
            score += 3 if text[0] in self.opens else -2
        if self.column.effect and text.count("[") != text.count("]"):
            score -= 6
        if _NUMBER.fullmatch(text) and not any(_NUMBER.fullmatch(p) for p in self.printed):
            score -= 4
        return score


def _is_capitals(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(ch.isupper() for ch in letters)


def _atoms(text: str) -> list[tuple[str, bool]]:
    """The pieces the separators give, each with whether a separator (not a single space) came before it."""
    pieces = [p.strip() for p in _SEPARATOR.split(text) if p.strip()]
    atoms: list[tuple[str, bool]] = []
    for piece in pieces:
        named = _NAME_COLON.match(piece)
        if named:  # "STRONGER: A surge ..." is a name and the text after it
            atoms.append((named.group(1), True))
            atoms.append((named.group(2), True))
        else:
            atoms.append((piece, True))
    return atoms


def _word_atoms(text: str) -> list[tuple[str, bool]]:
    """Every word as a piece (a copy that kept only single spaces); a ``NAME:`` word ends a name."""
    atoms: list[tuple[str, bool]] = []
    for piece, _sep in _atoms(text):
        words = piece.split()
        atoms.extend((w, i == 0) for i, w in enumerate(words))
    return atoms


def fit_cells(text: str, columns: Sequence[_Column], *, separated: bool = False) -> list[str]:
    """The cells of one row's text (range taken off), one per column, by the best-scoring fit.

    A copy that kept its separators (tabs or runs of spaces) keeps each piece whole (a piece is
    a cell, or a ``NAME: text`` pair); one with only single spaces is fitted word by word. As
    many pieces as columns are the cells in order (a bad cell stays where it was pasted)."""
    pieces = [p.strip() for p in _SEPARATOR.split(text) if p.strip()]
    if separated:
        return pieces if len(pieces) == len(columns) else _fit(_atoms(text), columns)[1]
    return _fit(_word_atoms(text), columns, _EMPTY_WORDS)[1]


def _fit(atoms: list[tuple[str, bool]], columns: Sequence[_Column], empty: int = _EMPTY) -> tuple[int, list[str]]:
    """Dynamic programme: column ``c`` takes atoms ``i..j-1`` (none when that scores better); highest total wins."""
    n, m = len(atoms), len(columns)
    neg = -(10**9)
    best = [[neg] * (n + 1) for _ in range(m + 1)]
    back = [[0] * (n + 1) for _ in range(m + 1)]
    best[0][0] = 0
    for c in range(m):
        for i in range(n + 1):
            if best[c][i] == neg:
                continue
            last = c == m - 1
            for j in range(n if last else i, n + 1):  # the last column takes whatever is left
                cell, joins = _join(atoms[i:j])
                total = best[c][i] + columns[c].score(cell, empty) - _JOIN_PENALTY * joins
                if total > best[c + 1][j]:
                    best[c + 1][j], back[c + 1][j] = total, i
    cells: list[str] = []
    j = n
    for c in range(m, 0, -1):
        i = back[c][j]
        cells.append(_join(atoms[i:j])[0])
        j = i
    return best[m][n], cells[::-1]


def _join(atoms: Sequence[tuple[str, bool]]) -> tuple[str, int]:
    """The atoms as one cell, and how many separators the join went over."""
    return " ".join(a for a, _ in atoms), sum(sep for _, sep in atoms[1:])


# --------------------------------------------------------------------------- the paste


def read_paste(table: Table, text: str, rules: Rules | None = None) -> PasteReading:
    """Every row the pasted ``text`` gives for ``table``, each checked and judged (see the module doc)."""
    reading = PasteReading(table_id=table.id)
    if not table.rollable:
        reading.skipped.append(SkippedLine(line=0, text="", reason="this table is not rolled: type its rows instead"))
        return reading
    kinds = column_kinds(table, rules)
    columns = [
        _Column(
            c,
            kinds[c.key],
            [r.fields.get(c.key, "").strip() for r in printed_rows(table) if r.fields.get(c.key, "").strip()],
            rules,
        )
        for c in table.columns
    ]
    required = sum(not c.optional for c in table.columns)
    pending: list[tuple[int, int, tuple[int, int], str]] = []  # first line, last line, range, text
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    own_letter = _title_letter(table.title)
    heading: list[str | None] | None = None
    ended = False
    for number, raw in enumerate(lines, start=1):
        line = raw.replace("\u00a0", " ").rstrip(" ")  # a tab at the end says a cell follows on the next line
        if not line.strip():
            continue
        letter = _title_letter(line)
        if ended or (pending and letter is not None and letter != own_letter):
            ended = True
            reading.skipped.append(
                SkippedLine(line=number, text=line.strip(), reason="after another table's title: not this table")
            )
            continue
        start = read_range(line, table)
        if start is not None and _starts_row(start, pending, required, lines, number, table):
            pending.append((number, number, start[0], start[1]))
            continue
        mapped = heading_map(line, table)
        if mapped is not None:
            heading = mapped
            reading.left_out = [p.strip() for p, k in zip(_SEPARATOR.split(line.strip())[1:], mapped, strict=False) if k is None]
            reading.skipped.append(SkippedLine(line=number, text=line.strip(), reason="the column headings"))
            continue
        reason = _skip_reason(line, table)
        if reason or not pending:
            reading.skipped.append(SkippedLine(line=number, text=line.strip(), reason=reason or "before the first row"))
            continue
        first, _last, span, cells = pending[-1]
        pending[-1] = (first, number, span, f"{cells}\n{line.strip(' ')}" if cells else line.strip())
    for first, last, span, body in pending:
        if not body.strip():
            reading.skipped.append(
                SkippedLine(
                    line=first, text=lines[first - 1].strip(), reason="a number alone on its line, no cells (a page number?)"
                )
            )
            continue
        source_lines = lines[first - 1 : last]
        joined = _join_wrapped(body)
        pieces = [p.strip() for p in _SEPARATOR.split(joined) if p.strip()]
        if heading is not None and len(pieces) == len(heading):  # the pasted columns, named: keep the table's
            fields = {k: v for k, v in zip(heading, pieces, strict=True) if k is not None}
        else:
            separated = any(_SEPARATOR.search(line.strip()) for line in source_lines)
            fitted = fit_cells(joined, columns, separated=separated)
            fields = {c.key: v for c, v in zip(table.columns, fitted, strict=True) if v}
        row = Row(range=span, fields=fields, user=True)
        source = "\n".join(source_lines)
        reading.rows.append(PastedRow(lines=(first, last), source=source, row=row, check=RowCheck(), verdict=Verdict.NEW))
    _judge(table, reading, rules)
    return reading


def _join_wrapped(body: str) -> str:
    """Lines of one row as one text: a wrapped cell goes on with a space (a tab the copy kept stays a separator)."""
    return " ".join(part.strip(" ") for part in body.split("\n"))


def _starts_row(
    start: tuple[tuple[int, int], str],
    pending: list[tuple[int, int, tuple[int, int], str]],
    required: int,
    lines: list[str],
    number: int,
    table: Table,
) -> bool:
    """Whether a line that begins with a number starts a row, or continues a cut cell ("...Restores / 10 lost HP")."""
    (low, _high), rest = start
    if not rest and _next_is_row_or_end(lines, number, table):
        return True  # said later: a number alone (a footer) gives no row
    if not pending:
        return True
    prev = pending[-1]
    if low == prev[2][1] + 1 or not prev[3] or _pieces(rest) >= required:  # the next roll, after a lone number, a whole row
        return True
    return _pieces(prev[3]) >= required and low > prev[2][1]


def _pieces(text: str) -> int:
    """How many cells ``text`` may hold: its separated pieces, or its words where only single spaces came through."""
    return len(_atoms(text)) if _SEPARATOR.search(text.strip()) else len(text.split())


def _next_is_row_or_end(lines: list[str], number: int, table: Table) -> bool:
    for line in lines[number:]:
        if line.strip():
            return read_range(line, table) is not None
    return True


def _judge(table: Table, reading: PasteReading, rules: Rules | None) -> None:
    """Check each row's cells and range, and give it its verdict."""
    kinds = column_kinds(table, rules)  # read from every printed row, once
    known = [_same_as_printed(p.row, table) for p in reading.rows]  # rows the table has: they clash with nothing new
    for index, pasted in enumerate(reading.rows):
        row = pasted.row
        clashes = [r for r in table.rows if r.range and row.range and r.range[0] <= row.range[1] and row.range[0] <= r.range[1]]
        alone = table.model_copy(update={"rows": [r for r in table.rows if r not in clashes]})
        others = [p.row for i, p in enumerate(reading.rows) if i != index and not known[i]]
        cells = [check_cell(table, c, row.fields.get(c.key, ""), kinds[c.key], rules) for c in table.columns]
        check = RowCheck(range_problem=range_problem(alone, row, others=others), cells=cells)
        pasted.check, pasted.clashes = check, clashes
        if clashes and len(clashes) == 1 and _same(row, clashes[0]):
            pasted.verdict = Verdict.PRINTED
        elif not check.ok:
            pasted.verdict = Verdict.BAD
        elif clashes:
            pasted.verdict = Verdict.CLASH
        else:
            pasted.verdict = Verdict.NEW


def _same_as_printed(row: Row, table: Table) -> bool:
    return any(r.range == row.range and _same(row, r) for r in table.rows)


def _norm(text: str) -> str:
    return " ".join(text.replace("–", "-").split()).casefold()


def _same(pasted: Row, have: Row) -> bool:
    """The row the table has says the same as the pasted one: same range, and each of its cells is in the pasted
    cell (a bundled cell keeps only the rule of a printed sentence, so the pasted one may say more)."""
    if pasted.range != have.range:
        return False
    return all(_says(_norm(pasted.fields.get(k, "")), _norm(v)) for k, v in have.fields.items() if v.strip())


def _says(pasted: str, have: str) -> bool:
    """Equal, or (for words, not a bare number) said within the pasted cell: "(+1 Food)" in "You find ... (+1 Food)"."""
    if pasted == have:
        return True
    wordy = sum(ch.isalpha() for ch in have) >= 3
    return wordy and re.search(rf"(?<!\w){re.escape(have)}(?!\w)", pasted) is not None


def guess_table(text: str, tables: Sequence[Table]) -> Table | None:
    """The table the pasted text names in a title line ("Table A – Armour (D100)"), among ``tables``; None when
    no line is a title or no table has that letter."""
    for line in text.splitlines():
        letter = _title_letter(line)
        if letter is None:
            continue
        for table in tables:
            if table.rollable and _title_letter(table.title) == letter:
                return table
    return None


__all__ = ["PasteReading", "PastedRow", "SkippedLine", "Verdict", "fit_cells", "guess_table", "read_paste", "read_range"]
