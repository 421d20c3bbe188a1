"""A campaign file is data, not code (issue 27, finding 11; issue 21, limits on everything read).

A file's own SQL (a trigger obeyed on each save, a RAISE that fails every save, a recursive view in
place of a table) never runs: the store opens with ``trusted_schema`` off and lowered limits, every
statement's work is bounded, and a schema that is not the app's is refused before any row is read.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import pytest

from d100gui.engine.api import Session
from d100gui.storage import store as store_module
from d100gui.storage.campaigns import CampaignFileError
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.roster import read_roster
from d100gui.storage.store import MAX_ROW_BYTES, CampaignStore, list_all_campaigns, open_campaign

HANG_S = 20

HOSTILE = {
    "a trigger emptying parts on each save": "CREATE TRIGGER wipe AFTER INSERT ON log BEGIN DELETE FROM parts; END",
    "a trigger failing every save": "CREATE TRIGGER stop BEFORE INSERT ON log BEGIN SELECT RAISE(ABORT, 'no'); END",
    "a recursive view for parts": (
        "ALTER TABLE parts RENAME TO old_parts;"
        "CREATE VIEW parts AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        "SELECT 'character' AS name, '{}' AS json FROM r"
    ),
    "a recursive view for meta": (
        "ALTER TABLE meta RENAME TO old_meta;"
        "CREATE VIEW meta AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        "SELECT 'store_version' AS key, '2' AS value FROM r"
    ),
    "a recursive view for log": (
        "ALTER TABLE log RENAME TO old_log;"
        "CREATE VIEW log AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS idx FROM r"
    ),
    "an extra table": "CREATE TABLE spy (x)",
    "a column computed by the file": "ALTER TABLE parts ADD COLUMN extra TEXT AS (upper(json))",
}


def _store(path: Path) -> Path:
    session = Session.new(bundled_game_data(), seed=8, policy="reroll")
    session.run({"kind": "roll_dice", "expression": "d100"})
    CampaignStore.create(path, session.campaign, session.game).close()
    return path


def _hostile(path: Path, sql: str) -> Path:
    _store(path)
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _within(call, *args):
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call(*args))
        except BaseException as exc:  # the answer under test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG_S)
    assert not thread.is_alive(), f"{call.__name__} hung"
    return outcome[0]


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_a_file_with_sql_of_its_own_is_refused_untouched(tmp_path, what):
    path = _hostile(tmp_path / "c.d100", HOSTILE[what])
    before = _digest(path)
    refused = _within(open_campaign, path)
    assert isinstance(refused, CampaignFileError), refused
    assert "nothing in it can run" in refused.reason
    if "trigger" in what or "view" in what:
        assert "SQL of its own" in refused.reason
    assert _digest(path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["c.d100"]


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_the_list_and_the_roster_mark_a_hostile_file_and_never_hang(tmp_path, what):
    _hostile(tmp_path / "bad.d100", HOSTILE[what])
    _store(tmp_path / "good.d100")
    found = {s.path.name: s for s in _within(list_all_campaigns, tmp_path)}
    assert found["good.d100"].problem == "" and "nothing in it can run" in found["bad.d100"].problem
    roster = _within(read_roster, tmp_path)
    assert [line.path.name for line in roster.broken] == ["bad.d100"]


def test_the_stores_own_schema_and_a_migrated_one_are_accepted(tmp_path):
    path = _store(tmp_path / "c.d100")
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE log DROP COLUMN extra")  # as store version 1 wrote it
    db.execute("UPDATE meta SET value = '1' WHERE key = 'store_version'")
    db.commit()
    db.close()
    with CampaignStore.open(path) as store:
        assert store.load().log_length == 1


def test_a_statement_running_too_long_is_stopped(tmp_path, monkeypatch):
    """Every statement's work is bounded by the progress handler (a file's SQL cannot hang the app)."""
    monkeypatch.setattr(store_module, "MAX_PROGRESS_CALLS", 3)
    store = CampaignStore.open(_store(tmp_path / "c.d100"))
    try:
        with pytest.raises(sqlite3.OperationalError, match="interrupted"):
            store._db.execute("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r").fetchone()
        assert store.load().log_length == 1  # the next statement has its own budget
    finally:
        store.close()


def test_the_connection_is_hardened(tmp_path):
    store = CampaignStore.open(_store(tmp_path / "c.d100"))
    try:
        db = store._db
        assert db.execute("PRAGMA trusted_schema").fetchone()[0] == 0
        assert db.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) == MAX_ROW_BYTES
        assert db.getlimit(sqlite3.SQLITE_LIMIT_ATTACHED) == 0
        with pytest.raises(sqlite3.Error):
            db.execute("ATTACH DATABASE ':memory:' AS other")
    finally:
        store.close()


def test_a_row_bigger_than_any_campaign_writes_is_refused_not_read(tmp_path, monkeypatch):
    path = _store(tmp_path / "c.d100")
    monkeypatch.setattr(store_module, "_LIMITS", {**store_module._LIMITS, sqlite3.SQLITE_LIMIT_LENGTH: 1000})
    db = sqlite3.connect(path)
    db.execute("UPDATE parts SET json = ? WHERE name = 'meta'", ('"' + "x" * 5000 + '"',))
    db.commit()
    db.close()
    with pytest.raises(CampaignFileError) as refused:
        store = open_campaign(path)
        try:
            store.load()
        finally:
            store.discard()
    assert "sqlite" not in str(refused.value).lower()


def test_a_store_bigger_than_a_campaign_can_grow_is_refused_without_reading_it(tmp_path):
    path = _store(tmp_path / "c.d100")
    with path.open("r+b") as fh:  # sparse: no disk used
        fh.truncate(store_module.MAX_STORE_BYTES + store_module.MAX_ROW_BYTES + 1)
    with pytest.raises(CampaignFileError, match="at most"):
        CampaignStore.open(path)
