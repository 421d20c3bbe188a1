"""The stocking, wilderness, castle, evasion, healing and ego-test commands through the game."""

from __future__ import annotations

import pytest
from classic_script import pct
from test_classic_commands import make

from d100gui.engine.game import replay
from d100gui.engine.protocol import CommandRefused
from d100gui.engine.toolbox import classic_commands as cc
from d100gui.engine.toolbox import commands as tc
from d100gui.engine.toolbox.classic.wilderness import WildernessTrip
from d100gui.engine.toolbox.commands import TOOLBOX_COMMANDS
from d100gui.engine.toolbox.events import (
    ClassicCastleMet,
    ClassicEgoContested,
    ClassicEvaded,
    ClassicHealed,
    ClassicRoomsStocked,
    ClassicSwordMade,
    ClassicUnderworldPursued,
    ClassicWildernessDay,
)
from d100gui.storage.resources import bundled_rules, standard_tilesets


def test_the_trip_is_kept_in_the_campaign_and_undo_takes_a_day_back(bundled_library):
    game = make(bundled_library, 2, 1, 3)  # clear, on foot: lost 2 (on course), encounter 1; then the second day's lost 3
    [event] = game.execute(cc.ClassicWildernessDayCommand(terrain="clear"))
    payload = event.payload()
    assert isinstance(payload, ClassicWildernessDay) and payload.day.movement is not None
    assert game.campaign.toolbox.wilderness == WildernessTrip(day=1, since_rest=1)
    game.undo()
    assert game.campaign.toolbox.wilderness == WildernessTrip()
    game.campaign.toolbox = game.campaign.toolbox.model_copy(update={"wilderness": WildernessTrip(day=9, since_rest=6)})
    with pytest.raises(CommandRefused, match="must rest a full day first"):
        game.execute(cc.ClassicWildernessDayCommand(terrain="woods"))
    game.override.push(1, 2)  # a day of rest in clear country: two dice, no encounter
    game.execute(cc.ClassicWildernessDayCommand(terrain="clear", resting=True))
    assert game.campaign.toolbox.wilderness == WildernessTrip(day=10, since_rest=0)
    game.override.push(2, 1)
    game.execute(cc.ClassicWildernessDayCommand(terrain="clear", new_trip=True))
    assert game.campaign.toolbox.wilderness == WildernessTrip(day=1, since_rest=1)


def test_each_new_command_logs_its_declared_event(bundled_library):
    game = make(bundled_library, 3, 5, 4, *pct(50))
    [stocked] = game.execute(cc.ClassicStockRooms(level=2, rooms=1))
    assert isinstance(stocked.payload(), ClassicRoomsStocked)
    [castle] = game.execute(cc.ClassicCastle(hexes=2))
    assert isinstance(castle.payload(), ClassicCastleMet) and not castle.payload().castle.comes_out
    [evaded] = game.execute(cc.ClassicEvade(party_size=4, monsters=3, possible=10))
    assert isinstance(evaded.payload(), ClassicEvaded) and evaded.payload().evasion.evaded
    [fled] = game.execute(cc.ClassicUnderworldPursuit(distance=120))
    assert isinstance(fled.payload(), ClassicUnderworldPursued) and not fled.payload().pursuit.follows
    [healed] = game.execute(cc.ClassicHealing(hp_missing=4, days=5))
    assert isinstance(healed.payload(), ClassicHealed) and healed.payload().healing.regained == 2
    assert game.override.remaining == 0


def test_the_ego_contest_tests_the_latest_sword_made(bundled_library):
    game = make(bundled_library, *pct(1, 10), 7, *pct(100, 5), 9, *pct(1), *pct(60))  # the sword of the ego test: Egoism 9
    with pytest.raises(CommandRefused, match="No sword yet"):
        game.execute(cc.ClassicEgoTest(intelligence=10, strength=10))
    game.execute(tc.ClassicSword())
    assert game.campaign.toolbox.sword is not None and game.campaign.toolbox.sword.egoism_score == 9
    [contest] = game.execute(cc.ClassicEgoTest(intelligence=10, strength=10))
    assert isinstance(contest.payload(), ClassicEgoContested) and contest.payload().result.winner == "wielder"
    with pytest.raises(CommandRefused, match="Wielder's Intelligence must be 3 to 18; 2 is out of range"):
        game.execute(cc.ClassicEgoTest(intelligence=2, strength=10))


def test_a_new_sword_first_then_the_contest(bundled_library):
    game = make(bundled_library, *pct(1, 10), 7, *pct(100, 5), 9, *pct(1), *pct(60))
    made, contest = game.execute(cc.ClassicEgoTest(intelligence=10, strength=10, new_sword=True))
    assert isinstance(made.payload(), ClassicSwordMade) and isinstance(contest.payload(), ClassicEgoContested)
    assert game.campaign.toolbox.sword == made.payload().sword


def test_replay_gives_the_same_days(bundled_library):
    game = make(bundled_library)
    start = game.campaign.model_copy(deep=True)
    for terrain in ("clear", "woods", "swamp", "mountains", "desert", "city"):
        game.execute(cc.ClassicWildernessDayCommand(terrain=terrain, means="Light Horse"))
    game.execute(cc.ClassicWildernessDayCommand(terrain="river", resting=True))
    game.execute(cc.ClassicStockRooms(level=4, rooms=10))
    game.execute(cc.ClassicCastle(hexes=0, hailed=True))
    replayed = replay(
        game.campaign.log, game.library, TOOLBOX_COMMANDS, start, rules=bundled_rules(), tilesets=standard_tilesets()
    )
    assert [e.data for x in replayed.log for e in x.events] == [e.data for x in game.campaign.log for e in x.events]
    assert replayed.toolbox.wilderness == game.campaign.toolbox.wilderness == WildernessTrip(day=7, since_rest=0)


def test_the_campaign_calendar_counts_by_the_campaign_time_table(bundled_library):
    game = make(bundled_library)
    game.execute(cc.ClassicCampaignTime(activity="Dungeon expedition"))
    game.execute(cc.ClassicCampaignTime(activity="Wilderness adventure", count=10))
    [event] = game.execute(cc.ClassicCampaignTime(activity="1 Week of actual time", count=2))
    assert game.campaign.toolbox.calendar.days == 7 + 10 + 14
    assert event.payload().step.describe().endswith("now 31 day(s) of game time (4 week(s) and 3 day(s))")
    game.undo()
    assert game.campaign.toolbox.calendar.days == 17
    with pytest.raises(CommandRefused, match="Activity must be one of Dungeon expedition"):
        game.execute(cc.ClassicCampaignTime(activity="Nap"))
    with pytest.raises(CommandRefused, match="How many must be 1 to 10000; 0 is out of range"):
        game.execute(cc.ClassicCampaignTime(activity="Dungeon expedition", count=0))
