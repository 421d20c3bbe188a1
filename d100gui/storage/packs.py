"""Reading and writing table packs: the bundled ones, the player's own, import and export."""

from __future__ import annotations

import csv
import io
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from d100gui.engine.dice.tables import (
    Pack,
    PackInvalid,
    Problem,
    Row,
    Table,
    TableLibrary,
    check_links,
    check_table,
    load_pack_text,
    merge_rows,
)
from d100gui.storage import safe_read
from d100gui.storage.atomic import write_text_atomic
from d100gui.storage.resources import bundled_pack_files as bundled_pack_files  # re-exported: the packs module names it
from d100gui.storage.resources import bundled_packs

MAX_PACK_BYTES = 20 * 1024 * 1024
MAX_CSV_BYTES = 5 * 1024 * 1024
USER_PACK_FILE = "my-tables.json"


def read_pack_file(path: Path) -> Pack:
    """Read and validate one pack file; :class:`PackInvalid` names file, table, row, field.

    Only a regular file of at most 20 MB is read, and its JSON shape is checked before it is
    parsed (see :mod:`d100gui.storage.safe_read`), so no pack can hang or crash start-up.
    """
    name = str(path)
    try:
        text = safe_read.read_regular_text(path, MAX_PACK_BYTES, "table pack")
        safe_read.check_json_shape(text, "table pack")
    except safe_read.UnreadableFile as exc:
        raise PackInvalid([Problem(name, "", "", "", str(exc))]) from None
    return load_pack_text(text, name)


@dataclass
class LoadedLibrary:
    """The library plus whatever went wrong loading the player's packs (shown once)."""

    library: TableLibrary
    user_pack: Pack | None
    user_pack_path: Path | None
    problems: list[str] = field(default_factory=list)


def load_library(user_dir: Path | None = None) -> LoadedLibrary:
    """The one loader: bundled packs, then the player's pack laid over them.

    A broken user pack never blocks start-up: it is skipped and its problems returned.
    """
    library = TableLibrary(bundled_packs())  # parsed once per process: a library never changes a pack
    problems: list[str] = []
    user_pack: Pack | None = None
    user_path: Path | None = None
    if user_dir is not None:
        user_path = user_dir / USER_PACK_FILE
        if os.path.lexists(user_path):  # a dangling or looping link is reported, not skipped
            try:
                user_pack = read_pack_file(user_path)
                link_problems = check_links(
                    user_pack.tables, set(library.ids()) | {t.id for t in user_pack.tables}, str(user_path)
                )
                if link_problems:
                    raise PackInvalid(link_problems)
                library.overlay(user_pack)
            except PackInvalid as exc:
                user_pack = None
                problems.append(f"Your table pack was not loaded; the bundled tables are in use.\n{exc}")
    return LoadedLibrary(library, user_pack, user_path, problems)


def current_user_pack(user_path: Path | None) -> Pack:
    """The player's own pack as stored (an empty one if they have none yet)."""
    if user_path is not None and user_path.exists():
        return read_pack_file(user_path)
    return Pack(id="user", title="My tables", source="typed or imported by the player", tables=[])


def save_user_table(user_path: Path | None, table: Table) -> Pack:
    """Store the player's rows of ``table`` in their pack (atomically).

    Only rows the player supplied are stored (``user`` rows, or every row of a table that
    is not bundled), so the bundled rows are never copied into the player's file.
    """
    pack = current_user_pack(user_path)
    own = [r for r in table.rows if r.user] or table.rows
    entry = table.model_copy(update={"rows": [r.model_copy(update={"user": True}) for r in own]})
    pack.tables = [t for t in pack.tables if t.id != table.id] + [entry]
    if user_path is not None:
        export_pack(pack, user_path)
    return pack


def merge_into_user_pack(user_path: Path | None, incoming: Pack) -> Pack:
    """Lay an imported pack over the player's pack and store the result."""
    pack = current_user_pack(user_path)
    by_id = {t.id: t for t in pack.tables}
    for table in incoming.tables:
        rows = [r.model_copy(update={"user": True}) for r in table.rows]
        if table.id in by_id:
            by_id[table.id] = merge_rows(by_id[table.id], rows)
        else:
            by_id[table.id] = table.model_copy(update={"rows": rows})
    pack.tables = list(by_id.values())
    if user_path is not None:
        export_pack(pack, user_path)
    return pack


def export_pack(pack: Pack, path: Path) -> None:
    write_text_atomic(path, pack.model_dump_json(indent=2, exclude_defaults=True))


def import_pack(path: Path, library: TableLibrary) -> Pack:
    """Validate a pack file the player picked, including its links, before it is used."""
    pack = read_pack_file(path)
    problems = check_links(pack.tables, set(library.ids()) | {t.id for t in pack.tables}, str(path))
    if problems:
        raise PackInvalid(problems)
    return pack


# --------------------------------------------------------------------------- CSV, one table

_FIXED = ("from", "to")


def table_to_csv(table: Table) -> str:
    """One table as CSV: from, to, then a column per printed column, then text."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*_FIXED, *[c.key for c in table.columns], "text"])
    for row in table.rows:
        lo, hi = row.range if row.range else ("", "")
        writer.writerow([lo, hi, *[row.fields.get(c.key, "") for c in table.columns], row.text])
    return out.getvalue()


def table_from_csv(text: str, base: Table, file: str = "<csv>") -> Table:
    """Rows for ``base`` read from CSV; every bad cell is named (malformed CSV too, by its line)."""
    reader = csv.reader(io.StringIO(text))
    try:
        return _table_from_rows(reader, base, file)
    except csv.Error as exc:
        raise PackInvalid([Problem(file, base.id, f"line {reader.line_num}", "", f"is not valid CSV ({exc})")]) from None


def read_csv_file(path: Path, base: Table) -> Table:
    """Rows for ``base`` from a CSV file the player picked: only a regular file of at most 5 MB
    is read, so a pipe or a device in the dialog cannot hang the app."""
    try:
        text = safe_read.read_regular_text(path, MAX_CSV_BYTES, "CSV file")
    except safe_read.UnreadableFile as exc:
        raise PackInvalid([Problem(str(path), base.id, "", "", str(exc))]) from None
    return table_from_csv(text, base, str(path))


def _table_from_rows(reader: Any, base: Table, file: str) -> Table:
    try:
        header = next(reader)
    except StopIteration:
        raise PackInvalid([Problem(file, base.id, "", "", "the CSV file is empty")]) from None
    expected = [*_FIXED, *[c.key for c in base.columns], "text"]
    if [h.strip() for h in header] != expected:
        raise PackInvalid(
            [Problem(file, base.id, "header", "", f"expected columns {', '.join(expected)}; got {', '.join(header)}")]
        )
    rows: list[Row] = []
    problems: list[Problem] = []
    for line_no, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(expected):
            problems.append(Problem(file, base.id, f"line {line_no}", "", f"has {len(cells)} cells, expected {len(expected)}"))
            continue
        try:
            lo, hi = int(cells[0]), int(cells[1])
        except ValueError:
            problems.append(Problem(file, base.id, f"line {line_no}", "from/to", "from and to must be whole numbers"))
            continue
        fields = {c.key: cells[2 + i] for i, c in enumerate(base.columns) if cells[2 + i]}
        partial = len(fields) < len(base.columns)
        rows.append(Row(range=(lo, hi), fields=fields, text=cells[-1], partial=partial, user=True))
    table = base.model_copy(update={"rows": rows})
    problems.extend(check_table(table, file))
    if problems:
        raise PackInvalid(problems)
    return table


def _main(argv: list[str]) -> int:
    """``python -m d100gui.storage.packs validate FILE...``: check packs by hand."""
    if len(argv) < 2 or argv[0] != "validate":
        print("usage: python -m d100gui.storage.packs validate FILE...")
        return 2
    status = 0
    packs = []
    for name in argv[1:]:
        try:
            pack = read_pack_file(Path(name))
            packs.append(pack)
            gaps = sum(len(t.missing_ranges()) for t in pack.tables)
            print(f"{name}: OK, {len(pack.tables)} tables, {sum(len(t.rows) for t in pack.tables)} rows, {gaps} gaps")
        except PackInvalid as exc:
            print(f"{name}: INVALID\n{exc}")
            status = 1
    known = {t.id for p in [*bundled_packs(), *packs] for t in p.tables}
    for pack in packs:
        for prob in check_links(pack.tables, known):
            print(f"link: {prob}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
