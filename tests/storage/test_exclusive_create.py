"""Never delete what you did not create (issue 27, finding 1).

Two windows opening one older JSON campaign at once used to delete the campaign: the slower one's
failed create unlinked the faster one's new store, with its actions in it. A store is now built at a
private temporary name and linked into place only if the name is still free.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from d100gui.engine.api import Session
from d100gui.storage.campaigns import CampaignFileError, save_campaign
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore, import_json, open_campaign

ROUNDS = 12
ACTIONS = 4
BARRIER_S = 20


def _json_campaign(folder: Path) -> Path:
    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    for _ in range(3):
        session.run({"kind": "roll_dice", "expression": "d100"})
    path = folder / "hero.d100.json"
    save_campaign(session.campaign, path)
    return path


def _convert_and_play(path: str, barrier: multiprocessing.synchronize.Barrier, results: multiprocessing.Queue) -> None:
    """One window: open the JSON campaign (converting it), play a few actions, quit."""
    try:
        barrier.wait(BARRIER_S)
        store = open_campaign(Path(path))
        session = Session(bundled_game_data(), store.load(), "reroll")
        store.attach(session.game)
        for _ in range(ACTIONS):
            session.run({"kind": "roll_dice", "expression": "d100"})
        played = session.campaign.log_length
        store.close()
        results.put(("played", played))
    except CampaignFileError as exc:
        results.put(("refused", exc.reason))
    except BaseException as exc:  # what the test is about: report it, never hang the parent
        results.put(("crashed", f"{type(exc).__name__}: {exc}"))


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_two_windows_converting_one_json_campaign_never_lose_the_store(tmp_path):
    context = multiprocessing.get_context("fork")
    for round_number in range(ROUNDS):
        folder = tmp_path / f"round{round_number}"
        folder.mkdir()
        source = _json_campaign(folder)
        barrier, results = context.Barrier(2), context.Queue()
        workers = [context.Process(target=_convert_and_play, args=(str(source), barrier, results)) for _ in range(2)]
        for worker in workers:
            worker.start()
        outcomes = [results.get(timeout=60) for _ in workers]
        for worker in workers:
            worker.join(30)
        crashed = [detail for kind, detail in outcomes if kind == "crashed"]
        assert not crashed, crashed
        played = [detail for kind, detail in outcomes if kind == "played"]
        assert played, outcomes  # someone won
        for kind, reason in outcomes:
            if kind == "refused":
                assert "another d100gui window" in reason, reason
        store_path = folder / "hero.d100"
        assert store_path.is_file(), f"round {round_number}: the store is gone ({outcomes})"
        with CampaignStore.open(store_path) as store:
            assert store.log_length == max(int(n) for n in played)  # every acknowledged action is there
        assert source.is_file()  # the JSON is kept
        leftovers = sorted(p.name for p in folder.iterdir() if p.name not in {"hero.d100", "hero.d100.json"})
        assert leftovers == [], leftovers


def test_create_never_replaces_a_file_made_meanwhile(tmp_path, monkeypatch):
    """The name is taken between the check and the placing: the other file survives untouched."""
    session = Session.new(bundled_game_data(), seed=1, policy="reroll")
    session.run({"kind": "roll_dice", "expression": "d6"})
    path = tmp_path / "c.d100"
    real_build = CampaignStore._build

    def build_then_someone_takes_the_name(*args, **kwargs):
        books = real_build(*args, **kwargs)
        path.write_bytes(b"another window's campaign")
        return books

    monkeypatch.setattr(CampaignStore, "_build", build_then_someone_takes_the_name)
    with pytest.raises(CampaignFileError, match="exists already"):
        CampaignStore.create(path, session.campaign, session.game)
    assert path.read_bytes() == b"another window's campaign"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.d100"]  # our temporary files are gone, theirs kept


def test_a_failed_create_removes_only_its_own_files(tmp_path, monkeypatch):
    session = Session.new(bundled_game_data(), seed=1, policy="reroll")
    path = tmp_path / "c.d100"
    neighbours = {name: f"{name} of another window".encode() for name in ("c.d100-wal", "c.d100-shm")}
    for name, data in neighbours.items():
        (tmp_path / name).write_bytes(data)

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("d100gui.storage.store._write_state", disk_full)
    with pytest.raises(OSError):
        CampaignStore.create(path, session.campaign, session.game)
    assert not path.exists()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == neighbours


def test_import_into_a_taken_name_is_refused_and_leaves_the_file(tmp_path):
    session = Session.new(bundled_game_data(), seed=1, policy="reroll")
    session.run({"kind": "roll_dice", "expression": "d6"})
    path = tmp_path / "c.d100"
    path.write_bytes(b"taken")
    with pytest.raises(CampaignFileError, match="exists already"):
        import_json(session.to_json(), path)
    assert path.read_bytes() == b"taken"


def test_a_new_store_is_one_file_readable_by_its_owner(tmp_path):
    session = Session.new(bundled_game_data(), seed=1, policy="reroll")
    path = tmp_path / "c.d100"
    CampaignStore.create(path, session.campaign, session.game).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.d100"]
    assert os.access(path, os.R_OK | os.W_OK)


def test_a_killed_creates_leftovers_are_cleaned_and_nothing_else(tmp_path):
    """A create killed midway leaves its temporary store and journal: the next create of that name removes
    them once they are old, and never a file it did not make (another name, a fresh temporary file)."""
    import time

    session = Session.new(bundled_game_data(), seed=1, policy="reroll")
    old = time.time() - 3600
    leftovers = [tmp_path / ".c.d100.abc123.tmp", tmp_path / ".c.d100.abc123.tmp-journal"]
    kept = [tmp_path / ".c.d100.fresh.tmp-journal", tmp_path / ".other.d100.abc123.tmp-journal", tmp_path / "notes.txt"]
    for path in leftovers + kept:
        path.write_bytes(b"x")
    for path in leftovers + kept[1:]:
        os.utime(path, (old, old))
    CampaignStore.create(tmp_path / "c.d100", session.campaign, session.game).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["c.d100", *(p.name for p in kept)])
