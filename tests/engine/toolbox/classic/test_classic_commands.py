"""The classic toolbox commands through the game: declared events, typed payloads, refusals, replay."""

from __future__ import annotations

import pytest
from classic_script import pct

from d100gui.engine.campaign import Campaign
from d100gui.engine.dice.dice import ScriptedSource
from d100gui.engine.dice.tables import Pack, TableLibrary
from d100gui.engine.game import CampaignMeta, Game, replay
from d100gui.engine.protocol import EVENT_KINDS, CommandRefused
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox.classic_commands import CLASSIC_COMMANDS
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.engine.toolbox.events import (
    ClassicEgoContested,
    ClassicHoardRolled,
    ClassicMagicFound,
    ClassicSwordMade,
    ClassicWanderingChecked,
    ClassicWanderingMonster,
)
from d100gui.storage.resources import bundled_rules, standard_tilesets

CLASSIC = [
    tc.ClassicMagicItem,
    tc.ClassicSword,
    tc.ClassicEgoContest,
    tc.ClassicGems,
    tc.ClassicJewelry,
    tc.ClassicHoard,
    tc.ClassicWandering,
    *CLASSIC_COMMANDS,
]


def make(bundled_library, *faces: int, seed: int | None = None) -> Game:
    library = TableLibrary([Pack(id="copy", title="copy", tables=list(bundled_library))])
    campaign = Campaign(meta=CampaignMeta(seed=seed)) if seed is not None else Campaign()
    game = Game(campaign, library, TOOLBOX_COMMANDS, rules=bundled_rules(), tilesets=standard_tilesets())
    if faces:
        game.override = ScriptedSource(faces)
    return game


def test_the_classic_commands_are_toolbox_commands_with_declared_log_events():
    assert all(c in TOOLBOX_COMMANDS for c in CLASSIC)
    assert all(c.model_fields["kind"].default.startswith("toolbox_classic_") for c in CLASSIC)
    classic = {k: v for k, v in EVENT_KINDS.items() if k.startswith("classic_")}
    assert len(classic) == 29 and all(v.topic == "log" and v.doc for v in classic.values())  # 13 added by issue 22


def test_a_hoard_through_the_game_logs_every_roll(bundled_library):
    game = make(bundled_library, 4, *pct(50), 3, *pct(5), 2, *pct(6, 100, 1), 2, *pct(11), 1, 6)
    [event] = game.execute(tc.ClassicHoard(level=1))
    payload = event.payload()
    assert isinstance(payload, ClassicHoardRolled) and payload.hoard.total_gp == 180
    assert event.message == payload.hoard.describe()
    assert len(game.campaign.log[0].rolls) == 12  # 7 for the hoard, 5 for the two gems


def test_a_sword_then_its_ego_contest(bundled_library):
    game = make(bundled_library, *pct(1, 10), 7, *pct(100, 5), 9, *pct(1), *pct(60))
    [made] = game.execute(tc.ClassicSword())
    sword = made.payload()
    assert isinstance(sword, ClassicSwordMade) and sword.sword.egoism_score == 9
    [contest] = game.execute(tc.ClassicEgoContest(sword=sword.sword, intelligence=10, strength=10))
    result = contest.payload()
    assert isinstance(result, ClassicEgoContested) and result.result.winner == "wielder"


def test_the_wandering_check_stops_when_nothing_comes(bundled_library):
    game = make(bundled_library, 3, 6, 1, 4)
    [checked] = game.execute(tc.ClassicWandering(level=2, check=True))
    assert isinstance(checked.payload(), ClassicWanderingChecked)
    checked, met = game.execute(tc.ClassicWandering(level=2, check=True))
    monster = met.payload()
    assert isinstance(monster, ClassicWanderingMonster) and monster.monster.name == "Orcs"


def test_out_of_range_inputs_are_refused_and_nothing_is_logged(bundled_library):
    game = make(bundled_library)
    with pytest.raises(CommandRefused, match="Dungeon level must be 1 or more; 0 is out of range"):
        game.execute(tc.ClassicHoard(level=0))
    with pytest.raises(CommandRefused, match="Dungeon level must be 1 or more; 0 is out of range"):
        game.execute(tc.ClassicWandering(level=0, check=True))
    with pytest.raises(CommandRefused, match="Party size must be 1 to 1000; 0 is out of range"):
        game.execute(tc.ClassicWandering(level=1, party_size=0))
    with pytest.raises(CommandRefused, match="Number of gems must be 1 to"):
        game.execute(tc.ClassicGems(count=0))
    assert game.campaign.log == []


def test_replay_gives_the_same_finds(bundled_library):
    # a fixed seed: with a random one, about 1 run in 40 met a row the tables lack (a RowMissing ask, not a find)
    game = make(bundled_library, seed=0)
    start = game.campaign.model_copy(deep=True)
    for _ in range(5):
        game.execute(tc.ClassicMagicItem())
    game.execute(tc.ClassicMagicItem(maps=False))
    game.execute(tc.ClassicHoard(level=9))
    game.execute(tc.ClassicJewelry(count=3))
    assert all(isinstance(e.payload(), ClassicMagicFound) for x in game.campaign.log[:6] for e in x.events)
    replayed = replay(
        game.campaign.log, game.library, TOOLBOX_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets()
    )
    assert [e.data for x in replayed.log for e in x.events] == [e.data for x in game.campaign.log for e in x.events]
