"""The demo campaign is real play: made by commands, and it replays exactly."""

from __future__ import annotations

import pytest

from d100gui.demo import DEMO_AREAS, build_demo_campaign
from d100gui.engine.campaign import Campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import replay
from d100gui.storage.resources import bundled_rules, standard_tilesets


def _library(bundled_library) -> TableLibrary:
    return TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_demo_has_a_finished_hero_and_a_mapped_dungeon(bundled_library):
    campaign = build_demo_campaign(_library(bundled_library))
    hero = campaign.character
    assert hero is not None and hero.creation is None
    assert hero.name == "Aldric the Demo"
    assert sorted(v.primary for v in hero.characteristics.values()) == [30, 40, 50]
    dungeon = campaign.dungeons.current_dungeon
    assert len(dungeon.areas) >= DEMO_AREAS >= 5
    assert campaign.pending == []
    assert all(entry.policy == "reroll" for entry in campaign.log)


@pytest.mark.slow  # over 0.14 s: left out of `make check` (the fast lane); `make test` runs it
def test_demo_is_part_way_through_a_training_quest(bundled_library):
    """Every panel alive: a quest begun, turns played through turn_move, an area searched, a fight won."""
    campaign = build_demo_campaign(_library(bundled_library))
    quest = campaign.adventure.quest
    assert quest is not None and quest.quest.name == "Dungeon Training 1" and campaign.adventure.turn is not None
    commands = [entry.command["kind"] for entry in campaign.log]
    assert commands.count("turn_move") >= 3 and "turn_search" in commands
    assert any(a.searched for a in campaign.dungeons.current_dungeon.areas.values())
    outcomes = [e.data.get("outcome") for entry in campaign.log for e in entry.events if e.kind == "combat_over"]
    assert "won" in outcomes and campaign.combat is None
    assert campaign.character.time_track.shaded > 0


@pytest.mark.slow  # left out of `make check` (the fast lane); `make test` runs it
def test_demo_replays_exactly(bundled_library):
    campaign = build_demo_campaign(_library(bundled_library))
    start = Campaign(meta=campaign.meta, start_rng_state=campaign.start_rng_state)
    final = replay(
        campaign.log, _library(bundled_library), ALL_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets()
    )
    assert final.model_dump(exclude={"log", "meta"}) == campaign.model_dump(exclude={"log", "meta"})
