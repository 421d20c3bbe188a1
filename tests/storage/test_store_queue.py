"""The store owns its retry queue: a write that fails keeps the change, the next save writes it first.

The store is the game's change listener (``CampaignStore.attach``); a failure is kept in the store
(``unsaved``, ``save_error``), never raised into the command that already changed the game. The
store's size is measured once per action (the limit and the warning read the same figure).
"""

from __future__ import annotations

import sqlite3

from d100gui.engine.api import Session
from d100gui.storage import store as store_module
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore, StoreFull


def _attached(tmp_path) -> tuple[CampaignStore, Session]:
    session = Session.new(bundled_game_data(), seed=5, policy="reroll")
    store = CampaignStore.create(tmp_path / "queue.d100", session.game.campaign, session.game)
    store.attach(session.game)
    return store, session


def test_a_failed_write_stays_queued_and_is_written_first_by_the_next_save(tmp_path, monkeypatch):
    store, session = _attached(tmp_path)
    real_write = CampaignStore._write
    failing = [True]

    def flaky(self, change):
        if failing[0]:
            raise sqlite3.OperationalError("database or disk is full")
        real_write(self, change)

    monkeypatch.setattr(CampaignStore, "_write", flaky)
    session.run({"kind": "roll_dice", "expression": "d6"})  # no exception reaches the command
    session.run({"kind": "roll_dice", "expression": "d8"})
    assert len(store.unsaved) == 2 and isinstance(store.save_error, sqlite3.OperationalError)
    assert store.log_length == 0
    failing[0] = False
    session.run({"kind": "roll_dice", "expression": "d10"})
    assert store.unsaved == [] and store.save_error is None
    assert [e.command["expression"] for e in store.log_page(0, 10)] == ["d6", "d8", "d10"]  # in order
    store.close()


def test_flush_writes_the_queue_without_a_new_action(tmp_path, monkeypatch):
    store, session = _attached(tmp_path)
    real_write = CampaignStore._write
    monkeypatch.setattr(CampaignStore, "_write", lambda self, change: (_ for _ in ()).throw(OSError(28, "No space")))
    session.run({"kind": "roll_dice", "expression": "d6"})
    assert not store.flush() and len(store.unsaved) == 1
    monkeypatch.setattr(CampaignStore, "_write", real_write)
    assert store.flush() and store.log_length == 1
    store.close()


def test_the_size_is_measured_once_per_action(tmp_path, monkeypatch):
    store, session = _attached(tmp_path)
    measured = []
    real_size = CampaignStore.size

    def counted(self):
        measured.append(1)
        return real_size.fget(self)

    monkeypatch.setattr(CampaignStore, "size", property(counted))
    session.run({"kind": "roll_dice", "expression": "d6"})
    assert store.size_warning == ""  # the warning reads the figure the write measured
    assert len(measured) == 1
    store.close()


def test_a_full_store_refuses_the_write_and_keeps_the_change(tmp_path, monkeypatch):
    store, session = _attached(tmp_path)
    monkeypatch.setattr(store_module, "MAX_STORE_BYTES", 1)  # any store is over it
    session.run({"kind": "roll_dice", "expression": "d6"})
    assert isinstance(store.save_error, StoreFull) and len(store.unsaved) == 1
    assert store.log_length == 0
    store.close()
