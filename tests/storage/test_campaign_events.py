"""The log keeps events: version-1 files (sentences only) migrate, and a save keeps each event's kind and payload."""

from __future__ import annotations

import json
from pathlib import Path

from d100gui.engine.api import Session
from d100gui.engine.game import CAMPAIGN_SCHEMA_VERSION
from d100gui.engine.protocol import EVENT_KINDS, LegacyMessage
from d100gui.storage.campaigns import load_campaign, save_campaign
from d100gui.storage.resources import bundled_game_data

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_version_1_file_opens_with_its_sentences_as_legacy_messages(tmp_path):
    source = FIXTURES / "campaign-v1.json"
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    campaign = load_campaign(path)
    assert campaign.schema_version == CAMPAIGN_SCHEMA_VERSION
    first, second, third = campaign.log
    assert [e.kind for e in first.events] == ["legacy_message"]
    assert first.messages == ["1. 2d6: 2d6 [3] [4] = 7 -> 7"]
    assert second.messages == ["2. Luck: d100 [00] [5] = 5 -> 5"]
    assert all(e.topic == "log" and e.payload() == LegacyMessage() for entry in campaign.log for e in entry.events)
    assert third.events == []
    assert first.command == {"kind": "roll_dice", "expression": "2d6", "purpose": ""}
    assert [d.face for d in first.rolls[0].dice] == [3, 4]
    [note] = campaign.meta.notes
    assert "2 log entries" in note and "only their sentences" in note
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp  # the file on disk is untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == [source.name]


def test_a_migrated_file_saves_as_the_current_version_and_notes_once(tmp_path):
    path = tmp_path / "c.d100.json"
    path.write_bytes((FIXTURES / "campaign-v1.json").read_bytes())
    save_campaign(load_campaign(path), path)
    assert json.loads(path.read_text(encoding="utf-8"))["schema_version"] == CAMPAIGN_SCHEMA_VERSION
    again = load_campaign(path)
    assert len(again.meta.notes) == 1  # an already-migrated file is not converted again
    assert again.log[0].events[0].kind == "legacy_message"


def test_the_version_0_fixture_still_opens():
    campaign = load_campaign(FIXTURES / "campaign-v0.json")
    assert campaign.schema_version == CAMPAIGN_SCHEMA_VERSION
    assert campaign.meta.seed == 4242 and campaign.log == [] and campaign.meta.notes == []


def _played() -> Session:
    """A little of every feature this package saves: dice, a missing row typed in, mapping with doors."""
    session = Session.new(bundled_game_data(), seed=11)
    session.script_dice([3, 4, 9, 0])
    session.run({"kind": "roll_dice", "expression": "2d6"})
    session.run({"kind": "roll_table", "table_id": "d100.W"})
    row = {
        "range": [89, 92],
        "fields": {"type": "(H)", "weapon": "Blade", "adjustment": "+1 DMG", "value": "100", "repair": "20"},
    }
    session.run({"kind": "provide_row", "entry": 1, "row": row})
    session.script_dice([0, 3, 1, 2, 0, 5, 0, 6, 3, 2, 9, 0, 0, 1])
    for command in ({"kind": "new_dungeon"}, {"kind": "enter_dungeon"}, {"kind": "move_hero", "side": "N"}):
        session.run(command)
    session.run({"kind": "move_hero", "side": "E"})
    session.run({"kind": "add_note", "pos": "7,9", "text": "Lever"})
    return session


def test_a_saved_and_reloaded_campaign_keeps_each_events_kind_and_payload(tmp_path):
    campaign = _played().campaign
    path = tmp_path / "c.d100.json"
    save_campaign(campaign, path)
    loaded = load_campaign(path)
    saved = [(e.kind, e.topic, e.data, e.message) for entry in campaign.log for e in entry.events]
    reloaded = [(e.kind, e.topic, e.data, e.message) for entry in loaded.log for e in entry.events]
    assert reloaded == saved
    kinds = {kind for kind, *_ in saved}
    assert {"roll_made", "row_missing", "row_provided", "map_changed", "door_row_missing"} <= kinds
    for before, after in zip(
        (e for entry in campaign.log for e in entry.events), (e for entry in loaded.log for e in entry.events), strict=True
    ):
        assert after.kind in EVENT_KINDS
        assert after.payload() == before.payload()
        assert type(after.payload()) is EVENT_KINDS[after.kind].payload


def test_a_migrated_campaign_plays_on_headless():
    campaign = load_campaign(FIXTURES / "campaign-v1.json")
    session = Session(bundled_game_data(), campaign)
    session.script_dice([6])
    [event] = session.run({"kind": "roll_dice", "expression": "d6"})
    assert event["kind"] == "roll_made" and event["data"] == {"index": 2}
    assert [entry.index for entry in session.log] == [0, 1, 2, 3]
