"""Export and import for any campaign the app can make (issue 21, Deliver 5).

The largest campaign a player can reach is taken as the benchmark campaign of 100 quests
(tests/benchmarks/large_campaign.py): 20,000 log entries, 2,000 areas, a roll per action. Its JSON
is 65.6 MB (more than a plain campaign file may be), 3.1 MB compressed: it exports as
``NAME.d100.json.gz`` and imports back to the same state.
"""

from __future__ import annotations

import json

import pytest

from d100gui.storage.campaigns import MAX_CAMPAIGN_BYTES
from d100gui.storage.store import (
    GZ_SUFFIX,
    MAX_EXPORT_BYTES,
    CampaignStore,
    export_json,
    export_text,
    import_export,
    write_export,
)
from tests.benchmarks.large_campaign import large_campaign

ENTRIES = 20_000


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_20000_entry_campaign_exports_compressed_and_imports_back_to_the_same_state(tmp_path):
    campaign = large_campaign(log_entries=ENTRIES, history_per_entry=1.0)
    store = CampaignStore.create(tmp_path / "long.d100", campaign)
    text = export_text(store)
    size = len(text.encode("utf-8"))
    assert MAX_CAMPAIGN_BYTES < size < MAX_EXPORT_BYTES // 3  # too big for a plain file; far inside the export limit
    written = write_export(tmp_path / "long.d100.json", text)
    assert written.name == "long" + GZ_SUFFIX and written.stat().st_size < size // 10
    again = import_export(written, tmp_path / "back.d100")
    try:
        assert again.log_length == ENTRIES
        assert export_json(again) == text  # the same state and the same log, byte for byte
        loaded = again.load()
        assert loaded.log_length == ENTRIES and len(loaded.dice_history) == len(campaign.dice_history)
    finally:
        again.close()
        store.close()
    assert json.loads(text)["log"][-1]["index"] == ENTRIES - 1
