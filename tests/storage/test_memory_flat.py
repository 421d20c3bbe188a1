"""Memory flat in a long session: the log in memory stays bounded, the rest paged from the store (issue 27 #16).

Measured headless (4,000 rolls, a store attached, December 2026): RSS 59.4 MB at 1,000 actions and
59.6 MB at 4,000 (+0.07 MB per 1,000; before: 62.0 -> 78.6 MB, +5.5 MB per 1,000, the whole log kept).
The undo history in memory was already bounded (MAX_UNDO steps, UNDO_BUDGET bytes).
"""

from __future__ import annotations

import pytest

from d100gui.engine.api import Session
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import OPEN_LOG_TAIL, CampaignStore


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_log_in_memory_stays_bounded_and_the_rest_reads_back(tmp_path):
    session = Session.new(bundled_game_data(), seed=3, policy="reroll")
    store = CampaignStore.create(tmp_path / "long.d100", session.campaign, session.game)
    store.attach(session.game)
    actions = 2 * OPEN_LOG_TAIL + 60
    for _ in range(actions):
        session.run({"kind": "roll_dice", "expression": "d6"})
    campaign = session.campaign
    assert len(campaign.log) <= 2 * OPEN_LOG_TAIL  # not the whole log
    assert campaign.log_length == actions == store.log_length
    assert campaign.log[0].index == campaign.log_start and campaign.log[-1].index == actions - 1
    assert [e.index for e in store.log_page(0, 3)] == [0, 1, 2]  # the older entries read back
    back = len(campaign.log) + 5
    for _ in range(back):  # undo past what memory holds: the entries come from the store
        session.undo()
    again = session.campaign.log_length
    assert again == store.log_length == actions - back
    session.redo()
    assert session.campaign.log_length == again + 1
    assert store.log_page(again, 1)[0] == session.campaign.log[-1]
    store.close()
