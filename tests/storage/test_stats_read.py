"""The statistics counted from a store's rows in SQL (issue 24): the same figures as folding its entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.api import Session
from d100gui.engine.chronicle import ChronicleReader, chronicles_of
from d100gui.engine.stats import Statistics, statistics_of
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_sql_counts_give_the_figures_of_the_entries(tmp_path: Path) -> None:
    data = bundled_game_data()
    session = Session(data, build_demo_campaign(data.library, data.tilesets, data.rules), policy="reroll")
    session.run({"kind": "complete_quest"})
    session.script_dice([4, 0, 7])  # given faces: counted apart, a d10's 0 reads 10
    session.run({"kind": "roll_dice", "expression": "3d10"})
    path = tmp_path / "demo.d100"
    CampaignStore.create(path, session.campaign).close()
    whole = statistics_of(session.log)
    assert whole["dice"]["physical"]["d10"]["counts"][9] == 1 and whole["quests"][0]["outcome"] == "success"
    with CampaignStore.open(path) as store:
        length = store.log_length
        at_once = store.fold_statistics(Statistics(), length)
        assert at_once is not None and at_once.figures() == whole
        paged = Statistics()
        for end in (7, 50, 51, 90, length):  # pages ending inside fights and quests
            folded = store.fold_statistics(paged, end)
            assert folded is not None and folded.next_index == end
            paged = folded
        assert paged.figures() == whole and paged.entries == length
        assert paged.state() == Statistics().fold_all(session.log).state(), "the same state to keep"


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_the_chronicle_read_in_sql_is_the_chronicle_of_the_entries(tmp_path: Path) -> None:
    data = bundled_game_data()
    session = Session(data, build_demo_campaign(data.library, data.tilesets, data.rules), policy="reroll")
    session.run({"kind": "complete_quest"})
    path = tmp_path / "demo.d100"
    CampaignStore.create(path, session.campaign).close()
    whole = chronicles_of(session.log)
    assert whole and whole[0].fights and whole[0].dungeon == 0
    with CampaignStore.open(path) as store:
        reader = ChronicleReader()
        for end in (30, 31, 97, store.log_length):  # pages ending inside a fight and a turn
            assert store.fold_chronicle(reader, end)
        assert reader.chronicles() == whole
