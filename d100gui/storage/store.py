"""The campaign store: one SQLite database per campaign, one transaction per action.

Tables:

* ``meta`` — ``store_version`` (this layout; migrated by :data:`STORE_MIGRATIONS`) and what
  wrote it;
* ``parts`` — the campaign's current state, one row per part (its JSON): the hero, the
  dungeons, the fight, the random state, ... (:data:`~d100gui.engine.game.CAMPAIGN_PARTS`);
* ``items`` — the entries of sequence parts (the dice history), one row each, and the members of
  book parts (the dungeons);
* ``log`` — the append-only command log, one row per action (command, rolls, events as JSON);
* ``journal`` and ``journal_parts`` — the undo and redo steps (the parts each action changed, as
  they were), so undo survives reopening.

:meth:`CampaignStore.attach` subscribes the store to a :class:`~d100gui.engine.game.Game`:
each do, undo and redo is written in one transaction (its log row, the parts it changed, its
journal step), so a crash or kill loses at most the action in progress, and an action costs
what it changed, never the log's length. Opening reads the state and the last few log
entries; :meth:`CampaignStore.log_page` pages through the rest on demand. The dice history is read
the same way: its newest :data:`OPEN_HISTORY_TAIL` entries on open, the others (slots holding
:data:`~d100gui.engine.dice.history.UNLOADED`) when asked (:meth:`CampaignStore.history_page`,
``campaign.dice_history_page``).

The database runs in WAL mode with an exclusive lock (a second app cannot open the same
campaign; no ``-shm`` file); :meth:`CampaignStore.close` checkpoints and goes back to a
rollback journal, so at rest the campaign is a single file. JSON stays the portable format:
:func:`export_json` writes today's self-contained ``.d100.json`` text and :func:`import_json`
reads it; :func:`open_campaign` converts an older JSON campaign file on open, keeping the
original beside the new database.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from d100gui.engine.dice.history import UNLOADED, DiceHistory, HistoryEntry
from d100gui.engine.game import CAMPAIGN_PARTS, CAMPAIGN_SCHEMA_VERSION, Campaign, Change, Game, LogEntry, Step
from d100gui.engine.journal import SequenceState
from d100gui.storage.campaigns import (
    SUFFIX,
    CampaignFileError,
    CampaignSummary,
    campaign_from_text,
    campaigns_dir,
    gc_paused,
    load_campaign,
    migrate,
    summarize,
    summary_from,
)

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


def _store_1_to_2(db: sqlite3.Connection) -> None:
    """Version 2 keeps a log entry's newer fields (the player's table rows it read) in ``log.extra``."""
    db.execute("ALTER TABLE log ADD COLUMN extra TEXT NOT NULL DEFAULT '{}'")


#: store layout migrations: version -> a function bringing a connection to version + 1
STORE_MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _store_1_to_2}


class StoreFull(CampaignFileError):
    """The campaign store would grow past what the app can open; the action was not saved."""


def is_store(path: Path) -> bool:
    """Whether ``path`` is an SQLite database (by its first bytes; nothing else is read)."""
    try:
        with path.open("rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _entry_row(entry: LogEntry) -> tuple[Any, ...]:
    dumped = entry.model_dump(mode="json", exclude={"index", "manual", "policy", "at"})
    extra = {name: dumped[name] for name in type(entry).model_fields if name not in _LOG_FIELDS}
    return (
        entry.index,
        str(entry.command.get("kind", "")),
        json.dumps(dumped["command"], ensure_ascii=False, separators=(",", ":")),
        json.dumps(dumped["rolls"], ensure_ascii=False, separators=(",", ":")),
        json.dumps(dumped["events"], ensure_ascii=False, separators=(",", ":")),
        int(entry.manual),
        entry.policy.value,
        entry.at,
        _compact(extra),
    )


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
    return books


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

    # ------------------------------------------------------------------ opening
    @classmethod
    def _connect(cls, path: Path, create: bool) -> sqlite3.Connection:
        target = path.resolve()  # a symlinked campaign is written through to its target
        if not create:
            if not target.is_file():
                raise CampaignFileError(path, "it is not a regular file")
            if not os.access(target, os.R_OK):
                raise CampaignFileError(path, "it cannot be read (permission denied)")
            if not os.access(target, os.W_OK) or not target.stat().st_mode & stat.S_IWUSR:
                raise CampaignFileError(path, "it is read-only; make it writable to play it (the file has not been changed)")
        try:
            db = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
            db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            raise CampaignFileError(path, f"it cannot be opened as a campaign database ({exc})") from None
        return db

    def _start_saving(self) -> None:
        """WAL from here on (checked first: a refused file is never switched, so it stays byte for byte)."""
        self._db.execute("PRAGMA journal_mode=WAL")

    @classmethod
    def create(cls, path: Path, campaign: Campaign, game: Game | None = None) -> CampaignStore:
        """A new store at ``path`` holding ``campaign`` whole (state, log, and ``game``'s undo journal)."""
        if path.exists():
            raise CampaignFileError(path, "a file of that name exists already")
        path.parent.mkdir(parents=True, exist_ok=True)
        store = cls(path, cls._connect(path, create=True))
        try:
            store._start_saving()
            with store._transaction() as db:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.executemany("INSERT INTO meta VALUES (?, ?)", [("store_version", str(STORE_VERSION)), ("app", "d100gui")])
                if campaign.log_start:
                    raise ValueError("a store is created from a campaign with its whole log")
                store._books = _write_state(db, campaign)
                if game is not None:
                    for stack, steps in (("undo", game.undo_steps), ("redo", game.redo_steps)):
                        for step in steps:
                            store._push(db, stack, step if isinstance(step, Step) else step(), {})
        except BaseException:
            store._db.close()
            for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                leftover.unlink(missing_ok=True)
            raise
        return store

    @classmethod
    def open(cls, path: Path) -> CampaignStore:
        """Open an existing store; a broken, locked, read-only or future-version one is refused untouched."""
        if not is_store(path):
            raise CampaignFileError(path, "it is not a d100gui campaign database")
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
            campaign_version = _version_of(store._part("schema_version"))
            if campaign_version is not None and campaign_version > CAMPAIGN_SCHEMA_VERSION:
                raise CampaignFileError(
                    path,
                    f"it was saved by a newer d100gui (campaign format {campaign_version}; "
                    f"this app reads up to {CAMPAIGN_SCHEMA_VERSION})",
                )
            store._start_saving()
            while number < STORE_VERSION:
                with store._transaction() as db:
                    STORE_MIGRATIONS[number](db)
                    number += 1
                    db.execute("UPDATE meta SET value = ? WHERE key = 'store_version'", (str(number),))
        except sqlite3.DatabaseError as exc:
            store._db.close()
            raise CampaignFileError(path, f"it is damaged or in use by another d100gui ({exc})") from None
        except BaseException:
            store._db.close()
            raise
        return store

    def _part(self, name: str) -> str | None:
        row = self._db.execute("SELECT json FROM parts WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------------ reading
    def load(self, tail: int = OPEN_LOG_TAIL) -> Campaign:
        """The campaign's current state, with only its newest ``tail`` log entries in ``campaign.log``.

        ``campaign.log_start`` says where they begin; :meth:`log_page` reads the others. The
        state is validated for type and range like a JSON file; a bad one is refused.
        """
        tails = {HISTORY: OPEN_HISTORY_TAIL}
        try:
            text, parts = _state_json(self._db, None, tails)
            length = self.log_length
        except sqlite3.DatabaseError as exc:
            raise CampaignFileError(self.path, f"it is damaged ({exc})") from None
        data_version = _version_of(parts.get("schema_version"))
        if data_version != CAMPAIGN_SCHEMA_VERSION:
            return self._migrated(data_version)
        campaign = campaign_from_text(self.path, text)
        start = max(0, length - max(0, tail))
        with gc_paused():
            campaign.log = self.log_page(start, length - start)
        campaign.set_log_start(start)
        if tails[HISTORY] > len(campaign.dice_history):
            campaign.page_dice_history(tails[HISTORY], self.history_page)
        return campaign

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

    @property
    def log_length(self) -> int:
        row = self._db.execute("SELECT count(*) FROM log").fetchone()
        return int(row[0])

    def log_page(self, offset: int, limit: int) -> list[LogEntry]:
        """Log entries ``offset`` .. ``offset + limit - 1`` (fewer at the end), validated."""
        rows = self._db.execute(
            f"SELECT {_LOG_COLUMNS} FROM log WHERE idx >= ? ORDER BY idx LIMIT ?", (max(0, offset), max(0, limit))
        ).fetchall()
        if not rows:
            return []
        try:
            return [LogEntry.model_validate_json(_entry_json(row)) for row in rows]
        except ValueError as exc:
            raise CampaignFileError(self.path, f"its log is damaged near entry {rows[0][0]} ({exc})") from None

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
                [entry] = self.log_page(int(entry_idx), 1)
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
        current = self._books[name][0]
        changed = {int(i): t for i, t in delta["members"].items()}
        members = [changed[i] if i in changed else current[i] for i in range(int(delta["length"]))]
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
        self.load_journal(game)
        game.change_listeners.append(self.save)
        self._game = game

    def detach(self) -> None:
        if self._game is not None and self.save in self._game.change_listeners:
            self._game.change_listeners.remove(self.save)
        self._game = None

    def _transaction(self) -> _Transaction:
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
        """Write one action (or its undo or redo) in one transaction; :class:`StoreFull` refuses to grow too big."""
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

    def _save(self, change: Change) -> None:
        with self._transaction() as db:
            deltas = self._write_books(db, change)
            db.executemany(
                "INSERT OR REPLACE INTO parts VALUES (?, ?)",
                [(name, text) for name, text in change.parts.items() if name not in self._books],
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
        """A sentence for the player once the campaign nears the size the app can keep (else empty)."""
        size = self.size
        if size < WARN_STORE_BYTES:
            return ""
        return (
            f"This campaign's file is {size // (1024 * 1024)} MB; at {MAX_STORE_BYTES // (1024 * 1024)} MB it can no "
            "longer be saved. Export it and start a new campaign for the next quests."
        )

    def _check_size(self) -> None:
        if self.size >= MAX_STORE_BYTES:
            raise StoreFull(self.path, f"it has reached {MAX_STORE_BYTES // (1024 * 1024)} MB; the action was not saved")

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        """Checkpoint and go back to a rollback journal: at rest the campaign is one file."""
        self.detach()
        try:
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


def import_json(text: str, path: Path) -> CampaignStore:
    """A new store at ``path`` from campaign JSON (any earlier version: migrated, validated for range)."""
    campaign = campaign_from_text(path, text, migrate_old=True)
    return CampaignStore.create(path, campaign)


def store_path_for(json_path: Path) -> Path:
    """Where a JSON campaign file's database goes: ``NAME.d100.json`` -> ``NAME.d100``."""
    name = json_path.name
    for suffix in (".d100.json", ".json"):
        if name.endswith(suffix):
            return json_path.with_name(name[: -len(suffix)] + STORE_SUFFIX)
    return json_path.with_name(name + STORE_SUFFIX)


def open_campaign(path: Path) -> CampaignStore:
    """Open a campaign: a store as it is; a JSON campaign file converted to a store beside it (the JSON kept).

    A JSON file whose store exists already opens that store (it was converted before).
    """
    if is_store(path):
        return CampaignStore.open(path)
    target = store_path_for(path)
    if target.exists():
        return CampaignStore.open(target)
    campaign = load_campaign(path)
    return CampaignStore.create(target, campaign)


# --------------------------------------------------------------------------- the campaign list


def summarize_store(path: Path) -> CampaignSummary:
    """What the campaign list shows of one store, read-only (a broken or busy one is listed with its problem)."""
    try:
        if not is_store(path):
            raise ValueError("not a campaign database")
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            parts = dict(db.execute("SELECT name, json FROM parts WHERE name IN ('character', 'meta')").fetchall())
        finally:
            db.close()
        hero = json.loads(parts.get("character") or "null") or {}
        meta = json.loads(parts.get("meta") or "{}")
    except (OSError, ValueError, sqlite3.Error) as exc:
        return CampaignSummary(path, path.stem, None, None, None, "", problem=str(exc) or "unreadable")
    return summary_from(path, hero, meta)


def peek_store(path: Path, names: tuple[str, ...], tail: int = 0) -> tuple[dict[str, Any], list[LogEntry]]:
    """Parts ``names`` of a store (parsed JSON) and its newest ``tail`` log entries, read-only (the roster reads
    every campaign this way). A broken or busy store raises ``ValueError``, ``OSError`` or ``sqlite3.Error``."""
    if not is_store(path):
        raise ValueError("not a campaign database")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        marks = ",".join("?" for _ in names)
        rows = db.execute(f"SELECT name, json FROM parts WHERE name IN ({marks})", names).fetchall()
        columns = _LOG_COLUMNS if _has_extra(db) else _LOG_COLUMNS.replace("extra", "'{}'")  # read-only: not migrated
        log = db.execute(f"SELECT {columns} FROM log ORDER BY idx DESC LIMIT ?", (max(0, tail),)).fetchall()
    finally:
        db.close()
    entries = [LogEntry.model_validate_json(_entry_json(row)) for row in reversed(log)]
    return {str(name): json.loads(text) for name, text in rows}, entries


def _has_extra(db: sqlite3.Connection) -> bool:
    """Whether the store's log has the ``extra`` column (store version 2 on)."""
    return any(row[1] == "extra" for row in db.execute("PRAGMA table_info(log)"))


def list_all_campaigns(directory: Path | None = None) -> list[CampaignSummary]:
    """Every campaign in ``directory``: its stores, and the JSON files not converted to a store yet."""
    directory = directory or campaigns_dir()
    stores = {p for p in directory.glob(f"*{STORE_SUFFIX}") if p.is_file()}
    found = [summarize_store(p) for p in stores]
    found += [summarize(p) for p in directory.glob(f"*{SUFFIX}") if store_path_for(p) not in stores]
    return sorted(found, key=lambda s: s.last_played, reverse=True)
