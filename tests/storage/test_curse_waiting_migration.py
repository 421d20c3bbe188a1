"""Campaign format 3: a curse waiting for its Table C row waits with the other rolls waiting for a row
(``adventure.rows_waiting``, engine/dice/waiting.py) instead of apart in ``town.curse_waiting`` (format 2).

A format-2 file or store with a curse waiting opens, shows the same waiting row in the flow and answers it
the same way; a format-3 one is refused by an app that reads up to format 2, untouched, as before.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from d100gui.engine import Session
from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.roller import TableRoll
from d100gui.engine.dice.waiting import curse_waiting
from d100gui.engine.game import CAMPAIGN_SCHEMA_VERSION, replay
from d100gui.engine.hero.model import Item, new_character
from d100gui.storage import campaigns, store
from d100gui.storage.campaigns import CampaignFileError, load_campaign, migrate, save_campaign
from d100gui.storage.resources import bundled_game_data, bundled_rules
from d100gui.storage.store import CampaignStore

RULES = bundled_rules()
#: the Table C row a player types for the gap at 50 (the bundled excerpt prints rows 1-9 only)
HEXED = {"range": [50, 50], "fields": {"name": "HEXED", "effect": "-4 INT to your primary characteristic."}}


def _cursed() -> Session:
    """A hero whose failed quest left a Table C roll of 50 waiting for its row."""
    s = Session(bundled_game_data(), _campaign())
    s.run({"kind": "begin_quest"})
    s.script_dice([2, 2])  # Table M 22: a yellow crossroads, no doors
    s.run({"kind": "turn_enter"})
    s.seeded_dice()
    s.run({"kind": "fail_quest"})
    s.script_dice([5, 0])  # Table C 50: a row the excerpt lacks
    s.run({"kind": "roll_curse"})
    assert s.scripted_left == 0
    assert curse_waiting(s.campaign.adventure.rows_waiting) is not None
    return s


def _campaign() -> Campaign:
    campaign = Campaign()
    campaign.meta.seed = 7
    ch = new_character(RULES)
    ch.creation = None
    ch.name = "Aria"
    for stat, value in (("STR", 50), ("DEX", 40), ("INT", 55)):
        ch.characteristics[stat].primary = value
    ch.hp_primary = ch.hp = 20
    ch.supplies.oil, ch.supplies.food, ch.supplies.picks = 20, 10, 15
    ch.equipment["main_weapon"] = Item(name="Sword", kind="weapon", slot="main_weapon", weapon_type="H")
    campaign.character = ch
    return campaign


def _as_format_2(data: dict[str, Any]) -> dict[str, Any]:
    """The campaign as format 2 wrote it: the curse's roll in ``town.curse_waiting``, not among the rows waiting."""
    old = json.loads(json.dumps(data))
    rows = old["adventure"]["rows_waiting"]
    [curse] = [w for w in rows if w["then"] == "curse"]
    old["adventure"]["rows_waiting"] = [w for w in rows if w is not curse]
    for row in old["adventure"]["rows_waiting"]:  # format 2's rows knew only their dice-history line
        for field in ("then", "table_roll"):
            row.pop(field, None)
    old["town"]["curse_waiting"] = curse["table_roll"]
    old["schema_version"] = 2
    return old


def _curse_shown(s: Session) -> dict[str, Any]:
    [shown] = [w for w in s.flow()["waiting"] if w["kind"] == "curse"]
    return shown


def _answer_typed(s: Session) -> list[str]:
    [typed] = [a for a in _curse_shown(s)["answers"] if a["key"] == "curse_row"]
    assert typed["enabled"] and typed["asks_row"]
    events = s.run({**typed["command"], "row": HEXED})
    return [e["kind"] for e in events]


def test_a_format_2_file_with_a_curse_waiting_opens_shows_it_and_answers_it_the_same_way(tmp_path: Path):
    now = _cursed()
    old = _as_format_2(json.loads(now.to_json()))
    assert "curse_waiting" in old["town"] and not old["adventure"]["rows_waiting"]
    path = tmp_path / "old.d100.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    before = path.read_bytes()

    opened = Session(bundled_game_data(), load_campaign(path))
    assert path.read_bytes() == before  # opening never writes the file
    assert opened.campaign.schema_version == CAMPAIGN_SCHEMA_VERSION == 3
    assert opened.campaign.adventure.rows_waiting == now.campaign.adventure.rows_waiting
    assert "curse_waiting" not in opened.campaign.town.model_dump()
    assert _curse_shown(opened) == _curse_shown(now)  # the same waiting row, the same answers
    assert opened.flow()["waiting"] == now.flow()["waiting"]

    assert _answer_typed(opened) == _answer_typed(now) == ["row_provided", "magic_curse", "characteristic"]
    assert opened.character.characteristics["INT"].primary == now.character.characteristics["INT"].primary == 51
    assert curse_waiting(opened.campaign.adventure.rows_waiting) is None
    assert not any(w["kind"] == "curse" for w in opened.flow()["waiting"])


def test_the_migration_moves_only_the_curse_and_keeps_an_effects_rows_waiting():
    row = {"entry": 4, "table_id": "d100.F", "source": "Search", "depth": 1}
    rolled = json.loads(_cursed().to_json())["adventure"]["rows_waiting"][0]["table_roll"]
    old = {"schema_version": 2, "adventure": {"rows_waiting": [row]}, "town": {"active": True, "curse_waiting": rolled}}
    new = migrate(old)
    assert new["schema_version"] == 3 and new["town"] == {"active": True}
    assert new["adventure"]["rows_waiting"] == [
        row,
        {"table_id": "d100.C", "source": rolled["roll"]["purpose"], "then": "curse", "table_roll": rolled},
    ]
    assert old["town"]["curse_waiting"] == rolled  # the file's data is not changed in place
    nothing = migrate({"schema_version": 2, "town": {"curse_waiting": None}})
    assert nothing["town"] == {} and "adventure" not in nothing


def test_a_format_2_store_with_a_curse_waiting_is_migrated_on_open(tmp_path: Path):
    now = _cursed()
    path = tmp_path / "old.d100"
    CampaignStore.create(path, now.campaign).close()
    old = _as_format_2(json.loads(now.to_json()))
    db = sqlite3.connect(path)
    for name in ("town", "adventure", "schema_version"):
        db.execute("UPDATE parts SET json = ? WHERE name = ?", (json.dumps(old[name]), name))
    db.commit()
    db.close()

    opened_store = CampaignStore.open(path)
    campaign = opened_store.load()
    opened_store.close()
    assert campaign.schema_version == 3
    assert campaign.adventure.rows_waiting == now.campaign.adventure.rows_waiting
    opened = Session(bundled_game_data(), campaign)
    assert _curse_shown(opened) == _curse_shown(now)
    assert _answer_typed(opened) == _answer_typed(now)
    assert opened.character.characteristics["INT"].primary == 51


def test_a_format_3_file_is_refused_by_an_app_that_reads_up_to_format_2(tmp_path: Path, monkeypatch):
    path = tmp_path / "now.d100.json"
    save_campaign(_cursed().campaign, path)
    before = path.read_bytes()
    monkeypatch.setattr(campaigns, "CAMPAIGN_SCHEMA_VERSION", 2)
    monkeypatch.setattr(campaigns, "CURRENT_PREFIX", '{"schema_version":2,')
    with pytest.raises(CampaignFileError, match=r"newer d100gui \(campaign format 3; this app reads up to 2\)"):
        load_campaign(path)
    assert path.read_bytes() == before


def test_a_format_3_store_is_refused_by_an_app_that_reads_up_to_format_2(tmp_path: Path, monkeypatch):
    path = tmp_path / "now.d100"
    CampaignStore.create(path, _cursed().campaign).close()
    before = path.read_bytes()
    monkeypatch.setattr(store, "CAMPAIGN_SCHEMA_VERSION", 2)
    with pytest.raises(CampaignFileError, match=r"newer d100gui \(campaign format 3; this app reads up to 2\)"):
        CampaignStore.open(path)
    assert path.read_bytes() == before


FIXTURES = Path(__file__).parent / "fixtures"


def test_a_log_played_before_format_3_replays_to_the_same_campaign_with_its_curse_waiting():
    """campaign-v2-curse-*.json were made by the app before format 3 (commit 841196b): from the start, a
    roll_curse on Table C 50 answered with a typed row, then a roll_curse on Table C 70 left waiting."""
    old = json.loads((FIXTURES / "campaign-v2-curse-waiting.json").read_text(encoding="utf-8"))
    assert old["schema_version"] == 2 and old["town"]["curse_waiting"]["roll"]["final"] == 70
    start = load_campaign(FIXTURES / "campaign-v2-curse-start.json")
    end = load_campaign(FIXTURES / "campaign-v2-curse-waiting.json")
    assert curse_waiting(end.adventure.rows_waiting) == TableRoll.model_validate(old["town"]["curse_waiting"])
    assert [e.command["kind"] for e in end.log] == ["roll_curse", "provide_curse_row", "roll_curse"]

    data = bundled_game_data()
    again = replay(end.log, data.library, ALL_COMMANDS, start, rules=data.rules, tilesets=data.tilesets)
    assert again.model_dump(exclude={"meta", "log"}) == end.model_dump(exclude={"meta", "log"})
    assert again.character is not None and again.character.characteristics["INT"].primary == 51  # HEXED, replayed

    typed = {"range": [70, 70], "fields": {"name": "HEXED", "effect": "-4 INT to your primary characteristic."}}
    answered = []
    for campaign in (end, again):
        s = Session(bundled_game_data(), campaign)
        [row] = [a for a in _curse_shown(s)["answers"] if a["key"] == "curse_row"]
        answered.append([e["kind"] for e in s.run({**row["command"], "row": typed})])
        assert s.character.characteristics["INT"].primary == 47 and not s.campaign.adventure.rows_waiting
    assert answered[0] == answered[1] == ["row_provided", "magic_curse", "characteristic"]
