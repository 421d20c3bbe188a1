"""The store's log rows: each column is the JSON the log entry itself writes, so a row reads back as the entry.

The save path writes the command, rolls and events with the entry's own serializer (one pass each,
no Python dicts in between); the rows must still read back exactly as the entries they were.
"""

from __future__ import annotations

import json
from pathlib import Path

from d100gui.demo import build_demo_campaign
from d100gui.engine.api import Session
from d100gui.engine.game import LogEntry
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore, _entry_json, _entry_row


def test_every_demo_entry_row_reads_back_as_the_entry_writes_itself() -> None:
    campaign = build_demo_campaign(load_library(None).library)
    assert len(campaign.log) > 50
    for entry in campaign.log:
        row = _entry_row(entry)
        assert _entry_json(row) == entry.model_dump_json()
        dumped = entry.model_dump(mode="json")
        assert [json.loads(text) for text in row[2:5]] == [dumped["command"], dumped["rolls"], dumped["events"]]


def test_a_row_with_words_beyond_ascii_and_extra_fields_reads_back() -> None:
    entry = LogEntry(
        index=3,
        command={"kind": "add_note", "text": "Çà et là — “quoted” \\ back\nslash", "pos": "1,2", "share": 0.125},
        events=[],
    )
    row = _entry_row(entry)
    assert "Çà" in row[2]  # kept as written, not escaped
    assert LogEntry.model_validate_json(_entry_json(row)) == entry
    assert json.loads(row[8]) == {k: v for k, v in entry.model_dump(mode="json").items() if k in ("player_rows", "fate")}


def test_saved_actions_reopen_as_they_were_played(tmp_path: Path) -> None:
    data = bundled_game_data()
    session = Session.new(data, seed=5, policy="reroll")
    path = tmp_path / "rows.d100"
    store = CampaignStore.create(path, session.campaign, session.game)
    store.attach(session.game)
    for command in ({"kind": "roll_dice", "expression": "2d6"}, {"kind": "roll_table", "table_id": "d100.A"}):
        session.run(command)
    played = [entry.model_dump_json() for entry in session.campaign.log]
    store.close()
    reopened = CampaignStore.open(path)
    try:
        log = reopened.log_page(0, len(played))
    finally:
        reopened.close()
    assert [entry.model_dump_json() for entry in log] == played
