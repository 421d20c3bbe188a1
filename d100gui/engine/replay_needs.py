"""What a campaign's replay needs from the machine it runs on, and what this one lacks.

A replay is exact only with the same tables and tile sets. The bundled ones travel with the
app; the player's own do not: a campaign played on their own tile set, or whose rolls landed
on rows they typed into their pack, replays elsewhere only if that machine has them too. The
campaign names its tile set, and each log entry lists the player's rows it read
(:attr:`~d100gui.engine.game.LogEntry.player_rows`), so the replay can say exactly what is
missing instead of quietly replaying to a different state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from d100gui.engine.dice.tables import Pack, Row, TableLibrary
from d100gui.engine.game import LogEntry


def _key(table_id: str, row: Row) -> tuple[str, Any, str, str, str]:
    return (table_id, row.range, row.key, repr(sorted(row.fields.items())), row.text)


def _rows_the_log_provides(entry: LogEntry) -> Iterable[tuple[str, Row]]:
    """Rows the action itself lays over the tables (a typed missing row): replaying it does the same."""
    command = entry.command
    if isinstance(command.get("row"), dict):
        table = str(command.get("table_id") or command.get("table") or "")
        try:
            yield table, Row.model_validate(command["row"])
        except ValueError:
            pass
    for event in entry.events:
        if event.kind == "row_provided" and isinstance(event.data.get("row"), dict):
            try:
                yield str(event.data.get("table_id", "")), Row.model_validate(event.data["row"])
            except ValueError:
                pass


def missing_player_rows(log: Iterable[LogEntry], library: TableLibrary) -> list[str]:
    """The player's rows the log read that ``library`` lacks and the log does not type in itself,
    each as "table rows lo-hi" (in the order first read)."""
    provided: set[tuple[str, Any, str, str, str]] = set()
    provided_anywhere: set[tuple[Any, str, str, str]] = set()
    missing: list[str] = []
    for entry in log:
        for table_id, row in _rows_the_log_provides(entry):
            provided.add(_key(table_id, row))
            provided_anywhere.add(_key(table_id, row)[1:])
        for used in entry.player_rows:
            key = _key(used.table_id, used.row)
            if key in provided or key[1:] in provided_anywhere or library.has_row(used.table_id, used.row):
                continue
            label = f"{used.table_id} row {used.row.range_label()}"
            if label not in missing:
                missing.append(label)
    return missing


def replay_library(bundled: Iterable[Pack], user_pack: Pack | None, log: Sequence[LogEntry]) -> TableLibrary:
    """The tables to replay ``log`` with: the bundled packs and the player's pack, less the rows
    the log itself types in. Those rows were saved to the pack when they were typed, so with them
    the replayed roll would find a row where the original found a gap, and the typing would then
    be refused: the replay must meet the gap again, as the player did."""
    typed = {_key(t, r)[1:] for entry in log for t, r in _rows_the_log_provides(entry)}
    if user_pack is None or not typed:
        return TableLibrary(bundled, [user_pack] if user_pack else [])
    tables = []
    for table in user_pack.tables:
        kept = [row for row in table.rows if _key(table.id, row)[1:] not in typed]
        if kept:
            tables.append(table.model_copy(update={"rows": kept}))
    return TableLibrary(bundled, [user_pack.model_copy(update={"tables": tables})])


def missing_resources(log: Iterable[LogEntry], tileset: str, tilesets: Mapping[str, object], library: TableLibrary) -> str:
    """What a replay needs that this machine lacks, as one sentence ("" when it has everything)."""
    parts = []
    if tileset not in tilesets:
        parts.append(f"the tile set {tileset!r} (this machine has {', '.join(sorted(tilesets))})")
    rows = missing_player_rows(log, library)
    if rows:
        shown = ", ".join(rows[:10]) + (f" and {len(rows) - 10} more" if len(rows) > 10 else "")
        parts.append(f"{len(rows)} of the player's own table row(s): {shown}")
    return "; ".join(parts)
