"""Limits on everything read (issue 21, deliver 6; issue 27, deliver 8 of the brief).

A backpack of a million items was validated for seconds and opened; a list longer than any game can
make is now refused at open with a message naming it, before the sheet is read whole.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from d100gui.engine.api import Session, creation_steps
from d100gui.storage.campaigns import MAX_LIST_ITEMS, CampaignFileError, load_campaign, save_campaign
from d100gui.storage.resources import bundled_game_data
from d100gui.storage.store import CampaignStore, open_campaign


@pytest.fixture(scope="module")
def hero_session() -> Session:
    session = Session.new(bundled_game_data(), seed=2, policy="reroll")
    for command in creation_steps("Ana", {"str": 40, "dex": 40, "int": 30}, []):
        try:
            session.run(command)
        except Exception:  # a step the rules refuse here is not what this test is about
            pass
    assert session.character is not None
    return session


def _store_with_backpack(tmp_path: Path, session: Session, items: int) -> Path:
    path = tmp_path / "c.d100"
    CampaignStore.create(path, session.campaign, session.game).close()
    db = sqlite3.connect(path)
    sheet = json.loads(db.execute("SELECT json FROM parts WHERE name = 'character'").fetchone()[0])
    sheet["backpack"] = [{"name": "Torch"}] * items
    db.execute("UPDATE parts SET json = ? WHERE name = 'character'", (json.dumps(sheet),))
    db.commit()
    db.close()
    return path


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
@pytest.mark.parametrize(("items", "words"), [(1_000_000, "hero's sheet is"), (MAX_LIST_ITEMS + 1, "backpack holds")])
def test_a_backpack_longer_than_any_game_is_refused_at_open(tmp_path, hero_session, items, words):
    path = _store_with_backpack(tmp_path, hero_session, items)
    with pytest.raises(CampaignFileError) as refused:
        open_campaign(path)
    assert words in refused.value.reason


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_long_list_in_a_json_campaign_is_refused_with_its_name(tmp_path, hero_session):
    path = tmp_path / "c.d100.json"
    save_campaign(hero_session.campaign, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["character"]["backpack"] = [{"name": "Torch"}] * (MAX_LIST_ITEMS + 1)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CampaignFileError, match="the hero's backpack holds 10,001 items"):
        load_campaign(path)


def test_a_hero_within_the_limits_opens(tmp_path, hero_session):
    path = _store_with_backpack(tmp_path, hero_session, 3)
    with open_campaign(path) as store:
        assert len(store.load().character.backpack) == 3
