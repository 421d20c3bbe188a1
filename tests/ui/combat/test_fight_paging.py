"""The combat panel reads the whole fight however long the log (issue 9): a campaign opened from
its store keeps only its newest log entries in memory, and a fight that began before them is read
back page by page from the store, its indexes those of the whole log."""

from __future__ import annotations

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.api import Session
from d100gui.storage import packs
from d100gui.storage.paths import user_data_dir
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import OPEN_LOG_TAIL, CampaignStore
from d100gui.ui.combat.record import fight_log, read_fight_at
from d100gui.ui.common.settings import Preferences
from d100gui.ui.main_window import MainWindow

pytestmark = pytest.mark.gui

MONSTER = {"name": "Patient troll", "av": 5, "defence": 0, "dmg": 0, "hp": [60]}


def _long_fight(tmp_path):
    """A store whose fight in progress began more than a log tail ago (dice rolled during it)."""
    data = bundled_game_data()
    session = Session(data, build_demo_campaign(packs.load_library(user_data_dir()).library), policy="reroll")
    session.run({"kind": "roll_dice", "expression": "d6"})
    session.run({"kind": "start_combat", "source": "monster", "monster": MONSTER, "fate_windows": False})
    start = session.campaign.log_length - 1
    for _ in range(OPEN_LOG_TAIL + 30):
        session.run({"kind": "roll_dice", "expression": "d6"})
    path = tmp_path / "fight.d100"
    CampaignStore.create(path, session.campaign, session.game).close()
    return path, start


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_fight_older_than_the_log_in_memory_is_read_back_from_the_store(qtbot, tmp_path):
    path, start = _long_fight(tmp_path)
    win = MainWindow(packs.load_library(user_data_dir()), Preferences(), seed=3)
    qtbot.addWidget(win)
    assert win.campaigns.open_campaign(path)
    campaign = win.game.campaign
    assert campaign.log_start > start  # the start_combat is not in memory
    assert campaign.combat is not None
    record = win.combat_panel.record
    assert record is not None and record.start == start  # read back, as an index of the whole log
    assert record.end == campaign.log_length


def test_without_a_fight_on_nothing_is_read_back():
    asked: list[tuple[int, int]] = []

    def older(offset: int, limit: int) -> list:
        asked.append((offset, limit))
        return []

    entries, first = fight_log([], 500, older, in_progress=False)
    assert (entries, first, asked) == ([], 500, [])
    assert read_fight_at([], 500, older, in_progress=True) is None
    assert asked == [(300, 200)]  # asked once; the store had nothing, so the panel shows what it has
