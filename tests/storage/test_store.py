"""The campaign store: one SQLite file per campaign, one transaction per action, undo that survives reopening."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from d100gui.engine.api import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.game import CAMPAIGN_SCHEMA_VERSION
from d100gui.storage.campaigns import CampaignFileError, load_campaign, save_campaign
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import (
    STORE_VERSION,
    CampaignStore,
    export_json,
    import_json,
    list_all_campaigns,
    open_campaign,
    store_path_for,
)

FIXTURES = Path(__file__).parent / "fixtures"

PLAY = [
    {"kind": "roll_dice", "expression": "2d6"},
    {"kind": "roll_table", "table_id": "d100.A"},
    {"kind": "new_dungeon"},
    {"kind": "enter_dungeon"},
    {"kind": "move_hero", "side": "N"},
    {"kind": "add_note", "pos": "7,10", "text": "Lever"},
    {"kind": "roll_dice", "expression": "d100"},
]
#: commands that always succeed on a new campaign
SURE = [PLAY[0], PLAY[1], PLAY[2], PLAY[3], PLAY[6]]


def _session(campaign: Campaign | None = None) -> Session:
    data = bundled_game_data()
    return Session(data, campaign, "reroll") if campaign is not None else Session.new(data, seed=5, policy="reroll")


def _play(session: Session, commands=PLAY) -> None:
    for command in commands:
        try:
            session.run(command)
        except Exception:  # a refusal is part of play (e.g. a note off the map)
            pass


def _opened(path: Path) -> tuple[CampaignStore, Session]:
    store = CampaignStore.open(path)
    session = _session(store.load())
    store.attach(session.game)
    return store, session


def test_each_action_is_saved_and_reopens_exactly(tmp_path):
    path = tmp_path / "c.d100"
    session = _session()
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    _play(session)
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.d100"]  # at rest: one file, no -wal
    again, reopened = _opened(path)
    assert reopened.campaign.model_dump_json() == session.campaign.model_dump_json()
    assert reopened.campaign.log_length == len(session.log)
    again.close()


def test_undo_and_redo_survive_reopening(tmp_path):
    path = tmp_path / "c.d100"
    session = _session()
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    states = [session.campaign.model_dump_json()]
    for command in SURE:
        session.run(command)
        states.append(session.campaign.model_dump_json())
    session.undo()
    store.close()
    store, reopened = _opened(path)
    assert reopened.campaign.model_dump_json() == states[4]
    reopened.redo()
    assert reopened.campaign.model_dump_json() == states[5]
    for state in reversed(states[:5]):
        reopened.undo()
        assert reopened.campaign.model_dump_json() == state  # random state included
    store.close()
    store, last = _opened(path)
    assert last.campaign.model_dump_json() == states[0] and not last.game.can_undo
    for state in states[1:]:
        last.redo()
        assert last.campaign.model_dump_json() == state
    store.close()


def test_redo_of_a_reopened_campaign_rolls_the_same(tmp_path):
    path = tmp_path / "c.d100"
    session = _session()
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    rolled = session.run({"kind": "roll_dice", "expression": "d100"})
    session.undo()
    store.close()
    store, reopened = _opened(path)
    assert reopened.run({"kind": "roll_dice", "expression": "d100"}) == rolled  # undo cannot fish for a better roll
    store.close()


def test_open_reads_only_the_newest_log_entries_and_pages_the_rest(tmp_path):
    path = tmp_path / "c.d100"
    session = _session()
    for _ in range(30):
        session.run({"kind": "roll_dice", "expression": "d6"})
    CampaignStore.create(path, session.campaign, session.game).close()
    store = CampaignStore.open(path)
    campaign = store.load(tail=5)
    assert campaign.log_start == 25 and len(campaign.log) == 5 and campaign.log_length == 30
    assert [e.index for e in campaign.log] == list(range(25, 30))
    assert [e.index for e in store.log_page(10, 3)] == [10, 11, 12]
    assert store.log_page(28, 10)[-1] == session.log[-1]
    # play on: indexes continue, undo past the loaded tail still works
    played = _session(campaign)
    store.attach(played.game)
    played.run({"kind": "roll_dice", "expression": "d6"})
    assert played.log[-1].index == 30
    for _ in range(8):
        played.undo()
    assert played.campaign.log_length == 23 and store.log_length == 23
    store.close()


def test_export_is_todays_json_and_import_reads_it(tmp_path):
    session = _session()
    store = CampaignStore.create(tmp_path / "c.d100", session.campaign, session.game)
    store.attach(session.game)
    _play(session)
    text = export_json(store)
    assert text == session.to_json()
    assert json.loads(text)["schema_version"] == CAMPAIGN_SCHEMA_VERSION
    imported = import_json(text, tmp_path / "copy.d100")
    assert imported.load().model_dump_json() == session.campaign.model_dump_json()
    assert export_json(imported) == text
    imported.close()
    store.close()


def test_an_older_json_campaign_is_converted_with_the_original_kept(tmp_path):
    source = tmp_path / "old.d100.json"
    source.write_bytes((FIXTURES / "campaign-v1.json").read_bytes())
    before = source.read_bytes()
    store = open_campaign(source)
    assert store.path == store_path_for(source) == tmp_path / "old.d100"
    campaign = store.load()
    assert campaign.schema_version == CAMPAIGN_SCHEMA_VERSION and campaign.log[0].events[0].kind == "legacy_message"
    assert campaign.model_dump_json() == load_campaign(source).model_dump_json()
    store.close()
    assert source.read_bytes() == before  # the original is kept as it was
    again = open_campaign(source)  # opening the JSON again opens its store
    assert again.path == tmp_path / "old.d100"
    again.close()


def test_a_json_file_saved_today_converts_and_opens(tmp_path):
    session = _session()
    _play(session)
    source = tmp_path / "now.d100.json"
    save_campaign(session.campaign, source)
    store = open_campaign(source)
    assert store.load(tail=10_000).model_dump_json() == session.campaign.model_dump_json()
    store.close()


def test_a_store_from_a_newer_app_is_refused_untouched(tmp_path):
    path = tmp_path / "c.d100"
    CampaignStore.create(path, Campaign()).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value = ? WHERE key = 'store_version'", (str(STORE_VERSION + 1),))
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(CampaignFileError, match="newer d100gui"):
        CampaignStore.open(path)
    assert path.read_bytes() == before


def test_a_campaign_in_a_newer_format_is_refused(tmp_path):
    path = tmp_path / "c.d100"
    CampaignStore.create(path, Campaign()).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE parts SET json = ? WHERE name = 'schema_version'", (str(CAMPAIGN_SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(CampaignFileError, match="newer d100gui"):
        CampaignStore.open(path)
    assert path.read_bytes() == before


def test_a_state_part_out_of_range_is_refused(tmp_path):
    path = tmp_path / "c.d100"
    CampaignStore.create(path, Campaign()).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE parts SET json = ? WHERE name = 'rng_state'", ('["garbage"]',))
    db.commit()
    db.close()
    store = CampaignStore.open(path)
    with pytest.raises(CampaignFileError, match="rng_state"):
        store.load()
    store.close()


def test_not_a_database_and_a_read_only_store_are_refused(tmp_path):
    text = tmp_path / "x.d100"
    text.write_text("hello", encoding="utf-8")
    with pytest.raises(CampaignFileError, match="not a d100gui campaign database"):
        CampaignStore.open(text)
    path = tmp_path / "ro.d100"
    CampaignStore.create(path, Campaign()).close()
    path.chmod(0o444)
    try:
        with pytest.raises(CampaignFileError, match="read-only"):
            CampaignStore.open(path)
    finally:
        path.chmod(0o644)


def test_a_store_opened_by_another_app_is_refused(tmp_path):
    path = tmp_path / "c.d100"
    first = CampaignStore.create(path, Campaign())
    session = _session(first.load())
    first.attach(session.game)
    session.run({"kind": "roll_dice", "expression": "d6"})  # holds the exclusive lock
    with pytest.raises(CampaignFileError):
        CampaignStore.open(path).load()
    first.close()


def test_a_symlinked_store_is_written_through_to_its_target(tmp_path):
    real = tmp_path / "real.d100"
    CampaignStore.create(real, Campaign()).close()
    link = tmp_path / "link.d100"
    link.symlink_to(real)
    store, session = _opened(link)
    session.run({"kind": "roll_dice", "expression": "d6"})
    store.close()
    assert link.is_symlink()
    assert CampaignStore.open(real).log_length == 1


def test_undo_history_kept_is_bounded(tmp_path):
    path = tmp_path / "c.d100"
    session = _session()
    session.game.max_undo = 5
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    for _ in range(9):
        session.run({"kind": "roll_dice", "expression": "d6"})
    store.close()
    store, reopened = _opened(path)
    assert len(reopened.game.undo_steps) == 5
    store.close()


def test_a_store_made_from_a_played_game_keeps_its_undo_history(tmp_path):
    session = _session()
    states = [session.campaign.model_dump_json()]
    for command in SURE:
        session.run(command)
        states.append(session.campaign.model_dump_json())
    CampaignStore.create(tmp_path / "c.d100", session.campaign, session.game).close()
    store, reopened = _opened(tmp_path / "c.d100")
    for state in reversed(states[:-1]):
        reopened.undo()
        assert reopened.campaign.model_dump_json() == state
    store.close()


def test_moves_undo_across_reopening_with_the_dungeons_kept_per_dungeon(tmp_path):
    session = _session()
    store = CampaignStore.create(tmp_path / "c.d100", session.campaign, session.game)
    store.attach(session.game)
    states = []
    for command in [{"kind": "new_dungeon"}, {"kind": "enter_dungeon"}, {"kind": "new_dungeon"}, {"kind": "enter_dungeon"}]:
        states.append(session.campaign.model_dump_json())
        session.run(command)
    for _ in range(12):
        for side in "NESW":
            before = session.campaign.model_dump_json()
            try:
                session.run({"kind": "move_hero", "side": side})
            except Exception:
                continue
            states.append(before)
            break
    final = session.campaign.model_dump_json()
    store.close()
    store, reopened = _opened(tmp_path / "c.d100")
    assert reopened.campaign.model_dump_json() == final
    rows = store._db.execute("SELECT count(*) FROM items WHERE part = 'dungeons'").fetchone()[0]
    assert rows == len(session.campaign.dungeons.dungeons) == 2
    for state in reversed(states):
        reopened.undo()
        assert reopened.campaign.model_dump_json() == state
    store.close()


def test_the_campaign_list_shows_stores_and_unconverted_json_files(tmp_path):
    session = _session()
    _play(session)
    CampaignStore.create(tmp_path / "a.d100", session.campaign).close()
    save_campaign(Campaign(), tmp_path / "a.d100.json")  # converted already: listed once, as its store
    save_campaign(Campaign(), tmp_path / "b.d100.json")
    (tmp_path / "c.d100").write_text("junk", encoding="utf-8")
    summaries = {s.path.name: s for s in list_all_campaigns(tmp_path)}
    assert sorted(summaries) == ["a.d100", "b.d100.json", "c.d100"]
    assert summaries["a.d100"].last_played == session.campaign.meta.last_played and not summaries["a.d100"].problem
    assert summaries["c.d100"].problem
