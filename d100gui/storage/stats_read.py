"""The statistics' first read of a stored log, in SQL: only the dice and the events the statistics read.

Reading a 20,000-entry log as ``LogEntry`` models (``CampaignStore.log_page``) validates some 35 MB of
JSON, every payload of every event, to count a few thousand of them: about 1.9 s. The statistics
need less: each die's kind and face (counted, not listed) and the events of the kinds they read,
in order. SQLite's JSON functions pick those out in C (``json_each`` over the ``rolls`` and
``events`` columns): the dice come back already counted by (given, sides, face), the events as
(entry, kind, payload) for those kinds only, and :meth:`Statistics.count_die` /
:meth:`Statistics.fold_events` fold them, with the same figures as folding the entries (a test
compares both). A row SQLite cannot read as JSON raises ``sqlite3.DatabaseError``: the caller then
reads the entries themselves, which names the damaged one.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from d100gui.engine.chronicle import ChronicleReader
from d100gui.engine.stats import Statistics

_DICE = """
SELECT COALESCE(json_extract(r.value, '$.manual'), 0), json_extract(d.value, '$.sides'), json_extract(d.value, '$.face'),
       count(*)
FROM log AS l, json_each(l.rolls) AS r, json_each(r.value, '$.dice') AS d
WHERE l.idx >= ? AND l.idx < ?
GROUP BY 1, 2, 3
"""
_EVENTS = """
SELECT l.idx, json_extract(e.value, '$.kind'), json_extract(e.value, '$.data')
FROM log AS l, json_each(l.events) AS e
WHERE l.idx >= ? AND l.idx < ? AND json_extract(e.value, '$.kind') IN ({kinds})
ORDER BY l.idx, e.key
"""


def fold_rows(db: sqlite3.Connection, stats: Statistics, end: int) -> None:
    """Count the log entries from ``stats.next_index`` up to ``end`` (exclusive) into ``stats``."""
    start = stats.next_index
    if end <= start:
        return
    kinds = Statistics.kinds()
    dice = db.execute(_DICE, (start, end)).fetchall()
    events = db.execute(_EVENTS.format(kinds=",".join("?" * len(kinds))), (start, end, *kinds)).fetchall()
    for manual, sides, face, times in dice:
        stats.count_die(bool(manual), int(sides), int(face), int(times))
    index, batch = -1, list[tuple[str, dict[str, Any]]]()
    for at, kind, data in events:
        if at != index:
            if batch:
                stats.fold_events(index, batch)
            index, batch = int(at), []
        batch.append((str(kind), _payload(data)))
    if batch:
        stats.fold_events(index, batch)
    stats.counted_up_to(end)


_CHRONICLE = """
SELECT l.idx, l.kind, e.key, json_extract(e.value, '$.kind'), json_extract(e.value, '$.data')
FROM log AS l, json_each(l.events) AS e
WHERE l.idx >= ? AND l.idx < ? AND json_extract(e.value, '$.kind') IN ({kinds})
UNION ALL
SELECT idx, kind, -1, NULL, NULL FROM log WHERE idx >= ? AND idx < ? AND kind = 'new_dungeon'
ORDER BY 1, 3
"""


def fold_chronicle_rows(db: sqlite3.Connection, reader: ChronicleReader, end: int) -> None:
    """Read the log entries from ``reader.stats.next_index`` up to ``end`` (exclusive) into a chronicle reader:
    only the events a chronicle reads and the commands that make a mapping sheet, in SQL. On an error the
    reader may be half read: start a new one (from the entries)."""
    start = reader.stats.next_index
    if end <= start:
        return
    kinds = ChronicleReader.kinds()
    sql = _CHRONICLE.format(kinds=",".join("?" * len(kinds)))
    index, command, batch = -1, "", list[tuple[str, dict[str, Any]]]()
    for at, kind_of_command, _key, kind, data in db.execute(sql, (start, end, *kinds, start, end)):
        if at != index:
            if index >= 0:
                reader.fold_events(index, command, batch)
            index, command, batch = int(at), str(kind_of_command), []
        if kind is not None:
            batch.append((str(kind), _payload(data)))
    if index >= 0:
        reader.fold_events(index, command, batch)
    reader.counted_up_to(end)


def _payload(text: Any) -> dict[str, Any]:
    value = json.loads(text) if isinstance(text, str) else None
    return value if isinstance(value, dict) else {}
