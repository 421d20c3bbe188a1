"""The campaign store: one SQLite database per campaign, one transaction per action.

Tables:

* ``meta`` — ``store_version`` (this layout; migrated by :data:`STORE_MIGRATIONS`), what
  wrote it, what the last save counted (:data:`COUNTS`) and the statistics' kept state (:data:`STATS`,
  a cache);
* ``parts`` — the campaign's current state, one row per part (its JSON): the hero, the
  dungeons, the fight, the random state, ... (:data:`~d100gui.engine.campaign.CAMPAIGN_PARTS`);
* ``items`` — the entries of sequence parts (the dice history), one row each, and the members of
  book parts (the dungeons);
* ``log`` — the append-only command log, one row per action (command, rolls, events as JSON);
* ``journal`` and ``journal_parts`` — the undo and redo steps (the parts each action changed, as
  they were), so undo survives reopening.

:meth:`CampaignStore.attach` subscribes the store to a :class:`~d100gui.engine.game.Game`:
each do, undo and redo is written in one transaction (its log row, the parts it changed, its
journal step), so a crash or kill loses at most the action in progress, and an action costs
what it changed, never the log's length. A write that fails (the disk, :class:`StoreFull`) keeps
the change in the store's queue (:attr:`CampaignStore.unsaved`), written first by the next save. Opening reads the state and the last few log
entries; :meth:`CampaignStore.log_page` pages through the rest on demand. The dice history is read
the same way: its newest :data:`OPEN_HISTORY_TAIL` entries on open, the others (slots holding
:data:`~d100gui.engine.dice.history.UNLOADED`) when asked (:meth:`CampaignStore.history_page`,
``campaign.dice_history_page``).

An open store holds an exclusive lock (a second app is told at once that the campaign is open
there) and runs in WAL mode from its first write (no ``-shm`` file; a file only read is never
switched, so a refused one stays byte for byte); :meth:`CampaignStore.close` checkpoints and goes
back to a rollback journal, so at rest the campaign is a single file.

A campaign file is data, never code: every connection is hardened (``trusted_schema`` off, lowered
limits, each statement's work bounded: :func:`_harden`), and a schema that is not the app's is
refused before any row is read (:func:`_check_schema`). A new store is built at a private temporary
name and linked into place only if its name is still free (:meth:`CampaignStore.create`): nothing is
ever replaced or deleted that this module did not make. JSON stays the portable format:
:func:`export_json` writes today's self-contained ``.d100.json`` text and :func:`import_json`
reads it; :func:`open_campaign` converts an older JSON campaign file on open, keeping the
original beside the new database.
"""

from __future__ import annotations

import errno
import functools
import gzip
import json
import os
import re
import sqlite3
import stat
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from d100gui.engine.campaign import CAMPAIGN_PARTS, Campaign
from d100gui.engine.checks import campaign_problems
from d100gui.engine.dice.dice import ManualSource
from d100gui.engine.dice.history import UNLOADED, DiceHistory, HistoryEntry
from d100gui.engine.game import CAMPAIGN_SCHEMA_VERSION, Command, Game, GameData, LogEntry, _faces_from, _physical_faces
from d100gui.engine.journal import Change, SequenceState, Step, short_reason
from d100gui.storage import safe_read
from d100gui.storage.atomic import ORPHAN_AGE_S, clean_temporary_files, write_bytes_atomic
from d100gui.storage.campaigns import (
    MAX_CAMPAIGN_BYTES,
    MAX_SHEET_BYTES,
    SUFFIX,
    CampaignFileError,
    CampaignSummary,
    _campaign_from_text,
    campaign_from_text,
    campaigns_dir,
    gc_paused,
    load_campaign,
    long_list,
    migrate,
    summarize,
    summary_from,
)
from d100gui.storage.resources import bundled_rules

if TYPE_CHECKING:  # the statistics and the chronicle are read when their windows first ask (a start skips them)
    from d100gui.engine.chronicle import ChronicleReader
    from d100gui.engine.stats import Statistics

STORE_SUFFIX = ".d100"
STORE_VERSION = 2
#: the database may not grow past this: every part must stay loadable (the log is never read whole)
MAX_STORE_BYTES = 1024 * 1024 * 1024
#: the store warns (:attr:`CampaignStore.size_warning`) once it holds this much
WARN_STORE_BYTES = 768 * 1024 * 1024
#: log entries read on open (the newest): what the window's recent-history views look at
OPEN_LOG_TAIL = 200
#: dice-history entries read on open (the newest); the history keeps at most twice as many in memory
OPEN_HISTORY_TAIL = 100
HISTORY = "dice_history"
SQLITE_MAGIC = b"SQLite format 3\x00"
#: WAL with synchronous=NORMAL: a commit survives the app crashing or being killed (the kill test);
#: only a power cut or OS crash may lose the last actions, never corrupt the file. FULL would fsync
#: every action (about 4 ms each on a laptop SSD) to keep those too.
SYNCHRONOUS = "NORMAL"
#: SQLite copies the WAL into the file inside a commit once it holds this many pages (its default is 1,000,
#: about one action in 50 here, 5-12 ms on that action): the window checkpoints while the player is idle
#: (:meth:`CampaignStore.checkpoint`), and this larger bound only holds the WAL's size when it cannot
WAL_AUTOCHECKPOINT_PAGES = 10_000
#: how long opening waits for a campaign another window holds: a moment, never SQLite's 5 s
BUSY_TIMEOUT_S = 0.05
#: the longest text one row of a store may hold (SQLite's own limit is lowered to it): the largest part a
#: campaign the app can reach writes is a few MB; a file claiming more is refused, not read into memory
MAX_ROW_BYTES = 64 * 1024 * 1024
#: SQLite calls the progress handler every this many virtual-machine steps
PROGRESS_STEPS = 100_000
#: a statement may run at most this many calls of the progress handler (10^8 steps: about a second of
#: work, a few on a busy machine); the app's own statements take far fewer (reading a 200,000-row log
#: whole, the longest, takes 22 calls, so a store of the largest size stays under 300): a file whose
#: SQL runs longer is stopped
MAX_PROGRESS_CALLS = 1_000
#: SQLite's limits, lowered to what a campaign needs ("Defense Against the Dark Arts")
_LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: MAX_ROW_BYTES,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000,
    sqlite3.SQLITE_LIMIT_COLUMN: 100,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 100,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 8,
    sqlite3.SQLITE_LIMIT_VDBE_OP: 100_000,
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 8,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 100,
    sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER: 1_000,
    sqlite3.SQLITE_LIMIT_TRIGGER_DEPTH: 4,
}

#: the tables a store holds (any other object but their indexes and SQLite's own is refused)
_TABLES = ("meta", "parts", "items", "log", "journal", "journal_parts", "sqlite_sequence")
_LOG_COLUMNS = "idx, kind, command, rolls, events, manual, policy, at, extra"
_LOG_VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?"
#: the log entry's fields with a column of their own; any other field is kept in ``extra`` (a JSON object)
_LOG_FIELDS = ("index", "command", "rolls", "events", "manual", "policy", "at")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS parts (name TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (part TEXT NOT NULL, idx INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (part, idx));
CREATE TABLE IF NOT EXISTS log (
    idx INTEGER PRIMARY KEY, kind TEXT NOT NULL, command TEXT NOT NULL, rolls TEXT NOT NULL,
    events TEXT NOT NULL, manual INTEGER NOT NULL, policy TEXT NOT NULL, at TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT, stack TEXT NOT NULL, label TEXT NOT NULL,
    entry_idx INTEGER NOT NULL, entry TEXT, sequences TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_parts (
    step INTEGER NOT NULL REFERENCES journal (id) ON DELETE CASCADE, name TEXT NOT NULL, json TEXT NOT NULL,
    PRIMARY KEY (step, name)
);
"""


#: store version 1's log, before ``extra`` (a file from then is migrated on its first save)
_SCHEMA_V1_LOG = """
CREATE TABLE IF NOT EXISTS log (
    idx INTEGER PRIMARY KEY, kind TEXT NOT NULL, command TEXT NOT NULL, rolls TEXT NOT NULL,
    events TEXT NOT NULL, manual INTEGER NOT NULL, policy TEXT NOT NULL, at TEXT NOT NULL
);
"""


def _store_1_to_2(db: sqlite3.Connection) -> None:
    """Version 2 keeps a log entry's newer fields (the player's table rows it read) in ``log.extra``."""
    db.execute("ALTER TABLE log ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'")


#: store layout migrations: version -> a function bringing a connection to version + 1
STORE_MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _store_1_to_2}


class StoreFull(CampaignFileError):
    """The campaign store would grow past what the app can open; the action was not saved."""


#: what a save can fail with: the store refusing to grow, the disk, the database
SAVE_ERRORS = (CampaignFileError, OSError, sqlite3.Error)


#: what a damaged store's repair offers (:attr:`DamagedStore.offer`): open it without its undo history
WITHOUT_HISTORY = "without_history"
#: ... the last state that can be rebuilt, replaying its log up to the damage
REBUILD = "rebuild"
#: ... open it anyway with the values out of range brought into range
CLAMP = "clamp"
#: the parts every store this app writes holds (a store without one lost it: refused, never opened blank)
REQUIRED_PARTS = ("schema_version", "meta", "rng_state", "start_rng_state", "dungeons", "character", "pending")
#: the meta row where each save writes what it counted (parts, items per part, log entries, undo rows)
COUNTS = "counts"
#: the meta row keeping the statistics' folded state (``Statistics.state()``) beside the log, as
#: ``{"log_length": n, "state": ...}``: the figures of the first ``n`` entries, so the Statistics view of
#: a campaign opened again folds only the newer ones. Only a cache: a missing or damaged row, or one an
#: undo went below, costs a read of the log, never the campaign (:meth:`CampaignStore.kept_statistics`)
STATS = "stats"


class DamagedStore(CampaignFileError):
    """A store refused at open because something in it is damaged or out of range; ``offer`` says which
    repair the window may offer (:data:`WITHOUT_HISTORY`, :data:`REBUILD`, :data:`CLAMP`), ``lost`` what
    that repair loses, ``problems`` each value out of range (:data:`CLAMP`). The file is never changed."""

    def __init__(self, path: Path, reason: str, offer: str, problems: list[str] | None = None, lost: str = "") -> None:
        super().__init__(path, reason)
        self.offer = offer
        self.problems = problems or []
        self.lost = lost


def _damage_words(exc: BaseException) -> str:
    """An SQLite error on reading rows, in a player's words."""
    text = str(exc).lower()
    if "utf-8" in text or "decode" in text:
        return "some of its text is not readable"
    if "malformed" in text or "corrupt" in text or "not a database" in text:
        return "some of its pages do not check out"
    if "no such" in text:
        return "one of its tables is not as d100gui writes it"
    return "it cannot be read"


def _part_words(part: str) -> str:
    return {"dungeons": "maps", "dice_history": "dice rolls"}.get(part, part.replace("_", " "))


def _step_label(db: sqlite3.Connection, row_id: int) -> str:
    try:
        row = db.execute("SELECT label FROM journal WHERE id = ?", (row_id,)).fetchone()
    except sqlite3.Error:
        return "?"
    return "?" if row is None else str(row[0]).replace("_", " ")[:60]


# --------------------------------------------------------------------------- a file is data, not code


class _GuardedConnection(sqlite3.Connection):
    """A connection whose every statement may run at most :data:`MAX_PROGRESS_CALLS` progress calls:
    a file's own SQL (a recursive view, a trigger) can never hang the app."""

    calls = 0

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        self.calls = 0
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        self.calls = 0
        return super().executemany(sql, parameters)

    def progress(self) -> int:
        self.calls += 1
        return 1 if self.calls > MAX_PROGRESS_CALLS else 0

    held: tuple[int, int] | None = None  # the file this connection holds locked (see _HELD)

    def close(self) -> None:
        if self.held is not None:
            _HELD.discard(self.held)
            self.held = None
        super().close()


#: the store files this process holds locked, by (device, inode). SQLite's lock is a POSIX lock, and
#: closing ANY descriptor of a file drops every POSIX lock the process holds on it: the campaign list,
#: the roster or a dropped file reading the open campaign's first bytes released the window's lock, and
#: a second window could then open and write the same campaign. What reads a file's bytes asks here first.
_HELD: set[tuple[int, int]] = set()


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def held_here(path: Path) -> bool:
    """Whether this process holds ``path`` open as a store (then no descriptor of it may be opened and closed)."""
    key = _identity(path)
    return key is not None and key in _HELD


def _harden(db: sqlite3.Connection) -> None:
    """The settings SQLite advises for a file from elsewhere: no function of the file's schema runs,
    defensive mode (where this Python offers it), lowered limits, every statement's work bounded."""
    db.execute("PRAGMA trusted_schema=OFF")
    setconfig = getattr(db, "setconfig", None)  # Python 3.12+
    for name, on in (
        ("SQLITE_DBCONFIG_DEFENSIVE", True),
        ("SQLITE_DBCONFIG_ENABLE_TRIGGER", False),
        ("SQLITE_DBCONFIG_ENABLE_VIEW", False),
    ):
        if setconfig is not None and hasattr(sqlite3, name):
            setconfig(getattr(sqlite3, name), on)
    for limit, value in _LIMITS.items():
        db.setlimit(limit, value)
    if isinstance(db, _GuardedConnection):
        db.set_progress_handler(db.progress, PROGRESS_STEPS)


_Shape = frozenset[tuple[Any, ...]]
#: words of a table's SQL that d100gui never writes: a constraint or column computed by the file's own SQL
_FOREIGN_WORDS = re.compile(r"\b(CHECK|GENERATED|AS|COLLATE|REFERENCES\s+(?!journal\b))", re.IGNORECASE)


def _schema_rows(db: sqlite3.Connection) -> _Shape:
    """The shape of a store's schema: every object (type, name, table) and each table's columns."""
    objects = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    shape: set[tuple[Any, ...]] = set()
    for kind, name, table, sql in objects:
        shape.add(("object", str(kind), str(name), str(table)))
        if kind == "table" and isinstance(sql, str) and _FOREIGN_WORDS.search(sql):
            shape.add(("foreign", str(name)))
    for kind, name, _table, _sql in objects:
        if kind == "table" and str(name) in _TABLES:
            for column in db.execute(f'PRAGMA table_xinfo("{name}")').fetchall():
                shape.add(("column", str(name), *column))
    return frozenset(shape)


@functools.lru_cache(maxsize=1)
def _app_schemas() -> tuple[_Shape, ...]:
    """Every ``sqlite_master`` a store this app wrote may have: made now, or made at an older store
    version and migrated step by step (each a version the app reads)."""
    current = _SCHEMA
    old_log = current[current.index("CREATE TABLE IF NOT EXISTS log") : current.index("CREATE TABLE IF NOT EXISTS journal ")]
    schemas = set()
    for start in (1, STORE_VERSION):
        db = sqlite3.connect(":memory:", isolation_level=None)
        try:
            text = current if start == STORE_VERSION else current.replace(old_log, _SCHEMA_V1_LOG.strip() + "\n")
            db.executescript(text)
            schemas.add(_schema_rows(db))
            for number in range(start, STORE_VERSION):
                STORE_MIGRATIONS[number](db)
                schemas.add(_schema_rows(db))
        finally:
            db.close()
    return tuple(schemas)


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a file whose tables are not the app's (a trigger, a view in place of a table, a table
    changed), before any of its rows is read: its own SQL would run when the app reads or writes it."""
    found = _schema_rows(db)
    if found in _app_schemas():
        return
    kinds = {row[1] for row in found if row[0] == "object"}
    if kinds & {"trigger", "view"}:
        what = "SQL of its own (triggers or views) that d100gui never writes"
    else:
        what = "tables d100gui did not write"
    raise CampaignFileError(path, f"it holds {what}; it is not opened, so nothing in it can run")


def _plain_reason(exc: BaseException, path: Path) -> str:
    """What an SQLite error means for the player, in their words (never SQLite's own text)."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return "it is open in another d100gui window; close it there first"
    if "interrupt" in text:
        return "reading it takes far longer than any campaign (it may hold SQL of its own)"
    if "too big" in text or "toobig" in text:
        return "it holds a row larger than any campaign writes"
    if "readonly" in text or "read-only" in text:
        return _read_only_reason(path)
    if "disk is full" in text or "full" in text:
        return "the disk is full"
    if "unable to open" in text:
        return "it cannot be opened (the file or its folder cannot be reached)"
    return "it is damaged (the file is not a campaign database d100gui can read)"


def _read_only_reason(path: Path) -> str:
    folder = path.parent
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is read-only; move the campaign to a folder you can write to"
    return "it is read-only; make it writable to play it"


def file_problem(path: Path) -> str:
    """Why ``path`` cannot be a campaign file to open (a pipe, a device, a folder, a symlink loop,
    missing), or "" for a regular file. Nothing is opened: a FIFO is never waited on."""
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "it is a link that leads back to itself (a symlink loop)"
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return "it does not exist (any more)"
        return f"it cannot be reached ({exc.strerror or exc})"
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file (a pipe, a device or a folder)"
    return ""


def _regular(path: Path) -> None:
    problem = file_problem(path)
    if problem:
        raise CampaignFileError(path, problem)


def _real(path: Path) -> Path:
    """``path`` with its symlinks followed (a loop, refused before, would make ``resolve`` raise)."""
    return Path(os.path.realpath(path))


def is_store(path: Path) -> bool:
    """Whether ``path`` is an SQLite database (by its first bytes; nothing else is read).

    Opened without blocking and checked on the open descriptor: a FIFO or a device is never read. A store
    this process holds is not opened at all (closing the descriptor would drop its lock: :func:`held_here`)."""
    if held_here(path):
        return True
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return os.read(fd, 16) == SQLITE_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def _connect_file(path: Path, *, read_only: bool) -> sqlite3.Connection:
    """A hardened connection to an existing store (never creating one), its schema checked before
    any row is read. ``read_only``: a look that locks nothing for long (the list, the roster)."""
    _regular(path)
    target = _real(path)
    mode = "ro" if read_only else "rw"
    try:
        db = sqlite3.connect(
            f"{target.as_uri()}?mode={mode}",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
            timeout=BUSY_TIMEOUT_S,
            factory=_GuardedConnection,
        )
    except sqlite3.Error as exc:
        raise CampaignFileError(path, _plain_reason(exc, target)) from None
    try:
        _harden(db)
        if not read_only:
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            db.execute("PRAGMA foreign_keys=ON")
            # held from now until closed: a second window is told at once; nothing is written yet
            db.execute("BEGIN EXCLUSIVE")
            db.execute("COMMIT")
            if isinstance(db, _GuardedConnection) and (key := _identity(target)) is not None:
                db.held = key
                _HELD.add(key)
        _check_schema(db, path)
    except sqlite3.Error as exc:
        _close_quietly(db)
        raise CampaignFileError(path, _plain_reason(exc, target)) from None
    except BaseException:
        _close_quietly(db)
        raise
    return db


def _close_quietly(db: sqlite3.Connection) -> None:
    """Close ``db`` whatever it says (a refusal is never replaced by a close that fails)."""
    try:
        db.close()
    except sqlite3.Error:
        pass


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _entry_row(entry: LogEntry) -> tuple[Any, ...]:
    """A log entry as its row: the command, rolls and events as the entry's own serializer writes each
    (compact JSON, in one pass each: no Python dicts in between, ~5x faster than dumping them again)."""
    extra = _extra_fields(type(entry))
    return (
        entry.index,
        str(entry.command.get("kind", "")),
        _field_json(entry, "command"),
        _field_json(entry, "rolls"),
        _field_json(entry, "events"),
        int(entry.manual),
        entry.policy.value,
        entry.at,
        entry.model_dump_json(include=extra) if extra else "{}",
    )


@functools.cache
def _extra_fields(entry_type: type[LogEntry]) -> set[str]:
    """The entry's fields kept in the row's ``extra`` column (all but :data:`_LOG_FIELDS`); not to be changed."""
    return {name for name in entry_type.model_fields if name not in _LOG_FIELDS}


def _field_json(entry: LogEntry, name: str) -> str:
    """The JSON of one of ``entry``'s fields, as the entry writes it (``{"name":VALUE}`` unwrapped)."""
    return entry.model_dump_json(include={name})[len(name) + 4 : -1]


def _entry_json(row: tuple[Any, ...]) -> str:
    """A log row as the LogEntry JSON pydantic writes (same field order, compact)."""
    idx, _kind, command, rolls, events, manual, policy, at, extra = row
    more = "" if extra in ("{}", "") else "," + str(extra)[1:-1]
    return (
        f'{{"index":{int(idx)},"command":{command},"rolls":{rolls},"events":{events},'
        f'"manual":{"true" if manual else "false"},"policy":{json.dumps(policy)},"at":{json.dumps(at, ensure_ascii=False)}{more}}}'
    )


def _write_state(db: sqlite3.Connection, campaign: Campaign) -> dict[str, tuple[list[str], str]]:
    """Write every part of ``campaign`` (a book part as its members' rows); return the books as written."""
    fields = campaign.__dict__
    books: dict[str, tuple[list[str], str]] = {}
    for name in CAMPAIGN_PARTS.values:
        value = fields[name]
        if CAMPAIGN_PARTS.is_book(name, value):
            members, rest = books[name] = CAMPAIGN_PARTS.book_members(name, value)
            db.execute("INSERT INTO parts VALUES (?, ?)", (name, rest))
            db.executemany("INSERT INTO items VALUES (?, ?, ?)", [(name, i, text) for i, text in enumerate(members)])
        else:
            db.execute("INSERT INTO parts VALUES (?, ?)", (name, CAMPAIGN_PARTS.dump(name, value)))
    for name in CAMPAIGN_PARTS.sequences:
        entries = fields[name].resolved() if isinstance(fields[name], DiceHistory) else fields[name]
        db.executemany(
            "INSERT INTO items VALUES (?, ?, ?)",
            [(name, i, CAMPAIGN_PARTS.dump_item(name, item)) for i, item in enumerate(entries)],
        )
    db.executemany(f"INSERT INTO log ({_LOG_COLUMNS}) VALUES ({_LOG_VALUES})", map(_entry_row, campaign.log))
    items = {name: len(members) for name, (members, _rest) in books.items()}
    items.update({name: len(fields[name]) for name in CAMPAIGN_PARTS.sequences})
    _write_counts(db, {"log": len(campaign.log), "items": items}, journal=False)  # the undo rows come after
    return books


def _write_counts(db: sqlite3.Connection, counts: dict[str, Any], journal: bool = True) -> None:
    """Keep what the store holds now (rows of each part, log entries, parts, undo rows) in ``meta``, so
    opening tells a table emptied or cut short from a campaign that is small (:meth:`CampaignStore._check_rows`)."""
    counts = dict(counts)
    counts["parts"] = int(db.execute("SELECT count(*) FROM parts").fetchone()[0])
    if journal:
        counts["journal_parts"] = int(db.execute("SELECT count(*) FROM journal_parts").fetchone()[0])
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (COUNTS, json.dumps(counts, separators=(",", ":"))))


def _state_json(db: sqlite3.Connection, log: str | None, tails: dict[str, int] | None = None) -> tuple[str, dict[str, str]]:
    """The campaign's JSON from the state rows (``log``: the log's JSON text, or None to leave it out).

    ``tails``: for these sequence parts only the newest ``tails[name]`` entries, and ``tails[name]``
    becomes the part's whole length (what :meth:`Campaign.page_dice_history` needs)."""
    parts = dict(db.execute("SELECT name, json FROM parts").fetchall())
    pieces = []
    for name in Campaign.model_fields:
        if name == "log":
            if log is not None:
                pieces.append(f'"log":{log}')
        elif name in CAMPAIGN_PARTS.sequences or (name in CAMPAIGN_PARTS.books and name in parts):
            first = 0
            if tails is not None and name in tails:
                length = _count(db, name)
                first, tails[name] = max(0, length - max(0, tails[name])), length
            rows = db.execute("SELECT json FROM items WHERE part = ? AND idx >= ? ORDER BY idx", (name, first)).fetchall()
            members = [r[0] for r in rows]
            if name in CAMPAIGN_PARTS.sequences:
                pieces.append(f'"{name}":[{",".join(members)}]')
            else:
                pieces.append(f'"{name}":{CAMPAIGN_PARTS.book_join(name, members, parts[name])}')
        elif name in parts:
            pieces.append(f'"{name}":{parts[name]}')
    return "{" + ",".join(pieces) + "}", parts


def _count(db: sqlite3.Connection, part: str) -> int:
    """The entries of a sequence part (kept as rows 0 .. n-1)."""
    row = db.execute("SELECT max(idx) FROM items WHERE part = ?", (part,)).fetchone()
    return 0 if row is None or row[0] is None else int(row[0]) + 1


class CampaignStore:
    """One campaign's SQLite database, open for reading and for saving each action."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self._game: Game | None = None
        self._books: dict[str, tuple[list[str], str]] = {}  # book part -> its members' JSON and rest, as written
        self._counts: dict[str, int] = {}  # rows of each book and sequence part, as written (see _write_counts)
        self._saving = False  # switched to WAL by the first write: a file only read stays byte for byte
        self._pending_version = STORE_VERSION  # an older store's layout, migrated by the first write
        self._stats_pending: tuple[int, str] | None = None  # the statistics' state to keep (STATS), written with the next save
        #: changes whose write failed, oldest first: written, in order, before the next one
        self.unsaved: list[Change] = []
        #: why the last write failed (None once every change is written)
        self.save_error: BaseException | None = None
        self._bytes = 0  # the database's size after the last write (measured once per write: the limit and the warning read it)

    # ------------------------------------------------------------------ opening
    @classmethod
    def _connect(cls, path: Path, create: bool) -> sqlite3.Connection:
        """A hardened connection: to an existing store (``create`` False; never making one), or to a
        new file being built (``create``: the private temporary name :meth:`create` builds at)."""
        if not create:
            return _connect_file(path, read_only=False)
        try:
            db = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_S, factory=_GuardedConnection
            )
        except sqlite3.Error as exc:
            raise CampaignFileError(path, _plain_reason(exc, path)) from None
        try:
            _harden(db)
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            _close_quietly(db)
            raise CampaignFileError(path, _plain_reason(exc, path)) from None
        return db

    def _start_saving(self) -> None:
        """WAL from the first write on (every check passed first: a refused file is never switched,
        so it stays byte for byte); a store of an older format is migrated then, not at open."""
        if not self._saving:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT_PAGES}")
            self._saving = True
            self._migrate()

    def _migrate(self) -> None:
        """Bring the layout to :data:`STORE_VERSION` (``STORE_MIGRATIONS``, one transaction each), the
        stand-ins :meth:`open` made for reading it dropped first."""
        number = self._pending_version
        if number >= STORE_VERSION:
            return
        self._db.execute("DROP VIEW IF EXISTS temp.log")
        while number < STORE_VERSION:
            with _Transaction(self._db) as db:
                STORE_MIGRATIONS[number](db)
                number += 1
                db.execute("UPDATE meta SET value = ? WHERE key = 'store_version'", (str(number),))
        self._pending_version = number

    @classmethod
    def create(cls, path: Path, campaign: Campaign, game: Game | None = None) -> CampaignStore:
        """A new store at ``path`` holding ``campaign`` whole (state, log, and ``game``'s undo journal).

        Never replaces a file: the store is built at a private temporary name in the same folder and
        linked into place only if ``path`` is still free (two windows picking one name: one wins, the
        other is told, nothing is deleted). Only the temporary files made here are ever removed.
        """
        if campaign.log_start:
            raise ValueError("a store is created from a campaign with its whole log")
        if os.path.lexists(path):
            raise CampaignFileError(path, "a file of that name exists already")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CampaignFileError(path, f"its folder cannot be made ({exc.strerror or exc})") from None
        if not os.access(path.parent, os.W_OK):
            raise CampaignFileError(path, _read_only_reason(path))
        clean_temporary_files(path)  # what a killed create of this name left, minutes ago
        _clean_orphan_journals(path)
        try:
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        except OSError as exc:
            raise CampaignFileError(path, f"the disk refused the new file ({exc.strerror or exc})") from None
        os.close(fd)
        tmp = Path(name)
        try:
            os.chmod(tmp, 0o644)  # as a file SQLite makes (mkstemp's is private to its maker)
            books = cls._build(tmp, campaign, game, path)
            _place(tmp, path)
        finally:
            for mine in (tmp, tmp.with_name(tmp.name + "-journal"), tmp.with_name(tmp.name + "-wal")):
                mine.unlink(missing_ok=True)
        store = cls.open(path)
        store._books = books
        return store

    @classmethod
    def _build(cls, tmp: Path, campaign: Campaign, game: Game | None, named: Path) -> dict[str, tuple[list[str], str]]:
        """Write the whole store into ``tmp`` (a rollback journal, synced on commit) and close it; return the books."""
        builder = cls(tmp, cls._connect(tmp, create=True))
        try:
            with builder._transaction(wal=False) as db:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany("INSERT INTO meta VALUES (?, ?)", [("store_version", str(STORE_VERSION)), ("app", "d100gui")])
                books = _write_state(db, campaign)
                if game is not None:
                    for stack, steps in (("undo", game.undo_steps), ("redo", game.redo_steps)):
                        for step in steps:
                            builder._push(db, stack, step if isinstance(step, Step) else step(), {})
        except sqlite3.Error as exc:
            raise CampaignFileError(named, _plain_reason(exc, named)) from None
        finally:
            _close_quietly(builder._db)
        return books

    @classmethod
    def open(cls, path: Path) -> CampaignStore:
        """Open an existing store; a broken, locked, read-only, foreign or future-version one is refused
        untouched (nothing is written before every check passed) and released."""
        problem = file_problem(path)
        if problem:
            raise CampaignFileError(path, problem)
        if not is_store(path):
            raise CampaignFileError(path, "it is not a d100gui campaign database")
        real = _real(path)
        size = real.stat().st_size
        if size > MAX_STORE_BYTES + MAX_ROW_BYTES:  # what a store may reach, and the action that reached it
            raise CampaignFileError(
                path, f"it is {size // (1024 * 1024)} MB; a campaign store holds at most {MAX_STORE_BYTES // (1024 * 1024)} MB"
            )
        if not os.access(real, os.R_OK):
            raise CampaignFileError(path, "it cannot be read (permission denied)")
        if not os.access(real, os.W_OK) or not real.stat().st_mode & stat.S_IWUSR:
            raise CampaignFileError(path, "it is read-only; make it writable to play it (the file has not been changed)")
        if not os.access(real.parent, os.W_OK):
            raise CampaignFileError(path, _read_only_reason(real) + " (the file has not been changed)")
        store = cls(path, cls._connect(path, create=False))
        try:
            version = store._meta("store_version")
            if version is None or not version.isdigit():
                raise CampaignFileError(path, "it is not a d100gui campaign database (no store version)")
            number = int(version)
            if number > STORE_VERSION:
                raise CampaignFileError(
                    path, f"it was saved by a newer d100gui (store format {number}; this app reads up to {STORE_VERSION})"
                )
            if number < 1:
                raise CampaignFileError(path, f"it is not a d100gui campaign database (store format {number})")
            campaign_version = _version_of(store._part("schema_version"))
            if campaign_version is not None and campaign_version > CAMPAIGN_SCHEMA_VERSION:
                raise CampaignFileError(
                    path,
                    f"it was saved by a newer d100gui (campaign format {campaign_version}; "
                    f"this app reads up to {CAMPAIGN_SCHEMA_VERSION})",
                )
            store._check_sheets()
            store._pending_version = number
            if number == 1:  # read as version 2 until the first write migrates it: nothing is written to open it
                store._db.execute("CREATE TEMP VIEW log AS SELECT *, '{}' AS extra FROM main.log")
        except sqlite3.Error as exc:
            store.discard()
            raise CampaignFileError(path, _plain_reason(exc, real)) from None
        except BaseException:
            store.discard()
            raise
        return store

    def _check_sheets(self) -> None:
        """The hero's sheets within :data:`MAX_SHEET_BYTES` and their lists within ``MAX_LIST_ITEMS``, checked
        before they are read whole (a backpack of a million items is refused at once, not validated for seconds)."""
        rows = self._db.execute(
            "SELECT name, length(CAST(json AS BLOB)) FROM parts WHERE name IN ('character', 'hall_of_fallen')"
        ).fetchall()
        for name, size in rows:
            limit = MAX_SHEET_BYTES if name == "character" else MAX_SHEET_BYTES * 64
            if isinstance(size, int) and size > limit:
                whose = "the hero's sheet" if name == "character" else "the hall of the fallen"
                raise CampaignFileError(
                    self.path,
                    f"{whose} is {size // 1024:,} KB; it may be at most {limit // 1024:,} KB "
                    "(a list in it holds far more than any game can)",
                )
        text = self._part("character")
        try:
            sheet = safe_read.load_json(text, "hero's sheet") if text is not None else None
        except (ValueError, RecursionError) as exc:
            raise CampaignFileError(self.path, f"its hero's sheet cannot be read ({exc})") from None
        too_long = long_list(sheet, "the hero")
        if too_long:
            raise CampaignFileError(self.path, too_long)

    @classmethod
    def read_only(cls, path: Path) -> CampaignStore:
        """A store opened only to read it whole (``d100gui replay``, a bug report): hardened and its schema
        checked like :meth:`open`, but it takes no lock for long, writes nothing and needs no write access
        (a campaign from a read-only folder replays). Nothing is migrated: an older store is read as the
        current layout, a newer one refused."""
        if not is_store(path):
            raise CampaignFileError(path, file_problem(path) or "it is not a d100gui campaign database")
        store = cls(path, _connect_file(path, read_only=True))
        try:
            version = store._meta("store_version")
            if version == "1":  # read as the current layout (a view in memory; the file is not written)
                store._db.execute("CREATE TEMP VIEW log AS SELECT *, '{}' AS extra FROM main.log")
            elif version != str(STORE_VERSION):
                raise CampaignFileError(path, f"its store format {version} is not one this d100gui reads")
        except sqlite3.Error as exc:
            store.discard()
            raise CampaignFileError(path, _plain_reason(exc, path)) from None
        except BaseException:
            store.discard()
            raise
        return store

    def discard(self) -> None:
        """Release a store refused at open (or not wanted): closed, nothing checkpointed, never raising,
        so the reason it was refused is what the player reads."""
        self.detach()
        _close_quietly(self._db)

    def _part(self, name: str) -> str | None:
        row = self._db.execute("SELECT json FROM parts WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------------ reading
    def load(self, tail: int = OPEN_LOG_TAIL) -> Campaign:
        """The campaign's current state, with only its newest ``tail`` log entries in ``campaign.log``.

        ``campaign.log_start`` says where they begin; :meth:`log_page` reads the others. Checked
        first, before the player plays (:meth:`_check_rows`): the file's integrity, that no part,
        map, roll, log entry or undo row is missing, the state for type and range, the log's
        newest entries and the undo and redo steps the player reaches next. A store that fails is
        refused whole (:class:`DamagedStore`, saying what is damaged and what a repair would lose).
        """
        tails = {HISTORY: OPEN_HISTORY_TAIL}
        try:
            length = self._check_rows()
            text, parts = _state_json(self._db, None, tails)
        except sqlite3.DatabaseError as exc:
            raise DamagedStore(self.path, f"its state cannot be read ({_damage_words(exc)})", REBUILD) from None
        data_version = _version_of(parts.get("schema_version"))
        if data_version != CAMPAIGN_SCHEMA_VERSION:
            return self._migrated(data_version)
        campaign = self._validated(text)
        start = max(0, length - max(0, tail))
        with gc_paused():
            campaign.log = self.log_page(start, length - start)
        campaign.set_log_start(start)
        if tails[HISTORY] > len(campaign.dice_history):
            campaign.page_dice_history(tails[HISTORY], self.history_page)
        self._check_journal(campaign)
        return campaign

    def _validated(self, text: str) -> Campaign:
        """The state from its JSON, for type (damaged: :data:`REBUILD` offered) and range (:data:`CLAMP`)."""
        try:
            with gc_paused():
                campaign = _campaign_from_text(self.path, text, None, False)
        except CampaignFileError as exc:
            raise DamagedStore(self.path, f"its state is damaged: {exc.reason}", REBUILD) from None
        problems = campaign_problems(campaign, bundled_rules())
        if problems:
            more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
            raise DamagedStore(
                self.path, "it holds values the rules do not allow: " + " ".join(problems[:3]) + more, CLAMP, problems
            )
        return campaign

    def _check_rows(self) -> int:
        """The file's integrity and that no row is missing; the log's length. Raises :class:`DamagedStore`.

        ``PRAGMA integrity_check`` (not ``quick_check``): on the 20,000-entry benchmark campaign
        (83 MB) it takes about 33 ms against 29 ms, and it also checks every index against its
        table, which a lost page can break without breaking the table itself.
        """
        db = self._db
        found = db.execute("PRAGMA integrity_check(3)").fetchall()
        if found != [("ok",)]:
            raise DamagedStore(self.path, "its file is damaged (some of its pages do not check out)", REBUILD)
        names = {str(row[0]) for row in db.execute("SELECT name FROM parts")}
        missing = [name for name in REQUIRED_PARTS if name not in names]
        if missing:
            what = ", ".join(name.replace("_", " ") for name in missing)
            raise DamagedStore(self.path, f"its state is damaged: {what} {'is' if len(missing) == 1 else 'are'} missing", REBUILD)
        counts = self._saved_counts()
        for part, number, top in db.execute("SELECT part, count(*), max(idx) FROM items GROUP BY part").fetchall():
            expected = counts.get("items", {}).get(part)
            if int(number) != int(top) + 1 or (isinstance(expected, int) and expected != number):
                raise DamagedStore(self.path, f"its state is damaged: some of its {_part_words(part)} are missing", REBUILD)
        for part, expected in counts.get("items", {}).items():
            if isinstance(expected, int) and expected > 0 and _count(db, str(part)) == 0:
                raise DamagedStore(self.path, f"its state is damaged: its {_part_words(str(part))} are missing", REBUILD)
        number, top = db.execute("SELECT count(*), max(idx) FROM log").fetchone()
        length = int(number)
        expected = counts.get("log")
        if (top is not None and int(top) + 1 != length) or (isinstance(expected, int) and expected != length):
            raise DamagedStore(self.path, "its log is damaged: some of its entries are missing", REBUILD)
        return length

    def _saved_counts(self) -> dict[str, Any]:
        """What the last save counted (:meth:`_save`): {} for a store written before it did."""
        try:
            counts = json.loads(self._meta(COUNTS) or "{}")
        except ValueError:
            return {}
        return counts if isinstance(counts, dict) else {}

    def _check_journal(self, campaign: Campaign) -> None:
        """The undo and redo rows: none missing, in order, and the steps undo and redo reach next
        readable whole. Damage here refuses the store with :data:`WITHOUT_HISTORY` offered."""
        db = self._db
        try:
            rows = db.execute("SELECT id, stack, entry_idx FROM journal ORDER BY id").fetchall()
            problem = ""
            if any(stack not in ("undo", "redo") for _id, stack, _idx in rows):
                problem = "a step belongs to no stack"
            counted = self._saved_counts().get("journal_parts")
            parts = int(db.execute("SELECT count(*) FROM journal_parts").fetchone()[0])
            if isinstance(counted, int) and counted != parts:
                problem = problem or (
                    f"{counted - parts} of its rows are missing" if counted > parts else "it holds rows it never wrote"
                )
            bad = db.execute(
                "SELECT (SELECT count(*) FROM journal_parts WHERE NOT json_valid(json))"
                " + (SELECT count(*) FROM journal WHERE NOT json_valid(sequences))"
            ).fetchone()[0]
            if not problem and bad:
                problem = f"{bad} of its rows are not readable"
            length = campaign.log_length
            undo = [int(idx) for _id, stack, idx in rows if stack == "undo"]
            redo = [int(idx) for _id, stack, idx in rows if stack == "redo"]
            if not problem and undo != list(range(length - len(undo), length)):
                problem = "its steps do not match the log"
            if not problem and redo != list(range(length + len(redo) - 1, length - 1, -1)):
                problem = "its redo steps do not match the log"
            if not problem:
                books = {
                    name: CAMPAIGN_PARTS.book_members(name, campaign.__dict__[name])
                    for name in CAMPAIGN_PARTS.books
                    if CAMPAIGN_PARTS.is_book(name, campaign.__dict__[name])
                }
                for stack in ("undo", "redo"):
                    top = [row_id for row_id, s, _idx in rows if s == stack][-1:]
                    for row_id in top:
                        problem = problem or self._step_problem(int(row_id), books, campaign)
        except sqlite3.DatabaseError as exc:
            problem = _damage_words(exc)
        if problem:
            steps = len(rows) if "rows" in locals() else 0
            raise DamagedStore(
                self.path,
                f"its undo history is damaged ({problem})",
                WITHOUT_HISTORY,
                lost=f"the undo history ({steps} step{'s' if steps != 1 else ''}: the game itself is whole)",
            )

    def _step_problem(self, row_id: int, books: dict[str, tuple[list[str], str]], campaign: Campaign) -> str:
        """Why the journal step ``row_id`` (on top of its stack) cannot be applied whole ("" if it can)."""
        saved = self._books
        self._books = books
        try:
            step = self._lazy_step(row_id)()
            for name, kept in step.kept.items():
                if name not in CAMPAIGN_PARTS.values:
                    return f"a step holds a part {name[:40]!r} no campaign has"
                CAMPAIGN_PARTS.load_snapshot(name, kept)
            for name in step.sequences:
                if name not in CAMPAIGN_PARTS.sequences:
                    return f"a step holds a sequence {name[:40]!r} no campaign has"
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError, sqlite3.Error) as exc:
            return f"the step '{_step_label(self._db, row_id)}': {short_reason(exc)}"
        finally:
            self._books = saved
        return ""

    def _migrated(self, version: int | None) -> Campaign:
        """A store written with an older campaign format: migrate it whole (rare) and rewrite its parts."""
        if version is not None and version > CAMPAIGN_SCHEMA_VERSION:
            raise CampaignFileError(
                self.path,
                f"it was saved by a newer d100gui (campaign format {version}; this app reads up to {CAMPAIGN_SCHEMA_VERSION})",
            )
        try:
            data = migrate(json.loads(export_json(self)))
        except (ValueError, KeyError, TypeError) as exc:
            raise CampaignFileError(self.path, str(exc)) from None
        campaign = campaign_from_text(self.path, json.dumps(data, ensure_ascii=False))
        self.replace(campaign)
        return self.load()

    def replace(self, campaign: Campaign) -> None:
        """Rewrite the whole store from ``campaign`` (state and whole log; the undo journal is dropped)."""
        with self._transaction() as db:
            db.execute("DELETE FROM parts")
            db.execute("DELETE FROM items")
            db.execute("DELETE FROM log")
            db.execute("DELETE FROM journal_parts")
            db.execute("DELETE FROM journal")
            self._books = _write_state(db, campaign)
            db.execute("DELETE FROM meta WHERE key = ?", (STATS,))  # it counted another log
        self._stats_pending = None

    @property
    def log_length(self) -> int:
        row = self._db.execute("SELECT count(*) FROM log").fetchone()
        return int(row[0])

    def log_page(self, offset: int, limit: int) -> list[LogEntry]:
        """Log entries ``offset`` .. ``offset + limit - 1`` (fewer at the end), validated; a damaged
        one refuses the page naming it (:class:`DamagedStore`)."""
        try:
            rows = self._db.execute(
                f"SELECT {_LOG_COLUMNS} FROM log WHERE idx >= ? ORDER BY idx LIMIT ?", (max(0, offset), max(0, limit))
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            at = self._first_unreadable_entry(offset, limit)
            raise DamagedStore(self.path, f"its log is damaged at entry {at + 1} ({_damage_words(exc)})", REBUILD) from None
        entries = []
        for row in rows:
            try:
                entries.append(LogEntry.model_validate_json(_entry_json(row)))
            except (ValueError, RecursionError) as exc:
                raise DamagedStore(
                    self.path, f"its log is damaged at entry {int(row[0]) + 1} ({short_reason(exc)})", REBUILD
                ) from None
        return entries

    def fold_statistics(self, stats: Statistics, end: int) -> Statistics | None:
        """``stats`` with the log entries from its ``next_index`` up to ``end`` counted, reading only the dice
        and the events the statistics read, in SQL (``storage/stats_read.py``: several times faster than
        ``log_page``). A new accumulator; ``stats`` is left as it was. None when a row cannot be read so
        (read the entries then: ``log_page`` names a damaged one)."""
        from d100gui.engine.stats import Statistics
        from d100gui.storage.stats_read import fold_rows

        folded = Statistics.from_state(stats.state())
        try:
            fold_rows(self._db, folded, end)
        except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError):
            return None
        return folded

    def fold_chronicle(self, reader: ChronicleReader, end: int) -> bool:
        """Read the log entries from the reader's next one up to ``end`` into a chronicle reader, in SQL (only
        the events a chronicle reads). False when a row cannot be read so: the reader may be half read,
        start a new one from the entries (``log_page``)."""
        from d100gui.storage.stats_read import fold_chronicle_rows

        try:
            fold_chronicle_rows(self._db, reader, end)
        except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError):
            return False
        return True

    def _first_unreadable_entry(self, offset: int, limit: int) -> int:
        """The first entry from ``offset`` whose row SQLite cannot hand over (text that is not UTF-8)."""
        for (idx,) in self._db.execute(
            "SELECT idx FROM log WHERE idx >= ? ORDER BY idx LIMIT ?", (max(0, offset), max(0, limit))
        ):
            try:
                self._db.execute(f"SELECT {_LOG_COLUMNS} FROM log WHERE idx = ?", (idx,)).fetchone()
            except sqlite3.DatabaseError:
                return int(idx)
        return max(0, offset)

    @property
    def history_length(self) -> int:
        """Entries in the dice history (as saved)."""
        return _count(self._db, HISTORY)

    def history_page(self, offset: int, limit: int) -> list[HistoryEntry]:
        """Dice-history entries ``offset`` .. ``offset + limit - 1`` as saved (fewer at the end), validated.

        What a paged :class:`~d100gui.engine.dice.history.DiceHistory` reads its unread slots with;
        views page with ``campaign.dice_history_page`` (the entries in memory, else these).
        """
        try:
            rows = self._db.execute(
                "SELECT idx, json FROM items WHERE part = ? AND idx >= ? ORDER BY idx LIMIT ?",
                (HISTORY, max(0, offset), max(0, limit)),
            ).fetchall()
        except sqlite3.Error as exc:
            raise CampaignFileError(self.path, f"its dice history cannot be read ({exc})") from None
        try:
            with gc_paused():
                return [CAMPAIGN_PARTS.load_item(HISTORY, text) for _idx, text in rows]
        except ValueError as exc:
            raise CampaignFileError(self.path, f"its dice history is damaged near roll {rows[0][0] + 1} ({exc})") from None

    def load_journal(self, game: Game) -> None:
        """Hand ``game`` the undo and redo steps kept in the store (read when undo reaches them)."""
        stacks: dict[str, list[Callable[[], Step]]] = {"undo": [], "redo": []}
        for row_id, stack in self._db.execute("SELECT id, stack FROM journal ORDER BY id").fetchall():
            stacks.setdefault(stack, []).append(self._lazy_step(int(row_id)))
        game.restore_journal(stacks["undo"], stacks["redo"])

    def _lazy_step(self, row_id: int) -> Callable[[], Step]:
        def load() -> Step:
            row = self._db.execute("SELECT label, entry_idx, entry, sequences FROM journal WHERE id = ?", (row_id,)).fetchone()
            if row is None:
                raise CampaignFileError(self.path, "its undo history is damaged (a step is missing)")
            label, entry_idx, entry_text, sequences = row
            if entry_text is None:
                found = self.log_page(int(entry_idx), 1)
                if not found or found[0].index != int(entry_idx):
                    raise ValueError(f"the log entry {int(entry_idx) + 1} it undoes is missing")
                entry = found[0]
            else:
                entry = LogEntry.model_validate_json(entry_text)
            part_rows = dict(self._db.execute("SELECT name, json FROM journal_parts WHERE step = ?", (row_id,)).fetchall())
            for name in CAMPAIGN_PARTS.books:
                if name in part_rows:
                    part_rows[name] = self._book_from_delta(name, part_rows[name])
            return Step.from_rows(str(label), entry, part_rows, sequences, CAMPAIGN_PARTS)

        return load

    def _book_from_delta(self, name: str, text: str) -> str:
        """A book part's JSON from its journal delta over the game's current book (a step is applied
        only from the top of its stack, so the current book is exactly the state the delta was taken from)."""
        if not text.startswith('{"length":'):
            return text  # kept whole (a store made from a game that had undo steps already)
        delta = json.loads(text)
        current = self._books[name][0] if name in self._books else []
        changed = {int(i): str(t) for i, t in dict(delta["members"]).items()}
        length = int(delta["length"])
        if length < 0 or any(i >= length or i < 0 for i in changed):
            raise ValueError(f"its {_part_words(name)} are damaged (a member outside the book)")
        if any(i not in changed and i >= len(current) for i in range(length)):
            raise ValueError(f"its {_part_words(name)} are damaged (a member is missing)")
        members = [changed[i] if i in changed else current[i] for i in range(length)]
        return CAMPAIGN_PARTS.book_join(name, members, str(delta["rest"]))

    # ------------------------------------------------------------------ saving
    def attach(self, game: Game) -> None:
        """Save every do, undo and redo of ``game`` in this store, and give it the stored undo history."""
        fields = game.campaign.__dict__
        self._books = {
            name: CAMPAIGN_PARTS.book_members(name, fields[name])
            for name in CAMPAIGN_PARTS.books
            if CAMPAIGN_PARTS.is_book(name, fields[name])
        }
        history = game.campaign.dice_history
        if isinstance(history, DiceHistory):  # a copy of another store (Save As): its rolls are read here now
            history.read_from(self.history_page)
        else:  # kept here: memory keeps only the newest
            game.campaign.page_dice_history(len(history), self.history_page)
        self._counts = {name: len(members) for name, (members, _rest) in self._books.items()}
        self._counts.update({name: len(game.campaign.__dict__[name]) for name in CAMPAIGN_PARTS.sequences})
        self.load_journal(game)
        self._bytes = self.size
        game.change_listeners.append(self.save)
        self._game = game

    def resume(self, game: Game) -> None:
        """Take ``game``'s next changes again after this file was closed under it (the app quit in the
        middle of a command: the command's change is written once, by a store opened for it).

        Unlike :meth:`attach`, nothing of the game is replaced: the books are read as the file holds
        them, so the change's undo step records what it changed."""
        fields = game.campaign.__dict__
        self._books = {}
        for name in CAMPAIGN_PARTS.books:
            rest = self._part(name)
            if rest is not None and CAMPAIGN_PARTS.is_book(name, fields[name]):
                rows = self._db.execute("SELECT json FROM items WHERE part = ? ORDER BY idx", (name,)).fetchall()
                self._books[name] = ([str(row[0]) for row in rows], rest)
        self._counts = {name: len(members) for name, (members, _rest) in self._books.items()}
        self._counts.update({name: _count(self._db, name) for name in CAMPAIGN_PARTS.sequences})
        self._bytes = self.size
        self._game = game

    def keep_copy(self, target: Path) -> None:
        """A consistent copy of this store as it is now at ``target`` (a new file: SQLite's backup, so an
        open store in WAL mode copies whole). What a repair keeps of the damaged campaign."""
        if target.exists():
            raise CampaignFileError(target, "a file of that name exists already")
        copy = sqlite3.connect(target)
        try:
            self._db.backup(copy)
        finally:
            copy.close()

    def drop_history(self) -> int:
        """Drop the undo and redo history kept here (the player agreed: a step of it is damaged); the
        game's stacks too. The campaign itself is untouched. Returns the steps dropped."""
        with self._transaction() as db:
            dropped = int(db.execute("SELECT count(*) FROM journal").fetchone()[0])
            db.execute("DELETE FROM journal_parts")
            db.execute("DELETE FROM journal")
            if self._game is not None:
                _write_counts(db, {"log": self._game.campaign.log_length, "items": dict(self._counts)})
        if self._game is not None:
            self._game.restore_journal([], [])
        return dropped

    def detach(self) -> None:
        if self._game is not None and self.save in self._game.change_listeners:
            self._game.change_listeners.remove(self.save)
        self._game = None

    def _transaction(self, wal: bool = True) -> _Transaction:
        """One write transaction; the first one switches the store to WAL (``wal``)."""
        if wal:
            self._start_saving()
        return _Transaction(self._db)

    def _push(self, db: sqlite3.Connection, stack: str, step: Step, deltas: dict[str, str], sequences: str | None = None) -> None:
        """Keep ``step`` on ``stack``; a book part as its ``deltas`` (the members that differ), when given;
        ``sequences``: the step's sequence states as :func:`_sequences_json` wrote them before a change."""
        entry = step.entry
        entry_text = entry.model_dump_json() if stack == "redo" else None
        cursor = db.execute(
            "INSERT INTO journal (stack, label, entry_idx, entry, sequences) VALUES (?, ?, ?, ?, ?)",
            (stack, step.label, entry.index, entry_text, sequences or _sequences_json(db, step.sequences)),
        )
        # a book given as its delta is never joined whole: that would cost the whole book's size per action
        rows = [
            (cursor.lastrowid, name, deltas[name] if name in deltas else (kept if isinstance(kept, str) else kept.text))
            for name, kept in step.kept.items()
        ]
        db.executemany("INSERT INTO journal_parts VALUES (?, ?, ?)", rows)

    @staticmethod
    def _pop(db: sqlite3.Connection, stack: str) -> None:
        db.execute("DELETE FROM journal WHERE id = (SELECT max(id) FROM journal WHERE stack = ?)", (stack,))

    def save(self, change: Change) -> None:
        """The game's change listener (:meth:`attach`): queue ``change`` (an action, its undo or redo) and
        write every queued change (:meth:`flush`). A failure is kept, never raised into the game's command."""
        self.unsaved.append(change)
        self.flush()

    def flush(self) -> bool:
        """Write the queued changes, oldest first, each in its own transaction; True when none is left.

        A write that fails (:data:`SAVE_ERRORS`: :class:`StoreFull`, the disk, the database) stops there:
        it and the later ones stay queued for the next save, and :attr:`save_error` says why."""
        try:
            while self.unsaved:
                self._write(self.unsaved[0])
                del self.unsaved[0]
        except SAVE_ERRORS as exc:
            self.save_error = exc
            return False
        self.save_error = None
        return True

    def _write(self, change: Change) -> None:
        """Write one change in one transaction; :class:`StoreFull` refuses to grow too big."""
        self._check_size()
        books = dict(self._books)  # as written: a failed transaction leaves them so, to be written again
        try:
            self._save(change)
        except BaseException:
            self._books = books
            raise
        history = self._game.campaign.dice_history if self._game is not None else None
        if isinstance(history, DiceHistory):
            history.trim(OPEN_HISTORY_TAIL)  # saved: the older entries are read back from here when asked
        if self._game is not None:
            self._trim_log(self._game.campaign, change)
        self._bytes = self.size

    @staticmethod
    def _trim_log(campaign: Campaign, change: Change) -> None:
        """Keep the log in memory bounded, like a campaign just opened: once it holds twice
        :data:`OPEN_LOG_TAIL` entries, only the newest ``OPEN_LOG_TAIL`` stay (the others are read back
        with :meth:`log_page`). Only when this change is the newest: an action not saved yet is never let go."""
        log = campaign.log
        if len(log) <= 2 * OPEN_LOG_TAIL or change.log_length != campaign.log_length:
            return
        cut = len(log) - OPEN_LOG_TAIL
        del log[:cut]
        campaign.set_log_start(campaign.log_start + cut)

    def _save(self, change: Change) -> None:
        with self._transaction() as db:
            deltas = self._write_books(db, change)
            db.executemany(
                "INSERT OR REPLACE INTO parts VALUES (?, ?)",
                [(name, t if isinstance(t, str) else t.text) for name, t in change.parts.items() if name not in self._books],
            )
            # the step goes back first: an unread slot it holds is the row as it is before this change
            popped = _top_sequences(db, change.action)
            pushed = _sequences_json(db, change.step.sequences)
            for name, state in change.sequences.items():
                db.execute("DELETE FROM items WHERE part = ? AND idx >= ?", (name, state.length))
                db.executemany("INSERT OR REPLACE INTO items VALUES (?, ?, ?)", _item_rows(name, state, popped))
            if change.action == "undo":
                db.execute("DELETE FROM log WHERE idx >= ?", (change.log_length,))
                self._pop(db, "undo")
                self._push(db, "redo", change.step, deltas, pushed)
            else:
                db.execute(f"INSERT OR REPLACE INTO log ({_LOG_COLUMNS}) VALUES ({_LOG_VALUES})", _entry_row(change.entry))
                if change.action == "redo":
                    self._pop(db, "redo")
                else:
                    db.execute("DELETE FROM journal WHERE stack = 'redo'")
                self._push(db, "undo", change.step, deltas, pushed)
            db.execute(
                "DELETE FROM journal WHERE stack = 'undo' AND id NOT IN "
                "(SELECT id FROM journal WHERE stack = 'undo' ORDER BY id DESC LIMIT ?)",
                (change.undo_depth,),
            )
            items = dict(self._counts)
            items.update({name: state.length for name, state in change.sequences.items()})
            items.update({name: len(members) for name, (members, _rest) in self._books.items()})
            _write_counts(db, {"log": change.log_length, "items": items})
            self._write_statistics(db, change.log_length)
        self._counts = items

    # ------------------------------------------------------------------ the statistics' state (STATS)
    def kept_statistics(self) -> tuple[int, dict[str, Any]] | None:
        """The statistics' state kept beside the log and how many of the first log entries it counts, or
        None: none kept, damaged, or counting more entries than the log holds (fold the log instead)."""
        try:
            value = json.loads(self._meta(STATS) or "null")
            length = self.log_length
        except (ValueError, RecursionError, sqlite3.Error):
            return None
        if not isinstance(value, dict):
            return None
        counted, state = value.get("log_length"), value.get("state")
        if type(counted) is not int or not isinstance(state, dict) or not 0 < counted <= length:
            return None
        return counted, state

    def keep_statistics(self, log_length: int, state: dict[str, Any]) -> None:
        """Keep ``state`` (``Statistics.state()`` after the first ``log_length`` entries): written in the
        next action's transaction (or at :meth:`close`), and only if no undo went below ``log_length`` first."""
        self._stats_pending = (log_length, _compact({"log_length": log_length, "state": state}))

    def _write_statistics(self, db: sqlite3.Connection, log_length: int) -> None:
        """In a save's transaction: drop a kept state counting entries past the log's new end (an undo
        took them back), then write the pending one if it still fits."""
        db.execute(
            "DELETE FROM meta WHERE key = ? AND CASE WHEN NOT json_valid(value) THEN 1 "
            "WHEN json_type(value, '$.log_length') IS NOT 'integer' THEN 1 "
            "ELSE json_extract(value, '$.log_length') > ? END",
            (STATS, log_length),
        )
        pending, self._stats_pending = self._stats_pending, None
        if pending is not None and pending[0] <= log_length:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (STATS, pending[1]))

    def _write_books(self, db: sqlite3.Connection, change: Change) -> dict[str, str]:
        """Write the members of each changed book part that changed; return each book's journal delta
        (the members as they were, where they differ: what the step pushed now needs to go back)."""
        deltas: dict[str, str] = {}
        if self._game is None:
            return deltas
        fields = self._game.campaign.__dict__
        for name in [n for n in change.parts if n in self._books]:
            old, old_rest = self._books[name]
            new, rest = CAMPAIGN_PARTS.book_members(name, fields[name])
            changed = [i for i in range(len(new)) if i >= len(old) or (old[i] is not new[i] and old[i] != new[i])]
            db.executemany("INSERT OR REPLACE INTO items VALUES (?, ?, ?)", [(name, i, new[i]) for i in changed])
            db.execute("DELETE FROM items WHERE part = ? AND idx >= ?", (name, len(new)))
            db.execute("INSERT OR REPLACE INTO parts VALUES (?, ?)", (name, rest))
            back = [i for i in range(len(old)) if i >= len(new) or i in set(changed)]
            delta = {"length": len(old), "rest": old_rest, "members": {str(i): old[i] for i in back}}
            deltas[name] = json.dumps(delta, ensure_ascii=False)
            self._books[name] = (new, rest)
        return deltas

    @property
    def size(self) -> int:
        """The database's size in bytes (pages in use)."""
        count = self._db.execute("PRAGMA page_count").fetchone()[0]
        page = self._db.execute("PRAGMA page_size").fetchone()[0]
        return int(count) * int(page)

    @property
    def size_warning(self) -> str:
        """A sentence for the player once the campaign nears the size the app can keep (else empty): the
        size the last write measured, so an action costs one measurement."""
        size = self._bytes
        if size < WARN_STORE_BYTES:
            return ""
        return (
            f"This campaign's file is {size // (1024 * 1024)} MB; at {MAX_STORE_BYTES // (1024 * 1024)} MB it can no "
            "longer be saved. Export it and start a new campaign for the next quests."
        )

    def _check_size(self) -> None:
        if self._bytes >= MAX_STORE_BYTES:
            raise StoreFull(self.path, f"it has reached {MAX_STORE_BYTES // (1024 * 1024)} MB; the action was not saved")

    def checkpoint(self) -> bool:
        """Copy the WAL's committed pages into the file now, while the player is idle, instead of inside a
        later action's commit (PASSIVE: it waits for no reader and blocks no writer). True if every page
        was copied. Only a speed-up: the commits are safe in the WAL either way, so a checkpoint SQLite
        cannot make now (busy, or an error) is left for the next one, or for the close."""
        if not self._saving:
            return True  # a store only read has no WAL
        try:
            busy, pages, copied = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:
            return False
        return not busy and pages == copied

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        """Checkpoint and go back to a rollback journal: at rest the campaign is one file.
        A store only read was never switched to WAL: it is closed as it is."""
        self.detach()
        try:
            if self._stats_pending is not None and self._stats_pending[0] <= self.log_length:
                try:
                    with self._transaction() as db:
                        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (STATS, self._stats_pending[1]))
                except sqlite3.Error:
                    pass  # only a cache: the next Statistics view reads the log instead
            self._stats_pending = None
            if self._saving:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._db.execute("PRAGMA journal_mode=DELETE")
        finally:
            self._db.close()

    def __enter__(self) -> CampaignStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """``with store._transaction() as db:`` — BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
            except sqlite3.Error:
                if self.db.in_transaction:  # a commit the disk refused: roll back, to be tried again whole
                    self.db.execute("ROLLBACK")
                raise
        elif self.db.in_transaction:
            self.db.execute("ROLLBACK")


def _sequences_json(db: sqlite3.Connection, sequences: dict[str, SequenceState]) -> str:
    """A step's sequence states as ``Step.sequences_json`` writes them; an unread slot (UNLOADED) as its row now.

    A command that replaced a dice-history entry older than the ones in memory keeps UNLOADED as what
    was there: the store, which has that row, keeps its text in the journal so undo can put it back.
    """
    out: dict[str, dict[str, Any]] = {}
    for name, state in sequences.items():
        items: dict[str, str] = {}
        for i, item in state.items.items():
            if item is UNLOADED:
                row = db.execute("SELECT json FROM items WHERE part = ? AND idx = ?", (name, i)).fetchone()
                if row is None:
                    raise sqlite3.DatabaseError(f"the {name} entry {i} an undo step needs is missing")
                items[str(i)] = str(row[0])
            else:
                items[str(i)] = CAMPAIGN_PARTS.dump_item(name, item)
        out[name] = {"length": state.length, "items": items}
    return json.dumps(out, ensure_ascii=False)


def _top_sequences(db: sqlite3.Connection, action: str) -> dict[str, Any]:
    """The sequence states of the journal step an undo or redo pops (parsed), else {}."""
    stack = {"undo": "undo", "redo": "redo"}.get(action)
    if stack is None:
        return {}
    row = db.execute(
        "SELECT sequences FROM journal WHERE id = (SELECT max(id) FROM journal WHERE stack = ?)", (stack,)
    ).fetchone()
    return {} if row is None else dict(json.loads(row[0]))


def _item_rows(name: str, state: SequenceState, popped: dict[str, Any]) -> list[tuple[str, int, str]]:
    """The rows to write for a sequence's new state; an unread slot (UNLOADED) as the popped step kept it."""
    rows = []
    for i, item in state.items.items():
        if i >= state.length:
            continue
        if item is UNLOADED:
            text = popped.get(name, {}).get("items", {}).get(str(i))
            if text is None:
                raise sqlite3.DatabaseError(f"the {name} entry {i} to put back is not in the undo history")
            rows.append((name, i, str(text)))
        else:
            rows.append((name, i, CAMPAIGN_PARTS.dump_item(name, item)))
    return rows


def _clean_orphan_journals(path: Path) -> None:
    """The rollback journals of temporary stores a killed :meth:`CampaignStore.create` of ``path`` left
    (named after its own temporary file, older than a create takes): never another program's file."""
    now = time.time()
    try:
        candidates = list(path.parent.glob(f".{path.name}.*.tmp-journal"))
    except OSError:
        return
    for journal in candidates:
        try:
            if journal.is_file() and not journal.is_symlink() and now - journal.stat().st_mtime > ORPHAN_AGE_S:
                journal.unlink()
        except OSError:
            continue


def _place(tmp: Path, path: Path) -> None:
    """Give the finished store ``tmp`` the name ``path`` only if no file has it (never replacing one)."""
    try:
        os.link(tmp, path)  # fails if the name is taken: nothing is replaced
    except FileExistsError:
        raise CampaignFileError(path, "a file of that name exists already (another d100gui window made it just now)") from None
    except OSError:
        _copy_exclusive(tmp, path)  # a folder without hard links (FAT, some network shares)
    _sync_folder(path.parent)


def _copy_exclusive(tmp: Path, path: Path) -> None:
    """``tmp`` copied to a new file ``path`` made with exclusive creation (it fails if the name is taken)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    except FileExistsError:
        raise CampaignFileError(path, "a file of that name exists already (another d100gui window made it just now)") from None
    except OSError as exc:
        raise CampaignFileError(path, f"the disk refused the new file ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as out, tmp.open("rb") as source:
            while chunk := source.read(1024 * 1024):
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        path.unlink(missing_ok=True)  # made here, by this exclusive creation: ours to remove
        raise CampaignFileError(path, f"the disk refused the new file ({exc.strerror or exc})") from None


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _version_of(text: str | None) -> int | None:
    try:
        value = json.loads(text) if text is not None else None
    except ValueError:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --------------------------------------------------------------------------- JSON: the portable format


def _log_rows(store: CampaignStore) -> Iterator[str]:
    cursor = store._db.execute(f"SELECT {_LOG_COLUMNS} FROM log ORDER BY idx")
    for row in cursor:
        yield _entry_json(row)


def export_json(store: CampaignStore) -> str:
    """The campaign as today's self-contained JSON (state and whole log), as ``save_campaign`` writes it."""
    return _state_json(store._db, f"[{','.join(_log_rows(store))}]")[0]


#: the portable export is compressed (``.d100.json.gz``) once its JSON is bigger than a plain campaign file
#: may be (:data:`~d100gui.storage.campaigns.MAX_CAMPAIGN_BYTES`): the largest campaign a player can reach
#: (100 quests, 20,000 log entries, 2,000 areas, one roll per action: the benchmark campaign) exports
#: 65.6 MB of JSON, 3.1 MB compressed (measured: tests/storage/test_export_large.py)
GZ_SUFFIX = ".d100.json.gz"
#: the most JSON an export (compressed or not) may unpack to: four times that largest campaign, and
#: well under what the store itself may hold (:data:`MAX_STORE_BYTES`)
MAX_EXPORT_BYTES = 256 * 1024 * 1024


def export_text(store: CampaignStore, campaign: Campaign | None = None) -> str:
    """The campaign as portable JSON; with ``campaign`` (the one in play) its state and log as they are in
    memory, actions not saved yet included (what a full disk keeps from the store), older entries from the store."""
    if campaign is None:
        return export_json(store)
    start = campaign.log_start
    saved = store._db.execute(f"SELECT {_LOG_COLUMNS} FROM log WHERE idx < ? ORDER BY idx", (start,))
    log = [_entry_json(row) for row in saved] + [entry.model_dump_json() for entry in campaign.log]
    state = campaign.model_dump_json(exclude={"log"})
    return f'{state[:-1]},"log":[{",".join(log)}]}}'


def write_export(path: Path, text: str) -> Path:
    """Write an export safely (beside, then renamed into place); compressed, as ``NAME.d100.json.gz``, when
    ``path`` asks for it or the JSON is too big for a plain campaign file. Returns the file written."""
    data = text.encode("utf-8")
    if len(data) > MAX_EXPORT_BYTES:
        raise CampaignFileError(path, f"it would be {len(data) // (1024 * 1024)} MB, more than an export may hold")
    if path.name.endswith(".gz") or len(data) > MAX_CAMPAIGN_BYTES:
        if not path.name.endswith(".gz"):
            path = path.with_name(path.name.removesuffix(".json").removesuffix(STORE_SUFFIX) + GZ_SUFFIX)
        data = gzip.compress(data, compresslevel=6, mtime=0)
    write_bytes_atomic(path, data)
    return path


def read_export(path: Path) -> str:
    """An export's JSON text (a ``.gz`` one unpacked), never more than :data:`MAX_EXPORT_BYTES`: a file
    that unpacks to more, or is not what it claims, is refused (:class:`CampaignFileError`)."""
    if not path.name.endswith(".gz"):
        return safe_read.read_regular_text(path, MAX_CAMPAIGN_BYTES, "campaign file")
    problem = file_problem(path)
    if problem:
        raise CampaignFileError(path, problem)
    try:
        with gzip.open(path, "rb") as fh:
            data = fh.read(MAX_EXPORT_BYTES + 1)
    except (OSError, EOFError, zlib.error):
        raise CampaignFileError(path, "it is not a compressed campaign export (or it is cut short)") from None
    if len(data) > MAX_EXPORT_BYTES:
        raise CampaignFileError(path, f"it unpacks to more than {MAX_EXPORT_BYTES // (1024 * 1024)} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CampaignFileError(path, "it is not a text file (not UTF-8)") from None


def import_export(path: Path, target: Path) -> CampaignStore:
    """A new store at ``target`` from an export file (plain or compressed), migrated and checked for range."""
    text = read_export(path)
    return CampaignStore.create(target, campaign_from_text(path, text, migrate_old=True))


# --------------------------------------------------------------------------- repair: what a damaged store still holds


def _reader(path: Path) -> CampaignStore:
    """A damaged store opened to read what it still holds: read-only, nothing in it ever written."""
    return CampaignStore(path, _connect_file(path, read_only=True))


def without_history(path: Path) -> Campaign:
    """The campaign of a store whose undo history is damaged (:data:`WITHOUT_HISTORY`): its state and
    whole log, validated, without the history. The file is only read."""
    store = _reader(path)
    try:
        try:
            text = export_json(store)
        except sqlite3.DatabaseError as exc:
            raise CampaignFileError(path, f"its state cannot be read ({_damage_words(exc)})") from None
    finally:
        store.discard()
    return campaign_from_text(path, text, migrate_old=True)


#: how many log entries a rebuild replays between two words to its progress
REBUILD_STEP = 50


def readable_log(path: Path) -> tuple[Campaign, list[LogEntry], int]:
    """What a damaged store's log still tells (:data:`REBUILD`): the campaign as it began (its seed and
    first random state), the entries readable from the first up to the first damaged one, and how many
    entries the log had. The file is only read; :class:`CampaignFileError` if not even its beginning reads."""
    store = _reader(path)
    try:
        try:
            parts = dict(store._db.execute("SELECT name, json FROM parts WHERE name IN ('meta', 'start_rng_state')").fetchall())
            start = Campaign.model_validate(
                {"meta": json.loads(parts["meta"]), "start_rng_state": json.loads(parts["start_rng_state"])}
            )
            number, top = store._db.execute("SELECT count(*), max(idx) FROM log").fetchone()
            total = max(int(number), -1 if top is None else int(top) + 1, int(store._saved_counts().get("log") or 0))
        except (KeyError, ValueError, TypeError, sqlite3.Error):
            raise CampaignFileError(path, "it is damaged where the campaign begins; it cannot be rebuilt") from None
        start.rng_state = list(start.start_rng_state)
        entries: list[LogEntry] = []
        page = 500
        while len(entries) < total:
            try:
                found = store.log_page(len(entries), page)
            except (CampaignFileError, sqlite3.Error):
                if page == 1:
                    break
                page = 1  # entry by entry up to the damaged one
                continue
            if not found or found[0].index != len(entries):
                break
            for entry in found:
                if entry.index != len(entries):
                    break
                entries.append(entry)
            else:
                continue
            break
    finally:
        store.discard()
    return start, entries, total


def rebuild(
    path: Path,
    data: GameData,
    commands: Sequence[type[Command]],
    progress: Callable[[int, int], bool] | None = None,
) -> tuple[Game, int]:
    """The last state a damaged store's log can rebuild: its readable entries replayed from its beginning
    as far as they go (a game with that state and their undo history), and the actions lost.

    ``progress(done, of)`` is told every :data:`REBUILD_STEP` entries (a long log takes a while); it
    returns False to stop there (the player cancelled: what was replayed so far stands)."""
    start, entries, total = readable_log(path)
    game = Game(start, data.library, commands, rules=data.rules, tilesets=data.tilesets)
    game.gated = False  # the log was played under the rules of its day
    kept = 0
    for entry in entries:
        if progress is not None and kept % REBUILD_STEP == 0 and not progress(kept, len(entries)):
            break
        faces = _physical_faces(entry)
        game.override = ManualSource(_faces_from(faces)) if faces else None
        game.policy = entry.policy
        try:
            game.execute(game.parse_command(entry.command))
        except Exception:  # the first entry that does not replay ends the rebuild: the ones before it stand
            break
        finally:
            game.override = None
        kept += 1
    return game, max(0, total - kept)


def import_json(text: str, path: Path) -> CampaignStore:
    """A new store at ``path`` from campaign JSON (any earlier version: migrated, validated for range);
    made with exclusive creation like every new store (an existing file is never replaced)."""
    campaign = campaign_from_text(path, text, migrate_old=True)
    return CampaignStore.create(path, campaign)


def store_path_for(json_path: Path) -> Path:
    """Where a JSON campaign file's database goes: ``NAME.d100.json`` -> ``NAME.d100`` (a ``NAME.d100``
    holding JSON: ``NAME.d100`` too, see :func:`open_campaign`)."""
    name = json_path.name
    for suffix in (".d100.json", ".json", STORE_SUFFIX):
        if name.endswith(suffix):
            return json_path.with_name(name[: -len(suffix)] + STORE_SUFFIX)
    return json_path.with_name(name + STORE_SUFFIX)


def open_campaign(path: Path) -> CampaignStore:
    """Open a campaign: a store as it is; a JSON campaign file converted to a store beside it (the JSON kept).

    A JSON file whose store exists already opens that store (it was converted before). A ``NAME.d100``
    that holds JSON (an older save renamed) is kept as ``NAME.d100.json`` and converted to ``NAME.d100``.
    Two windows converting one file at once: one makes the store, the other opens it or is told it is
    open there; nothing is deleted. A pipe, a device or a symlink loop is refused without being read.
    """
    _regular(path)
    if is_store(path):
        return CampaignStore.open(path)
    if path.name.endswith(STORE_SUFFIX):
        return _convert_in_place(path)
    target = store_path_for(path)
    if os.path.lexists(target):
        return CampaignStore.open(target)
    campaign = load_campaign(path)
    try:
        return CampaignStore.create(target, campaign)
    except CampaignFileError:
        if not os.path.lexists(target):
            raise
        return CampaignStore.open(target)  # another window converted it first: open theirs (or be told it is busy)


def _convert_in_place(path: Path) -> CampaignStore:
    """``NAME.d100`` holding JSON: read it, keep it as ``NAME.d100.json`` (linked: never replacing a file),
    and make the store ``NAME.d100``; if that fails the JSON gets its name back."""
    campaign = load_campaign(path)
    kept = path.with_name(path.name + ".json")
    try:
        os.link(path, kept)
    except FileExistsError:
        raise CampaignFileError(
            path, f"it holds an older JSON campaign and {kept.name} exists already; rename one of them to open it"
        ) from None
    except OSError as exc:
        raise CampaignFileError(path, f"it cannot be converted here ({exc.strerror or exc})") from None
    path.unlink()
    try:
        return CampaignStore.create(path, campaign)
    except BaseException:
        try:
            os.link(kept, path)
            kept.unlink()
        except OSError:
            pass  # the name was taken meanwhile: the JSON stays as NAME.d100.json
        raise


# --------------------------------------------------------------------------- the campaign list


def _loads(text: object, what: str) -> Any:
    """A part's JSON for a list, read defensively (a NULL, a nesting 5,000 deep, a huge number: ValueError)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"its {what} is damaged")
    try:
        return safe_read.load_json(text, what)
    except RecursionError:
        raise ValueError(f"its {what} is nested too deeply") from None


def summarize_store(path: Path) -> CampaignSummary:
    """What the campaign list shows of one store, read-only (a broken or busy one is listed with its problem)."""
    try:
        parts, _log = peek_store(path, ("character", "meta"))
        hero, meta = parts.get("character") or {}, parts.get("meta") or {}
        dungeon = peek_dungeon_name(path)
    except (OSError, ValueError, sqlite3.Error) as exc:
        return CampaignSummary(path, path.stem, None, None, None, "", problem=_problem_text(exc))
    return summary_from(path, hero, meta, dungeon)


def peek_dungeon_name(path: Path) -> str:
    """The name of a store's current dungeon ("" before its first), read-only: only that name is read
    (a dungeon's whole map is not parsed for a list)."""
    db = _connect_file(path, read_only=True)
    try:
        row = db.execute(
            "SELECT json_extract(items.json, '$.name') FROM parts JOIN items ON items.part = parts.name"
            " WHERE parts.name = 'dungeons' AND items.idx = coalesce(json_extract(parts.json, '$.current'), 0)"
        ).fetchone()
    except sqlite3.Error as exc:
        raise CampaignFileError(path, _plain_reason(exc, path)) from None
    finally:
        _close_quietly(db)
    return row[0] if row is not None and isinstance(row[0], str) else ""


def _problem_text(exc: BaseException) -> str:
    if isinstance(exc, CampaignFileError):
        return exc.reason
    if isinstance(exc, sqlite3.Error):
        return _plain_reason(exc, Path("."))
    return str(exc) or "unreadable"


#: the key :func:`peek_store` gives the kept statistics' state under (``stats=True``)
KEPT_STATS = "meta.stats"


def peek_store(path: Path, names: tuple[str, ...], tail: int = 0, stats: bool = False) -> tuple[dict[str, Any], list[LogEntry]]:
    """Parts ``names`` of a store (parsed JSON) and its newest ``tail`` log entries, read-only (the roster reads
    every campaign this way); ``stats``: also the statistics' kept state (:data:`STATS`) under
    :data:`KEPT_STATS`, if it has one that parses (a damaged one is left out, never a refusal). A broken, busy or
    foreign store raises ``ValueError`` (a :class:`CampaignFileError` saying why), ``OSError`` or
    ``sqlite3.Error``; a pipe is never read."""
    if not is_store(path):
        raise CampaignFileError(path, file_problem(path) or "it is not a campaign database")
    db = _connect_file(path, read_only=True)
    kept: Any = None
    try:
        marks = ",".join("?" for _ in names)
        rows = db.execute(f"SELECT name, json FROM parts WHERE name IN ({marks})", names).fetchall()
        if stats:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (STATS,)).fetchone()
            try:
                kept = json.loads(row[0]) if row is not None else None
            except (ValueError, TypeError, RecursionError):
                kept = None  # only a cache
        columns = _LOG_COLUMNS if _has_extra(db) else _LOG_COLUMNS.replace("extra", "'{}'")  # read-only: not migrated
        log = db.execute(f"SELECT {columns} FROM log ORDER BY idx DESC LIMIT ?", (max(0, tail),)).fetchall()
    except sqlite3.Error as exc:
        raise CampaignFileError(path, _plain_reason(exc, path)) from None
    finally:
        _close_quietly(db)
    try:
        entries = [LogEntry.model_validate_json(_entry_json(row)) for row in reversed(log)]
    except (ValueError, TypeError, RecursionError):
        raise CampaignFileError(path, "its log is damaged") from None
    parts = {str(name): _loads(text, f"part {name}") for name, text in rows}
    if isinstance(kept, dict) and isinstance(kept.get("state"), dict):
        parts[KEPT_STATS] = kept["state"]
    return parts, entries


def _has_extra(db: sqlite3.Connection) -> bool:
    """Whether the store's log has the ``extra`` column (store version 2 on)."""
    return any(row[1] == "extra" for row in db.execute("PRAGMA table_info(log)"))


def list_all_campaigns(directory: Path | None = None) -> list[CampaignSummary]:
    """Every campaign in ``directory``: its stores, and the JSON files not converted to a store yet.
    Every good campaign is listed; a bad file (a pipe, a loop, foreign SQL, a damaged part) with its reason."""
    directory = directory or campaigns_dir()
    stores = set(directory.glob(f"*{STORE_SUFFIX}"))
    found = [_summary_or_problem(_summarize_either, p) for p in stores]
    found += [_summary_or_problem(summarize, p) for p in directory.glob(f"*{SUFFIX}") if store_path_for(p) not in stores]
    return sorted(found, key=lambda s: s.last_played, reverse=True)


def _summarize_either(path: Path) -> CampaignSummary:
    """A ``NAME.d100`` as the list shows it: a store, or an older JSON campaign under that name (opened, it
    converts to a store of the same name)."""
    if not is_store(path) and not file_problem(path):
        return summarize(path)
    return summarize_store(path)


def _summary_or_problem(read: Callable[[Path], CampaignSummary], path: Path) -> CampaignSummary:
    try:
        return read(path)
    except Exception as exc:  # one bad file never hides the others
        return CampaignSummary(path, path.stem, None, None, None, "", problem=_problem_text(exc))
