"""The demo campaign is real play: made by commands, and it replays exactly."""

from __future__ import annotations

from d100gui.demo import DEMO_AREAS, build_demo_campaign
from d100gui.engine.commands import ALL_COMMANDS
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import Campaign, replay
from d100gui.storage.resources import bundled_rules, standard_tilesets


def _library(bundled_library) -> TableLibrary:
    return TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])


def test_demo_has_a_finished_hero_and_a_mapped_dungeon(bundled_library):
    campaign = build_demo_campaign(_library(bundled_library))
    hero = campaign.character
    assert hero is not None and hero.creation is None
    assert hero.name == "Aldric the Demo"
    assert sorted(v.primary for v in hero.characteristics.values()) == [30, 40, 50]
    dungeon = campaign.dungeons.current_dungeon
    assert len(dungeon.areas) >= DEMO_AREAS >= 15
    assert campaign.pending == []
    assert all(entry.policy == "reroll" for entry in campaign.log)


def test_demo_replays_exactly(bundled_library):
    campaign = build_demo_campaign(_library(bundled_library))
    start = Campaign(meta=campaign.meta, start_rng_state=campaign.start_rng_state)
    final = replay(
        campaign.log, _library(bundled_library), ALL_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets()
    )
    assert final.model_dump(exclude={"log", "meta"}) == campaign.model_dump(exclude={"log", "meta"})
