"""The statistics' first read of a stored log, in SQL: only the dice and the events the statistics read.

Reading a 20,000-entry log as ``LogEntry`` models (``CampaignStore.log_page``) validates some 35 MB of
JSON, every payload of every event, to count a few thousand of them: about 1.9 s. The statistics
need less: each die's kind and face (counted, not listed) and the events of the kinds they read,
in order. SQLite's JSON functions pick those out in C, parsing each row's ``rolls`` and ``events`` once:
each roll's dice array comes back as text, grouped and counted by SQLite (a campaign rolls a few dozen
distinct arrays: Python parses each once), and each event's kind is read by its path in the entry's
array (``json_each``'s own value would render every payload as text again, and parse it again), its
payload only for the kinds the statistics read. :meth:`Statistics.count_die` / :meth:`Statistics.fold_events`
fold them, with the same figures as folding the entries (a test compares both). The floor is SQLite
parsing some 35 MB of JSON once: about 300-400 ms for 20,000 entries on a loaded machine (1.2-1.4 s
before this way of reading). A row SQLite cannot read as JSON raises ``sqlite3.DatabaseError``: the caller then
reads the entries themselves, which names the damaged one.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from d100gui.engine.chronicle import ChronicleReader
from d100gui.engine.stats import Statistics

#: each roll's dice array as text, counted: a campaign's rolls hold a few dozen distinct arrays, parsed once each
_DICE = """
SELECT COALESCE(json_extract(r.value, '$.manual'), 0), json_extract(r.value, '$.dice'), count(*)
FROM log AS l, json_each(l.rolls) AS r
WHERE l.idx >= ? AND l.idx < ? AND l.rolls <> '[]'
GROUP BY 1, 2
"""
#: each event's kind read by its path in the entry's array (SQLite parses the array once per row and keeps
#: it for the next path; ``json_each``'s own value would render each event's payload as text again)
_EVENTS = """
SELECT idx, kind, json_extract(events, '$[' || key || '].data')
FROM (
    SELECT l.idx AS idx, e.key AS key, l.events AS events, json_extract(l.events, '$[' || e.key || '].kind') AS kind
    FROM log AS l, json_each(l.events) AS e
    WHERE l.idx >= ? AND l.idx < ?
)
WHERE kind IN ({kinds})
ORDER BY idx, key
"""


def fold_rows(db: sqlite3.Connection, stats: Statistics, end: int) -> None:
    """Count the log entries from ``stats.next_index`` up to ``end`` (exclusive) into ``stats``."""
    start = stats.next_index
    if end <= start:
        return
    kinds = Statistics.kinds()
    dice = db.execute(_DICE, (start, end)).fetchall()
    events = db.execute(_EVENTS.format(kinds=",".join("?" * len(kinds))), (start, end, *kinds)).fetchall()
    for manual, faces, times in dice:
        for die in _dice(faces):
            stats.count_die(bool(manual), int(die.get("sides", "")), int(die.get("face", "")), int(times))
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
SELECT idx, command, key, kind, json_extract(events, '$[' || key || '].data')
FROM (
    SELECT l.idx AS idx, l.kind AS command, e.key AS key, l.events AS events,
           json_extract(l.events, '$[' || e.key || '].kind') AS kind
    FROM log AS l, json_each(l.events) AS e
    WHERE l.idx >= ? AND l.idx < ?
)
WHERE kind IN ({kinds})
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


def _dice(text: Any) -> list[dict[str, Any]]:
    value = json.loads(text) if isinstance(text, str) else None
    return [die for die in value if isinstance(die, dict)] if isinstance(value, list) else []


def _payload(text: Any) -> dict[str, Any]:
    value = json.loads(text) if isinstance(text, str) else None
    return value if isinstance(value, dict) else {}
