"""Issue 10 #8: a campaign with impossible values is found out, with the reason (engine/checks.py)."""

from __future__ import annotations

import pytest

from d100gui.demo import build_demo_campaign
from d100gui.engine.campaign import Campaign
from d100gui.engine.checks import campaign_problems
from d100gui.engine.hero.invariants import MOST_FATE_OR_LIVES
from d100gui.storage.packs import load_library
from d100gui.storage.resources import bundled_rules

RULES = bundled_rules()


@pytest.fixture(scope="module")
def demo() -> Campaign:
    return build_demo_campaign(load_library(None).library)


def fresh(demo: Campaign) -> Campaign:
    return demo.model_copy(deep=True)


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_campaign_played_by_the_rules_has_no_problems(demo):
    assert campaign_problems(fresh(demo), RULES) == []
    assert campaign_problems(Campaign(), RULES) == []


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_negative_hp_is_refused(demo):
    c = fresh(demo)
    c.character.hp = -40
    [problem] = campaign_problems(c, RULES)
    assert "HP is -40" in problem and "below 0" in problem


def test_hp_above_the_maximum_is_refused(demo):
    c = fresh(demo)
    c.character.hp = 500
    assert any("HP is 500" in p and "maximum" in p for p in campaign_problems(c, RULES))


def test_fate_9999_is_refused(demo):
    c = fresh(demo)
    c.character.fate = 9999
    assert any("Fate is 9999" in p and str(MOST_FATE_OR_LIVES) in p for p in campaign_problems(c, RULES))


def test_the_hero_on_an_area_that_does_not_exist_is_refused(demo):
    c = fresh(demo)
    dungeon = c.dungeons.current_dungeon
    assert dungeon is not None
    dungeon.hero = (99, 99)
    assert any("99,99" in p and "no area" in p for p in campaign_problems(c, RULES))


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_a_tile_numbered_minus_5_is_refused(demo):
    c = fresh(demo)
    dungeon = c.dungeons.current_dungeon
    assert dungeon is not None
    area = next(iter(dungeon.areas.values()))
    area.tile = -5
    assert any("tile -5" in p and "1 to 100" in p for p in campaign_problems(c, RULES))


def test_the_sheet_invariants_are_checked_too(demo):
    c = fresh(demo)
    c.character.rep = 40
    assert any("REP" in p for p in campaign_problems(c, RULES))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda c: setattr(c.character, "hp", -40), "HP is -40"),
        (lambda c: setattr(c.character, "fate", 9999), "Fate is 9999"),
        (lambda c: setattr(c.dungeons.current_dungeon, "hero", (99, 99)), "99,99"),
        (lambda c: setattr(next(iter(c.dungeons.current_dungeon.areas.values())), "tile", -5), "tile -5"),
    ],
)
@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_a_file_with_an_impossible_value_is_refused_and_left_untouched(demo, tmp_path, change, words):
    """Through the loader every window, replay and import path uses (issue 10 #8)."""
    from d100gui.storage.campaigns import CampaignFileError, campaign_json, load_campaign

    c = fresh(demo)
    change(c)
    path = tmp_path / "odd.d100.json"
    path.write_text(campaign_json(c), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(CampaignFileError, match="values the rules do not allow") as refused:
        load_campaign(path)
    assert words in str(refused.value)
    assert path.read_bytes() == before


def test_the_check_reads_the_campaigns_own_sheet_layout(demo):
    """Issue 18 Deliver 4 / 27 #2: a hero played on the player's 20-pip keys track (keys at 15) is fine under
    that layout's rules and only the bundled layout calls it out: the caller passes the campaign's own rules."""
    own = RULES.model_copy(update={"layout": RULES.sheet.model_copy(update={"keys_track": 20})})
    campaign = fresh(demo)
    campaign.character.keys = 15
    assert campaign_problems(campaign, own) == []
    assert any("Keys" in p for p in campaign_problems(campaign, RULES))


def test_a_campaign_the_engine_played_under_its_own_layout_passes_that_layouts_check(demo):
    """What the commands accept under a layout, the load check accepts under the same layout."""
    from d100gui.engine import Session
    from d100gui.storage.resources import bundled_game_data

    data = bundled_game_data()
    own = data.rules.model_copy(update={"layout": data.rules.sheet.model_copy(update={"keys_track": 20})})
    campaign = fresh(demo)
    campaign.adventure.quest = campaign.adventure.turn = None
    session = Session(type(data)(rules=own, library=data.library, tilesets=data.tilesets), campaign)
    session.run({"kind": "set_track_pips", "track": "keys", "value": 15})
    assert session.character.keys == 15
    assert campaign_problems(session.campaign, own) == []
